! test_threads.f90 - the per_thread_slices pattern of docs/fortran.md (a block-local table per thread,
! one slice per row group) under OpenMP: the total equals a single-threaded whole-file read
! exactly, every file row is read exactly once (each slice's parquet_row_index marks its
! rows), and more than one thread did the reading (ctest sets OMP_NUM_THREADS=2). A table
! shared by a region refuses a first read inside it and serves every thread once prefetched.
program test_threads
    use parquet
    use parquet_tables, only: PARQUET_ROW_INDEX
    use omp_lib, only: omp_get_thread_num, omp_get_max_threads
    use iso_fortran_env, only: int8, int64, real64
    implicit none
    integer :: nfail = 0

    ! the work runs in a procedure, so its tables and arrays are finalized and freed on
    ! return (a main program's never are): a leak checker then sees only real leaks
    call run()
    if (nfail > 0) error stop 'test_threads: failed'
contains
    subroutine run()
        integer(int64), allocatable :: bounds(:, :)
        integer(int8), allocatable :: seen(:)
        integer, allocatable :: who(:)
        real(real64) :: total, whole
        real(real64), allocatable :: x(:)
        integer(int64) :: nrows, nread
        integer :: rg, s, nrefused, nok
        type(parquet_table) :: t
        integer(int64), allocatable :: ids(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: strs(:)
        character(len=300) :: msg

        call parquet_open_table(t, "big.parquet", use_threads=.false.)
        call t%get("mass", x)
        whole = sum(x)
        nrows = t%nrows()
        call t%close()

        call parquet_table_row_group_bounds("big.parquet", bounds)
        allocate (seen(nrows), who(size(bounds, 2)))
        seen = 0
        total = 0
        nread = 0
        !$omp parallel do reduction(+:total, nread) schedule(static, 1)
        do rg = 1, size(bounds, 2)
            block
                type(parquet_table) :: mine
                real(real64), allocatable :: m(:)
                integer(int64), allocatable :: src(:)
                call parquet_open_table(mine, "big.parquet", bounds(1, rg), bounds(2, rg), &
                                        use_threads=.false.)
                call mine%get("mass", m)
                call mine%get(PARQUET_ROW_INDEX, src)
                total = total + sum(m)
                nread = nread + size(src)
                ! slices are disjoint, so no two threads write the same element
                seen(src) = seen(src) + 1_int8
                who(rg) = omp_get_thread_num()
            end block
        end do
        !$omp end parallel do

        ! a table opened outside a region and shared by it: a first read inside is refused
        ! (PQT_PARALLEL, naming %prefetch) and changes nothing; after a prefetch before the
        ! region every thread reads it
        call parquet_open_table(t, "kinds.parquet")
        nrefused = 0
        nok = 0
        !$omp parallel private(s, msg, ids) reduction(+:nrefused, nok)
        call t%get("id", ids, stat=s, errmsg=msg)
        if (s == 53 .and. index(msg, '%prefetch') > 0 .and. size(ids) == 0) nrefused = nrefused + 1
        if (s == 0 .and. size(ids) == 30) then
            if (ids(30) == 30) nok = nok + 1
        end if
        !$omp end parallel
        ! pqt sees this program's regions only through one OpenMP runtime: ctest says so
        ! (PQT_TEST_SHARED_OPENMP) when pqt was built by gcc (libgomp, as gfortran). A pqt
        ! built by clang (libomp) cannot see them; its own guard still refuses a concurrent
        ! first read or serves the right values, never wrong ones.
        call get_environment_variable('PQT_TEST_SHARED_OPENMP', status=s)
        if (s == 0) then
            call check(nrefused == 2 .and. t%residency("id") == RES_EMPTY, &
                       'a first read inside a region on a shared table: refused on both threads')
        else
            call check(nrefused + nok == 2, &
                       'another OpenMP runtime: a first read in a region is refused or right')
        end if
        call t%prefetch("id, str")
        nok = 0
        !$omp parallel private(s, ids, strs) reduction(+:nok)
        call t%get("id", ids, stat=s)
        if (s == 0 .and. size(ids) == 30) then
            if (ids(30) == 30) nok = nok + 1
        end if
        call t%get("str", strs, stat=s)
        if (s == 0 .and. size(strs) == 30) nok = nok + 1
        !$omp end parallel
        call check(nok == 4, 'after %prefetch both threads read the shared table')

        ! %set_null changes the table: refused inside a region on a shared table (pqt refuses
        ! it even into an existing bitmap; docs/fortran.md), nothing changed
        nrefused = 0
        nok = 0
        !$omp parallel private(s) reduction(+:nrefused, nok)
        call t%set_null("id", 1, stat=s)
        if (s == 53) nrefused = nrefused + 1
        if (s == 0) nok = nok + 1
        !$omp end parallel
        call get_environment_variable('PQT_TEST_SHARED_OPENMP', status=s)
        if (s == 0) then
            call check(nrefused == 2 .and. .not. t%is_null("id", 1), &
                       '%set_null inside a region on a shared table: refused, nothing changed')
        else
            call check(nrefused + nok == 2, 'another OpenMP runtime: %set_null refused or made')
        end if

        call check(omp_get_max_threads() == 2, 'OMP_NUM_THREADS=2 gives two threads')
        call check(size(bounds, 2) > 1, 'big.parquet has several row groups')
        call check(total == whole, 'per-thread total equals the whole-file total')
        call check(nread == nrows, 'the slices hold the file''s rows')
        call check(all(seen == 1), 'every row read exactly once')
        call check(any(who /= who(1)), 'more than one thread read')
        print *, 'total', total, 'whole', whole, 'rows', nread
    end subroutine

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (ok) then
            print '(a,a)', 'ok   ', what
        else
            print '(a,a)', 'FAIL ', what
            nfail = nfail + 1
        end if
    end subroutine
end program test_threads
