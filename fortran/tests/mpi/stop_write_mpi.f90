! expect: parquet_write_table_mpi: rank 0: .*no_such_dir
! Without stat=, a failed collective write ends the program with `error stop` and the first
! failing rank's message on every rank (a file in a directory that does not exist: nothing
! existing is at risk).
program stop_write_mpi
    use mpi_f08
    use parquet
    use parquet_mpi
    implicit none
    call MPI_Init()
    call write_it()
    print '(a)', 'FAIL: the write into a missing directory returned'
    call MPI_Finalize()
contains
    subroutine write_it()
        type(parquet_table) :: t
        call parquet_new_table(t)
        call t%add_column('id', [1, 2, 3])
        call parquet_write_table_mpi(t, 'no_such_dir/out.parquet', MPI_COMM_WORLD)
    end subroutine
end program stop_write_mpi
