! parquet.f90 - module parquet: the lazy table (pqt_table) for Fortran programs: its public
! names and types, and the interfaces of every procedure (parquet_if_*.inc, by area), whose
! bodies are in the submodules: opening (parquet_open.f90), queries and residency
! (parquet_query.f90), copying values out (parquet_get.f90, parquet_list.f90), changes
! (parquet_change.f90, parquet_cells.f90, parquet_columns.f90, parquet_rows.f90) and writing
! (parquet_write.f90). Every procedure takes optional stat= and errmsg=; without stat= a
! failure is `error stop` with pqt's message (parquet_base). docs/fortran.md lists each
! procedure with the C call behind it.
module parquet
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int8, int32, int64, real32, real64, output_unit
    use parquet_c
    use parquet_c_write
    use parquet_base
    use parquet_transform
    implicit none
    private
    public :: parquet_table, parquet_table_row, parquet_open_table, parquet_list_level, &
        parquet_table_row_group_bounds, parquet_filter, parquet_sortkey, parquet_read_qc
    public :: parquet_new_table, parquet_write_table, parquet_table_writer, &
        parquet_open_table_writer, parquet_close_table_writer, parquet_write_table_chunk, &
        parquet_open_writer_like
    ! for companion modules (parquet_mpi), not for programs: docs/fortran.md, "Companion modules"
    public :: parquet_open_table_via, parquet_table_c_ptr, parquet_c_opener
    public :: parquet_write_table_via, parquet_c_writer, parquet_open_table_writer_via, &
        parquet_close_table_writer_via, parquet_c_writer_opener, parquet_c_writer_closer
    public :: PK_NONE, PK_INT32, PK_INT64, PK_FLOAT32, PK_FLOAT64, PK_LOGICAL, PK_STRING, &
        PK_DATE, PK_TIME, PK_TIMESTAMP, PK_INT32_VEC, PK_INT64_VEC, PK_FLOAT32_VEC, &
        PK_FLOAT64_VEC, PK_LOGICAL_VEC, PK_STRING_VEC, PK_DATE_VEC, PK_TIME_VEC, &
        PK_TIMESTAMP_VEC, PK_LIST, RES_EMPTY, RES_PARTIAL, RES_FULL, PARQUET_ROW_INDEX, &
        PARQUET_UNIT_MILLIS, PARQUET_UNIT_MICROS, PARQUET_UNIT_NANOS

    ! A lazy table over one parquet file. Default-initialized to "not open", so a table
    ! declared in a block (one per thread) starts clean; finalized (closed) when it goes.
    type :: parquet_table
        type(c_ptr), private :: h = c_null_ptr
    contains
        procedure :: nrows => table_nrows
        procedure :: nrows_unfiltered => table_nrows_unfiltered
        procedure :: row_group_extent => table_row_group_extent
        procedure :: row_group_bounds => table_row_group_bounds
        procedure :: ncols => table_ncols
        procedure :: column_names => table_column_names
        procedure :: has_column => table_has_column
        ! by name, or by 1-based position in %column_names
        generic :: kind => table_kind, kind_at
        generic :: width => table_width, width_at
        generic :: unit => table_unit, unit_at
        generic :: residency => table_residency, residency_at
        generic :: is_supported => table_is_supported, is_supported_at
        generic :: has_nulls => table_has_nulls, has_nulls_at
        procedure, private :: table_kind, kind_at, table_width, width_at, table_unit, unit_at, &
            table_residency, residency_at, table_is_supported, is_supported_at, &
            table_has_nulls, has_nulls_at
        procedure :: time_unit => table_time_unit
        procedure :: get_file_metadata => table_get_file_metadata
        procedure :: is_detached => table_is_detached
        procedure :: generation => table_generation
        generic :: get => get_i32, get_i64, get_r32, get_r64, get_l, get_s, get_i32_2, &
            get_i64_2, get_r32_2, get_r64_2, get_l_2
        procedure, private :: get_i32, get_i64, get_r32, get_r64, get_l, get_s, get_i32_2, &
            get_i64_2, get_r32_2, get_r64_2, get_l_2
        ! vectors of strings; lists (any column) as values + offsets (parquet_list.f90)
        generic :: get => get_s_2, list_i32, list_i64, list_r32, list_r64, list_l, list_s
        procedure, private :: get_s_2, list_i32, list_i64, list_r32, list_r64, list_l, list_s
        ! lists of lists: values and one parquet_list_level per level (parquet_list.f90)
        generic :: get_nested => nested_i32, nested_i64, nested_r64
        procedure, private :: nested_i32, nested_i64, nested_r64
        generic :: get_slice => slice_i32_8, slice_i64_8, slice_r32_8, slice_r64_8, &
            slice_l_8, slice_s_8, slice_i32_4, slice_i64_4, slice_r32_4, slice_r64_4, &
            slice_l_4, slice_s_4
        procedure, private :: slice_i32_8, slice_i64_8, slice_r32_8, slice_r64_8, slice_l_8, &
            slice_s_8, slice_i32_4, slice_i64_4, slice_r32_4, slice_r64_4, slice_l_4, slice_s_4
        generic :: col => col_i32, col_i64, col_r32, col_r64, col_i32_2, col_i64_2, col_r32_2, &
            col_r64_2
        procedure, private :: col_i32, col_i64, col_r32, col_r64, col_i32_2, col_i64_2, &
            col_r32_2, col_r64_2
        generic :: is_null => is_null_8, is_null_4
        procedure, private :: is_null_8, is_null_4
        generic :: row => row_8, row_4
        procedure, private :: row_8, row_4
        generic :: prefetch => prefetch_text, prefetch_list
        procedure, private :: prefetch_text, prefetch_list
        procedure :: materialize_all => table_materialize_all
        procedure :: validate_qc => table_validate_qc
        generic :: sort_by => sort_by_text, sort_by_list
        procedure, private :: sort_by_text, sort_by_list
        procedure :: drop_column => table_drop_column
        procedure :: rename_column => table_rename_column
        ! changes (parquet_change.f90)
        generic :: add_column => add_column_1, add_column_2, add_column_list
        procedure, private :: add_column_1, add_column_2, add_column_list
        generic :: set => set_1, set_2
        procedure, private :: set_1, set_2
        ! one cell, chosen rows (parquet_cells.f90)
        generic :: set_element => set_element_8, set_element_4
        procedure, private :: set_element_8, set_element_4
        generic :: set_slice => set_slice_1_8, set_slice_1_4, set_slice_2_8, set_slice_2_4
        procedure, private :: set_slice_1_8, set_slice_1_4, set_slice_2_8, set_slice_2_4
        procedure :: append => table_append
        generic :: filter_rows => filter_rows_rule, filter_rows_filter, filter_rows_mask
        procedure, private :: filter_rows_rule, filter_rows_filter, filter_rows_mask
        generic :: top_n => top_n_text_8, top_n_text_4, top_n_list_8, top_n_list_4
        procedure, private :: top_n_text_8, top_n_text_4, top_n_list_8, top_n_list_4
        generic :: argsort_by => argsort_text, argsort_list
        procedure, private :: argsort_text, argsort_list
        procedure :: reload => table_reload
        procedure :: evict_column => table_evict_column
        ! several columns at once, copies (parquet_columns.f90)
        procedure :: keep_columns => table_keep_columns
        procedure :: drop_columns => table_drop_columns
        procedure :: copy_column => table_copy_column
        ! nulls, casts, removing rows, row masks (parquet_rows.f90)
        generic :: set_null => set_null_8, set_null_4, set_null_mask, set_null_mask_2
        procedure, private :: set_null_8, set_null_4, set_null_mask, set_null_mask_2
        generic :: clear_null => clear_null_8, clear_null_4
        procedure, private :: clear_null_8, clear_null_4
        procedure :: cast => table_cast
        generic :: delete_rows => delete_rows_8, delete_rows_4
        procedure, private :: delete_rows_8, delete_rows_4
        generic :: truncate => truncate_8, truncate_4
        procedure, private :: truncate_8, truncate_4
        procedure :: dropna => table_dropna
        generic :: row_mask => row_mask_rule, row_mask_filter
        procedure, private :: row_mask_rule, row_mask_filter
        procedure :: clone => table_clone
        procedure :: close => table_close
        generic :: assignment(=) => table_assign
        procedure, private :: table_assign
        final :: table_final
    end type

    ! One level of a list of lists (%get_nested): its lists in order; list i holds items
    ! offsets(i) .. offsets(i + 1) - 1 of the next level's lists, or of the values for the
    ! last level; valid(i) is .false. for a null list (an empty list is valid).
    type :: parquet_list_level
        integer(int64), allocatable :: offsets(:)
        logical, allocatable :: valid(:)
    end type

    ! One row of a table (%row(i)); valid until the table's next structural change.
    type :: parquet_table_row
        type(c_ptr), private :: h = c_null_ptr
        integer(int64), private :: i = 0
        integer(int64), private :: gen = -1
    contains
        procedure :: index => row_index
        procedure :: is_valid => row_is_valid
        procedure :: is_null => row_is_null
        generic :: get => rget_i32, rget_i64, rget_r32, rget_r64, rget_l, rget_s
        procedure, private :: rget_i32, rget_i64, rget_r32, rget_r64, rget_l, rget_s
    end type

    ! A streaming writer (parquet_open_table_writer): its file appears only when
    ! parquet_close_table_writer succeeds; a writer finalized unclosed leaves no file.
    type :: parquet_table_writer
        type(c_ptr), private :: h = c_null_ptr
        ! the template's readable columns: the ones out%append(row) copies from a row
        character(len=:), allocatable, private :: names(:)
    contains
        generic :: append => writer_append, writer_append_row
        procedure, private :: writer_append, writer_append_row
        procedure :: nrows => writer_nrows
        procedure :: flush => writer_flush
        procedure :: abort => writer_abort
        generic :: assignment(=) => writer_assign
        procedure, private :: writer_assign
        final :: writer_final
    end type

    ! How a column is copied into a caller's array.
    type :: get_plan
        integer(c_int) :: to_kind = 0  ! pqt_table_get's to_kind
        integer(c_int) :: width = 1
        integer(int64) :: nrows = 0
        logical :: via_date = .false.   ! a DATE column (int32 days) into an int64 array
    end type

    ! A C call that opens a table as pqt_table_open does, for parquet_open_table_via: ctx is
    ! the caller's own data, opts the options parquet_open_table builds (the call may add to
    ! them; they are freed after it), ret the table (NULL on failure).
    abstract interface
        integer(c_int) function parquet_c_opener(ctx, path, opts, ret) bind(c)
            import :: c_int, c_ptr, c_char
            type(c_ptr), value :: ctx
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
            type(c_ptr), intent(out) :: ret
        end function
    end interface

    ! A C call that writes a table as pqt_write_table does, for parquet_write_table_via: ctx
    ! is the caller's own data, t the table (C_NULL_PTR when the caller's t is not open or a
    ! check before the write failed on this rank: the call must still take part in whatever
    ! collective it does, and fail), opts the options parquet_write_table builds (freed
    ! after the call; C_NULL_PTR with t).
    abstract interface
        integer(c_int) function parquet_c_writer(ctx, t, path, opts) bind(c)
            import :: c_int, c_ptr, c_char
            type(c_ptr), value :: ctx, t
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
        end function
    end interface

    ! For parquet_open_table_writer_via / parquet_close_table_writer_via: C calls that open
    ! and finish a streaming writer as pqt_writer_open / pqt_writer_close do. template and
    ! opts are C_NULL_PTR, and w is, when a check failed on this rank (or the writer is not
    ! open): the call must still take part in its collective, and fail. The closer owns w.
    abstract interface
        integer(c_int) function parquet_c_writer_opener(ctx, ret, path, template, opts) bind(c)
            import :: c_int, c_ptr, c_char
            type(c_ptr), value :: ctx
            type(c_ptr), intent(out) :: ret
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: template, opts
        end function
        integer(c_int) function parquet_c_writer_closer(ctx, w) bind(c)
            import :: c_int, c_ptr
            type(c_ptr), value :: ctx, w
        end function
    end interface

    ! The procedures' interfaces, by area; their bodies are in the submodules they name.
    include 'parquet_if_table.inc'

    interface parquet_open_table
        module procedure open_whole, open_slice_8, open_slice_4
    end interface

    interface parquet_open_table_via
        module procedure open_via
    end interface

    interface parquet_table_c_ptr
        module procedure table_c_ptr
    end interface

    include 'parquet_if_get.inc'
    include 'parquet_if_change.inc'
    include 'parquet_if_write.inc'

    interface parquet_write_table_via
        module procedure write_via
    end interface

    interface parquet_open_table_writer_via
        module procedure writer_open_via
    end interface

    interface parquet_close_table_writer_via
        module procedure writer_close_via
    end interface
end module parquet
