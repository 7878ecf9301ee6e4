! expect: ERROR STOP parquet_filter: add: .*missing a value after '>'
! A rule without a value is a syntax error when it is added, before any file is read (a bare
! column name is a predicate since issue 30: true rows of a bool column).
program stop_bad_filter
    use parquet
    implicit none
    type(parquet_filter) :: filt
    call filt%add("mass >")
    print *, 'not reached'
end program stop_bad_filter
