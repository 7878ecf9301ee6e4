! test_parquet_mpi_write.f90 - module parquet_mpi's writes under mpiexec -n 1..4
! (fortran/parquet_mpi.cmake), run in fortran/data. Rank r builds an in-memory table of
! nrows(r) rows (none on rank 1), row i holding id = 1000 r + i, x = r + i / 4 (null when i is
! a multiple of 3) and name = "r<r>-<i>"; the truth is those formulas concatenated in rank
! order, never pqt's output. Checked: the collective write into one file (read back by rank 0
! with parquet_open_table, with the integer handle and row_mask= too), the same failure on
! every rank (an existing file without overwrite=, a table not open, a check failing on one
! rank only), the dataset form read back in rank order, and the streaming writer (each rank
! appending its table twice; a rank whose writer was dropped fails the close everywhere).
program test_parquet_mpi_write
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
    if (total > 0) error stop 'test_parquet_mpi_write: failed'
    if (me == 0) print '(a)', 'test_parquet_mpi_write: all passed'
contains
    subroutine run()
        type(MPI_Comm) :: dup
        type(parquet_table) :: t, back, never
        type(parquet_table_writer) :: w
        logical, allocatable :: keep(:), bad_mask(:)
        character(len=300) :: msg
        character(len=*), parameter :: file = 'mpi_write.parquet', dir = 'mpi_write_ds', &
                                       stream = 'mpi_write_stream.parquet'
        integer :: st, s

        call MPI_Comm_dup(MPI_COMM_WORLD, dup)
        if (me == 0) call execute_command_line('rm -rf '//file//' '//dir//' '//stream, exitstat=s)
        call MPI_Barrier(MPI_COMM_WORLD)
        call build(t, me)

        ! ---- one file, mpi_f08 communicator, row groups of 2 rows
        call parquet_write_table_mpi(t, file, MPI_COMM_WORLD, chunk_size=2, compression='zstd')
        if (me == 0) then
            call parquet_open_table(back, file)
            call compare(back, mode=0, what='write_table_mpi')
            call back%close()
        end if

        ! ---- an existing file without overwrite=: every rank fails with the same message
        msg = ''
        call parquet_write_table_mpi(t, file, MPI_COMM_WORLD, stat=st, errmsg=msg)
        call check(st /= 0, 'existing file: stat /= 0')
        call check(index(msg, 'overwrite=.true.') > 0, 'existing file: the message names '// &
                   'overwrite=: '//trim(msg))
        call same_everywhere(msg, 'existing file')

        ! ---- the integer handle, overwrite=, row_mask= (odd i kept on every rank)
        keep = [(mod(s, 2) == 1, s=1, nrows(me))]
        call parquet_write_table_mpi(t, file, dup%MPI_VAL, row_mask=keep, overwrite=.true., &
                                     stat=st, errmsg=msg)
        call check(st == 0, 'row_mask: stat = 0: '//trim(msg))
        if (me == 0) then
            call parquet_open_table(back, file)
            call compare(back, mode=1, what='row_mask')
            call back%close()
        end if

        ! ---- a table never opened: pqt refuses it on every rank together
        msg = ''
        call parquet_write_table_mpi(never, file, MPI_COMM_WORLD, overwrite=.true., stat=st, &
                                     errmsg=msg)
        call check(st /= 0, 'table not open: stat /= 0')
        call same_everywhere(msg, 'table not open')

        ! ---- a check failing on rank 0 only (a row_mask= of the wrong size): no rank waits,
        ! every rank fails, and the file written before stays
        allocate (bad_mask(nrows(me) + merge(1, 0, me == 0)))
        bad_mask = .true.
        msg = ''
        call parquet_write_table_mpi(t, file, MPI_COMM_WORLD, row_mask=bad_mask, &
                                     overwrite=.true., stat=st, errmsg=msg)
        call check(st /= 0, 'mask of the wrong size on rank 0: stat /= 0 on every rank: '// &
                   trim(msg))
        if (me == 0) then
            call parquet_open_table(back, file)
            call compare(back, mode=1, what='file after a failed write')
            call back%close()
        end if

        ! ---- the dataset form, read back as one table in rank order
        call parquet_write_dataset_mpi(t, dir, dup, stat=st, errmsg=msg)
        call check(st == 0, 'write_dataset_mpi: stat = 0: '//trim(msg))
        if (me == 0) then
            call parquet_open_table(back, dir)
            call compare(back, mode=0, what='write_dataset_mpi')
            call back%close()
        end if
        ! a directory that is not empty: refused on every rank alike
        msg = ''
        call parquet_write_dataset_mpi(t, dir, MPI_COMM_WORLD, stat=st, errmsg=msg)
        call check(st /= 0, 'dataset into a directory not empty: stat /= 0')
        ! a dataset has no overwrite=, so the message must not suggest it
        call check(index(msg, 'not empty') > 0 .and. index(msg, 'overwrite=') == 0, &
                   'dataset into a directory not empty: the message: '//trim(msg))
        call same_everywhere(msg, 'dataset into a directory not empty')

        ! ---- the streaming writer: each rank appends its table twice, chunks of 2 rows
        call parquet_open_table_writer_mpi(w, stream, t, MPI_COMM_WORLD, chunk_size=2, &
                                           stat=st, errmsg=msg)
        call check(st == 0, 'open_table_writer_mpi: stat = 0: '//trim(msg))
        call w%append(t)
        call w%append(t)
        call check(w%nrows() == 2*nrows(me), 'writer: this rank''s rows')
        call parquet_close_table_writer_mpi(w, dup%MPI_VAL, stat=st, errmsg=msg)
        call check(st == 0, 'close_table_writer_mpi: stat = 0: '//trim(msg))
        if (me == 0) then
            call parquet_open_table(back, stream)
            call compare(back, mode=2, what='streaming writer')
            call back%close()
        end if
        ! rank 0's writer dropped (as a failed append drops it): the close fails on every
        ! rank with one message, and the file written before stays as it was
        call parquet_open_table_writer_mpi(w, stream, t, dup%MPI_VAL, overwrite=.true.)
        call w%append(t)
        if (me == 0) call w%abort()
        msg = ''
        call parquet_close_table_writer_mpi(w, MPI_COMM_WORLD, stat=st, errmsg=msg)
        call check(st /= 0, 'close with a writer dropped on rank 0: stat /= 0')
        call same_everywhere(msg, 'close with a writer dropped on rank 0')
        if (me == 0) then
            call parquet_open_table(back, stream)
            call compare(back, mode=2, what='file after a failed close')
            call back%close()
        end if
        ! an existing file without overwrite=: the open fails on every rank alike
        msg = ''
        call parquet_open_table_writer_mpi(w, stream, t, MPI_COMM_WORLD, stat=st, errmsg=msg)
        call check(st /= 0 .and. index(msg, 'overwrite=.true.') > 0, &
                   'writer on an existing file: '//trim(msg))
        call same_everywhere(msg, 'writer on an existing file')

        call MPI_Barrier(MPI_COMM_WORLD)
        if (me == 0) call execute_command_line('rm -rf '//file//' '//dir//' '//stream, exitstat=s)
        call MPI_Comm_free(dup)
    end subroutine

    ! rank r's row count: none on rank 1, so a rank without rows sits between ranks with rows
    pure integer function nrows(r)
        integer, intent(in) :: r
        nrows = merge(0, r + 3, r == 1)
    end function

    subroutine build(t, r)
        type(parquet_table), intent(inout) :: t
        integer, intent(in) :: r
        integer(int64), allocatable :: id(:)
        real(real64), allocatable :: x(:)
        character(len=16), allocatable :: name(:)
        logical, allocatable :: valid(:)
        integer :: i, n
        n = nrows(r)
        allocate (id(n), x(n), name(n), valid(n))
        do i = 1, n
            id(i) = 1000_int64*r + i
            x(i) = r + i/4.0_real64
            valid(i) = mod(i, 3) /= 0
            write (name(i), '(a,i0,a,i0)') 'r', r, '-', i
        end do
        call parquet_new_table(t)
        call t%add_column('id', id)
        call t%add_column('x', x, is_valid=valid)
        call t%add_column('name', name)
    end subroutine

    ! back against the formulas in rank order: every rank's rows (mode 0), those with odd i
    ! (1), every rank's rows twice over (2)
    subroutine compare(back, mode, what)
        type(parquet_table), intent(inout) :: back
        integer, intent(in) :: mode
        character(len=*), intent(in) :: what
        integer(int64), allocatable :: id(:), want_id(:)
        real(real64), allocatable :: x(:)
        logical, allocatable :: ok(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure entry
        ! (a false -Wuninitialized), as in fortran/tests/test_write.f90
        character(len=:), allocatable, save :: name(:)
        character(len=16) :: want_name
        integer :: r, i, k, bad, rep
        allocate (want_id(0))
        do r = 0, nranks - 1
            do rep = 1, merge(2, 1, mode == 2)
                do i = 1, nrows(r)
                    if (mode /= 1 .or. mod(i, 2) == 1) want_id = [want_id, 1000_int64*r + i]
                end do
            end do
        end do
        call back%get('id', id)
        call check(size(id) == size(want_id), what//': row count')
        if (size(id) /= size(want_id)) return
        call check(all(id == want_id), what//': ids in rank order')
        call back%get('x', x, is_valid=ok)
        call back%get('name', name)
        bad = 0
        do k = 1, size(want_id)
            r = int(want_id(k)/1000)
            i = int(mod(want_id(k), 1000_int64))
            write (want_name, '(a,i0,a,i0)') 'r', r, '-', i
            if (ok(k) .neqv. mod(i, 3) /= 0) bad = bad + 1
            if (ok(k) .and. x(k) /= r + i/4.0_real64) bad = bad + 1
            if (name(k) /= want_name) bad = bad + 1
        end do
        call check(bad == 0, what//': x and name from the formulas')
    end subroutine

    ! msg is rank 0's on every rank
    subroutine same_everywhere(msg, what)
        character(len=*), intent(in) :: msg
        character(len=*), intent(in) :: what
        character(len=len(msg)) :: msg0
        integer :: same, all_same
        msg0 = msg
        call MPI_Bcast(msg0, len(msg0), MPI_CHARACTER, 0, MPI_COMM_WORLD)
        same = merge(1, 0, msg0 == msg .and. len_trim(msg) > 0)
        call MPI_Allreduce(same, all_same, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
        call check(all_same == 1, what//': the same message on every rank: '//trim(msg))
    end subroutine

    subroutine check(cond, text)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: text
        if (cond) return
        nfail = nfail + 1
        print '(a,i0,a)', 'FAIL rank ', me, ': '//text
    end subroutine
end program test_parquet_mpi_write
