! expect: ERROR STOP parquet_open_table: pqt_table_open: big.parquet: rows 1\.\.2000001 requested, the file has 2000000 rows
! A slice past the file's end, without stat=: error stop naming the range and the file's rows.
program stop_slice_range
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_open_table(t, "big.parquet", 1, 2000001)
    print *, 'not reached', t%nrows()
end program stop_slice_range
