! per_thread_slices.f90 per MPI rank (docs/mpi.md, "Fortran"): one collective open gives each
! rank its share of the file's row groups; inside the rank, OpenMP threads read one row group
! each and sum mass; the ranks' sums add up to the whole file's. Run with
! `mpiexec -n 4 ./mpi_per_thread_slices` in a directory holding big.parquet.
program mpi_per_thread_slices
    use mpi_f08
    use parquet
    use parquet_mpi
    use iso_fortran_env, only: int64, real64
    implicit none
    integer :: rank
    real(real64) :: total, serial

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call rank_sum(total)
    if (rank == 0) then
        call whole_file_sum(serial)
        print '(a, i0)', 'total mass: ', nint(total, int64)
        if (total /= serial) print '(a, 2es24.16)', 'FAIL: ranks and whole file differ', total, serial
    end if
    call MPI_Finalize()

contains

    ! in a procedure: the table is closed when it returns, before MPI_Finalize
    subroutine rank_sum(total)
        real(real64), intent(out) :: total
        type(parquet_table) :: t
        integer(int64), allocatable :: bounds(:,:)
        real(real64) :: mine
        integer :: rg

        call parquet_open_table_mpi(t, "big.parquet", MPI_COMM_WORLD)  ! collective
        call t%row_group_bounds(bounds)   ! this rank's row groups, in rows of ITS table
        call t%prefetch("mass")           ! a table shared by threads: read before the region

        mine = 0.0_real64
        !$omp parallel do reduction(+:mine)
        do rg = 1, size(bounds, 2)
            block
                real(real64), allocatable :: x(:)
                integer(int64) :: i
                call t%get_slice("mass", [(i, i = bounds(1, rg), bounds(2, rg))], x)
                mine = mine + sum(x)
            end block
        end do
        !$omp end parallel do

        call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    end subroutine

    ! the serial answer: one process, the whole file
    subroutine whole_file_sum(total)
        real(real64), intent(out) :: total
        type(parquet_table) :: t
        real(real64), allocatable :: x(:)
        call parquet_open_table(t, "big.parquet")
        call t%get("mass", x)
        total = sum(x)
    end subroutine
end program mpi_per_thread_slices
