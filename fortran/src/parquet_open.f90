! parquet_open.f90 - submodule of module parquet: opening a table (parquet_open_table, whole
! or a slice, with the read-time transform as pqt_opts; parquet_open_table_via for companion
! modules) and its lifetime (%close, the finalizer, %clone, and the refused assignment).
submodule(parquet) parquet_open
    implicit none

contains

    ! The whole file, with an optional read-time transform. An open table in t is closed first.
    module procedure open_whole
        call open_table(t, file, .false., 0_int64, 0_int64, maml, filter, sort, qc, qc_soft, &
                        use_threads, sample_fraction, sample_seed, stat, errmsg)
    end procedure open_whole

    ! Rows row_lo..row_hi of the file (1-based, inclusive, not clamped). No sort=: a sort
    ! reorders the whole file, so the rows asked for would not be the rows kept.
    module procedure open_slice_8
        call open_table(t, file, .true., row_lo, row_hi, maml, filter, qc=qc, qc_soft=qc_soft, &
                        use_threads=use_threads, sample_fraction=sample_fraction, &
                        sample_seed=sample_seed, stat=stat, errmsg=errmsg)
    end procedure open_slice_8

    module procedure open_slice_4
        call open_table(t, file, .true., int(row_lo, int64), int(row_hi, int64), maml, filter, &
                        qc=qc, qc_soft=qc_soft, use_threads=use_threads, &
                        sample_fraction=sample_fraction, sample_seed=sample_seed, stat=stat, &
                        errmsg=errmsg)
    end procedure open_slice_4

    ! A companion module's open (parquet_mpi): the same options, another C call.
    module procedure open_via
        call open_table(t, file, .false., 0_int64, 0_int64, maml, filter, qc=qc, &
                        qc_soft=qc_soft, use_threads=use_threads, &
                        sample_fraction=sample_fraction, sample_seed=sample_seed, stat=stat, &
                        errmsg=errmsg, opener=opener, ctx=ctx, name=proc)
    end procedure open_via

    module procedure table_c_ptr
        h = t%h
    end procedure table_c_ptr

    subroutine open_table(t, file, slice, row_lo, row_hi, maml, filter, sort, qc, qc_soft, &
                          use_threads, sample_fraction, sample_seed, stat, errmsg, opener, &
                          ctx, name)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        logical, intent(in) :: slice
        integer(int64), intent(in) :: row_lo, row_hi
        character(len=*), intent(in), optional :: maml
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_sortkey), intent(in), optional :: sort
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        ! parquet_open_table_via: opener(ctx, ...) opens instead of pqt_table_open, and name
        ! is the procedure errors name
        procedure(parquet_c_opener), optional :: opener
        type(c_ptr), intent(in), optional :: ctx
        character(len=*), intent(in), optional :: name
        character(len=:), allocatable :: proc
        type(c_ptr) :: opts
        integer(c_int) :: st
        ! a message in a local first, as checked() builds its messages
        character(len=:), allocatable :: text
        proc = 'parquet_open_table'
        if (present(name)) proc = name
        call t%close()
        call print_warnings()
        if (slice .and. row_lo < 1) then
            ! pqt refuses a bound below 1 without opening the file; the message should still
            ! say how many rows the file has.
            text = slice_range_message(file, row_lo, row_hi)
            text = proc//': '//text
            call fail(PQT_RANGE, text, stat, errmsg)
            return
        end if
        if (.not. checked(pqt_opts_new(opts), proc, stat, errmsg)) return
        st = PQT_OK
        if (present(use_threads)) then
            if (.not. use_threads) st = pqt_opts_set_int(opts, PQT_OPT_THREADS, 1_int64)
        end if
        if (st == PQT_OK .and. slice) st = pqt_opts_set_int(opts, PQT_OPT_ROW_LO, row_lo)
        if (st == PQT_OK .and. slice) st = pqt_opts_set_int(opts, PQT_OPT_ROW_HI, row_hi)
        if (st == PQT_OK .and. present(maml)) st = pqt_opts_set_maml(opts, c_string(maml))
        if (st == PQT_OK .and. present(filter)) then
            if (c_associated(filter%h)) st = pqt_opts_set_filter(opts, filter%h)
        end if
        if (st == PQT_OK .and. present(sort)) then
            if (sort%nkeys > 0) st = pqt_opts_set_sort(opts, c_string(sort%text))
        end if
        if (st == PQT_OK .and. present(qc)) then
            if (c_associated(qc%h)) st = pqt_opts_set_qc(opts, qc%h)
        end if
        if (st == PQT_OK .and. present(qc_soft)) then
            if (qc_soft) st = pqt_opts_set_int(opts, PQT_OPT_QC_SOFT, 1_int64)
        end if
        if (st == PQT_OK .and. present(sample_fraction)) &
            st = pqt_opts_set_double(opts, PQT_OPT_SAMPLE_FRACTION, real(sample_fraction, c_double))
        if (st == PQT_OK .and. present(sample_seed)) then
            if (sample_seed > 0) st = pqt_opts_set_int(opts, PQT_OPT_SAMPLE_SEED, &
                                                       int(sample_seed, int64))
        end if
        if (st == PQT_OK) then
            if (present(opener)) then
                st = opener(ctx, c_string(file), opts, t%h)
            else
                st = pqt_table_open(c_string(file), opts, t%h)
            end if
        end if
        call pqt_opts_free(opts)
        if (checked(st, proc, stat, errmsg)) continue
    end subroutine

    ! pqt's message for a slice outside the file, for the bound pqt refuses before opening it
    ! (row_lo < 1): N comes from the footer, when it can be read.
    function slice_range_message(file, lo, hi) result(msg)
        character(len=*), intent(in) :: file
        integer(int64), intent(in) :: lo, hi
        character(len=:), allocatable :: msg
        type(c_ptr) :: p
        integer(c_int) :: n
        integer(int64), pointer :: b(:)
        character(len=24) :: a, z, rows
        write (a, '(i0)') lo
        write (z, '(i0)') hi
        msg = trim(file)//': rows '//trim(a)//'..'//trim(z)//' requested'
        if (pqt_row_group_bounds(c_string(file), p, n) /= PQT_OK) then
            msg = msg//' (row_lo must be >= 1)'
            return
        end if
        rows = '0'
        if (n > 0) then
            call c_f_pointer(p, b, [2*n])
            write (rows, '(i0)') b(2*n)
        end if
        call pqt_free(p)
        msg = msg//', the file has '//trim(rows)//' rows (row_lo must be >= 1, row_hi <= '// &
              trim(rows)//', row_lo <= row_hi; nothing is clamped)'
    end function

    module procedure table_close
        if (c_associated(t%h)) call pqt_table_close(t%h)
        t%h = c_null_ptr
    end procedure table_close

    module procedure table_final
        call t%close()
    end procedure table_final

    ! b = a would share one C table between two finalizers: refused (use %clone).
    module procedure table_assign
        if (c_associated(to%h) .or. c_associated(from%h) .or. .true.) &
            error stop 'parquet_table: assignment: a table cannot be assigned (b = a); use %clone'
    end procedure table_assign

    ! A deep copy: resident columns copied, unread ones read later with the same transform.
    module procedure table_clone
        call out%close()
        if (.not. opened(t, 'clone', stat, errmsg)) return
        if (checked(pqt_table_clone(t%h, out%h), 'parquet_table: clone', stat, errmsg)) continue
    end procedure table_clone
end submodule parquet_open
