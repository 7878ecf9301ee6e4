! expect: ERROR STOP parquet_table_writer: append: .*column 'mass' .* is int64; the writer's template had float64
! A batch whose column has another kind than the template's, without stat=: error stop.
program stop_writer_kind
    use parquet
    use iso_fortran_env, only: int64
    implicit none
    type(parquet_table) :: t, batch
    type(parquet_table_writer) :: out
    call parquet_open_table(t, "big.parquet", 1, 10)
    call parquet_open_table_writer(out, "out.parquet", t)
    call parquet_new_table(batch)
    call batch%add_column("id", [1_int64])
    call batch%add_column("mass", [2_int64])
    call out%append(batch)
    print *, 'not reached'
end program stop_writer_kind
