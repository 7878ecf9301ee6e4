! Renaming a file's columns with a read-in MAML (docs/fortran.md, "Examples"). Besides the
! documented lines: the declarations and the print.
program remap_get
    use parquet
    use iso_fortran_env, only: real64
    implicit none
    type(parquet_table) :: t
    real(real64), allocatable :: m(:)

call parquet_open_table(t, "catalogue.parquet", maml="catalogue.maml")
call t%get("mass", m)      ! reads the file's MASS_KG column
    print *, sum(m), size(m)
end program remap_get
