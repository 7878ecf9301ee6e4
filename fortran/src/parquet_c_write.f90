! parquet_c_write.f90 - the bind(C) interfaces of the pqt.h calls that change tables and write
! files (in-memory tables, mutations, top_n/argsort, reload/evict, lists, pqt_write_table and
! the streaming writer), with the write option numbers. Nothing here is for users: module
! parquet wraps them (parquet_change.f90, parquet_write.f90).
module parquet_c_write
    use, intrinsic :: iso_c_binding
    implicit none
    private :: c_ptr, c_int, c_int64_t, c_char, c_size_t

    ! pqt_wopt (include/pqt.h)
    integer(c_int), parameter :: PQT_WOPT_CODEC = 1, PQT_WOPT_CODEC_LEVEL = 2, &
        PQT_WOPT_ROW_GROUP_ROWS = 7, PQT_WOPT_THREADS = 15, PQT_WOPT_OVERWRITE = 16, &
        PQT_WOPT_ROW_INDEX_NAME = 17, PQT_WOPT_COPY_METADATA = 18, &
        PQT_WOPT_METADATA_KEY = 19, PQT_WOPT_METADATA = 20, PQT_WOPT_MAML = 21, &
        PQT_WOPT_WRITE_MAML = 23

    interface
        ! ---- write options, whole-table write, streaming writer ----
        function pqt_write_opts_new(ret) bind(c, name='pqt_write_opts_new')
            import :: c_ptr, c_int
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_write_opts_new
        end function
        subroutine pqt_write_opts_free(o) bind(c, name='pqt_write_opts_free')
            import :: c_ptr
            type(c_ptr), value :: o
        end subroutine
        function pqt_write_opts_set_int(o, opt, v) bind(c, name='pqt_write_opts_set_int')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: o
            integer(c_int), value :: opt
            integer(c_int64_t), value :: v
            integer(c_int) :: pqt_write_opts_set_int
        end function
        function pqt_write_opts_set_str(o, opt, v) bind(c, name='pqt_write_opts_set_str')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: o
            integer(c_int), value :: opt
            character(kind=c_char), intent(in) :: v(*)
            integer(c_int) :: pqt_write_opts_set_str
        end function
        function pqt_write_table(t, path, opts) bind(c, name='pqt_write_table')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
            integer(c_int) :: pqt_write_table
        end function
        function pqt_writer_open(ret, path, template, opts) bind(c, name='pqt_writer_open')
            import :: c_ptr, c_int, c_char
            type(c_ptr), intent(out) :: ret
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: template, opts
            integer(c_int) :: pqt_writer_open
        end function
        function pqt_writer_write(w, t) bind(c, name='pqt_writer_write')
            import :: c_ptr, c_int
            type(c_ptr), value :: w, t
            integer(c_int) :: pqt_writer_write
        end function
        function pqt_writer_nrows(w) bind(c, name='pqt_writer_nrows')
            import :: c_ptr, c_int64_t
            type(c_ptr), value :: w
            integer(c_int64_t) :: pqt_writer_nrows
        end function
        function pqt_writer_close(w) bind(c, name='pqt_writer_close')
            import :: c_ptr, c_int
            type(c_ptr), value :: w
            integer(c_int) :: pqt_writer_close
        end function
        subroutine pqt_writer_abort(w) bind(c, name='pqt_writer_abort')
            import :: c_ptr
            type(c_ptr), value :: w
        end subroutine

        ! ---- in-memory tables and changes ----
        function pqt_table_new(ret) bind(c, name='pqt_table_new')
            import :: c_ptr, c_int
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_table_new
        end function
        function pqt_table_add_column(t, name, kind, width, data, validity, nrows, unit) &
            bind(c, name='pqt_table_add_column')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: kind, width
            type(c_ptr), value :: data, validity
            integer(c_int64_t), value :: nrows
            character(kind=c_char), intent(in) :: unit(*)
            integer(c_int) :: pqt_table_add_column
        end function
        function pqt_table_add_list_column(t, name, kind, list_offsets, row_validity, data, &
                                           validity, nrows, unit) &
            bind(c, name='pqt_table_add_list_column')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: kind
            integer(c_int64_t), intent(in) :: list_offsets(*)
            type(c_ptr), value :: row_validity, data, validity
            integer(c_int64_t), value :: nrows
            character(kind=c_char), intent(in) :: unit(*)
            integer(c_int) :: pqt_table_add_list_column
        end function
        function pqt_table_add_string_list_column(t, name, list_offsets, row_validity, &
                                                  offsets, bytes, validity, nrows, unit) &
            bind(c, name='pqt_table_add_string_list_column')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), intent(in) :: list_offsets(*)
            type(c_ptr), value :: row_validity
            integer(c_int64_t), intent(in) :: offsets(*)
            type(c_ptr), value :: bytes, validity
            integer(c_int64_t), value :: nrows
            character(kind=c_char), intent(in) :: unit(*)
            integer(c_int) :: pqt_table_add_string_list_column
        end function
        function pqt_table_add_string_column(t, name, width, offsets, bytes, validity, &
                                                nrows, unit) &
            bind(c, name='pqt_table_add_string_column')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: width
            integer(c_int64_t), intent(in) :: offsets(*)
            type(c_ptr), value :: bytes, validity
            integer(c_int64_t), value :: nrows
            character(kind=c_char), intent(in) :: unit(*)
            integer(c_int) :: pqt_table_add_string_column
        end function
        function pqt_table_set(t, name, data, data_nbytes, validity) bind(c, name='pqt_table_set')
            import :: c_ptr, c_int, c_char, c_size_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            type(c_ptr), value :: data
            integer(c_size_t), value :: data_nbytes
            type(c_ptr), value :: validity
            integer(c_int) :: pqt_table_set
        end function
        function pqt_table_set_rows(t, name, rows, n, data, data_nbytes, validity, &
                                    modify_nulls) bind(c, name='pqt_table_set_rows')
            import :: c_ptr, c_int, c_char, c_int64_t, c_size_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), intent(in) :: rows(*)
            integer(c_int64_t), value :: n
            type(c_ptr), value :: data
            integer(c_size_t), value :: data_nbytes
            type(c_ptr), value :: validity
            integer(c_int), value :: modify_nulls
            integer(c_int) :: pqt_table_set_rows
        end function
        function pqt_table_set_strings(t, name, offsets, bytes, validity, list_offsets, &
                                       row_validity) bind(c, name='pqt_table_set_strings')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), intent(in) :: offsets(*)
            type(c_ptr), value :: bytes, validity, list_offsets, row_validity
            integer(c_int) :: pqt_table_set_strings
        end function
        function pqt_table_append(t, other) bind(c, name='pqt_table_append')
            import :: c_ptr, c_int
            type(c_ptr), value :: t, other
            integer(c_int) :: pqt_table_append
        end function
        function pqt_table_filter_rows_with(t, f) bind(c, name='pqt_table_filter_rows_with')
            import :: c_ptr, c_int
            type(c_ptr), value :: t, f
            integer(c_int) :: pqt_table_filter_rows_with
        end function
        function pqt_table_filter_rows(t, rule) bind(c, name='pqt_table_filter_rows')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: rule(*)
            integer(c_int) :: pqt_table_filter_rows
        end function
        function pqt_table_top_n_names(t, keys, nkeys, descending, nulls_first, n) &
            bind(c, name='pqt_table_top_n_names')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: keys(*)
            integer(c_int), value :: nkeys
            integer(c_int), intent(in) :: descending(*), nulls_first(*)
            integer(c_int64_t), value :: n
            integer(c_int) :: pqt_table_top_n_names
        end function
        function pqt_table_top_n(t, keys, nulls_first, n) bind(c, name='pqt_table_top_n')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: keys(*)
            type(c_ptr), value :: nulls_first
            integer(c_int64_t), value :: n
            integer(c_int) :: pqt_table_top_n
        end function
        function pqt_table_argsort_by_names(t, keys, nkeys, descending, nulls_first, perm, &
                                      group_offsets, group_nkeys, ngroups) &
            bind(c, name='pqt_table_argsort_by_names')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: keys(*)
            integer(c_int), value :: nkeys
            integer(c_int), intent(in) :: descending(*), nulls_first(*)
            type(c_ptr), value :: perm, group_offsets
            integer(c_int), value :: group_nkeys
            type(c_ptr), value :: ngroups
            integer(c_int) :: pqt_table_argsort_by_names
        end function
        function pqt_table_argsort_by(t, keys, nulls_first, perm, group_offsets, &
                                           group_nkeys, ngroups) &
            bind(c, name='pqt_table_argsort_by')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: keys(*)
            type(c_ptr), value :: nulls_first, perm, group_offsets
            integer(c_int), value :: group_nkeys
            type(c_ptr), value :: ngroups
            integer(c_int) :: pqt_table_argsort_by
        end function
        function pqt_table_reload(t, name, force) bind(c, name='pqt_table_reload')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: force
            integer(c_int) :: pqt_table_reload
        end function
        function pqt_table_evict(t, name, force) bind(c, name='pqt_table_evict')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: force
            integer(c_int) :: pqt_table_evict
        end function
        function pqt_table_get_list_alloc(t, name, to_kind, offsets, data, validity, &
                                          row_validity, nelem) &
            bind(c, name='pqt_table_get_list_alloc')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: to_kind
            type(c_ptr), value :: offsets, data, validity, row_validity
            integer(c_int64_t), intent(out) :: nelem
            integer(c_int) :: pqt_table_get_list_alloc
        end function

        ! ---- nulls, casts, removing rows, row masks (parquet_rows.f90) ----
        function pqt_table_set_null(t, name, row, elem) bind(c, name='pqt_table_set_null')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), value :: row
            integer(c_int), value :: elem
            integer(c_int) :: pqt_table_set_null
        end function
        function pqt_table_clear_null(t, name, row, elem) bind(c, name='pqt_table_clear_null')
            import :: c_ptr, c_int, c_char, c_int64_t
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int64_t), value :: row
            integer(c_int), value :: elem
            integer(c_int) :: pqt_table_clear_null
        end function
        function pqt_table_drop_columns(t, names, n, ignore_missing) &
            bind(c, name='pqt_table_drop_columns')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: names(*)
            integer(c_int), value :: n, ignore_missing
            integer(c_int) :: pqt_table_drop_columns
        end function
        function pqt_table_keep_columns(t, names, n) bind(c, name='pqt_table_keep_columns')
            import :: c_ptr, c_int
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: names(*)
            integer(c_int), value :: n
            integer(c_int) :: pqt_table_keep_columns
        end function
        function pqt_table_copy_column(t, src, dst, to_kind, exact) &
            bind(c, name='pqt_table_copy_column')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: src(*), dst(*)
            integer(c_int), value :: to_kind, exact
            integer(c_int) :: pqt_table_copy_column
        end function
        function pqt_table_cast(t, name, to_kind, exact) bind(c, name='pqt_table_cast')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: name(*)
            integer(c_int), value :: to_kind, exact
            integer(c_int) :: pqt_table_cast
        end function
        function pqt_table_delete_rows(t, rows, n) bind(c, name='pqt_table_delete_rows')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t
            integer(c_int64_t), intent(in) :: rows(*)
            integer(c_int64_t), value :: n
            integer(c_int) :: pqt_table_delete_rows
        end function
        function pqt_table_truncate(t, n) bind(c, name='pqt_table_truncate')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t
            integer(c_int64_t), value :: n
            integer(c_int) :: pqt_table_truncate
        end function
        function pqt_table_row_mask_with(t, f, keep) bind(c, name='pqt_table_row_mask_with')
            import :: c_ptr, c_int
            type(c_ptr), value :: t, f, keep
            integer(c_int) :: pqt_table_row_mask_with
        end function
        function pqt_table_row_mask(t, rule, keep) bind(c, name='pqt_table_row_mask')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t
            character(kind=c_char), intent(in) :: rule(*)
            type(c_ptr), value :: keep
            integer(c_int) :: pqt_table_row_mask
        end function

        ! ---- rows a caller selects; row groups cut on request (table_keep.c, write_rows.c) ----
        function pqt_table_filter_rows_mask(t, keep) bind(c, name='pqt_table_filter_rows_mask')
            import :: c_ptr, c_int
            type(c_ptr), value :: t, keep
            integer(c_int) :: pqt_table_filter_rows_mask
        end function
        ! names: the address of n C strings' pointers, or NULL (the resident columns)
        function pqt_table_dropna(t, names, n, min_valid) bind(c, name='pqt_table_dropna')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t, names
            integer(c_int), value :: n
            integer(c_int64_t), value :: min_valid
            integer(c_int) :: pqt_table_dropna
        end function
        function pqt_write_table_mask(t, keep, path, opts) bind(c, name='pqt_write_table_mask')
            import :: c_ptr, c_int, c_char
            type(c_ptr), value :: t, keep
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
            integer(c_int) :: pqt_write_table_mask
        end function
        function pqt_writer_flush(w) bind(c, name='pqt_writer_flush')
            import :: c_ptr, c_int
            type(c_ptr), value :: w
            integer(c_int) :: pqt_writer_flush
        end function
        function pqt_writer_write_chunk(w, t, keep) bind(c, name='pqt_writer_write_chunk')
            import :: c_ptr, c_int
            type(c_ptr), value :: w, t, keep
            integer(c_int) :: pqt_writer_write_chunk
        end function
        function pqt_table_check_qc(t, qc, keep, nwarnings) bind(c, name='pqt_table_check_qc')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t, qc, keep
            integer(c_int64_t), intent(out) :: nwarnings
            integer(c_int) :: pqt_table_check_qc
        end function
        function pqt_table_copy_rows(t, names, n, row_lo, row_hi, ret) &
            bind(c, name='pqt_table_copy_rows')
            import :: c_ptr, c_int, c_int64_t
            type(c_ptr), value :: t
            type(c_ptr), intent(in) :: names(*)
            integer(c_int), value :: n
            integer(c_int64_t), value :: row_lo, row_hi
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_table_copy_rows
        end function
    end interface
end module parquet_c_write
