! expect: ERROR STOP parquet_write_table: .*catalogue\.parquet exists .*\(in Fortran: overwrite=\.true\.\)
! Writing over an existing file without overwrite= and without stat=: error stop naming it.
program stop_write_exists
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_open_table(t, "big.parquet", 1, 10)
    call parquet_write_table(t, "catalogue.parquet")
    print *, 'not reached'
end program stop_write_exists
