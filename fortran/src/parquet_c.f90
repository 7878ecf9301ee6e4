! parquet_c.f90 - the bind(C) interfaces of the pqt.h calls the Fortran module `parquet` uses.
! Nothing here is for users: module parquet wraps every call with Fortran types, optional
! arguments and stat=/errmsg=. Statuses and kinds are the numbers of include/pqt.h.
module parquet_c
    use, intrinsic :: iso_c_binding
    implicit none
    private :: c_ptr, c_funptr, c_int, c_int64_t, c_char, c_double, c_size_t

    ! pqt_status numbers used by the binding itself (include/pqt.h, PQT_STATUS_LIST)
    integer(c_int), parameter :: PQT_OK = 0, PQT_NOT_FOUND = 1, PQT_MISUSE = 50, &
        PQT_RANGE = 51, PQT_KIND = 52, PQT_PARALLEL = 53
    ! pqt_kind
    integer(c_int), parameter :: PQT_NONE = 0, PQT_INT32 = 1, PQT_INT64 = 2, PQT_FLOAT32 = 3, &
        PQT_FLOAT64 = 4, PQT_BOOL = 5, PQT_STRING = 6, PQT_DATE = 7, PQT_TIME = 8, &
        PQT_TIMESTAMP = 9, PQT_UINT64 = 10, PQT_BINARY = 12, PQT_VECTOR = 32, PQT_LIST = 64
    ! pqt_opt
    integer(c_int), parameter :: PQT_OPT_THREADS = 1, PQT_OPT_ROW_LO = 4, PQT_OPT_ROW_HI = 5, &
        PQT_OPT_SAMPLE_FRACTION = 14, PQT_OPT_SAMPLE_SEED = 15, PQT_OPT_QC_SOFT = 16

    ! pqt_column_view, field for field (include/pqt.h)
    type, bind(c) :: pqt_column_view
        integer(c_size_t) :: struct_size = 0
        integer(c_int) :: kind = 0, width = 0, time_unit = 0
        integer(c_int64_t) :: nrows = 0, nelem = 0
        type(c_ptr) :: data = c_null_ptr, validity = c_null_ptr, row_validity = c_null_ptr, &
            str_offsets = c_null_ptr, str_bytes = c_null_ptr, list_offsets = c_null_ptr, &
            unit = c_null_ptr
        integer(c_int64_t) :: generation = 0
    end type

    interface
        function pqt_errmsg() bind(c, name='pqt_errmsg')
            import :: c_ptr
            type(c_ptr) :: pqt_errmsg
        end function
        function c_strlen(s) bind(c, name='strlen')
            import :: c_ptr, c_size_t
            type(c_ptr), value :: s
            integer(c_size_t) :: c_strlen
        end function
        subroutine pqt_free(p) bind(c, name='pqt_free')
            import :: c_ptr
            type(c_ptr), value :: p
        end subroutine

        subroutine pqt_set_warning_callback(fn, user) bind(c, name='pqt_set_warning_callback')
            import :: c_funptr, c_ptr
            type(c_funptr), value :: fn
            type(c_ptr), value :: user
        end subroutine

        ! ---- options ----
        function pqt_opts_new(ret) bind(c, name='pqt_opts_new')
            import :: c_ptr, c_int
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_opts_new
        end function
        subroutine pqt_opts_free(o) bind(c, name='pqt_opts_free')
            import :: c_ptr
            type(c_ptr), value :: o
        end subroutine
        function pqt_opts_set_int(o, opt, v) bind(c, name='pqt_opts_set_int')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: o
            integer(c_int), value :: opt
            integer(c_int64_t), value :: v
            integer(c_int) :: pqt_opts_set_int
        end function
        function pqt_opts_set_double(o, opt, v) bind(c, name='pqt_opts_set_double')
            import :: c_ptr, c_int, c_double
            type(c_ptr), value :: o
            integer(c_int), value :: opt
            real(c_double), value :: v
            integer(c_int) :: pqt_opts_set_double
        end function
        function pqt_opts_set_filter(o, f) bind(c, name='pqt_opts_set_filter')
            import :: c_ptr, c_int
            type(c_ptr), value :: o, f
            integer(c_int) :: pqt_opts_set_filter
        end function
        function pqt_opts_set_qc(o, q) bind(c, name='pqt_opts_set_qc')
            import :: c_ptr, c_int
            type(c_ptr), value :: o, q
            integer(c_int) :: pqt_opts_set_qc
        end function
        function pqt_opts_set_sort(o, keys) bind(c, name='pqt_opts_set_sort')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: o
            character(kind=c_char), intent(in) :: keys(*)
            integer(c_int) :: pqt_opts_set_sort
        end function
        function pqt_opts_set_maml(o, path) bind(c, name='pqt_opts_set_maml')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: o
            character(kind=c_char), intent(in) :: path(*)
            integer(c_int) :: pqt_opts_set_maml
        end function

        ! ---- filters and qc ----
        function pqt_filter_new(ret) bind(c, name='pqt_filter_new')
            import :: c_ptr, c_int
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_filter_new
        end function
        subroutine pqt_filter_free(f) bind(c, name='pqt_filter_free')
            import :: c_ptr
            type(c_ptr), value :: f
        end subroutine
        subroutine pqt_filter_clear(f) bind(c, name='pqt_filter_clear')
            import :: c_ptr
            type(c_ptr), value :: f
        end subroutine
        function pqt_filter_add(f, rule) bind(c, name='pqt_filter_add')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: f
            character(kind=c_char), intent(in) :: rule(*)
            integer(c_int) :: pqt_filter_add
        end function
        function pqt_filter_add_in(f, column, kind, values, n, valid, negate) &
            bind(c, name='pqt_filter_add_in')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: f
            character(kind=c_char), intent(in) :: column(*)
            integer(c_int), value :: kind
            type(c_ptr), value :: values
            integer(c_int64_t), value :: n
            type(c_ptr), value :: valid
            integer(c_int), value :: negate
            integer(c_int) :: pqt_filter_add_in
        end function
        function pqt_filter_bind(f, name, kind, values, n, valid) bind(c, name='pqt_filter_bind')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: f
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: kind
            type(c_ptr), value :: values
            integer(c_int64_t), value :: n
            type(c_ptr), value :: valid
            integer(c_int) :: pqt_filter_bind
        end function
        function pqt_qc_new(ret) bind(c, name='pqt_qc_new')
            import :: c_ptr, c_int
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_qc_new
        end function
        subroutine pqt_qc_free(q) bind(c, name='pqt_qc_free')
            import :: c_ptr
            type(c_ptr), value :: q
        end subroutine
        subroutine pqt_qc_clear(q) bind(c, name='pqt_qc_clear')
            import :: c_ptr
            type(c_ptr), value :: q
        end subroutine
        function pqt_qc_add(q, rule) bind(c, name='pqt_qc_add')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: q
            character(kind=c_char), intent(in) :: rule(*)
            integer(c_int) :: pqt_qc_add
        end function

        ! ---- the table ----
        function pqt_row_group_bounds(path, bounds, n) bind(c, name='pqt_row_group_bounds')
            import :: c_ptr, c_int, c_char
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), intent(out) :: bounds
            integer(c_int), intent(out) :: n
            integer(c_int) :: pqt_row_group_bounds
        end function
        function pqt_table_open(path, opts, ret) bind(c, name='pqt_table_open')
            import :: c_ptr, c_int, c_char
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_table_open
        end function
        subroutine pqt_table_close(t) bind(c, name='pqt_table_close')
            import :: c_ptr
            type(c_ptr), value :: t
        end subroutine
        function pqt_table_clone(t, ret) bind(c, name='pqt_table_clone')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_table_clone
        end function
        function pqt_table_nrows(t) bind(c, name='pqt_table_nrows')
            import :: c_ptr, c_int64_t
            type(c_ptr), value :: t
            integer(c_int64_t) :: pqt_table_nrows
        end function
        function pqt_table_nrows_unfiltered(t) bind(c, name='pqt_table_nrows_unfiltered')
            import :: c_ptr, c_int64_t
            type(c_ptr), value :: t
            integer(c_int64_t) :: pqt_table_nrows_unfiltered
        end function
        function pqt_table_row_group_extent(t) bind(c, name='pqt_table_row_group_extent')
            import :: c_ptr, c_int64_t
            type(c_ptr), value :: t
            integer(c_int64_t) :: pqt_table_row_group_extent
        end function
        function pqt_table_generation(t) bind(c, name='pqt_table_generation')
            import :: c_ptr, c_int64_t
            type(c_ptr), value :: t
            integer(c_int64_t) :: pqt_table_generation ! uint64_t, compared only
        end function
        function pqt_table_is_detached(t) bind(c, name='pqt_table_is_detached')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            integer(c_int) :: pqt_table_is_detached
        end function
        function pqt_table_ncols(t) bind(c, name='pqt_table_ncols')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            integer(c_int) :: pqt_table_ncols
        end function
        function pqt_table_column_name(t, i) bind(c, name='pqt_table_column_name')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            integer(c_int), value :: i
            type(c_ptr) :: pqt_table_column_name
        end function
        function pqt_table_has_column(t, name) bind(c, name='pqt_table_has_column')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int) :: pqt_table_has_column
        end function
        function pqt_table_kind(t, name, ret) bind(c, name='pqt_table_kind')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_kind
        end function
        function pqt_table_is_supported(t, name, ret) bind(c, name='pqt_table_is_supported')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_is_supported
        end function
        function pqt_table_has_nulls(t, name, ret) bind(c, name='pqt_table_has_nulls')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_has_nulls
        end function
        function pqt_table_width(t, name, ret) bind(c, name='pqt_table_width')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_width
        end function
        function pqt_table_time_unit(t, name, ret) bind(c, name='pqt_table_time_unit')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_time_unit
        end function
        function pqt_table_unit(t, name, ret) bind(c, name='pqt_table_unit')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_table_unit
        end function
        function pqt_table_residency(t, name, ret) bind(c, name='pqt_table_residency')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_residency
        end function
        function pqt_table_row_group_bounds(t, physical, bounds, n) &
            bind(c, name='pqt_table_row_group_bounds')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            integer(c_int), value :: physical
            type(c_ptr), intent(out) :: bounds
            integer(c_int), intent(out) :: n
            integer(c_int) :: pqt_table_row_group_bounds
        end function
        function pqt_table_prefetch(t, names, n) bind(c, name='pqt_table_prefetch')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: names(*)
            integer(c_int), value :: n
            integer(c_int) :: pqt_table_prefetch
        end function
        function pqt_table_materialize_all(t) bind(c, name='pqt_table_materialize_all')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            integer(c_int) :: pqt_table_materialize_all
        end function
        function pqt_table_validate_qc(t) bind(c, name='pqt_table_validate_qc')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            integer(c_int) :: pqt_table_validate_qc
        end function
        function pqt_table_get(t, name, to_kind, dst, dst_nbytes, validity, validity_nbytes) &
            bind(c, name='pqt_table_get')
            import :: c_ptr, c_int, c_char, c_size_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: to_kind
            type(c_ptr), value :: dst
            integer(c_size_t), value :: dst_nbytes
            type(c_ptr), value :: validity
            integer(c_size_t), value :: validity_nbytes
            integer(c_int) :: pqt_table_get
        end function
        function pqt_table_get_rows(t, name, rows, n, to_kind, dst, dst_nbytes, validity, &
                                    validity_nbytes) bind(c, name='pqt_table_get_rows')
            import :: c_ptr, c_int, c_char, c_size_t, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), intent(in) :: rows(*)
            integer(c_int64_t), value :: n
            integer(c_int), value :: to_kind
            type(c_ptr), value :: dst
            integer(c_size_t), value :: dst_nbytes
            type(c_ptr), value :: validity
            integer(c_size_t), value :: validity_nbytes
            integer(c_int) :: pqt_table_get_rows
        end function
        function pqt_table_get_strings_alloc(t, name, offsets, bytes, validity, nelem) &
            bind(c, name='pqt_table_get_strings_alloc')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            type(c_ptr), intent(out) :: offsets, bytes, validity
            integer(c_int64_t), intent(out) :: nelem
            integer(c_int) :: pqt_table_get_strings_alloc
        end function
        function pqt_table_column(t, name, expect_kind, view) bind(c, name='pqt_table_column')
            import :: c_ptr, c_int, c_char, pqt_column_view
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: expect_kind
            type(pqt_column_view), intent(inout) :: view
            integer(c_int) :: pqt_table_column
        end function
        function pqt_kind_name(kind) bind(c, name='pqt_kind_name')
            import :: c_ptr, c_int
            integer(c_int), value :: kind
            type(c_ptr) :: pqt_kind_name
        end function
        function pqt_table_is_null(t, name, row, elem, ret) bind(c, name='pqt_table_is_null')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), value :: row
            integer(c_int), value :: elem
            integer(c_int), intent(out) :: ret
            integer(c_int) :: pqt_table_is_null
        end function
        function pqt_table_get_value(t, name, row, elem, to_kind, dst, dst_nbytes, is_null) &
            bind(c, name='pqt_table_get_value')
            import :: c_ptr, c_int, c_char, c_int64_t, c_size_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), value :: row
            integer(c_int), value :: elem, to_kind
            type(c_ptr), value :: dst
            integer(c_size_t), value :: dst_nbytes
            integer(c_int), intent(out) :: is_null
            integer(c_int) :: pqt_table_get_value
        end function
        function pqt_table_get_string(t, name, row, elem, ptr, len, is_null) &
            bind(c, name='pqt_table_get_string')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), value :: row
            integer(c_int), value :: elem
            type(c_ptr), intent(out) :: ptr
            integer(c_int64_t), intent(out) :: len
            integer(c_int), intent(out) :: is_null
            integer(c_int) :: pqt_table_get_string
        end function
        function pqt_table_meta_value(t, key, value) bind(c, name='pqt_table_meta_value')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: key(*)
            type(c_ptr), intent(out) :: value
            integer(c_int) :: pqt_table_meta_value
        end function
        function pqt_table_drop_column(t, name) bind(c, name='pqt_table_drop_column')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int) :: pqt_table_drop_column
        end function
        function pqt_table_rename_column(t, old, new) bind(c, name='pqt_table_rename_column')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: old(*), new(*)
            integer(c_int) :: pqt_table_rename_column
        end function
        function pqt_table_sort_by_names(t, keys, nkeys, descending, nulls_first) &
            bind(c, name='pqt_table_sort_by_names')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: keys(*)
            integer(c_int), value :: nkeys
            integer(c_int), intent(in) :: descending(*), nulls_first(*)
            integer(c_int) :: pqt_table_sort_by_names
        end function
        function pqt_table_sort_by(t, keys, nulls_first) bind(c, name='pqt_table_sort_by')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: keys(*)
            type(c_ptr), value :: nulls_first
            integer(c_int) :: pqt_table_sort_by
        end function

        ! lists of lists (pqt_table_get_nested_list and the pqt_nested_list accessors)
        function pqt_table_get_nested_list(t, name, ret) bind(c, name='pqt_table_get_nested_list')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_table_get_nested_list
        end function
        subroutine pqt_nested_list_free(n) bind(c, name='pqt_nested_list_free')
            import :: c_ptr
            type(c_ptr), value :: n
        end subroutine
        function pqt_nested_list_nlevels(n) bind(c, name='pqt_nested_list_nlevels')
            import :: c_ptr, c_int
            type(c_ptr), value :: n
            integer(c_int) :: pqt_nested_list_nlevels
        end function
        function pqt_nested_list_kind(n) bind(c, name='pqt_nested_list_kind')
            import :: c_ptr, c_int
            type(c_ptr), value :: n
            integer(c_int) :: pqt_nested_list_kind
        end function
        function pqt_nested_list_count(n, level) bind(c, name='pqt_nested_list_count')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: n
            integer(c_int), value :: level
            integer(c_int64_t) :: pqt_nested_list_count
        end function
        function pqt_nested_list_offsets(n, level) bind(c, name='pqt_nested_list_offsets')
            import :: c_ptr, c_int
            type(c_ptr), value :: n
            integer(c_int), value :: level
            type(c_ptr) :: pqt_nested_list_offsets
        end function
        function pqt_nested_list_list_validity(n, level) &
            bind(c, name='pqt_nested_list_list_validity')
            import :: c_ptr, c_int
            type(c_ptr), value :: n
            integer(c_int), value :: level
            type(c_ptr) :: pqt_nested_list_list_validity
        end function
        function pqt_nested_list_nvalues(n) bind(c, name='pqt_nested_list_nvalues')
            import :: c_ptr, c_int64_t
            type(c_ptr), value :: n
            integer(c_int64_t) :: pqt_nested_list_nvalues
        end function
        function pqt_nested_list_values(n) bind(c, name='pqt_nested_list_values')
            import :: c_ptr
            type(c_ptr), value :: n
            type(c_ptr) :: pqt_nested_list_values
        end function
        function pqt_nested_list_validity(n) bind(c, name='pqt_nested_list_validity')
            import :: c_ptr
            type(c_ptr), value :: n
            type(c_ptr) :: pqt_nested_list_validity
        end function
    end interface
end module parquet_c
