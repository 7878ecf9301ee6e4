! expect: parquet_open_table_mpi: .*no_such\.parquet
! Without stat=, a failed collective open ends the program with `error stop` and pqt's message,
! as parquet_open_table does (every rank fails together: none is left waiting).
program stop_missing
    use mpi_f08
    use parquet
    use parquet_mpi
    implicit none
    call MPI_Init()
    call open_it()
    print '(a)', 'FAIL: the open of a missing file returned'
    call MPI_Finalize()
contains
    subroutine open_it()
        type(parquet_table) :: t
        call parquet_open_table_mpi(t, "no_such.parquet", MPI_COMM_WORLD)
    end subroutine
end program stop_missing
