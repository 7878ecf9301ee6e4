! parquet_cells.f90 - submodule of parquet_change: values written into chosen rows of a
! fixed-width column, in place (%set_element, %set_slice), over
! pqt_table_set_rows. The values arrive as class(*) like %set's and must be of the column's
! exact stored type (raw_of and fits_column of parquet_change). Strings and variable-length
! lists are set whole (%set).
submodule(parquet:parquet_change) parquet_cells
    implicit none

contains

    ! Row i takes v and becomes present (a scalar column; one value).
    module procedure set_element_8
        type(raw_values) :: r
        select type (v)
        type is (integer(int32))
            call raw_of([v], r)
        type is (integer(int64))
            call raw_of([v], r)
        type is (real(real32))
            call raw_of([v], r)
        type is (real(real64))
            call raw_of([v], r)
        type is (logical)
            call raw_of([v], r)
        type is (character(len=*))
            r%kind = PQT_STRING
        class default
            r%kind = PQT_NONE
        end select
        call set_rows_raw(t, 'set_element', name, [i], r, 1, 1_int64, .true., found=found, &
                          stat=stat, errmsg=errmsg)
    end procedure set_element_8

    module procedure set_element_4
        call set_element_8(t, name, int(i, int64), v, found, stat, errmsg)
    end procedure set_element_4

    ! values(k) goes to row rows(k), in order (a row listed twice keeps its last value).
    ! The int32 and int64 rows forms each type the values (they cannot be passed on: see
    ! raw_of_empty).
    module procedure set_slice_1_8
        type(raw_values) :: r
        if (size(values) > 0) then
            call raw_of(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        call set_rows_raw(t, 'set_slice', name, rows, r, 1, size(values, kind=int64), &
                          modify(modify_nulls), is_valid, found, stat, errmsg)
    end procedure set_slice_1_8

    module procedure set_slice_1_4
        type(raw_values) :: r
        if (size(values) > 0) then
            call raw_of(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        call set_rows_raw(t, 'set_slice', name, int(rows, int64), r, 1, &
                          size(values, kind=int64), modify(modify_nulls), is_valid, found, &
                          stat, errmsg)
    end procedure set_slice_1_4

    ! values(:, k) (the column's width) go to row rows(k).
    module procedure set_slice_2_8
        type(raw_values) :: r
        if (size(values) > 0) then
            call raw_of_2(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        call set_rows_2(t, name, rows, r, shape(values), modify_nulls, is_valid, found, stat, &
                        errmsg)
    end procedure set_slice_2_8

    module procedure set_slice_2_4
        type(raw_values) :: r
        if (size(values) > 0) then
            call raw_of_2(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        call set_rows_2(t, name, int(rows, int64), r, shape(values), modify_nulls, is_valid, &
                        found, stat, errmsg)
    end procedure set_slice_2_4

    ! set_slice of rank-2 values of shape vshape (width, rows).
    subroutine set_rows_2(t, name, rows, r, vshape, modify_nulls, is_valid, found, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: name
        integer(int64), intent(in) :: rows(:)
        type(raw_values), intent(in) :: r
        integer, intent(in) :: vshape(2)
        logical, intent(in), optional :: modify_nulls
        logical, intent(in), optional :: is_valid(:, :)
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (present(is_valid)) then
            if (any(shape(is_valid) /= vshape)) then
                call fail(PQT_MISUSE, 'parquet_table: set_slice: is_valid= must have the '// &
                          'shape of the values', stat, errmsg)
                return
            end if
            call set_rows_raw(t, 'set_slice', name, rows, r, vshape(1), int(vshape(2), int64), &
                              modify(modify_nulls), reshape(is_valid, [size(is_valid)]), found, &
                              stat, errmsg)
        else
            call set_rows_raw(t, 'set_slice', name, rows, r, vshape(1), int(vshape(2), int64), &
                              modify(modify_nulls), found=found, stat=stat, errmsg=errmsg)
        end if
    end subroutine

    ! modify_nulls= defaults to .true.: a written value is present unless is_valid= says not.
    pure logical function modify(modify_nulls)
        logical, intent(in), optional :: modify_nulls
        modify = .true.
        if (present(modify_nulls)) modify = modify_nulls
    end function

    ! Values r of shape (width, n) into rows(1:n) of column name. is_valid .false. makes an
    ! element null; .true. (or absent) makes it present when modify_nulls, else leaves it.
    subroutine set_rows_raw(t, what, name, rows, r, width, n, modify_nulls, is_valid, found, &
                            stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: what, name
        integer(int64), intent(in) :: rows(:)
        type(raw_values), intent(in), target :: r
        integer, intent(in) :: width
        integer(int64), intent(in) :: n
        logical, intent(in) :: modify_nulls
        logical, intent(in), optional :: is_valid(:)
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: proc
        integer(int8), allocatable, target :: bits(:)
        type(c_ptr) :: vp, dp
        integer(c_size_t) :: nbytes
        logical :: ok
        proc = 'parquet_table: '//what
        if (.not. opened(t, what, stat, errmsg)) return
        if (.not. fits_column(t, name, r, width, n, size(rows, kind=int64), proc, found, stat, &
                              errmsg)) return
        if (r%kind == PQT_STRING) then
            call fail(PQT_KIND, proc//": column '"//trim(name)//"' holds strings, which are "// &
                      'set whole (%set)', stat, errmsg)
            return
        end if
        call validity_of(is_valid, width*n, bits, vp, ok, proc, stat, errmsg)
        if (.not. ok) return
        call raw_data(r, dp, nbytes)
        if (checked(pqt_table_set_rows(t%h, c_string(name), rows, size(rows, kind=c_int64_t), &
                                       dp, nbytes, vp, merge(1_c_int, 0_c_int, modify_nulls)), &
                    proc, stat, errmsg)) continue
    end subroutine
end submodule parquet_cells
