! test_parquet_mpi_legacy.f90 - module parquet_mpi from a program on the legacy `use mpi`
! (integer handles, ierr arguments): the generics take its MPI_COMM_WORLD and nothing of
! mpi_f08 leaks into the program. big.parquet has 2,000,000 rows; share_rows gives rank r of n
! the rows 2,000,000 r / n + 1 .. 2,000,000 (r + 1) / n.
program test_parquet_mpi_legacy
    use mpi
    use parquet
    use parquet_mpi
    use iso_fortran_env, only: int64
    implicit none
    integer :: ierr, me, nranks, nfail, total
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    nfail = 0
    call run()
    call MPI_Allreduce(nfail, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call MPI_Finalize(ierr)
    if (total > 0) error stop 'test_parquet_mpi_legacy: failed'
    if (me == 0) print '(a)', 'test_parquet_mpi_legacy: all passed'
contains
    subroutine run()
        type(parquet_table) :: t
        integer(int64), parameter :: r = 2000000
        integer(int64) :: lo, hi, n, first
        integer(int64), allocatable :: ids(:)
        lo = r*me/nranks + 1
        hi = r*(me + 1)/nranks
        call parquet_open_table_mpi(t, "big.parquet", MPI_COMM_WORLD, share_rows=.true.)
        call t%get("id", ids)
        call check(size(ids, kind=int64) == hi - lo + 1, 'exact share size')
        if (size(ids) > 0) call check(ids(1) == lo .and. ids(size(ids)) == hi, 'share ids')
        call check(parquet_mpi_global_nrows(t, MPI_COMM_WORLD) == r, 'global nrows')
        call check(parquet_mpi_first_row(t, MPI_COMM_WORLD) == lo, 'first row')
        call parquet_mpi_rows(t, MPI_COMM_WORLD, n, first)
        call check(n == r .and. first == lo, 'parquet_mpi_rows')
    end subroutine

    subroutine check(cond, text)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: text
        if (cond) return
        nfail = nfail + 1
        print '(a,i0,a)', 'FAIL rank ', me, ': '//text
    end subroutine
end program test_parquet_mpi_legacy
