! expect: ERROR STOP parquet_write_table: pqt_table_check_qc: .*qc rule for column 'mas': no column 'mas'
! A write-side qc rule naming a column the table lacks, without stat=: error stop, no file.
program stop_write_qc_rule
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_read_qc) :: qc
    call parquet_open_table(t, "big.parquet", 1, 10)
    call qc%add("mas, >0")
    call parquet_write_table(t, "out.parquet", qc=qc)
    print *, 'not reached'
end program stop_write_qc_rule
