! Column names: yours, not the file's (docs/fortran.md, "Examples"). Besides the documented lines:
! the declarations and the print.
program remap_filter
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_filter) :: filt

! the MAML says:  remap:  - mass: MASS_KG
call filt%add("mass > 1.0e12")          ! your name, not MASS_KG
call parquet_open_table(t, "catalogue.parquet", maml="read.maml", filter=filt)
    print *, t%nrows()
end program remap_filter
