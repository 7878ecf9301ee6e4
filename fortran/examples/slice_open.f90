! Reading part of a file: the slice regime (docs/fortran.md, "Examples"). Besides the documented
! lines: the declarations, lo/hi, the second print.
program slice_open
    use parquet
    use iso_fortran_env, only: int64
    implicit none
    type(parquet_table) :: t
    integer :: lo, hi

    lo = 1000001
    hi = 2000000

    call parquet_open_table(t, "big.parquet", 1000001_int64, 2000000_int64)
    print *, t%nrows()          ! 1000000

    call parquet_open_table(t, "big.parquet", lo, hi)   ! plain default INTEGERs work too
    print *, t%nrows()
end program slice_open
