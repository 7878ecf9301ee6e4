! parquet.f90 - module parquet: the lazy table (pqt_table) for Fortran programs.
! parquet_open_table opens a whole file or a slice of it with an optional read-time transform;
! the table's procedures query it and copy columns into allocatable arrays of the caller's
! kind. Tables are also built in memory and changed (parquet_change.f90) and written whole or
! streamed (parquet_write.f90). Every procedure takes optional stat= and errmsg=; without
! stat= a failure is `error stop` with pqt's message (parquet_base). docs/fortran.md lists
! each procedure with the C call behind it.
module parquet
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int8, int32, int64, real32, real64, output_unit
    use parquet_c
    use parquet_c_write
    use parquet_base
    use parquet_transform
    implicit none
    private
    public :: parquet_table, parquet_table_row, parquet_open_table, &
        parquet_table_row_group_bounds, parquet_filter, parquet_sortkey, parquet_read_qc
    public :: parquet_new_table, parquet_write_table, parquet_table_writer, &
        parquet_open_table_writer, parquet_close_table_writer, parquet_write_table_chunk, &
        parquet_open_writer_like
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
        generic :: add_column => add_column_1, add_column_2
        procedure, private :: add_column_1, add_column_2
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

    interface parquet_open_table
        module procedure open_whole, open_slice_8, open_slice_4
    end interface

    ! Copying values out and row handles: parquet_get.f90 (submodule parquet_get).
    interface
        module subroutine col_i32(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), pointer, intent(out) :: p(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_i64(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), pointer, intent(out) :: p(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_r32(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real32), pointer, intent(out) :: p(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_r64(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real64), pointer, intent(out) :: p(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_i32_2(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), pointer, intent(out) :: p(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_i64_2(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), pointer, intent(out) :: p(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_r32_2(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real32), pointer, intent(out) :: p(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine col_r64_2(t, name, p, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real64), pointer, intent(out) :: p(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        ! .false. (and a failure) for a table that was never opened. In the submodule: a
        ! private procedure of the parent that a submodule calls is not exported by gfortran 12.
        module logical function opened(t, proc, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: proc
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end function

        module subroutine get_i32(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_i64(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_r32(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real32), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_r64(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real64), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_l(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            logical, allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_s(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            character(len=:), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_i32_2(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), allocatable, target, intent(out) :: x(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_i64_2(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), allocatable, target, intent(out) :: x(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_r32_2(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real32), allocatable, target, intent(out) :: x(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_r64_2(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real64), allocatable, target, intent(out) :: x(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine get_l_2(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            logical, allocatable, intent(out) :: x(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_i32_8(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            integer(int32), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_i64_8(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            integer(int64), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_r32_8(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            real(real32), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_r64_8(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            real(real64), allocatable, target, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_l_8(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            logical, allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_s_8(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            character(len=:), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_i32_4(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            integer(int32), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_i64_4(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            integer(int64), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_r32_4(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            real(real32), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_r64_4(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            real(real64), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_l_4(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            logical, allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine slice_s_4(t, name, rows, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            character(len=:), allocatable, intent(out) :: x(:)
            logical, allocatable, intent(out), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module logical function is_null_8(t, name, i, e, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: i
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end function

        module logical function is_null_4(t, name, i, e, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: i
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end function

        module type(parquet_table_row) function row_8(t, i, stat, errmsg) result(r)
            class(parquet_table), intent(in) :: t
            integer(int64), intent(in) :: i
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end function

        module type(parquet_table_row) function row_4(t, i, stat, errmsg) result(r)
            class(parquet_table), intent(in) :: t
            integer(int32), intent(in) :: i
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end function

        module integer(int64) function row_index(r)
            class(parquet_table_row), intent(in) :: r
        end function

        module logical function row_is_valid(r)
            class(parquet_table_row), intent(in) :: r
        end function

        module logical function row_is_null(r, name, e, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end function

        module subroutine rget_i32(r, name, v, is_null, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            integer(int32), intent(out), target :: v
            logical, intent(out), optional :: is_null, found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine rget_i64(r, name, v, is_null, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            integer(int64), intent(out), target :: v
            logical, intent(out), optional :: is_null, found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine rget_r32(r, name, v, is_null, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            real(real32), intent(out), target :: v
            logical, intent(out), optional :: is_null, found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine rget_r64(r, name, v, is_null, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            real(real64), intent(out), target :: v
            logical, intent(out), optional :: is_null, found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine rget_l(r, name, v, is_null, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            logical, intent(out) :: v
            logical, intent(out), optional :: is_null, found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine rget_s(r, name, v, is_null, found, stat, errmsg)
            class(parquet_table_row), intent(in) :: r
            character(len=*), intent(in) :: name
            character(len=:), allocatable, intent(out) :: v
            logical, intent(out), optional :: is_null, found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine
    end interface

    ! Vectors of strings and lists: parquet_list.f90 (submodule parquet_list). A list column
    ! comes as all its elements in x and offsets(nrows + 1): row i is x(offsets(i) :
    ! offsets(i + 1) - 1).
    interface
        module subroutine get_s_2(t, name, x, is_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            character(len=:), allocatable, intent(out) :: x(:, :)
            logical, allocatable, intent(out), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine list_i32(t, name, x, offsets, is_valid, row_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int32), allocatable, intent(out) :: x(:)
            integer(int64), allocatable, intent(out) :: offsets(:)
            logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine list_i64(t, name, x, offsets, is_valid, row_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            integer(int64), allocatable, intent(out) :: x(:)
            integer(int64), allocatable, intent(out) :: offsets(:)
            logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine list_r32(t, name, x, offsets, is_valid, row_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real32), allocatable, intent(out) :: x(:)
            integer(int64), allocatable, intent(out) :: offsets(:)
            logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine list_r64(t, name, x, offsets, is_valid, row_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            real(real64), allocatable, intent(out) :: x(:)
            integer(int64), allocatable, intent(out) :: offsets(:)
            logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine list_l(t, name, x, offsets, is_valid, row_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            logical, allocatable, intent(out) :: x(:)
            integer(int64), allocatable, intent(out) :: offsets(:)
            logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine list_s(t, name, x, offsets, is_valid, row_valid, found, stat, errmsg)
            class(parquet_table), intent(in) :: t
            character(len=*), intent(in) :: name
            character(len=:), allocatable, intent(out) :: x(:)
            integer(int64), allocatable, intent(out) :: offsets(:)
            logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine
    end interface

    ! Changing tables: parquet_change.f90 (submodule parquet_change). Values arrive as
    ! class(*) and are checked against the column's kind at run time (pqt's PQT_KIND).
    interface
        module subroutine parquet_new_table(t, stat, errmsg)
            type(parquet_table), intent(inout) :: t
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine add_column_1(t, name, values, unit, is_valid, kind, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            class(*), intent(in) :: values(:)
            character(len=*), intent(in), optional :: unit
            logical, intent(in), optional :: is_valid(:)
            integer, intent(in), optional :: kind
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine add_column_2(t, name, values, unit, is_valid, kind, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            class(*), intent(in) :: values(:, :)
            character(len=*), intent(in), optional :: unit
            logical, intent(in), optional :: is_valid(:, :)
            integer, intent(in), optional :: kind
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_1(t, name, values, is_valid, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            class(*), intent(in) :: values(:)
            logical, intent(in), optional :: is_valid(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_2(t, name, values, is_valid, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            class(*), intent(in) :: values(:, :)
            logical, intent(in), optional :: is_valid(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_append(t, other, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            class(parquet_table), intent(inout) :: other
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine filter_rows_rule(t, rule, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: rule
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine filter_rows_filter(t, filter, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            type(parquet_filter), intent(in) :: filter
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine top_n_text_8(t, keys, n, nulls_first, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: keys
            integer(int64), intent(in) :: n
            logical, intent(in), optional :: nulls_first(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine top_n_text_4(t, keys, n, nulls_first, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: keys
            integer(int32), intent(in) :: n
            logical, intent(in), optional :: nulls_first(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine top_n_list_8(t, keys, n, descending, nulls_first, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: keys(:)
            integer(int64), intent(in) :: n
            logical, intent(in), optional :: descending(:), nulls_first(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine top_n_list_4(t, keys, n, descending, nulls_first, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: keys(:)
            integer(int32), intent(in) :: n
            logical, intent(in), optional :: descending(:), nulls_first(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine argsort_text(t, keys, perm, nulls_first, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: keys
            integer(int64), allocatable, intent(out) :: perm(:)
            logical, intent(in), optional :: nulls_first(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine argsort_list(t, keys, perm, descending, nulls_first, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: keys(:)
            integer(int64), allocatable, intent(out) :: perm(:)
            logical, intent(in), optional :: descending(:), nulls_first(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_reload(t, name, force, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            logical, intent(in), optional :: force
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_evict_column(t, name, force, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            logical, intent(in), optional :: force
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine
    end interface

    ! One cell and chosen rows: parquet_cells.f90 (submodule parquet_cells of parquet_change).
    interface
        module subroutine set_element_8(t, name, i, v, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: i
            class(*), intent(in) :: v
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_element_4(t, name, i, v, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: i
            class(*), intent(in) :: v
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_slice_1_8(t, name, rows, values, is_valid, modify_nulls, found, &
                                        stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            class(*), intent(in) :: values(:)
            logical, intent(in), optional :: is_valid(:)
            logical, intent(in), optional :: modify_nulls
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_slice_1_4(t, name, rows, values, is_valid, modify_nulls, found, &
                                        stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            class(*), intent(in) :: values(:)
            logical, intent(in), optional :: is_valid(:)
            logical, intent(in), optional :: modify_nulls
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_slice_2_8(t, name, rows, values, is_valid, modify_nulls, found, &
                                        stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: rows(:)
            class(*), intent(in) :: values(:, :)
            logical, intent(in), optional :: is_valid(:, :)
            logical, intent(in), optional :: modify_nulls
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_slice_2_4(t, name, rows, values, is_valid, modify_nulls, found, &
                                        stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: rows(:)
            class(*), intent(in) :: values(:, :)
            logical, intent(in), optional :: is_valid(:, :)
            logical, intent(in), optional :: modify_nulls
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine
    end interface

    ! Several columns at once and copies: parquet_columns.f90 (submodule parquet_columns).
    interface
        module subroutine table_keep_columns(t, names, force, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: names(:)
            logical, intent(in), optional :: force
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_drop_columns(t, names, force, ignore_missing, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: names(:)
            logical, intent(in), optional :: force, ignore_missing
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_copy_column(t, src, dst, to_kind, exact, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: src, dst
            integer, intent(in), optional :: to_kind
            logical, intent(in), optional :: exact
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine
    end interface

    ! Nulls, casts, removing rows and row masks: parquet_rows.f90 (submodule parquet_rows).
    interface
        module subroutine set_null_8(t, name, i, e, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: i
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_null_4(t, name, i, e, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: i
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_null_mask(t, name, mask, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            logical, intent(in) :: mask(:)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine set_null_mask_2(t, name, mask, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            logical, intent(in) :: mask(:, :)
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine clear_null_8(t, name, i, e, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int64), intent(in) :: i
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine clear_null_4(t, name, i, e, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer(int32), intent(in) :: i
            integer, intent(in), optional :: e
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_cast(t, name, to_kind, exact, found, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: name
            integer, intent(in) :: to_kind
            logical, intent(in), optional :: exact
            logical, intent(out), optional :: found
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine delete_rows_8(t, indices, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            integer(int64), intent(in) :: indices(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine delete_rows_4(t, indices, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            integer(int32), intent(in) :: indices(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine truncate_8(t, n, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            integer(int64), intent(in) :: n
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine truncate_4(t, n, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            integer(int32), intent(in) :: n
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine row_mask_rule(t, rule, keep, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: rule
            logical, allocatable, intent(out) :: keep(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine table_dropna(t, names, min_valid, how, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in), optional :: names(:)
            integer, intent(in), optional :: min_valid
            character(len=*), intent(in), optional :: how
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine filter_rows_mask(t, mask, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            logical, intent(in) :: mask(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine row_mask_filter(t, filter, keep, stat, errmsg)
            class(parquet_table), intent(inout) :: t
            type(parquet_filter), intent(in) :: filter
            logical, allocatable, intent(out) :: keep(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine
    end interface

    ! Writing: parquet_write.f90 (submodule parquet_write). The options are those of
    ! anchor-spec 7.1 that pqt_write_opts has (docs/fortran.md).
    interface
        ! qc= and release= where the anchor has them; qc_violations= (not in the anchor)
        ! counts the qc warnings.
        module subroutine parquet_write_table(t, file, row_mask, copy_metadata, metadata_keys, &
                                              write_maml, qc, compression, compression_level, &
                                              chunk_size, use_threads, overwrite, release, &
                                              row_index_name, maml, metadata, qc_violations, &
                                              stat, errmsg)
            class(parquet_table), intent(inout) :: t
            character(len=*), intent(in) :: file
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
        end subroutine

        module subroutine parquet_open_table_writer(out, file, template, copy_metadata, &
                                                    metadata_keys, write_maml, compression, &
                                                    compression_level, chunk_size, &
                                                    use_threads, overwrite, maml, metadata, &
                                                    stat, errmsg)
            type(parquet_table_writer), intent(inout) :: out
            character(len=*), intent(in) :: file
            class(parquet_table), intent(inout) :: template
            logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
            character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
            character(len=*), intent(in), optional :: compression, maml
            integer, intent(in), optional :: compression_level, chunk_size
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        ! The anchor's "derive the schema from t, open a writer": here t is the template.
        module subroutine parquet_open_writer_like(w, file, t, copy_metadata, metadata_keys, &
                                                   write_maml, compression, compression_level, &
                                                   chunk_size, use_threads, overwrite, maml, &
                                                   metadata, stat, errmsg)
            type(parquet_table_writer), intent(inout) :: w
            character(len=*), intent(in) :: file
            class(parquet_table), intent(inout) :: t
            logical, intent(in), optional :: copy_metadata, write_maml, use_threads, overwrite
            character(len=*), intent(in), optional :: metadata_keys(:), metadata(:)
            character(len=*), intent(in), optional :: compression, maml
            integer, intent(in), optional :: compression_level, chunk_size
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine writer_append(out, t, stat, errmsg)
            class(parquet_table_writer), intent(inout) :: out
            class(parquet_table), intent(inout) :: t
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        ! Sets the warning callback once (parquet_write.f90); in a submodule because
        ! gfortran emits no symbol for a private procedure of the module that other
        ! submodules could link to.
        module subroutine print_warnings()
        end subroutine

        module subroutine writer_append_row(out, row, stat, errmsg)
            class(parquet_table_writer), intent(inout) :: out
            type(parquet_table_row), intent(in) :: row
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine writer_flush(out, stat, errmsg)
            class(parquet_table_writer), intent(inout) :: out
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine parquet_write_table_chunk(out, t, row_mask, stat, errmsg)
            type(parquet_table_writer), intent(inout) :: out
            class(parquet_table), intent(inout) :: t
            logical, intent(in), optional :: row_mask(:)
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module integer(int64) function writer_nrows(out)
            class(parquet_table_writer), intent(in) :: out
        end function

        module subroutine parquet_close_table_writer(out, stat, errmsg)
            type(parquet_table_writer), intent(inout) :: out
            integer, intent(out), optional :: stat
            character(len=*), intent(inout), optional :: errmsg
        end subroutine

        module subroutine writer_abort(out)
            class(parquet_table_writer), intent(inout) :: out
        end subroutine

        module subroutine writer_assign(to, from)
            class(parquet_table_writer), intent(inout) :: to
            class(parquet_table_writer), intent(in) :: from
        end subroutine

        module subroutine writer_final(out)
            type(parquet_table_writer), intent(inout) :: out
        end subroutine
    end interface

contains

    ! ---------------------------------------------------------------- opening

    ! The whole file, with an optional read-time transform. An open table in t is closed first.
    subroutine open_whole(t, file, maml, filter, sort, qc, qc_soft, use_threads, &
                          sample_fraction, sample_seed, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        character(len=*), intent(in), optional :: maml
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_sortkey), intent(in), optional :: sort
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call open_table(t, file, .false., 0_int64, 0_int64, maml, filter, sort, qc, qc_soft, &
                        use_threads, sample_fraction, sample_seed, stat, errmsg)
    end subroutine

    ! Rows row_lo..row_hi of the file (1-based, inclusive, not clamped). No sort=: a sort
    ! reorders the whole file, so the rows asked for would not be the rows kept.
    subroutine open_slice_8(t, file, row_lo, row_hi, maml, filter, qc, qc_soft, use_threads, &
                            sample_fraction, sample_seed, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        integer(int64), intent(in) :: row_lo, row_hi
        character(len=*), intent(in), optional :: maml
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call open_table(t, file, .true., row_lo, row_hi, maml, filter, qc=qc, qc_soft=qc_soft, &
                        use_threads=use_threads, sample_fraction=sample_fraction, &
                        sample_seed=sample_seed, stat=stat, errmsg=errmsg)
    end subroutine

    subroutine open_slice_4(t, file, row_lo, row_hi, maml, filter, qc, qc_soft, use_threads, &
                            sample_fraction, sample_seed, stat, errmsg)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: file
        integer(int32), intent(in) :: row_lo, row_hi
        character(len=*), intent(in), optional :: maml
        type(parquet_filter), intent(in), optional :: filter
        type(parquet_read_qc), intent(in), optional :: qc
        logical, intent(in), optional :: qc_soft, use_threads
        real(real64), intent(in), optional :: sample_fraction
        integer, intent(in), optional :: sample_seed
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call open_table(t, file, .true., int(row_lo, int64), int(row_hi, int64), maml, filter, &
                        qc=qc, qc_soft=qc_soft, use_threads=use_threads, &
                        sample_fraction=sample_fraction, sample_seed=sample_seed, stat=stat, &
                        errmsg=errmsg)
    end subroutine

    subroutine open_table(t, file, slice, row_lo, row_hi, maml, filter, sort, qc, qc_soft, &
                          use_threads, sample_fraction, sample_seed, stat, errmsg)
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
        character(len=*), parameter :: proc = 'parquet_open_table'
        type(c_ptr) :: opts
        integer(c_int) :: st
        ! a message in a local first, as checked() builds its messages
        character(len=:), allocatable :: text
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
        if (st == PQT_OK) st = pqt_table_open(c_string(file), opts, t%h)
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

    ! bounds(1, rg), bounds(2, rg): first and last file row of row group rg, from the footer.
    subroutine parquet_table_row_group_bounds(file, bounds, stat, errmsg)
        character(len=*), intent(in) :: file
        integer(int64), allocatable, intent(out) :: bounds(:, :)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr) :: p
        integer(c_int) :: n
        allocate (bounds(2, 0))
        if (.not. checked(pqt_row_group_bounds(c_string(file), p, n), &
                          'parquet_table_row_group_bounds', stat, errmsg)) return
        call take_bounds(p, n, bounds)
    end subroutine

    ! Copy pqt's 2 * n bounds at p into bounds(2, n) and free p.
    subroutine take_bounds(p, n, bounds)
        type(c_ptr), intent(in) :: p
        integer(c_int), intent(in) :: n
        integer(int64), allocatable, intent(inout) :: bounds(:, :)
        integer(int64), pointer :: b(:, :)
        if (allocated(bounds)) deallocate (bounds)
        allocate (bounds(2, n))
        if (n > 0) then
            call c_f_pointer(p, b, [2, int(n)])
            bounds = b
        end if
        call pqt_free(p)
    end subroutine

    ! ---------------------------------------------------------------- lifetime

    subroutine table_close(t)
        class(parquet_table), intent(inout) :: t
        if (c_associated(t%h)) call pqt_table_close(t%h)
        t%h = c_null_ptr
    end subroutine

    subroutine table_final(t)
        type(parquet_table), intent(inout) :: t
        call t%close()
    end subroutine

    ! b = a would share one C table between two finalizers: refused (use %clone).
    subroutine table_assign(to, from)
        class(parquet_table), intent(inout) :: to
        class(parquet_table), intent(in) :: from
        if (c_associated(to%h) .or. c_associated(from%h) .or. .true.) &
            error stop 'parquet_table: assignment: a table cannot be assigned (b = a); use %clone'
    end subroutine

    ! A deep copy: resident columns copied, unread ones read later with the same transform.
    subroutine table_clone(t, out, stat, errmsg)
        class(parquet_table), intent(in) :: t
        class(parquet_table), intent(inout) :: out
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call out%close()
        if (.not. opened(t, 'clone', stat, errmsg)) return
        if (checked(pqt_table_clone(t%h, out%h), 'parquet_table: clone', stat, errmsg)) continue
    end subroutine


    ! ---------------------------------------------------------------- queries

    integer(int64) function table_nrows(t, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_nrows = 0
        if (opened(t, 'nrows', stat, errmsg)) table_nrows = pqt_table_nrows(t%h)
    end function

    integer(int64) function table_nrows_unfiltered(t, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_nrows_unfiltered = 0
        if (opened(t, 'nrows_unfiltered', stat, errmsg)) &
            table_nrows_unfiltered = pqt_table_nrows_unfiltered(t%h)
    end function

    integer(int64) function table_row_group_extent(t, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_row_group_extent = 0
        if (opened(t, 'row_group_extent', stat, errmsg)) &
            table_row_group_extent = pqt_table_row_group_extent(t%h)
    end function

    ! Per physical row group: this table's rows (default) or the file's (physical=.true.).
    subroutine table_row_group_bounds(t, bounds, physical, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer(int64), allocatable, intent(out) :: bounds(:, :)
        logical, intent(in), optional :: physical
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr) :: p
        integer(c_int) :: n, phys
        allocate (bounds(2, 0))
        if (.not. opened(t, 'row_group_bounds', stat, errmsg)) return
        phys = 0
        if (present(physical)) then
            if (physical) phys = 1
        end if
        if (.not. checked(pqt_table_row_group_bounds(t%h, phys, p, n), &
                          'parquet_table: row_group_bounds', stat, errmsg)) return
        call take_bounds(p, n, bounds)
    end subroutine

    integer function table_ncols(t, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_ncols = 0
        if (opened(t, 'ncols', stat, errmsg)) table_ncols = pqt_table_ncols(t%h)
    end function

    ! The column names in slot order, each padded to the longest.
    subroutine table_column_names(t, names, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=:), allocatable, intent(out) :: names(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: i, n
        integer :: longest
        allocate (character(len=0) :: names(0))
        if (.not. opened(t, 'column_names', stat, errmsg)) return
        n = pqt_table_ncols(t%h)
        longest = 0
        do i = 0, n - 1
            longest = max(longest, len(f_string(pqt_table_column_name(t%h, i))))
        end do
        deallocate (names)
        allocate (character(len=longest) :: names(n))
        do i = 0, n - 1
            names(i + 1) = f_string(pqt_table_column_name(t%h, i))
        end do
    end subroutine

    ! Can `name` be used? (.true. for parquet_row_index before it is built.)
    logical function table_has_column(t, name, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_has_column = .false.
        if (opened(t, 'has_column', stat, errmsg)) &
            table_has_column = pqt_table_has_column(t%h, c_string(name)) /= 0
    end function

    ! PK_* kind of a column (PK_NONE for one this library cannot read).
    integer function table_kind(t, name, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: k
        table_kind = PK_NONE
        if (.not. opened(t, 'kind', stat, errmsg)) return
        if (checked(pqt_table_kind(t%h, c_string(name), k), 'parquet_table: kind', stat, &
                    errmsg, found)) table_kind = pk_of(k)
    end function

    ! Values per row: 1 for a scalar, w for a vector, 0 for a variable-length list.
    integer function table_width(t, name, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: w
        table_width = 0
        if (.not. opened(t, 'width', stat, errmsg)) return
        if (checked(pqt_table_width(t%h, c_string(name), w), 'parquet_table: width', stat, &
                    errmsg, found)) table_width = w
    end function

    ! Physical unit of a column ("" when none), from a read-in MAML; reads nothing.
    subroutine table_unit(t, name, unit, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        character(len=:), allocatable, intent(out) :: unit
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr) :: p
        unit = ''
        if (.not. opened(t, 'unit', stat, errmsg)) return
        if (checked(pqt_table_unit(t%h, c_string(name), p), 'parquet_table: unit', stat, &
                    errmsg, found)) unit = f_string(p)
    end subroutine

    ! The value of one key of the source file's key-value metadata (as the file was at open;
    ! still there after a detach). found= turns a missing key into found = .false.; an
    ! in-memory table has no file (PQT_MISUSE).
    subroutine table_get_file_metadata(t, key, value, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: key
        character(len=:), allocatable, intent(out) :: value
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr) :: p
        integer(c_int) :: st
        value = ''
        if (.not. opened(t, 'get_file_metadata', stat, errmsg)) return
        st = pqt_table_meta_value(t%h, c_string(key), p)
        if (st == PQT_NOT_FOUND .and. .not. present(found)) then
            ! pqt sets no message for an absent key
            call fail(int(st), 'parquet_table: get_file_metadata: the file has no key-value '// &
                      "metadata key '"//trim(key)//"'", stat, errmsg)
            return
        end if
        if (checked(st, 'parquet_table: get_file_metadata', stat, errmsg, found)) &
            value = f_string(p)
    end subroutine

    ! PARQUET_UNIT_* of a time or timestamp column, -1 for other kinds.
    integer function table_time_unit(t, name, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: u
        table_time_unit = -1
        if (.not. opened(t, 'time_unit', stat, errmsg)) return
        if (checked(pqt_table_time_unit(t%h, c_string(name), u), 'parquet_table: time_unit', &
                    stat, errmsg, found)) table_time_unit = u
    end function

    ! RES_FULL once the column has been read, else RES_EMPTY.
    integer function table_residency(t, name, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: r
        table_residency = RES_EMPTY
        if (.not. opened(t, 'residency', stat, errmsg)) return
        if (checked(pqt_table_residency(t%h, c_string(name), r), 'parquet_table: residency', &
                    stat, errmsg, found)) table_residency = r
    end function

    ! .false. for a column whose type this library cannot read (MAP, binary, ...): it is
    ! listed, %kind is PK_NONE, and reading it is an error naming it.
    logical function table_is_supported(t, name, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: r
        table_is_supported = .false.
        if (.not. opened(t, 'is_supported', stat, errmsg)) return
        if (checked(pqt_table_is_supported(t%h, c_string(name), r), &
                    'parquet_table: is_supported', stat, errmsg, found)) table_is_supported = r /= 0
    end function

    ! .false.: no null for certain; .true.: nulls (resident column) or maybe (footer answer).
    logical function table_has_nulls(t, name, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: r
        table_has_nulls = .false.
        if (.not. opened(t, 'has_nulls', stat, errmsg)) return
        if (checked(pqt_table_has_nulls(t%h, c_string(name), r), 'parquet_table: has_nulls', &
                    stat, errmsg, found)) table_has_nulls = r /= 0
    end function

    ! The name at 1-based position j, or a failure like a missing name's ("" then).
    function name_at(t, proc, j, found, stat, errmsg) result(name)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: proc
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        character(len=12) :: a, n
        name = ''
        if (.not. opened(t, proc, stat, errmsg)) return
        name = f_string(pqt_table_column_name(t%h, int(j - 1, c_int)))
        if (len(name) > 0) return
        if (present(found)) then
            found = .false.
            return
        end if
        write (a, '(i0)') j
        write (n, '(i0)') pqt_table_ncols(t%h)
        call fail(PQT_NOT_FOUND, 'parquet_table: '//proc//': no column at position '//trim(a)// &
                  ' (the table has '//trim(n)//')', stat, errmsg)
    end function

    integer function kind_at(t, j, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        kind_at = PK_NONE
        name = name_at(t, 'kind', j, found, stat, errmsg)
        if (len(name) > 0) kind_at = table_kind(t, name, found, stat, errmsg)
    end function

    integer function width_at(t, j, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        width_at = 0
        name = name_at(t, 'width', j, found, stat, errmsg)
        if (len(name) > 0) width_at = table_width(t, name, found, stat, errmsg)
    end function

    subroutine unit_at(t, j, unit, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(in) :: j
        character(len=:), allocatable, intent(out) :: unit
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        unit = ''
        name = name_at(t, 'unit', j, found, stat, errmsg)
        if (len(name) > 0) call table_unit(t, name, unit, found, stat, errmsg)
    end subroutine

    integer function residency_at(t, j, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        residency_at = RES_EMPTY
        name = name_at(t, 'residency', j, found, stat, errmsg)
        if (len(name) > 0) residency_at = table_residency(t, name, found, stat, errmsg)
    end function

    logical function is_supported_at(t, j, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        is_supported_at = .false.
        name = name_at(t, 'is_supported', j, found, stat, errmsg)
        if (len(name) > 0) is_supported_at = table_is_supported(t, name, found, stat, errmsg)
    end function

    logical function has_nulls_at(t, j, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        has_nulls_at = .false.
        name = name_at(t, 'has_nulls', j, found, stat, errmsg)
        if (len(name) > 0) has_nulls_at = table_has_nulls(t, name, found, stat, errmsg)
    end function

    ! Counter bumped by every structural change (row handles compare it).
    integer(int64) function table_generation(t, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_generation = 0
        if (opened(t, 'generation', stat, errmsg)) table_generation = pqt_table_generation(t%h)
    end function

    logical function table_is_detached(t, stat, errmsg)
        class(parquet_table), intent(in) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        table_is_detached = .false.
        if (opened(t, 'is_detached', stat, errmsg)) &
            table_is_detached = pqt_table_is_detached(t%h) /= 0
    end function

    ! ---------------------------------------------------------------- residency

    ! Read the named columns now: "a,b;c" (blanks trimmed, empty names skipped).
    subroutine prefetch_text(t, names, found, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: names
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=len(names)), allocatable :: list(:)
        integer :: at, cut, n
        allocate (list(0))
        at = 1
        do while (at <= len(names))
            cut = scan(names(at:), ',;')
            if (cut == 0) cut = len(names) - at + 2
            if (len_trim(names(at:at + cut - 2)) > 0) then
                n = size(list)
                list = [character(len=len(names)) :: list, adjustl(names(at:at + cut - 2))]
            end if
            at = at + cut
        end do
        call prefetch_list(t, list, found, stat, errmsg)
    end subroutine

    subroutine prefetch_list(t, names, found, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: names(:)
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        if (.not. opened(t, 'prefetch', stat, errmsg)) return
        call c_string_array(names, buf, ptrs)
        if (checked(pqt_table_prefetch(t%h, ptrs, size(names, kind=c_int)), &
                    'parquet_table: prefetch', stat, errmsg, found)) continue
    end subroutine

    subroutine table_materialize_all(t, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (.not. opened(t, 'materialize_all', stat, errmsg)) return
        if (checked(pqt_table_materialize_all(t%h), 'parquet_table: materialize_all', stat, &
                    errmsg)) continue
    end subroutine

    ! Check every declared qc bound, leaving residency as it was.
    subroutine table_validate_qc(t, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (.not. opened(t, 'validate_qc', stat, errmsg)) return
        if (checked(pqt_table_validate_qc(t%h), 'parquet_table: validate_qc', stat, errmsg)) &
            continue
    end subroutine

    ! ---------------------------------------------------------------- changes

    ! Stable sort by keys in text form ("group, -mass"); nulls_first one flag per key.
    subroutine sort_by_text(t, keys, nulls_first, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: keys
        logical, intent(in), optional :: nulls_first(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int), allocatable, target :: nf(:)
        type(c_ptr) :: p
        if (.not. opened(t, 'sort_by', stat, errmsg)) return
        p = c_null_ptr
        if (present(nulls_first)) then
            nf = merge(1, 0, nulls_first)
            if (size(nf) > 0) p = c_loc(nf)
        end if
        if (checked(pqt_table_sort_by_text(t%h, c_string(keys), p), 'parquet_table: sort_by', &
                    stat, errmsg)) continue
    end subroutine

    ! Stable sort by an array of column names (taken literally).
    subroutine sort_by_list(t, keys, descending, nulls_first, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: keys(:)
        logical, intent(in), optional :: descending(:), nulls_first(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        integer(c_int) :: desc(size(keys)), nf(size(keys))
        if (.not. opened(t, 'sort_by', stat, errmsg)) return
        desc = 0
        nf = 0
        if (present(descending)) then
            if (size(descending) /= size(keys)) then
                call fail(PQT_MISUSE, 'parquet_table: sort_by: descending= needs one flag '// &
                          'per key', stat, errmsg)
                return
            end if
            desc = merge(1, 0, descending)
        end if
        if (present(nulls_first)) then
            if (size(nulls_first) /= size(keys)) then
                call fail(PQT_MISUSE, 'parquet_table: sort_by: nulls_first= needs one flag '// &
                          'per key', stat, errmsg)
                return
            end if
            nf = merge(1, 0, nulls_first)
        end if
        call c_string_array(keys, buf, ptrs)
        if (checked(pqt_table_sort_by(t%h, ptrs, size(keys, kind=c_int), desc, nf), &
                    'parquet_table: sort_by', stat, errmsg)) continue
    end subroutine

    subroutine table_drop_column(t, name, found, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (.not. opened(t, 'drop_column', stat, errmsg)) return
        if (checked(pqt_table_drop_column(t%h, c_string(name)), 'parquet_table: drop_column', &
                    stat, errmsg, found)) continue
    end subroutine

    ! Change the lookup name only; the file column read stays the same.
    subroutine table_rename_column(t, old_name, new_name, found, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: old_name, new_name
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (.not. opened(t, 'rename_column', stat, errmsg)) return
        if (checked(pqt_table_rename_column(t%h, c_string(old_name), c_string(new_name)), &
                    'parquet_table: rename_column', stat, errmsg, found)) continue
    end subroutine
end module parquet
