! parquet_list.f90 - submodule of module parquet: %get of the columns that have no plain
! array shape of numbers: vectors of strings (rank-2 character) and variable-length lists,
! which come as all their elements plus 1-based row offsets (row i is x(offsets(i) :
! offsets(i + 1) - 1)), with per-element and per-row validity.
submodule(parquet) parquet_list
    implicit none

contains

    ! A vector of strings as x(width, nrows) (a scalar string column as (1, nrows)); a null
    ! string is blank.
    module procedure get_s_2
        integer(int64), allocatable :: off(:)
        character(kind=c_char), allocatable :: bytes(:)
        logical, allocatable :: valid(:)
        integer(c_int) :: k, w
        integer(int64) :: n, longest
        character(len=:), allocatable :: text
        allocate (character(len=0) :: x(0, 0))
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. opened(t, 'get', stat, errmsg)) return
        if (.not. checked(pqt_table_kind(t%h, c_string(name), k), 'parquet_table: get', stat, &
                          errmsg, found)) return
        if (.not. checked(pqt_table_width(t%h, c_string(name), w), 'parquet_table: get', stat, &
                          errmsg)) return
        if (iand(k, PQT_LIST) /= 0 .or. iand(k, 31) /= PQT_STRING) then
            ! in a local first, as checked() builds its messages
            text = f_string(pqt_kind_name(k))
            text = 'parquet_table: get: column '''//trim(name)//''' holds '//text// &
                   '; a rank-2 character array takes a string or vector-of-strings column '// &
                   '(a list: pass offsets=)'
            call fail(PQT_KIND, text, stat, errmsg)
            return
        end if
        if (.not. fetch_strings(t, name, off, bytes, valid, stat, errmsg)) return
        n = pqt_table_nrows(t%h)
        longest = longest_of(off)
        deallocate (x)
        allocate (character(len=longest) :: x(w, n))
        call put_strings(off, bytes, x)
        if (present(is_valid)) then
            deallocate (is_valid)
            is_valid = reshape(valid, [int(w), int(n)])
        end if
    end procedure get_s_2

    module procedure list_i32
        type(c_ptr) :: dp, vp, rvp
        integer(int64) :: n
        logical :: via_date
        integer(int32), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_list(t, name, PQT_INT32, offsets, dp, vp, rvp, n, via_date, found, stat, &
                             errmsg)) return
        deallocate (x)
        allocate (x(n))
        if (n > 0) then
            call c_f_pointer(dp, v, [n])
            x = v
        end if
        call pqt_free(dp)
        call take_validity(vp, rvp, n, size(offsets, kind=int64) - 1, is_valid, row_valid)
    end procedure list_i32

    module procedure list_i64
        type(c_ptr) :: dp, vp, rvp
        integer(int64) :: n
        logical :: via_date
        integer(int64), pointer :: v(:)
        integer(int32), pointer :: days(:)
        allocate (x(0))
        if (.not. fetch_list(t, name, PQT_INT64, offsets, dp, vp, rvp, n, via_date, found, stat, &
                             errmsg)) return
        deallocate (x)
        allocate (x(n))
        if (n > 0 .and. via_date) then
            call c_f_pointer(dp, days, [n])
            x = days
        else if (n > 0) then
            call c_f_pointer(dp, v, [n])
            x = v
        end if
        call pqt_free(dp)
        call take_validity(vp, rvp, n, size(offsets, kind=int64) - 1, is_valid, row_valid)
    end procedure list_i64

    module procedure list_r32
        type(c_ptr) :: dp, vp, rvp
        integer(int64) :: n
        logical :: via_date
        real(real32), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_list(t, name, PQT_FLOAT32, offsets, dp, vp, rvp, n, via_date, found, &
                             stat, errmsg)) return
        deallocate (x)
        allocate (x(n))
        if (n > 0) then
            call c_f_pointer(dp, v, [n])
            x = v
        end if
        call pqt_free(dp)
        call take_validity(vp, rvp, n, size(offsets, kind=int64) - 1, is_valid, row_valid)
    end procedure list_r32

    module procedure list_r64
        type(c_ptr) :: dp, vp, rvp
        integer(int64) :: n
        logical :: via_date
        real(real64), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_list(t, name, PQT_FLOAT64, offsets, dp, vp, rvp, n, via_date, found, &
                             stat, errmsg)) return
        deallocate (x)
        allocate (x(n))
        if (n > 0) then
            call c_f_pointer(dp, v, [n])
            x = v
        end if
        call pqt_free(dp)
        call take_validity(vp, rvp, n, size(offsets, kind=int64) - 1, is_valid, row_valid)
    end procedure list_r64

    module procedure list_l
        type(c_ptr) :: dp, vp, rvp
        integer(int64) :: n
        logical :: via_date
        integer(int8), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_list(t, name, PQT_BOOL, offsets, dp, vp, rvp, n, via_date, found, stat, &
                             errmsg)) return
        deallocate (x)
        allocate (x(n))
        if (n > 0) then
            call c_f_pointer(dp, v, [n])
            x = v /= 0
        end if
        call pqt_free(dp)
        call take_validity(vp, rvp, n, size(offsets, kind=int64) - 1, is_valid, row_valid)
    end procedure list_l

    ! A list of strings: the offsets from the list, the strings (one per element) from the
    ! string copy.
    module procedure list_s
        type(c_ptr) :: dp, vp, rvp
        integer(int64) :: n, longest
        logical :: via_date
        integer(int64), allocatable :: off(:)
        character(kind=c_char), allocatable :: bytes(:)
        logical, allocatable :: valid(:)
        allocate (character(len=0) :: x(0))
        if (.not. fetch_list(t, name, PQT_STRING, offsets, dp, vp, rvp, n, via_date, found, &
                             stat, errmsg)) return
        call take_validity(c_null_ptr, rvp, n, size(offsets, kind=int64) - 1, row_valid=row_valid)
        if (.not. fetch_strings(t, name, off, bytes, valid, stat, errmsg)) then
            deallocate (offsets)
            allocate (offsets(0))
            if (present(row_valid)) then
                deallocate (row_valid)
                allocate (row_valid(0))
            end if
            return
        end if
        longest = longest_of(off)
        deallocate (x)
        allocate (character(len=longest) :: x(size(off) - 1))
        call put_strings(off, bytes, x)
        if (present(is_valid)) call move_alloc(valid, is_valid)
    end procedure list_s

    ! The list layout of column `name` with its elements copied as pqt kind `want` (pqt's
    ! widenings; dates into int64 arrive as int32 days, via_date). On success offsets(nrows
    ! + 1) is 1-based, dp holds n elements (NULL for strings: their text comes from
    ! take_strings), vp / rvp the element / row bitmaps (NULL: none null); the caller frees
    ! dp (take_validity frees vp and rvp). On failure offsets is empty and nothing is held.
    logical function fetch_list(t, name, want, offsets, dp, vp, rvp, n, via_date, found, &
                                stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        integer(c_int), intent(in) :: want
        integer(int64), allocatable, intent(out) :: offsets(:)
        type(c_ptr), intent(out), target :: dp, vp, rvp
        integer(int64), intent(out) :: n
        logical, intent(out) :: via_date
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr), target :: op
        integer(c_int) :: k, elem, to_kind, st
        integer(int64), pointer :: o(:)
        character(len=:), allocatable :: text
        allocate (offsets(0))
        dp = c_null_ptr
        vp = c_null_ptr
        rvp = c_null_ptr
        op = c_null_ptr
        n = 0
        via_date = .false.
        fetch_list = .false.
        if (.not. opened(t, 'get', stat, errmsg)) return
        if (.not. checked(pqt_table_kind(t%h, c_string(name), k), 'parquet_table: get', stat, &
                          errmsg, found)) return
        elem = iand(k, 31)
        to_kind = want
        if (elem == want) to_kind = 0
        if (want == PQT_INT32 .and. elem == PQT_DATE) to_kind = 0
        if (want == PQT_INT64 .and. (elem == PQT_TIME .or. elem == PQT_TIMESTAMP)) to_kind = 0
        if (want == PQT_INT64 .and. elem == PQT_DATE) then
            to_kind = 0
            via_date = .true.
        end if
        if (want == PQT_STRING) then
            if (elem /= PQT_STRING) then
                text = f_string(pqt_kind_name(k))
                text = 'parquet_table: get: column '''//trim(name)//''' holds '//text// &
                       ', not strings'
                call fail(PQT_KIND, text, stat, errmsg)
                return
            end if
            st = pqt_table_get_list_alloc(t%h, c_string(name), 0_c_int, c_loc(op), c_null_ptr, &
                                          c_null_ptr, c_loc(rvp), n)
        else
            st = pqt_table_get_list_alloc(t%h, c_string(name), to_kind, c_loc(op), c_loc(dp), &
                                          c_loc(vp), c_loc(rvp), n)
        end if
        if (.not. checked(st, 'parquet_table: get', stat, errmsg)) return
        call c_f_pointer(op, o, [pqt_table_nrows(t%h) + 1])
        deallocate (offsets)
        offsets = o + 1
        call pqt_free(op)
        fetch_list = .true.
    end function

    ! is_valid (n elements) and row_valid (nrows rows) from pqt's bitmaps (NULL: all
    ! present), which are freed.
    subroutine take_validity(vp, rvp, n, nrows, is_valid, row_valid)
        type(c_ptr), intent(in) :: vp, rvp
        integer(int64), intent(in) :: n, nrows
        logical, allocatable, intent(out), optional :: is_valid(:), row_valid(:)
        integer(int8), pointer :: bits(:)
        if (present(is_valid)) then
            if (c_associated(vp)) then
                call c_f_pointer(vp, bits, [max(1_int64, (n + 7)/8)])
                is_valid = unpack_bits(bits, n)
            else
                allocate (is_valid(n))
                is_valid = .true.
            end if
        end if
        if (present(row_valid)) then
            if (c_associated(rvp)) then
                call c_f_pointer(rvp, bits, [max(1_int64, (nrows + 7)/8)])
                row_valid = unpack_bits(bits, nrows)
            else
                allocate (row_valid(nrows))
                row_valid = .true.
            end if
        end if
        call pqt_free(vp)
        call pqt_free(rvp)
    end subroutine

    ! Every string of a string column (scalar, vector or list; one per element, in row
    ! order): off(n + 1) 0-based byte offsets into bytes, and their validity.
    logical function fetch_strings(t, name, off, bytes, valid, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        integer(int64), allocatable, intent(out) :: off(:)
        character(kind=c_char), allocatable, intent(out) :: bytes(:)
        logical, allocatable, intent(out) :: valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(c_ptr) :: op, bp, vp
        integer(int64) :: n
        integer(int64), pointer :: o(:)
        character(kind=c_char), pointer :: b(:)
        integer(int8), pointer :: bits(:)
        fetch_strings = checked(pqt_table_get_strings_alloc(t%h, c_string(name), op, bp, vp, n), &
                                'parquet_table: get', stat, errmsg)
        if (.not. fetch_strings) return
        call c_f_pointer(op, o, [n + 1])
        off = o
        call c_f_pointer(bp, b, [max(1_int64, off(n + 1))])
        bytes = b
        if (c_associated(vp)) then
            call c_f_pointer(vp, bits, [max(1_int64, (n + 7)/8)])
            valid = unpack_bits(bits, n)
        else
            allocate (valid(n))
            valid = .true.
        end if
        call pqt_free(op)
        call pqt_free(bp)
        call pqt_free(vp)
    end function

    pure integer(int64) function longest_of(off)
        integer(int64), intent(in) :: off(:)
        longest_of = 0
        if (size(off) > 1) longest_of = maxval(off(2:) - off(:size(off) - 1))
    end function

    ! String k of (off, bytes) into element k of x (array element order), blank-padded.
    subroutine put_strings(off, bytes, x)
        integer(int64), intent(in) :: off(:)
        character(kind=c_char), intent(in) :: bytes(:)
        character(len=*), intent(inout) :: x(*)
        integer(int64) :: k, j
        do k = 1, size(off) - 1
            x(k) = ''
            do j = 1, off(k + 1) - off(k)
                x(k) (j:j) = bytes(off(k) + j)
            end do
        end do
    end subroutine


    ! Lists of lists: pqt_table_get_nested_list, then each level's offsets (made 1-based) and
    ! validity copied out; the values are left to the caller's kind (nested_* below).
    logical function fetch_nested(t, name, want, nh, levels, nv, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        integer(c_int), intent(in) :: want
        type(c_ptr), intent(out) :: nh
        type(parquet_list_level), allocatable, intent(out) :: levels(:)
        integer(int64), intent(out) :: nv
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: k, nl, elem
        integer(int64) :: cnt
        integer(int64), pointer :: o(:)
        integer(int8), pointer :: b(:)
        character(len=:), allocatable :: text
        allocate (levels(0))
        nh = c_null_ptr
        nv = 0
        fetch_nested = .false.
        if (.not. opened(t, 'get_nested', stat, errmsg)) return
        if (.not. checked(pqt_table_get_nested_list(t%h, c_string(name), nh), &
                          'parquet_table: get_nested', stat, errmsg, found)) return
        elem = pqt_nested_list_kind(nh)
        if (.not. (elem == want .or. (want == PQT_INT32 .and. elem == PQT_DATE) .or. &
                   (want == PQT_INT64 .and. (elem == PQT_TIME .or. elem == PQT_TIMESTAMP)))) then
            text = f_string(pqt_kind_name(elem))
            text = 'parquet_table: get_nested: column '''//trim(name)//''' holds lists of '// &
                   'lists of '//text//'; pass an array of that kind'
            call pqt_nested_list_free(nh)
            nh = c_null_ptr
            call fail(PQT_KIND, text, stat, errmsg)
            return
        end if
        nl = pqt_nested_list_nlevels(nh)
        deallocate (levels)
        allocate (levels(nl))
        do k = 1, nl
            cnt = pqt_nested_list_count(nh, k - 1)
            call c_f_pointer(pqt_nested_list_offsets(nh, k - 1), o, [cnt + 1])
            levels(k)%offsets = o + 1
            allocate (levels(k)%valid(cnt))
            levels(k)%valid = .true.
            if (c_associated(pqt_nested_list_list_validity(nh, k - 1)) .and. cnt > 0) then
                call c_f_pointer(pqt_nested_list_list_validity(nh, k - 1), b, [(cnt + 7) / 8])
                levels(k)%valid = unpack_bits(b, cnt)
            end if
        end do
        nv = pqt_nested_list_nvalues(nh)
        fetch_nested = .true.
    end function

    ! The values' validity of nested list nh (nv values) into is_valid, then nh freed.
    subroutine finish_nested(nh, nv, is_valid)
        type(c_ptr), intent(in) :: nh
        integer(int64), intent(in) :: nv
        logical, allocatable, intent(out), optional :: is_valid(:)
        integer(int8), pointer :: b(:)
        if (present(is_valid)) then
            allocate (is_valid(nv))
            is_valid = .true.
            if (c_associated(pqt_nested_list_validity(nh)) .and. nv > 0) then
                call c_f_pointer(pqt_nested_list_validity(nh), b, [(nv + 7) / 8])
                is_valid = unpack_bits(b, nv)
            end if
        end if
        call pqt_nested_list_free(nh)
    end subroutine

    module procedure nested_i32
        type(c_ptr) :: nh
        integer(int64) :: nv
        integer(int32), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_nested(t, name, PQT_INT32, nh, levels, nv, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(nv))
        if (nv > 0) then
            call c_f_pointer(pqt_nested_list_values(nh), v, [nv])
            x = v
        end if
        call finish_nested(nh, nv, is_valid)
    end procedure nested_i32

    module procedure nested_i64
        type(c_ptr) :: nh
        integer(int64) :: nv
        integer(int64), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_nested(t, name, PQT_INT64, nh, levels, nv, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(nv))
        if (nv > 0) then
            call c_f_pointer(pqt_nested_list_values(nh), v, [nv])
            x = v
        end if
        call finish_nested(nh, nv, is_valid)
    end procedure nested_i64

    module procedure nested_r64
        type(c_ptr) :: nh
        integer(int64) :: nv
        real(real64), pointer :: v(:)
        allocate (x(0))
        if (.not. fetch_nested(t, name, PQT_FLOAT64, nh, levels, nv, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(nv))
        if (nv > 0) then
            call c_f_pointer(pqt_nested_list_values(nh), v, [nv])
            x = v
        end if
        call finish_nested(nh, nv, is_valid)
    end procedure nested_r64
end submodule parquet_list
