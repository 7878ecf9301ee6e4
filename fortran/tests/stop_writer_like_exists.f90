! expect: ERROR STOP parquet_open_writer_like: .*catalogue.parquet.* \(in Fortran: overwrite=.true.\)
! A writer opened onto an existing file without overwrite= and without stat=: error stop
! naming this procedure (the file stays as it was).
program stop_writer_like_exists
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_table_writer) :: w
    call parquet_open_table(t, "big.parquet", 1, 10)
    call parquet_open_writer_like(w, "catalogue.parquet", t)
    print *, 'not reached'
end program stop_writer_like_exists
