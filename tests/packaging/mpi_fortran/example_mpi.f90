! example_mpi.f90 - a consumer of an installed pqt-fortran-mpi (tests/packaging/run.sh): a
! collective open of FILE through module parquet_mpi; rank 0 prints the rows of all ranks
! together and the ranks' count. Built with pkg-config pqt-fortran-mpi and with CMake
! find_package(pqt-fortran-mpi).
program pqt_fortran_mpi_example
    use mpi_f08
    use parquet
    use parquet_mpi
    use iso_fortran_env, only: int64
    implicit none
    integer :: rank, nranks
    character(len=4096) :: path

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks)
    if (command_argument_count() /= 1) then
        if (rank == 0) write (*, '(a)') 'usage: pqt_fortran_mpi_example FILE.parquet'
        call MPI_Finalize()
        stop 2
    end if
    call get_command_argument(1, path)
    call show(trim(path))
    call MPI_Finalize()
contains
    subroutine show(file)
        character(len=*), intent(in) :: file
        type(parquet_table) :: t
        integer(int64) :: global, first
        call parquet_open_table_mpi(t, file, MPI_COMM_WORLD)
        call parquet_mpi_rows(t, MPI_COMM_WORLD, global, first)
        write (*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ': rows ', first, '..', first + t%nrows() - 1
        if (rank == 0) then
            write (*, '(a,a,i0,a,i0,a)') file, ': ', global, ' rows, ', t%ncols(), ' columns'
            write (*, '(a,i0)') 'ranks: ', nranks
        end if
    end subroutine
end program pqt_fortran_mpi_example
