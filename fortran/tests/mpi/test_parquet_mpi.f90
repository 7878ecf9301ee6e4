! test_parquet_mpi.f90 - module parquet_mpi under mpiexec -n 1..4 (fortran/parquet_mpi.cmake),
! run in fortran/data. big.parquet holds ids 1..2,000,000 in order, in 20 row groups of
! 100,352 (fortran/data/make_data.mjs asks DuckDB for 100,000; it rounds up to 49 vectors of
! 2,048 rows, the last group holding the rest), so the truth is known without pqt: the ranks'
! ids, concatenated in rank order, are the serial read's; a whole-row-group share starts and
! ends at row-group edges; share_rows gives rank r rows R*r/n + 1 .. R*(r+1)/n. Each check
! runs with the mpi_f08 communicator and with the legacy integer handle of a duplicate of it.
program test_parquet_mpi
    use mpi_f08
    use parquet
    use parquet_mpi
    use iso_fortran_env, only: int64, real64
    implicit none
    integer :: nfail, total, me, nranks
    nfail = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, me)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks)
    call run()
    call MPI_Allreduce(nfail, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Finalize()
    if (total > 0) error stop 'test_parquet_mpi: failed'
    if (me == 0) print '(a)', 'test_parquet_mpi: all passed'
contains
    ! the checks in a procedure: its tables are finalized (closed) before MPI_Finalize
    subroutine run()
        type(MPI_Comm) :: dup
        type(parquet_table) :: s, t
        type(parquet_filter) :: filt
        integer(int64), allocatable :: serial(:), mine(:), got(:)
        integer(int64) :: n, first, big_r, pos, last
        integer :: st, handle_kind, with_filter, share, ok, everyone
        character(len=300) :: msg, msg0
        character(len=64) :: what

        call MPI_Comm_dup(MPI_COMM_WORLD, dup)
        call filt%add("mass > 1.0e10")

        do with_filter = 0, 1
            ! the serial truth, the same options
            if (with_filter == 1) then
                call parquet_open_table(s, "big.parquet", filter=filt)
            else
                call parquet_open_table(s, "big.parquet")
            end if
            call s%get("id", serial)
            call s%close()
            big_r = size(serial, kind=int64)
            call check(big_r == merge(20000_int64, 2000000_int64, with_filter == 1), &
                       'serial row count')
            do share = 0, 1
                do handle_kind = 0, 1
                    write (what, '(a,i0,a,i0,a,i0)') 'filter=', with_filter, ' share_rows=', &
                        share, ' integer handle=', handle_kind
                    if (handle_kind == 0 .and. with_filter == 1) then
                        call parquet_open_table_mpi(t, "big.parquet", MPI_COMM_WORLD, &
                                                    filter=filt, share_rows=share == 1)
                    else if (handle_kind == 0) then
                        call parquet_open_table_mpi(t, "big.parquet", MPI_COMM_WORLD, &
                                                    share_rows=share == 1)
                    else if (with_filter == 1) then
                        call parquet_open_table_mpi(t, "big.parquet", dup%MPI_VAL, &
                                                    filter=filt, share_rows=share == 1)
                    else
                        call parquet_open_table_mpi(t, "big.parquet", dup%MPI_VAL, &
                                                    share_rows=share == 1)
                    end if
                    call t%get("id", mine)
                    call gather(mine, got)
                    call check(size(got) == size(serial), trim(what)//': ranks hold every row')
                    if (size(got) == size(serial)) &
                        call check(all(got == serial), trim(what)//': ids in rank order')
                    if (share == 1) then
                        ! exact shares: rank r holds [R r / n, R (r + 1) / n)
                        call check(size(mine, kind=int64) == big_r*(me + 1)/nranks - &
                                   big_r*me/nranks, trim(what)//': exact share')
                    else if (size(mine) > 0) then
                        ! whole row groups: the rows before and after the share are in
                        ! other row groups than its first and last
                        pos = findloc(serial, mine(1), dim=1, kind=int64)
                        last = pos + size(mine, kind=int64) - 1
                        if (pos > 1) call check(rg(serial(pos - 1)) /= rg(serial(pos)), &
                                                trim(what)//': share starts a row group')
                        if (last < big_r) call check(rg(serial(last + 1)) /= rg(serial(last)), &
                                                     trim(what)//': share ends a row group')
                    end if
                    if (handle_kind == 0) then
                        n = parquet_mpi_global_nrows(t, MPI_COMM_WORLD)
                        first = parquet_mpi_first_row(t, MPI_COMM_WORLD)
                    else
                        n = parquet_mpi_global_nrows(t, dup%MPI_VAL)
                        first = parquet_mpi_first_row(t, dup%MPI_VAL)
                    end if
                    call check(n == big_r, trim(what)//': global nrows')
                    ! the first row is the first id's place in the serial read (ids ascend)
                    if (size(mine) > 0) then
                        call check(first == findloc(serial, mine(1), dim=1, kind=int64), &
                                   trim(what)//': first row')
                    end if
                    if (share == 1) call check(first == big_r*me/nranks + 1, &
                                               trim(what)//': first row of an exact share')
                    n = -7
                    first = -7
                    call parquet_mpi_rows(t, dup, nrows=n, first_row=first, stat=st)
                    call check(st == 0 .and. n == big_r .and. first == &
                               parquet_mpi_first_row(t, MPI_COMM_WORLD), &
                               trim(what)//': parquet_mpi_rows')
                end do
            end do
        end do

        ! a sample with a seed: module parquet's option building reaches the MPI open (the
        ! ranks' rows together are the serial sample's)
        call parquet_open_table(s, "big.parquet", sample_fraction=0.01_real64, sample_seed=7)
        call s%get("id", serial)
        call check(size(serial) > 10000 .and. size(serial) < 30000, 'serial sample size')
        call parquet_open_table_mpi(t, "big.parquet", MPI_COMM_WORLD, &
                                    sample_fraction=0.01_real64, sample_seed=7)
        call t%get("id", mine)
        call gather(mine, got)
        call check(size(got) == size(serial), 'sample: ranks hold the serial sample''s rows')
        if (size(got) == size(serial)) call check(all(got == serial), 'sample: ids in rank order')

        ! a missing file: every rank fails, with rank 0's message, and holds no table
        msg = ''
        call parquet_open_table_mpi(t, "no_such.parquet", dup%MPI_VAL, stat=st, errmsg=msg)
        ok = merge(1, 0, st /= 0)
        call MPI_Allreduce(ok, everyone, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
        call check(everyone == 1, 'missing file: stat /= 0 on every rank')
        call check(index(msg, 'parquet_open_table_mpi: ') == 1 .and. &
                   index(msg, 'no_such.parquet') > 0, 'missing file: message: '//trim(msg))
        msg0 = msg
        call MPI_Bcast(msg0, len(msg0), MPI_CHARACTER, 0, MPI_COMM_WORLD)
        call check(msg == msg0, 'missing file: the same message on every rank')
        n = parquet_mpi_global_nrows(t, MPI_COMM_WORLD, stat=st, errmsg=msg)
        call check(st /= 0 .and. n == -1, 'no table after a failed open: global nrows refused')
        call check(index(msg, 'parquet_mpi_global_nrows: ') == 1, &
                   'no table: message names the call: '//trim(msg))

        call t%close()
        call MPI_Comm_free(dup)
        call filt%clear()
    end subroutine

    subroutine check(cond, text)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: text
        if (cond) return
        nfail = nfail + 1
        print '(a,i0,a)', 'FAIL rank ', me, ': '//text
    end subroutine

    ! every rank's values, concatenated in rank order, on every rank
    subroutine gather(mine, got)
        integer(int64), intent(in) :: mine(:)
        integer(int64), allocatable, intent(out) :: got(:)
        integer :: counts(nranks), displs(nranks), r
        call MPI_Allgather(size(mine), 1, MPI_INTEGER, counts, 1, MPI_INTEGER, &
                           MPI_COMM_WORLD)
        displs(1) = 0
        do r = 2, nranks
            displs(r) = displs(r - 1) + counts(r - 1)
        end do
        allocate (got(sum(counts)))
        call MPI_Allgatherv(mine, size(mine), MPI_INTEGER8, got, counts, displs, &
                            MPI_INTEGER8, MPI_COMM_WORLD)
    end subroutine

    ! the row group (0-based) holding id
    pure integer(int64) function rg(id)
        integer(int64), intent(in) :: id
        rg = (id - 1)/100352
    end function
end program test_parquet_mpi
