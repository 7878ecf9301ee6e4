! expect: ERROR STOP parquet_open_table: big.parquet: rows 0\.\.10 requested, the file has 2000000 rows
! row_lo below 1 (refused before the file is opened) still names the file's row count.
program stop_slice_below
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_open_table(t, "big.parquet", 0, 10)
    print *, 'not reached', t%nrows()
end program stop_slice_below
