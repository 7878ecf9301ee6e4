! parquet_rows.f90 - submodule of module parquet: nulls (%set_null, %clear_null), numeric
! casts (%cast), removing rows (%delete_rows, %truncate, %dropna) and selections that change
! nothing (%row_mask), over pqt_table_set_null / _clear_null / _cast / _delete_rows /
! _truncate / _dropna / _row_mask.
submodule(parquet) parquet_rows
    implicit none

contains

    ! ---------------------------------------------------------------- nulls

    ! Row i (e absent: every element of it; e >= 1: that element) becomes null. On a
    ! variable-length list row without e, the row becomes a null list (its elements go).
    module procedure set_null_8
        integer(c_int) :: elem
        if (.not. opened(t, 'set_null', stat, errmsg)) return
        elem = 0
        if (present(e)) elem = e
        if (checked(pqt_table_set_null(t%h, c_string(name), i, elem), 'parquet_table: set_null', &
                    stat, errmsg, found)) continue
    end procedure set_null_8

    module procedure set_null_4
        call set_null_8(t, name, int(i, int64), e, found, stat, errmsg)
    end procedure set_null_4

    ! The mask form only adds nulls: mask(i) .false. nulls row i (every element of a vector
    ! row, a whole list row); .true. leaves the row as it is.
    module procedure set_null_mask
        character(len=*), parameter :: proc = 'parquet_table: set_null'
        integer(c_int) :: k
        integer(int64) :: i, n
        character(len=24) :: a, b
        if (.not. opened(t, 'set_null', stat, errmsg)) return
        if (.not. checked(pqt_table_kind(t%h, c_string(name), k), proc, stat, errmsg, found)) &
            return
        n = pqt_table_nrows(t%h)
        if (size(mask, kind=int64) /= n) then
            write (a, '(i0)') size(mask, kind=int64)
            write (b, '(i0)') n
            call fail(PQT_MISUSE, proc//": column '"//trim(name)//"': the mask has "// &
                      trim(a)//' flags for '//trim(b)//' rows', stat, errmsg)
            return
        end if
        do i = 1, n
            if (mask(i)) cycle
            if (.not. checked(pqt_table_set_null(t%h, c_string(name), i, 0_c_int), proc, stat, &
                              errmsg)) return
        end do
    end procedure set_null_mask

    ! mask(e, i) .false. nulls element e of row i; the shape is the column's (width, nrows).
    module procedure set_null_mask_2
        character(len=*), parameter :: proc = 'parquet_table: set_null'
        integer(c_int) :: k, w
        integer(int64) :: i, n
        integer :: e
        character(len=80) :: have, want
        if (.not. opened(t, 'set_null', stat, errmsg)) return
        if (.not. checked(pqt_table_kind(t%h, c_string(name), k), proc, stat, errmsg, found)) &
            return
        if (iand(k, PQT_LIST) /= 0) then
            call fail(PQT_KIND, proc//": column '"//trim(name)//"' is a variable-length "// &
                      'list: a rank-2 mask needs a fixed width (use a rank-1 mask for rows, '// &
                      'or set_null(name, i, e) per element)', stat, errmsg)
            return
        end if
        if (.not. checked(pqt_table_width(t%h, c_string(name), w), proc, stat, errmsg)) return
        n = pqt_table_nrows(t%h)
        if (size(mask, 1) /= w .or. size(mask, 2, kind=int64) /= n) then
            write (have, '(a,i0,a,i0,a)') '(', size(mask, 1), ', ', size(mask, 2, kind=int64), ')'
            write (want, '(a,i0,a,i0,a)') '(', w, ', ', n, ')'
            call fail(PQT_MISUSE, proc//": column '"//trim(name)//"' needs a mask of shape "// &
                      trim(want)//'; the mask is '//trim(have), stat, errmsg)
            return
        end if
        do i = 1, n
            do e = 1, w
                if (mask(e, i)) cycle
                if (.not. checked(pqt_table_set_null(t%h, c_string(name), i, int(e, c_int)), &
                                  proc, stat, errmsg)) return
            end do
        end do
    end procedure set_null_mask_2

    ! Row i (or its element e) becomes present; an element that was null reads 0 (a
    ! string: the string it held), a null list row becomes an empty list.
    module procedure clear_null_8
        integer(c_int) :: elem
        if (.not. opened(t, 'clear_null', stat, errmsg)) return
        elem = 0
        if (present(e)) elem = e
        if (checked(pqt_table_clear_null(t%h, c_string(name), i, elem), &
                    'parquet_table: clear_null', stat, errmsg, found)) continue
    end procedure clear_null_8

    module procedure clear_null_4
        call clear_null_8(t, name, int(i, int64), e, found, stat, errmsg)
    end procedure clear_null_4

    ! ---------------------------------------------------------------- cast

    ! to_kind: PK_INT32, PK_INT64, PK_FLOAT32 or PK_FLOAT64 (a vector kind names its element).
    ! exact (default .true., as parquet-fortran's copy_column): a value the new kind cannot hold
    ! (1.5 to an integer, 2^40 to int32, NaN to an integer) is PQT_OVERFLOW naming the row;
    ! .false. converts with C's rules.
    module procedure table_cast
        integer(c_int) :: k, ex
        if (.not. opened(t, 'cast', stat, errmsg)) return
        k = int(to_kind, c_int)
        if (k > 10 .and. k < 20) k = k - 10
        ex = 1
        if (present(exact)) ex = merge(1, 0, exact)
        if (checked(pqt_table_cast(t%h, c_string(name), k, ex), 'parquet_table: cast', stat, &
                    errmsg, found)) continue
    end procedure table_cast

    ! ---------------------------------------------------------------- removing rows

    ! Rows listed (any order; a row listed twice goes once) are removed; every index is
    ! checked first (PQT_RANGE naming the first bad one, nothing removed).
    module procedure delete_rows_8
        if (.not. opened(t, 'delete_rows', stat, errmsg)) return
        if (checked(pqt_table_delete_rows(t%h, indices, size(indices, kind=c_int64_t)), &
                    'parquet_table: delete_rows', stat, errmsg)) continue
    end procedure delete_rows_8

    module procedure delete_rows_4
        call delete_rows_8(t, int(indices, int64), stat, errmsg)
    end procedure delete_rows_4

    ! Keep the first n rows (n >= nrows changes nothing; n < 0 is PQT_MISUSE).
    module procedure truncate_8
        if (.not. opened(t, 'truncate', stat, errmsg)) return
        if (checked(pqt_table_truncate(t%h, n), 'parquet_table: truncate', stat, errmsg)) continue
    end procedure truncate_8

    module procedure truncate_4
        call truncate_8(t, int(n, int64), stat, errmsg)
    end procedure truncate_4

    ! ---------------------------------------------------------------- row masks

    ! keep(i): row i passes the rule; the table's rows do not change (columns the rule
    ! names are read if they were not).
    module procedure row_mask_rule
        integer(int8), allocatable, target :: bytes(:)
        allocate (keep(0))
        if (.not. opened(t, 'row_mask', stat, errmsg)) return
        allocate (bytes(max(1_int64, pqt_table_nrows(t%h))))
        if (checked(pqt_table_row_mask(t%h, c_string(rule), c_loc(bytes)), &
                    'parquet_table: row_mask', stat, errmsg)) &
            keep = bytes(1:pqt_table_nrows(t%h)) /= 0
    end procedure row_mask_rule

    ! Keep the rows whose mask(i) is .true. (one flag per row); as %filter_rows(rule), a
    ! table still attached to its file stays attached, and keeping every row changes nothing.
    module procedure filter_rows_mask
        integer(int8), allocatable, target :: bytes(:)
        character(len=*), parameter :: proc = 'parquet_table: filter_rows'
        if (.not. opened(t, 'filter_rows', stat, errmsg)) return
        if (.not. mask_bytes(mask, pqt_table_nrows(t%h), bytes, proc, stat, errmsg)) return
        if (checked(pqt_table_filter_rows_mask(t%h, c_loc(bytes)), proc, stat, errmsg)) continue
    end procedure filter_rows_mask

    ! Remove rows with nulls among names (absent or empty: the columns resident now; named
    ! ones are read): how="any" (default) a row with any null, how="all" a row null in every one, or
    ! min_valid=k a row with fewer than k present (not with how=). As %filter_rows(mask), a
    ! table attached to its file in file order stays attached.
    module procedure table_dropna
        character(len=*), parameter :: proc = 'parquet_table: dropna'
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        type(c_ptr) :: np
        integer(c_int64_t) :: need
        integer(c_int) :: st, n
        if (.not. opened(t, 'dropna', stat, errmsg)) return
        need = -1
        if (present(min_valid) .and. present(how)) then
            call fail(PQT_MISUSE, proc//': min_valid= and how= exclude each other', stat, errmsg)
            return
        else if (present(min_valid)) then
            if (min_valid < 0) then
                call fail(PQT_MISUSE, proc//': min_valid= must be 0 or more', stat, errmsg)
                return
            end if
            need = min_valid
        else if (present(how)) then
            if (how == 'all') then
                need = 1
            else if (how /= 'any') then
                call fail(PQT_MISUSE, proc//": how='"//trim(how)//"' is not 'any' or 'all'", &
                          stat, errmsg)
                return
            end if
        end if
        ! no names at all acts as names= absent: gfortran passes a zero-size constructor
        ! ([character(len=1) ::]) as an absent argument, so the two cannot be told apart
        np = c_null_ptr
        n = 0
        if (present(names)) then
            if (size(names) > 0) then
                call c_string_array(names, buf, ptrs)
                np = c_loc(ptrs)
                n = size(names, kind=c_int)
            end if
        end if
        st = pqt_table_dropna(t%h, np, n, need)
        if (checked(st, proc, stat, errmsg)) continue
    end procedure table_dropna

    ! A filter without rules passes every row.
    module procedure row_mask_filter
        integer(int8), allocatable, target :: bytes(:)
        allocate (keep(0))
        if (.not. opened(t, 'row_mask', stat, errmsg)) return
        if (.not. c_associated(filter%h)) then
            deallocate (keep)
            allocate (keep(pqt_table_nrows(t%h)))
            keep = .true.
            return
        end if
        allocate (bytes(max(1_int64, pqt_table_nrows(t%h))))
        if (checked(pqt_table_row_mask_with(t%h, filter%h, c_loc(bytes)), 'parquet_table: row_mask', &
                    stat, errmsg)) keep = bytes(1:pqt_table_nrows(t%h)) /= 0
    end procedure row_mask_filter
end submodule parquet_rows
