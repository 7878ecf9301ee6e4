! expect: ERROR STOP parquet_write_table_chunk: pqt_writer_write_chunk: .*out\.parquet: the chunk has no rows \(the mask keeps none\)
! A chunk whose row_mask keeps no row, without stat=: error stop (a row group needs a row).
program stop_write_chunk_empty
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_table_writer) :: out
    call parquet_open_table(t, "big.parquet", 1, 3)
    call parquet_open_table_writer(out, "out.parquet", t)
    call parquet_write_table_chunk(out, t, row_mask=[.false., .false., .false.])
    print *, 'not reached'
end program stop_write_chunk_empty
