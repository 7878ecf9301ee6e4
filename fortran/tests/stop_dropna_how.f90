! expect: ERROR STOP parquet_table: dropna: min_valid= and how= exclude each other
! %dropna with both min_valid= and how=, without stat=: error stop saying so.
program stop_dropna_how
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_new_table(t)
    call t%add_column("a", [1, 2, 3])
    call t%dropna(min_valid=1, how="all")
    print *, 'not reached'
end program stop_dropna_how
