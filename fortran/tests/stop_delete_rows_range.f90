! expect: ERROR STOP parquet_table: delete_rows: pqt_table_delete_rows: row 1001 \(entry 2\) is outside the table's rows 1\.\.1000; nothing was deleted
! A row index past the end, without stat=: error stop before any row goes.
program stop_delete_rows_range
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_open_table(t, "catalogue.parquet")
    call t%delete_rows([1, 1001])
    print *, 'not reached', t%nrows()
end program stop_delete_rows_range
