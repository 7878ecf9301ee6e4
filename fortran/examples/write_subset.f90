! Writing (docs/fortran.md, "Writing"): the heavy rows of the second half of big.parquet, read lazily
! through a filtered slice, written to a file of their own in row groups of 5000 rows, then
! read back. Prints the rows, the sum of their ids and the row groups of the new file.
program write_subset
    use parquet
    use iso_fortran_env, only: int64
    implicit none
    type(parquet_table) :: t, heavy
    type(parquet_filter) :: filt
    integer(int64), allocatable :: id(:), bounds(:, :)

    call filt%add("mass > 1.0e10")
    call parquet_open_table(t, "big.parquet", 1000001_int64, 2000000_int64, filter=filt)
    call parquet_write_table(t, "heavy.parquet", compression="zstd", chunk_size=5000)

    call parquet_open_table(heavy, "heavy.parquet")
    call heavy%get("id", id)
    call parquet_table_row_group_bounds("heavy.parquet", bounds)
    print *, heavy%nrows(), sum(id), size(bounds, 2)
end program write_subset
