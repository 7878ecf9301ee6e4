! expect: ERROR STOP parquet_table: set_slice: pqt_table_set_rows: column 'a': row 4 is outside the table's rows 1\.\.3
! A row past the last in %set_slice, without stat=: error stop naming the column, the row and the rows.
program stop_set_slice_range
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_new_table(t)
    call t%add_column("a", [1, 2, 3])
    call t%set_slice("a", [1, 4], [10, 40])
    print *, 'not reached'
end program stop_set_slice_range
