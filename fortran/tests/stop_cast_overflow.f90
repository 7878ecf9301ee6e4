! expect: ERROR STOP parquet_table: cast: column 'x': element 2 does not survive the conversion from float64 to int32 exactly
! An exact cast of 2.5 to int32, without stat=: error stop naming the column and the row.
program stop_cast_overflow
    use parquet
    implicit none
    type(parquet_table) :: t
    call parquet_new_table(t)
    call t%add_column("x", [1d0, 2.5d0])
    call t%cast("x", PK_INT32)
    print *, 'not reached'
end program stop_cast_overflow
