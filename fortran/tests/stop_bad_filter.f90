! expect: ERROR STOP parquet_filter: add: .*missing an operator
! A rule without an operator is a syntax error when it is added, before any file is read.
program stop_bad_filter
    use parquet
    implicit none
    type(parquet_filter) :: filt
    call filt%add("mass")
    print *, 'not reached'
end program stop_bad_filter
