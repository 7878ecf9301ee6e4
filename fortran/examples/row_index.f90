! Which row of the file is this? (docs/fortran.md, "Examples"). Besides the documented lines: the
! program, t, the filter and the print.
program which_file_row
    use parquet
    use iso_fortran_env, only: int64
use parquet_tables, only: PARQUET_ROW_INDEX
    implicit none
    type(parquet_table) :: t
    type(parquet_filter) :: filt
integer(int64), allocatable :: src(:)

    call filt%add("mass > 1.0e10")
call parquet_open_table(t, "big.parquet", filter=filt)
call t%get(PARQUET_ROW_INDEX, src)     ! which file rows survived the filter, in order
    print *, size(src), sum(src)
end program which_file_row
