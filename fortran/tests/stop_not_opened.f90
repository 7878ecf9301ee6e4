! expect: ERROR STOP parquet_table: nrows: the table has not been opened \(call parquet_open_table first\)
! A table never opened refuses every call.
program stop_not_opened
    use parquet
    implicit none
    type(parquet_table) :: t
    print *, 'not reached', t%nrows()
end program stop_not_opened
