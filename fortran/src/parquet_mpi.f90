! parquet_mpi.f90 - module parquet_mpi (library pqt-fortran-mpi, over libpqt_mpi and module
! parquet): one collective open gives every rank of a communicator its share of a file or a
! dataset (pqt_table_open_mpi), and the share's place in the global row numbering; one
! collective write puts every rank's table into one file in rank order (pqt_write_table_mpi,
! or streamed: pqt_writer_open_mpi / _close_mpi) or a file per rank (pqt_write_dataset_mpi).
! Every procedure is collective (but a writer's append) and takes the communicator as
! mpi_f08's type(MPI_Comm) or as the legacy integer handle. Errors follow module parquet's
! convention (stat=/errmsg=, else `error stop` with pqt's message), with the same status on
! every rank. docs/mpi.md, "Fortran".
module parquet_mpi
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int64, real64
    use mpi_f08, only: MPI_Comm
    use parquet, only: parquet_table, parquet_filter, parquet_read_qc, parquet_open_table_via, &
        parquet_table_c_ptr, parquet_write_table_via, parquet_table_writer, &
        parquet_open_table_writer_via, parquet_close_table_writer_via
    use parquet_base, only: checked
    implicit none
    private
    public :: parquet_open_table_mpi, parquet_mpi_rows, parquet_mpi_global_nrows, &
        parquet_mpi_first_row, parquet_write_table_mpi, parquet_write_dataset_mpi, &
        parquet_open_table_writer_mpi, parquet_close_table_writer_mpi

    ! What the opener (parquet_mpi_c.c, struct open_ctx) needs besides the options.
    type, bind(c) :: open_ctx
        integer(c_int) :: comm = 0      ! the Fortran handle (MPI_Fint)
        integer(c_int) :: share_by = 0  ! PQT_OPT_SHARE_BY when > 0
    end type

    ! What the writer (parquet_mpi_c.c, struct write_ctx) needs besides the options.
    type, bind(c) :: write_ctx
        integer(c_int) :: comm = 0     ! the Fortran handle (MPI_Fint)
        integer(c_int) :: dataset = 0  ! 1: pqt_write_dataset_mpi, 0: pqt_write_table_mpi
    end type

    integer(c_int), parameter :: PQT_SHARE_ROWS = 1

    ! parquet_open_table_mpi(t, file, comm, [filter], [qc], [qc_soft], [maml], [use_threads],
    ! [sample_fraction], [sample_seed], [share_rows], [stat], [errmsg]): collective; each
    ! rank's t holds its share (share_rows=.true.: exact row counts, else whole row groups
    ! balanced by bytes). The options mean what they mean in parquet_open_table.
    interface parquet_open_table_mpi
        module procedure open_mpi_f08, open_mpi_int
    end interface

    ! parquet_mpi_rows(t, comm, [nrows], [first_row], [stat], [errmsg]): the rows of every
    ! rank's t together, and this rank's first row in that 1-based numbering. Collective.
    interface parquet_mpi_rows
        module procedure rows_f08, rows_int
    end interface

    ! The two halves of parquet_mpi_rows, each collective; -1 on failure with stat= present.
    interface parquet_mpi_global_nrows
        module procedure global_nrows_f08, global_nrows_int
    end interface

    interface parquet_mpi_first_row
        module procedure first_row_f08, first_row_int
    end interface

    ! parquet_write_table_mpi(t, file, comm, [the optional arguments of parquet_write_table],
    ! [stat], [errmsg]): collective; every rank's t (the same columns) into the one file, rank
    ! 0's rows first, then rank 1's, ... (pqt_write_table_mpi). The options mean what they
    ! mean in parquet_write_table and must be the same on every rank; row_mask= and qc= are
    ! each rank's own. The file appears only when every rank succeeded; otherwise every rank
    ! gets the first failing rank's message ("rank R: ...").
    interface parquet_write_table_mpi
        module procedure write_table_f08, write_table_int
    end interface

    ! parquet_write_dataset_mpi(t, dir, comm, [options as above], [stat], [errmsg]):
    ! collective; rank R's rows into dir/part-RRRRR.parquet (a rank without rows writes no
    ! part) and the _metadata summaries (pqt_write_dataset_mpi). dir must not exist or be
    ! empty; it appears whole or not at all.
    interface parquet_write_dataset_mpi
        module procedure write_dataset_f08, write_dataset_int
    end interface

    ! parquet_open_table_writer_mpi(out, file, template, comm, [the optional arguments of
    ! parquet_open_table_writer], [stat], [errmsg]): collective; then each rank appends its
    ! rows with out%append (not collective), and parquet_close_table_writer_mpi(out, comm,
    ! [stat], [errmsg]) finishes the one file collectively, rank 0's rows first
    ! (pqt_writer_open_mpi / pqt_writer_close_mpi). A rank whose append failed (its writer
    ! dropped) still calls the close, which then fails on every rank and leaves no file.
    interface parquet_open_table_writer_mpi
        module procedure writer_open_f08, writer_open_int
    end interface

    interface parquet_close_table_writer_mpi
        module procedure writer_close_f08, writer_close_int
    end interface

    ! The C half (parquet_mpi_c.c): MPI_Comm_f2c, then pqt_mpi.h.
    interface
        integer(c_int) function pqt_fortran_mpi_open(ctx, path, opts, ret) &
            bind(c, name='pqt_fortran_mpi_open')
            import :: c_int, c_ptr, c_char
            type(c_ptr), value :: ctx
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
            type(c_ptr), intent(out) :: ret
        end function
        integer(c_int) function pqt_fortran_mpi_write(ctx, t, path, opts) &
            bind(c, name='pqt_fortran_mpi_write')
            import :: c_int, c_ptr, c_char
            type(c_ptr), value :: ctx, t
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
        end function
        integer(c_int) function pqt_fortran_mpi_writer_open(ctx, ret, path, template, opts) &
            bind(c, name='pqt_fortran_mpi_writer_open')
            import :: c_int, c_ptr, c_char
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: ret
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: template, opts
        end function
        integer(c_int) function pqt_fortran_mpi_writer_close(ctx, w) &
            bind(c, name='pqt_fortran_mpi_writer_close')
            import :: c_int, c_ptr
            type(c_ptr), value :: ctx, w
        end function
        integer(c_int) function pqt_fortran_mpi_rows(comm, t, nrows, first_row) &
            bind(c, name='pqt_fortran_mpi_rows')
            import :: c_int, c_ptr, c_int64_t
            integer(c_int), value :: comm
            type(c_ptr), value :: t
            integer(c_int64_t), intent(out) :: nrows, first_row
        end function
    end interface

contains

    subroutine open_mpi_f08(t, file, comm, filter, qc, qc_soft, maml, use_threads, &
                            sample_fraction, sample_seed, share_rows, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        type(MPI_Comm), intent(in) :: comm
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads, share_rows
        character(len=*), intent(in), optional :: maml
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call open_mpi(t, file, comm%MPI_VAL, filter, qc, qc_soft, maml, use_threads, &
                      sample_fraction, sample_seed, share_rows, stat, errmsg)
    end subroutine

    subroutine open_mpi_int(t, file, comm, filter, qc, qc_soft, maml, use_threads, &
                            sample_fraction, sample_seed, share_rows, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        integer, intent(in) :: comm
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads, share_rows
        character(len=*), intent(in), optional :: maml
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call open_mpi(t, file, comm, filter, qc, qc_soft, maml, use_threads, sample_fraction, &
                      sample_seed, share_rows, stat, errmsg)
    end subroutine

    ! module parquet builds the options as parquet_open_table does and calls
    ! pqt_fortran_mpi_open with them: one place decides what each option means.
    subroutine open_mpi(t, file, comm, filter, qc, qc_soft, maml, use_threads, sample_fraction, &
                        sample_seed, share_rows, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        integer, intent(in) :: comm
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads, share_rows
        character(len=*), intent(in), optional :: maml
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(open_ctx), target :: ctx
        ctx%comm = int(comm, c_int)
        if (present(share_rows)) then
            if (share_rows) ctx%share_by = PQT_SHARE_ROWS
        end if
        call parquet_open_table_via(t, file, pqt_fortran_mpi_open, c_loc(ctx), &
                                    'parquet_open_table_mpi', maml, filter, qc, qc_soft, &
                                    use_threads, sample_fraction, sample_seed, stat, errmsg)
    end subroutine

    subroutine write_table_f08(t, file, comm, row_mask, copy_metadata, metadata_keys, &
        write_maml, qc, compression, compression_level, chunk_size, use_threads, overwrite, &
        release, row_index_name, maml, metadata, qc_violations, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        type(MPI_Comm), intent(in) :: comm
        include 'parquet_mpi_write_args.inc'
        call write_mpi(t, file, comm%MPI_VAL, 0, 'parquet_write_table_mpi', row_mask, &
            copy_metadata, metadata_keys, write_maml, qc, compression, compression_level, &
            chunk_size, use_threads, overwrite, release, row_index_name, maml, metadata, &
            qc_violations, stat, errmsg)
    end subroutine

    subroutine write_table_int(t, file, comm, row_mask, copy_metadata, metadata_keys, &
        write_maml, qc, compression, compression_level, chunk_size, use_threads, overwrite, &
        release, row_index_name, maml, metadata, qc_violations, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        integer, intent(in) :: comm
        include 'parquet_mpi_write_args.inc'
        call write_mpi(t, file, comm, 0, 'parquet_write_table_mpi', row_mask, copy_metadata, &
            metadata_keys, write_maml, qc, compression, compression_level, chunk_size, &
            use_threads, overwrite, release, row_index_name, maml, metadata, qc_violations, &
            stat, errmsg)
    end subroutine

    subroutine write_dataset_f08(t, dir, comm, row_mask, copy_metadata, metadata_keys, &
        write_maml, qc, compression, compression_level, chunk_size, use_threads, overwrite, &
        release, row_index_name, maml, metadata, qc_violations, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: dir
        type(MPI_Comm), intent(in) :: comm
        include 'parquet_mpi_write_args.inc'
        call write_mpi(t, dir, comm%MPI_VAL, 1, 'parquet_write_dataset_mpi', row_mask, &
            copy_metadata, metadata_keys, write_maml, qc, compression, compression_level, &
            chunk_size, use_threads, overwrite, release, row_index_name, maml, metadata, &
            qc_violations, stat, errmsg)
    end subroutine

    subroutine write_dataset_int(t, dir, comm, row_mask, copy_metadata, metadata_keys, &
        write_maml, qc, compression, compression_level, chunk_size, use_threads, overwrite, &
        release, row_index_name, maml, metadata, qc_violations, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: dir
        integer, intent(in) :: comm
        include 'parquet_mpi_write_args.inc'
        call write_mpi(t, dir, comm, 1, 'parquet_write_dataset_mpi', row_mask, copy_metadata, &
            metadata_keys, write_maml, qc, compression, compression_level, chunk_size, &
            use_threads, overwrite, release, row_index_name, maml, metadata, qc_violations, &
            stat, errmsg)
    end subroutine

    ! module parquet checks and builds the options as parquet_write_table does and calls
    ! pqt_fortran_mpi_write with them, on every rank even after a local check failed.
    subroutine write_mpi(t, file, comm, dataset, proc, row_mask, copy_metadata, metadata_keys, &
        write_maml, qc, compression, compression_level, chunk_size, use_threads, overwrite, &
        release, row_index_name, maml, metadata, qc_violations, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file, proc
        integer, intent(in) :: comm, dataset
        include 'parquet_mpi_write_args.inc'
        type(write_ctx), target :: ctx
        ctx%comm = int(comm, c_int)
        ctx%dataset = int(dataset, c_int)
        call parquet_write_table_via(t, file, pqt_fortran_mpi_write, c_loc(ctx), proc, &
            row_mask, copy_metadata, metadata_keys, write_maml, qc, compression, &
            compression_level, chunk_size, use_threads, overwrite, release, row_index_name, &
            maml, metadata, qc_violations, stat, errmsg)
    end subroutine

    subroutine writer_open_f08(out, file, template, comm, copy_metadata, metadata_keys, &
        write_maml, compression, compression_level, chunk_size, use_threads, overwrite, maml, &
        metadata, stat, errmsg)
        type(parquet_table_writer), intent(inout) :: out
        character(len=*), intent(in) :: file
        type(parquet_table), intent(inout) :: template
        type(MPI_Comm), intent(in) :: comm
        logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
        character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
        character(len=*), intent(in), optional :: compression, maml
        integer, intent(in), optional :: compression_level, chunk_size
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call writer_open_mpi(out, file, template, comm%MPI_VAL, copy_metadata, metadata_keys, &
            write_maml, compression, compression_level, chunk_size, use_threads, overwrite, &
            maml, metadata, stat, errmsg)
    end subroutine

    subroutine writer_open_int(out, file, template, comm, copy_metadata, metadata_keys, &
        write_maml, compression, compression_level, chunk_size, use_threads, overwrite, maml, &
        metadata, stat, errmsg)
        type(parquet_table_writer), intent(inout) :: out
        character(len=*), intent(in) :: file
        type(parquet_table), intent(inout) :: template
        integer, intent(in) :: comm
        logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
        character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
        character(len=*), intent(in), optional :: compression, maml
        integer, intent(in), optional :: compression_level, chunk_size
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call writer_open_mpi(out, file, template, comm, copy_metadata, metadata_keys, &
            write_maml, compression, compression_level, chunk_size, use_threads, overwrite, &
            maml, metadata, stat, errmsg)
    end subroutine

    ! module parquet checks and builds the options as parquet_open_table_writer does.
    subroutine writer_open_mpi(out, file, template, comm, copy_metadata, metadata_keys, &
        write_maml, compression, compression_level, chunk_size, use_threads, overwrite, maml, &
        metadata, stat, errmsg)
        type(parquet_table_writer), intent(inout) :: out
        character(len=*), intent(in) :: file
        type(parquet_table), intent(inout) :: template
        integer, intent(in) :: comm
        logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
        character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
        character(len=*), intent(in), optional :: compression, maml
        integer, intent(in), optional :: compression_level, chunk_size
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int), target :: handle
        handle = int(comm, c_int)
        call parquet_open_table_writer_via(out, file, template, pqt_fortran_mpi_writer_open, &
            c_loc(handle), 'parquet_open_table_writer_mpi', copy_metadata, metadata_keys, &
            write_maml, compression, compression_level, chunk_size, use_threads, overwrite, &
            maml, metadata, stat, errmsg)
    end subroutine

    subroutine writer_close_f08(out, comm, stat, errmsg)
        type(parquet_table_writer), intent(inout) :: out
        type(MPI_Comm), intent(in) :: comm
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int), target :: handle
        handle = int(comm%MPI_VAL, c_int)
        call parquet_close_table_writer_via(out, pqt_fortran_mpi_writer_close, c_loc(handle), &
                                            'parquet_close_table_writer_mpi', stat, errmsg)
    end subroutine

    subroutine writer_close_int(out, comm, stat, errmsg)
        type(parquet_table_writer), intent(inout) :: out
        integer, intent(in) :: comm
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int), target :: handle
        handle = int(comm, c_int)
        call parquet_close_table_writer_via(out, pqt_fortran_mpi_writer_close, c_loc(handle), &
                                            'parquet_close_table_writer_mpi', stat, errmsg)
    end subroutine

    subroutine rows_f08(t, comm, nrows, first_row, stat, errmsg)
        type(parquet_table), intent(in) :: t
        type(MPI_Comm), intent(in) :: comm
        integer(int64), intent(out), optional :: nrows, first_row
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call rows(t, comm%MPI_VAL, 'parquet_mpi_rows', nrows, first_row, stat, errmsg)
    end subroutine

    subroutine rows_int(t, comm, nrows, first_row, stat, errmsg)
        type(parquet_table), intent(in) :: t
        integer, intent(in) :: comm
        integer(int64), intent(out), optional :: nrows, first_row
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call rows(t, comm, 'parquet_mpi_rows', nrows, first_row, stat, errmsg)
    end subroutine

    integer(int64) function global_nrows_f08(t, comm, stat, errmsg) result(n)
        type(parquet_table), intent(in) :: t
        type(MPI_Comm), intent(in) :: comm
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call rows(t, comm%MPI_VAL, 'parquet_mpi_global_nrows', nrows=n, stat=stat, errmsg=errmsg)
    end function

    integer(int64) function global_nrows_int(t, comm, stat, errmsg) result(n)
        type(parquet_table), intent(in) :: t
        integer, intent(in) :: comm
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call rows(t, comm, 'parquet_mpi_global_nrows', nrows=n, stat=stat, errmsg=errmsg)
    end function

    integer(int64) function first_row_f08(t, comm, stat, errmsg) result(first)
        type(parquet_table), intent(in) :: t
        type(MPI_Comm), intent(in) :: comm
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call rows(t, comm%MPI_VAL, 'parquet_mpi_first_row', first_row=first, stat=stat, &
                  errmsg=errmsg)
    end function

    integer(int64) function first_row_int(t, comm, stat, errmsg) result(first)
        type(parquet_table), intent(in) :: t
        integer, intent(in) :: comm
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call rows(t, comm, 'parquet_mpi_first_row', first_row=first, stat=stat, errmsg=errmsg)
    end function

    ! pqt_table_mpi_rows: a table not open is a NULL handle, which pqt refuses on every rank
    ! together (a local check would leave the other ranks waiting in the collective).
    subroutine rows(t, comm, proc, nrows, first_row, stat, errmsg)
        type(parquet_table), intent(in) :: t
        integer, intent(in) :: comm
        character(len=*), intent(in) :: proc
        integer(int64), intent(out), optional :: nrows, first_row
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int64_t) :: n, first
        n = -1
        first = -1
        if (.not. checked(pqt_fortran_mpi_rows(int(comm, c_int), parquet_table_c_ptr(t), n, &
                                               first), proc, stat, errmsg)) then
            n = -1
            first = -1
        end if
        if (present(nrows)) nrows = n
        if (present(first_row)) first_row = first
    end subroutine
end module parquet_mpi
