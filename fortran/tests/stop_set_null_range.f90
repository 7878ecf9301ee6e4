! expect: ERROR STOP parquet_table: set_null: pqt_table_set_null: column 'a': row 4 is outside the table's rows 1\.\.3
! A null past the last row, without stat=: error stop naming the column, the row and the rows.
program stop_set_null_range
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_new_table(t)
    call t%add_column("a", [1, 2, 3])
    call t%set_null("a", 4)
    print *, 'not reached'
end program stop_set_null_range
