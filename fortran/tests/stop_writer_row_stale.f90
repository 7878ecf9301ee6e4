! expect: ERROR STOP parquet_table_writer: append: the row handle is stale or was never set
! A row handle taken before a structural change of its table, appended without stat=.
program stop_writer_row_stale
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_table_writer) :: out
    type(parquet_table_row) :: r
    call parquet_open_table(t, "big.parquet", 1, 10)
    call parquet_open_writer_like(out, "out.parquet", t)
    r = t%row(3)
    call t%drop_column("mass")
    call out%append(r)
    print *, 'not reached'
end program stop_writer_row_stale
