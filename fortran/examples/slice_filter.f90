! A slice with a filter, a sample or qc (docs/fortran.md, "Examples"). Besides the documented lines:
! the declarations.
program slice_filter
    use parquet
    use iso_fortran_env, only: int64
    implicit none
    type(parquet_table) :: t
    type(parquet_filter) :: filt

    call filt%add("mass > 1.0e10")
    call parquet_open_table(t, "big.parquet", 1000001_int64, 2000000_int64, filter=filt)
    print *, t%nrows()          ! however many of those million rows match -- NOT 1000000
end program slice_filter
