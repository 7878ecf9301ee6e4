! Nested struct columns (docs/fortran.md, "Examples"). Besides the documented lines: the
! declarations, the open and the print.
program struct_leaf
    use parquet
    use iso_fortran_env, only: real64
    implicit none
    type(parquet_table) :: t
    real(real64), allocatable :: v(:)

    call parquet_open_table(t, "nested.parquet")
call t%get("main.inner.deep.value", v)
    print *, sum(v), size(v)
end program struct_leaf
