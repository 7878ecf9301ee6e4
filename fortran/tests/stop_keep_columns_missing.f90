! expect: ERROR STOP parquet_table: keep_columns: pqt_table_keep_columns: .*2 columns missing: no column 'y'.*; no column 'z'
! keep_columns with two missing names, without stat=: error stop naming both.
program stop_keep_columns_missing
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_new_table(t)
    call t%add_column("a", [1, 2, 3])
    call t%keep_columns(["a", "y", "z"])
    print *, 'not reached'
end program stop_keep_columns_missing
