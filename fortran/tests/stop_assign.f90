! expect: ERROR STOP parquet_table: assignment: a table cannot be assigned \(b = a\); use %clone
! b = a would leave two finalizers owning one C table: refused.
program stop_assign
    use parquet
    implicit none
    type(parquet_table) :: a, b
    call parquet_open_table(a, "big.parquet")
    b = a
    print *, 'not reached', b%nrows()
end program stop_assign
