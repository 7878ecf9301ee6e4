! parquet_write.f90 - submodule of module parquet: writing tables to Parquet files, whole
! (parquet_write_table -> pqt_write_table) or streamed from batches (parquet_table_writer ->
! pqt_writer_*). Both take the options of docs/fortran.md, "Writing"; the file
! appears only when the write completes (docs/writing.md). Also the warning callback every
! open and a write with qc= install (print_warnings).
submodule(parquet) parquet_write
    implicit none

contains

    ! pqt_write_opts from the optional arguments; .false. (and a failure reported) when pqt
    ! refuses one, naming it. parquet-fortran copies the source's key-value metadata only when
    ! asked (copy_metadata= or metadata_keys=); pqt's default is to copy it, so it is set
    ! either way.
    logical function make_opts(proc, opts, copy_metadata, metadata_keys, write_maml, &
                               compression, compression_level, chunk_size, use_threads, &
                               overwrite, row_index_name, maml, metadata, stat, errmsg)
        character(len=*), intent(in) :: proc
        type(c_ptr), intent(out) :: opts
        logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
        character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
        character(len=*), intent(in), optional :: compression, row_index_name, maml
        integer, intent(in), optional :: compression_level, chunk_size
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: st
        logical :: copy
        integer :: i
        opts = c_null_ptr
        make_opts = checked(pqt_write_opts_new(opts), proc, stat, errmsg)
        if (.not. make_opts) return
        copy = present(metadata_keys)
        if (present(copy_metadata)) copy = copy_metadata .or. copy
        st = pqt_write_opts_set_int(opts, PQT_WOPT_COPY_METADATA, merge(1_int64, 0_int64, copy))
        if (present(metadata_keys)) then
            do i = 1, size(metadata_keys)
                if (st == PQT_OK) st = pqt_write_opts_set_str(opts, PQT_WOPT_METADATA_KEY, &
                                                              c_string(metadata_keys(i)))
            end do
        end if
        if (present(metadata)) then
            do i = 1, size(metadata)
                if (st == PQT_OK) st = pqt_write_opts_set_str(opts, PQT_WOPT_METADATA, &
                                                              c_string(metadata(i)))
            end do
        end if
        if (st == PQT_OK .and. present(write_maml)) &
            st = pqt_write_opts_set_int(opts, PQT_WOPT_WRITE_MAML, merge(1_int64, 0_int64, &
                                                                         write_maml))
        if (st == PQT_OK .and. present(compression)) &
            st = pqt_write_opts_set_str(opts, PQT_WOPT_CODEC, c_string(compression))
        if (st == PQT_OK .and. present(compression_level)) &
            st = pqt_write_opts_set_int(opts, PQT_WOPT_CODEC_LEVEL, int(compression_level, int64))
        if (st == PQT_OK .and. present(chunk_size)) &
            st = pqt_write_opts_set_int(opts, PQT_WOPT_ROW_GROUP_ROWS, int(chunk_size, int64))
        ! .true.: every core encodes columns (pqt's 0); .false. or absent: one thread
        if (st == PQT_OK .and. present(use_threads)) &
            st = pqt_write_opts_set_int(opts, PQT_WOPT_THREADS, merge(0_int64, 1_int64, &
                                                                      use_threads))
        if (st == PQT_OK .and. present(overwrite)) &
            st = pqt_write_opts_set_int(opts, PQT_WOPT_OVERWRITE, merge(1_int64, 0_int64, &
                                                                        overwrite))
        if (st == PQT_OK .and. present(row_index_name)) &
            st = pqt_write_opts_set_str(opts, PQT_WOPT_ROW_INDEX_NAME, c_string(row_index_name))
        if (st == PQT_OK .and. present(maml)) &
            st = pqt_write_opts_set_str(opts, PQT_WOPT_MAML, c_string(maml))
        make_opts = checked(st, proc, stat, errmsg)
        if (.not. make_opts) then
            call pqt_write_opts_free(opts)
            opts = c_null_ptr
        end if
    end function

    ! release=.false.: every column the write reads is made resident first (what the write
    ! reads then stays); .true. (default): pqt reads what is not resident one row group at
    ! a time and releases it. qc=: write-side qc, warnings only (pqt_table_check_qc through
    ! the warning callback, which prints "WARNING: ..." as read-time soft qc does); a rule
    ! that cannot apply (no such column, a bound of the wrong kind) fails before writing.
    module procedure parquet_write_table
        call write_table(t, file, 'parquet_write_table', row_mask, copy_metadata, &
                         metadata_keys, write_maml, qc, compression, compression_level, &
                         chunk_size, use_threads, overwrite, release, row_index_name, maml, &
                         metadata, qc_violations, stat, errmsg)
    end procedure parquet_write_table

    ! A companion module's write (parquet_mpi): the same options, another C call.
    module procedure write_via
        call write_table(t, file, proc, row_mask, copy_metadata, metadata_keys, write_maml, &
                         qc, compression, compression_level, chunk_size, use_threads, &
                         overwrite, release, row_index_name, maml, metadata, qc_violations, &
                         stat, errmsg, writer, ctx)
    end procedure write_via

    ! With writer (parquet_write_table_via), writer(ctx, ...) writes instead of
    ! pqt_write_table and is reached on every path: a check that fails here passes it
    ! C_NULL_PTR (a collective writer then fails on the other ranks too, while this rank
    ! keeps its own message), and a table not open is left for it to refuse, so every rank
    ! gets the same message. row_mask= then writes a narrowed clone (what
    ! pqt_write_table_mask does inside).
    subroutine write_table(t, file, proc, row_mask, copy_metadata, metadata_keys, write_maml, &
                           qc, compression, compression_level, chunk_size, use_threads, &
                           overwrite, release, row_index_name, maml, metadata, qc_violations, &
                           stat, errmsg, writer, ctx)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file, proc
        logical, intent(in), optional :: row_mask(:)
        logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: release
        integer, intent(out), optional :: qc_violations
        character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
        character(len=*), intent(in), optional :: compression, row_index_name, maml
        integer, intent(in), optional :: compression_level, chunk_size
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        procedure(parquet_c_writer), optional :: writer
        type(c_ptr), intent(in), optional :: ctx
        type(c_ptr) :: opts, kp, src
        integer(c_int) :: st
        integer(c_int64_t) :: nwarn
        integer(int8), allocatable, target :: keep(:)
        logical :: via
        via = present(writer)
        if (present(qc_violations)) qc_violations = 0
        if (via .and. .not. c_associated(t%h)) then
            call check_write(writer(ctx, c_null_ptr, c_string(file), c_null_ptr), proc, stat, &
                             errmsg)
            return
        end if
        if (.not. opened(t, 'write', stat, errmsg)) return
        ! a check that fails exits with stat/errmsg set: a collective writer is still entered
        checks: block
            kp = c_null_ptr
            if (present(row_mask)) then
                if (.not. mask_bytes(row_mask, pqt_table_nrows(t%h), keep, proc, stat, errmsg)) &
                    exit checks
                kp = c_loc(keep)
            end if
            if (present(release)) then
                if (.not. release) then
                    if (.not. checked(pqt_table_materialize_all(t%h), proc, stat, errmsg)) &
                        exit checks
                end if
            end if
            if (present(qc)) then
                if (c_associated(qc%h)) then
                    call print_warnings()
                    if (.not. checked(pqt_table_check_qc(t%h, qc%h, kp, nwarn), proc, stat, &
                                      errmsg)) exit checks
                    if (present(qc_violations)) qc_violations = int(nwarn)
                end if
            end if
            if (.not. make_opts(proc, opts, copy_metadata, metadata_keys, write_maml, compression, &
                                compression_level, chunk_size, use_threads, overwrite, &
                                row_index_name, maml, metadata, stat, errmsg)) exit checks
            if (via) then
                src = t%h
                st = PQT_OK
                if (present(row_mask)) then
                    st = pqt_table_clone(t%h, src)
                    if (st == PQT_OK) st = pqt_table_filter_rows_mask(src, kp)
                    if (st /= PQT_OK) then
                        if (c_associated(src)) call pqt_table_close(src)
                        src = c_null_ptr
                    end if
                end if
                if (st /= PQT_OK) then
                    call pqt_write_opts_free(opts)
                    if (.not. checked(st, proc, stat, errmsg)) exit checks
                end if
                st = writer(ctx, src, c_string(file), opts)
                if (present(row_mask)) call pqt_table_close(src)
            else if (present(row_mask)) then
                ! row_mask=: only its .true. rows are written, from a clone (t does not change)
                st = pqt_write_table_mask(t%h, kp, c_string(file), opts)
            else
                st = pqt_write_table(t%h, c_string(file), opts)
            end if
            call pqt_write_opts_free(opts)
            call check_write(st, proc, stat, errmsg)
            return
        end block checks
        if (via) st = writer(ctx, c_null_ptr, c_string(file), c_null_ptr)
    end subroutine

    module procedure parquet_open_table_writer
        call open_writer('parquet_open_table_writer', out, file, template, copy_metadata, &
                         metadata_keys, write_maml, compression, compression_level, &
                         chunk_size, use_threads, overwrite, maml, metadata, stat, errmsg)
    end procedure parquet_open_table_writer

    ! parquet-fortran derives a schema from t and opens a writer with it; pqt's writer takes its
    ! schema from a template table, so t is the template (its columns, nothing read).
    module procedure parquet_open_writer_like
        call open_writer('parquet_open_writer_like', w, file, t, copy_metadata, &
                         metadata_keys, write_maml, compression, compression_level, &
                         chunk_size, use_threads, overwrite, maml, metadata, stat, errmsg)
    end procedure parquet_open_writer_like

    ! A companion module's streaming writer (parquet_mpi): the same checks and options.
    module procedure writer_open_via
        call open_writer(proc, out, file, template, copy_metadata, metadata_keys, write_maml, &
                         compression, compression_level, chunk_size, use_threads, overwrite, &
                         maml, metadata, stat, errmsg, opener, ctx)
    end procedure writer_open_via

    ! (closer goes through close_via: gfortran 12 sees no interface for a procedure dummy
    ! called directly in a separate module procedure)
    module procedure writer_close_via
        call close_via(out, closer, ctx, proc, stat, errmsg)
    end procedure writer_close_via

    ! out's writer (C_NULL_PTR when not open) to closer, which owns it from here.
    subroutine close_via(out, closer, ctx, proc, stat, errmsg)
        type(parquet_table_writer), intent(inout) :: out
        procedure(parquet_c_writer_closer) :: closer
        type(c_ptr), intent(in) :: ctx
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr) :: h
        h = out%h
        out%h = c_null_ptr
        call check_write(closer(ctx, h), proc, stat, errmsg)
    end subroutine

    ! The schema comes from template's columns (nothing is read from it). A writer open in
    ! out is dropped first (its file never appears). proc names the caller in messages.
    ! With opener (parquet_open_table_writer_via) it opens instead of pqt_writer_open and is
    ! reached on every path (C_NULL_PTR template and options after a failed check), as
    ! write_table's writer is.
    subroutine open_writer(proc, out, file, template, copy_metadata, metadata_keys, &
                           write_maml, compression, compression_level, chunk_size, &
                           use_threads, overwrite, maml, metadata, stat, errmsg, opener, ctx)
        character(len=*), intent(in) :: proc
        type(parquet_table_writer), intent(inout) :: out
        character(len=*), intent(in) :: file
        class(parquet_table), intent(inout) :: template
        logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
        character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
        character(len=*), intent(in), optional :: compression, maml
        integer, intent(in), optional :: compression_level, chunk_size
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        procedure(parquet_c_writer_opener), optional :: opener
        type(c_ptr), intent(in), optional :: ctx
        type(c_ptr) :: opts
        integer(c_int) :: st
        logical :: via
        via = present(opener)
        call out%abort()
        if (via .and. .not. c_associated(template%h)) then
            ! pqt refuses the missing template on every rank alike
            st = opener(ctx, out%h, c_string(file), c_null_ptr, c_null_ptr)
            if (st /= PQT_OK) out%h = c_null_ptr
            call check_write(st, proc, stat, errmsg)
            return
        end if
        if (.not. opened(template, proc(9:), stat, errmsg)) return
        if (.not. make_opts(proc, opts, copy_metadata, metadata_keys, write_maml, compression, &
                            compression_level, chunk_size, use_threads, overwrite, &
                            maml=maml, metadata=metadata, stat=stat, errmsg=errmsg)) then
            if (via) then
                st = opener(ctx, out%h, c_string(file), c_null_ptr, c_null_ptr)
                out%h = c_null_ptr
            end if
            return
        end if
        if (via) then
            st = opener(ctx, out%h, c_string(file), template%h, opts)
        else
            st = pqt_writer_open(out%h, c_string(file), template%h, opts)
        end if
        call pqt_write_opts_free(opts)
        if (st /= PQT_OK) out%h = c_null_ptr
        if (st == PQT_OK) call readable_names(template, out%names)
        call check_write(st, proc, stat, errmsg)
    end subroutine

    ! The columns of t the writer takes (pqt leaves out the ones it cannot read).
    subroutine readable_names(t, names)
        class(parquet_table), intent(inout) :: t
        character(len=:), allocatable, intent(out) :: names(:)
        logical, allocatable :: ok(:)
        integer :: j
        call t%column_names(names)
        allocate (ok(size(names)))
        do j = 1, size(names)
            ok(j) = t%is_supported(names(j))
        end do
        if (.not. all(ok)) names = pack(names, ok)
    end subroutine

    ! A failed append leaves the writer unusable (pqt): it is dropped here, so a later
    ! append or close says it is not open instead of writing a broken file.
    module procedure writer_append
        character(len=*), parameter :: proc = 'parquet_table_writer: append'
        if (.not. writer_open(out, proc, stat, errmsg)) return
        if (.not. opened(t, 'append', stat, errmsg)) return
        if (.not. checked(pqt_writer_write(out%h, t%h), proc, stat, errmsg)) call out%abort()
    end procedure writer_append

    ! One row of a table: pqt_table_copy_rows gathers that row of the template's columns into
    ! a one-row table (the columns the table has not read are read first and stay), which the
    ! writer appends; nothing else of the table is copied. A failed write drops the writer.
    module procedure writer_append_row
        character(len=*), parameter :: proc = 'parquet_table_writer: append'
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        type(c_ptr) :: one
        integer(c_int) :: st
        if (.not. writer_open(out, proc, stat, errmsg)) return
        if (.not. row%is_valid()) then
            call fail(PQT_MISUSE, proc//': the row handle is stale or was never set (the '// &
                      'table changed since %row, or %row was not called)', stat, errmsg)
            return
        end if
        call c_string_array(out%names, buf, ptrs)
        one = c_null_ptr
        st = pqt_table_copy_rows(row%h, ptrs, size(out%names, kind=c_int), row%i, row%i, one)
        ! nothing reached the writer: it stays usable
        if (.not. checked(st, proc, stat, errmsg)) return
        st = pqt_writer_write(out%h, one)
        call pqt_table_close(one)
        if (.not. checked(st, proc, stat, errmsg)) call out%abort()
    end procedure writer_append_row

    ! Cut a row group now (nothing when no row is pending). A failure drops the writer.
    module procedure writer_flush
        character(len=*), parameter :: proc = 'parquet_table_writer: flush'
        if (.not. writer_open(out, proc, stat, errmsg)) return
        if (.not. checked(pqt_writer_flush(out%h), proc, stat, errmsg)) call out%abort()
    end procedure writer_flush

    ! t's rows (row_mask=: its .true. rows) as exactly one row group of their own, whatever
    ! chunk_size says; rows appended before are cut first. A chunk without rows is refused
    ! (PQT_MISUSE) and the writer stays open; any other failure drops it, as append does.
    module procedure parquet_write_table_chunk
        character(len=*), parameter :: proc = 'parquet_write_table_chunk'
        integer(int8), allocatable, target :: keep(:)
        type(c_ptr) :: kp
        integer(c_int) :: st
        logical :: empty
        if (.not. writer_open(out, proc, stat, errmsg)) return
        if (.not. opened(t, 'write_table_chunk', stat, errmsg)) return
        kp = c_null_ptr
        empty = pqt_table_nrows(t%h) == 0
        if (present(row_mask)) then
            if (.not. mask_bytes(row_mask, pqt_table_nrows(t%h), keep, proc, stat, errmsg)) return
            kp = c_loc(keep)
            empty = .not. any(row_mask)
        end if
        st = pqt_writer_write_chunk(out%h, t%h, kp)
        if (.not. checked(st, proc, stat, errmsg) .and. .not. empty) call out%abort()
    end procedure parquet_write_table_chunk

    module procedure writer_nrows
        writer_nrows = 0
        if (c_associated(out%h)) writer_nrows = pqt_writer_nrows(out%h)
    end procedure writer_nrows

    ! Finish the file and give it its name; the writer is closed whatever happens.
    module procedure parquet_close_table_writer
        character(len=*), parameter :: proc = 'parquet_close_table_writer'
        type(c_ptr) :: h
        if (.not. writer_open(out, proc, stat, errmsg)) return
        h = out%h
        out%h = c_null_ptr
        call check_write(pqt_writer_close(h), proc, stat, errmsg)
    end procedure parquet_close_table_writer

    module procedure writer_abort
        if (c_associated(out%h)) call pqt_writer_abort(out%h)
        out%h = c_null_ptr
    end procedure writer_abort

    ! b = a would give one C writer two owners: refused.
    module procedure writer_assign
        if (c_associated(to%h) .or. c_associated(from%h) .or. .true.) &
            error stop 'parquet_table_writer: assignment: a writer cannot be assigned (b = a)'
    end procedure writer_assign

    module procedure writer_final
        call out%abort()
    end procedure writer_final

    ! pqt discards its warnings unless a callback takes them; a Fortran program gets them on
    ! standard output, as "WARNING: ..." lines (a qc violation under qc_soft=, a file column
    ! named parquet_row_index dropped at open). Set once, before the first open: the critical
    ! section makes the first opens of several threads wait for it.
    module procedure print_warnings
        logical, save :: done = .false.
        !$omp critical (parquet_warning_callback)
        if (.not. done) then
            call pqt_set_warning_callback(c_funloc(print_warning), c_null_ptr)
            done = .true.
        end if
        !$omp end critical (parquet_warning_callback)
    end procedure print_warnings

    subroutine print_warning(user, message) bind(c)
        type(c_ptr), value :: user
        type(c_ptr), value :: message
        ! in a local first: see checked() in parquet_base.f90 (a concatenation with a
        ! deferred-length function result, on several threads at once)
        character(len=:), allocatable :: text
        if (c_associated(user)) continue
        text = f_string(message)
        write (output_unit, '(a)') 'WARNING: '//text
        flush (output_unit)
    end subroutine

    ! checked(), with the Fortran name of the option pqt's PQT_EXISTS message names (only
    ! when it names one: a dataset's directory that is not empty has no such option).
    subroutine check_write(st, proc, stat, errmsg)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int), parameter :: PQT_EXISTS = 11
        ! the message in a local first, as checked() builds it (a concatenation with
        ! last_error()'s deferred-length result read past gfortran's temporary under ASan)
        character(len=:), allocatable :: text
        text = ''
        if (st == PQT_EXISTS) text = last_error()
        if (index(text, 'PQT_WOPT_OVERWRITE') > 0) then
            text = proc//': '//text//' (in Fortran: overwrite=.true.)'
            call fail(int(st), text, stat, errmsg)
        else if (checked(st, proc, stat, errmsg)) then
            continue
        end if
    end subroutine

    logical function writer_open(out, proc, stat, errmsg)
        class(parquet_table_writer), intent(in) :: out
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        writer_open = c_associated(out%h)
        if (.not. writer_open) &
            call fail(PQT_MISUSE, proc//': the writer is not open (call '// &
                      'parquet_open_table_writer first)', stat, errmsg)
        if (writer_open .and. present(stat)) stat = 0
    end function
end submodule parquet_write
