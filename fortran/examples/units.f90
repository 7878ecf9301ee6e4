! Units (docs/fortran.md, "Examples"). Besides the documented lines: the declarations and the print
! (the unit, and MASS_KG's residency: RES_EMPTY, nothing has been read).
program units
    use parquet
    implicit none
    type(parquet_table) :: t
    character(len=:), allocatable :: u

call parquet_open_table(t, "catalogue.parquet", maml="catalogue.maml")
call t%unit("MASS_KG", u)      ! "kg" -- and nothing has been read yet
    print *, u, t%residency("MASS_KG")
end program units
