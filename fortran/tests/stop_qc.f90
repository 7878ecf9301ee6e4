! expect: ERROR STOP parquet_table: get: .*qc violation for column 'mass'
! A hard qc violation stops the program on the column's first read, not at open.
program stop_qc
    use parquet
    use iso_fortran_env, only: real64
    implicit none
    type(parquet_table) :: t
    type(parquet_read_qc) :: qc
    real(real64), allocatable :: m(:)
    call qc%add("mass, >1.0e13")
    call parquet_open_table(t, "catalogue.parquet", qc=qc)
    print *, 'opened'
    call t%get("mass", m)
    print *, 'not reached', size(m)
end program stop_qc
