! Must NOT compile: row_lo and row_hi are both int32 or both int64, not one of each.
program slice_mixed
    use parquet
    use iso_fortran_env, only: int64
    implicit none
    type(parquet_table) :: t
    call parquet_open_table(t, "big.parquet", 1, 100_int64)
end program slice_mixed
