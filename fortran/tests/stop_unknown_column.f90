! expect: ERROR STOP parquet_table: get: .*big\.parquet: no column 'mas'; did you mean 'mass'\?
! A misspelt column, without stat= or found=: error stop with pqt's suggestion.
program stop_unknown_column
    use parquet
    use iso_fortran_env, only: real64
    implicit none
    type(parquet_table) :: t
    real(real64), allocatable :: x(:)
    call parquet_open_table(t, "big.parquet")
    call t%get("mas", x)
    print *, 'not reached', size(x)
end program stop_unknown_column
