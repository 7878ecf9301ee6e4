! parquet_get.f90 - submodule of module parquet: copying a column (or chosen rows of it) out
! of a table into allocatable arrays of the caller's kind, null tests, and row handles
! (%row). The plan of a copy (plan_get) decides how a stored kind reaches a Fortran type:
! pqt's own widenings, dates through int32, booleans through bytes.
submodule(parquet) parquet_get
    implicit none

contains

    module procedure opened
        opened = c_associated(t%h)
        if (.not. opened) &
            call fail(PQT_MISUSE, 'parquet_table: '//proc//': the table has not been opened '// &
                      '(call parquet_open_table first)', stat, errmsg)
        if (opened .and. present(stat)) stat = 0
    end procedure opened

    ! ---------------------------------------------------------------- copying values out

    ! The plan for copying column `name` into an array of element kind `want` (a PQT_* kind
    ! standing for the Fortran type) and `rank`: pqt widens int32 -> int64, float32 ->
    ! float64 and uint64 -> int64 (when the values fit); dates (int32 days) widen here; any
    ! other pairing is pqt's PQT_KIND, naming the stored kind.
    logical function plan_get(t, proc, name, want, rank, p, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: proc, name
        integer(c_int), intent(in) :: want
        integer, intent(in) :: rank
        type(get_plan), intent(out) :: p
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: k, elem
        character(len=16) :: wtext
        plan_get = .false.
        if (.not. opened(t, proc, stat, errmsg)) return
        if (.not. checked(pqt_table_kind(t%h, c_string(name), k), 'parquet_table: '//proc, &
                          stat, errmsg, found)) return
        if (.not. checked(pqt_table_width(t%h, c_string(name), p%width), 'parquet_table: '//proc, &
                          stat, errmsg, found)) return
        if (iand(k, PQT_LIST) /= 0) then
            call fail(PQT_KIND, 'parquet_table: '//proc//": column '"//trim(name)// &
                      "' is a variable-length list; its rows differ in length, so it has no " &
                      //'array shape', stat, errmsg)
            if (present(found)) found = .true.
            return
        end if
        if (rank == 1 .and. p%width > 1) then
            write (wtext, '(i0)') p%width
            call fail(PQT_KIND, 'parquet_table: '//proc//": column '"//trim(name)// &
                      "' is a vector of width "//trim(wtext)//'; get it into a rank-2 array ' &
                      //'(width, nrows)', stat, errmsg)
            if (present(found)) found = .true.
            return
        end if
        elem = iand(k, 31)
        p%to_kind = want
        if (elem == want) p%to_kind = 0
        if (want == PQT_INT32 .and. elem == PQT_DATE) p%to_kind = 0
        if (want == PQT_INT64 .and. (elem == PQT_TIME .or. elem == PQT_TIMESTAMP)) p%to_kind = 0
        if (want == PQT_INT64 .and. elem == PQT_DATE) then
            p%to_kind = 0
            p%via_date = .true.
        end if
        p%nrows = pqt_table_nrows(t%h)
        plan_get = .true.
    end function

    ! pqt_table_get of the whole column into dst (nelem elements of elem_nbytes); valid gets
    ! one flag per element when want_valid.
    logical function copy_column(t, proc, name, p, dst, elem_nbytes, want_valid, valid, stat, &
                                 errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: proc, name
        type(get_plan), intent(in) :: p
        type(c_ptr), intent(in) :: dst
        integer, intent(in) :: elem_nbytes
        logical, intent(in) :: want_valid
        logical, allocatable, intent(out) :: valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(int8), allocatable, target :: bits(:)
        integer(int64) :: nelem
        type(c_ptr) :: vp
        nelem = p%width*p%nrows
        allocate (bits(max(1_int64, (nelem + 7)/8)))
        bits = -1_int8
        vp = c_null_ptr
        if (want_valid) vp = c_loc(bits)
        copy_column = .true.
        if (nelem > 0) copy_column = checked(pqt_table_get(t%h, c_string(name), p%to_kind, dst, &
                                                           int(nelem*elem_nbytes, c_size_t), vp, &
                                                           int(size(bits), c_size_t)), &
                                             'parquet_table: '//proc, stat, errmsg)
        if (copy_column .and. want_valid) then
            valid = unpack_bits(bits, nelem)
        else
            allocate (valid(0))
        end if
    end function

    module procedure get_i32
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get', name, PQT_INT32, 1, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(x), 4, present(is_valid), v, stat, errmsg)) then
            if (present(is_valid)) call move_alloc(v, is_valid)
        else
            deallocate (x)
            allocate (x(0))
        end if
    end procedure get_i32

    module procedure get_i64
        type(get_plan) :: p
        logical, allocatable :: v(:)
        integer(int32), allocatable, target :: days(:)
        logical :: ok
        allocate (x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get', name, PQT_INT64, 1, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%nrows))
        if (p%via_date) then
            allocate (days(p%nrows))
            ok = copy_column(t, 'get', name, p, c_loc(days), 4, present(is_valid), v, stat, errmsg)
            if (ok) x = days
        else
            ok = copy_column(t, 'get', name, p, c_loc(x), 8, present(is_valid), v, stat, errmsg)
        end if
        if (ok) then
            if (present(is_valid)) call move_alloc(v, is_valid)
        else
            deallocate (x)
            allocate (x(0))
        end if
    end procedure get_i64

    module procedure get_r32
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get', name, PQT_FLOAT32, 1, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(x), 4, present(is_valid), v, stat, errmsg)) then
            if (present(is_valid)) call move_alloc(v, is_valid)
        else
            deallocate (x)
            allocate (x(0))
        end if
    end procedure get_r32

    module procedure get_r64
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get', name, PQT_FLOAT64, 1, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(x), 8, present(is_valid), v, stat, errmsg)) then
            if (present(is_valid)) call move_alloc(v, is_valid)
        else
            deallocate (x)
            allocate (x(0))
        end if
    end procedure get_r64

    module procedure get_l
        type(get_plan) :: p
        logical, allocatable :: v(:)
        integer(int8), allocatable, target :: b(:)
        allocate (x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get', name, PQT_BOOL, 1, p, found, stat, errmsg)) return
        allocate (b(p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(b), 1, present(is_valid), v, stat, errmsg)) then
            x = b /= 0
            if (present(is_valid)) call move_alloc(v, is_valid)
        end if
    end procedure get_l

    ! A string column into character(:) strings as long as the longest; a null is blank.
    module procedure get_s
        type(get_plan) :: p
        type(c_ptr) :: op, bp, vp
        integer(int64) :: n, i, j, longest
        integer(int64), pointer :: off(:)
        character(kind=c_char), pointer :: bytes(:)
        integer(int8), pointer :: bits(:)
        allocate (character(len=0) :: x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get', name, PQT_STRING, 1, p, found, stat, errmsg)) return
        if (.not. checked(pqt_table_get_strings_alloc(t%h, c_string(name), op, bp, vp, n), &
                          'parquet_table: get', stat, errmsg)) return
        call c_f_pointer(op, off, [n + 1])
        longest = 0
        if (n > 0) longest = maxval(off(2:n + 1) - off(1:n))
        call c_f_pointer(bp, bytes, [max(1_int64, off(n + 1))])
        deallocate (x)
        allocate (character(len=longest) :: x(n))
        do i = 1, n
            x(i) = ''
            do j = 1, off(i + 1) - off(i)
                x(i) (j:j) = bytes(off(i) + j)
            end do
        end do
        if (present(is_valid)) then
            deallocate (is_valid)
            if (c_associated(vp)) then
                call c_f_pointer(vp, bits, [max(1_int64, (n + 7)/8)])
                is_valid = unpack_bits(bits, n)
            else
                allocate (is_valid(n))
                is_valid = .true.
            end if
        end if
        call pqt_free(op)
        call pqt_free(bp)
        call pqt_free(vp)
    end procedure get_s

    ! Vector columns as (width, nrows); a scalar column comes as (1, nrows).
    module procedure get_i32_2
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(0, 0))
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. plan_get(t, 'get', name, PQT_INT32, 2, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%width, p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(x), 4, present(is_valid), v, stat, errmsg)) then
            if (present(is_valid)) is_valid = reshape(v, [p%width, int(p%nrows)])
        else
            deallocate (x)
            allocate (x(0, 0))
        end if
    end procedure get_i32_2

    module procedure get_i64_2
        type(get_plan) :: p
        logical, allocatable :: v(:)
        integer(int32), allocatable, target :: days(:, :)
        logical :: ok
        allocate (x(0, 0))
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. plan_get(t, 'get', name, PQT_INT64, 2, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%width, p%nrows))
        if (p%via_date) then
            allocate (days(p%width, p%nrows))
            ok = copy_column(t, 'get', name, p, c_loc(days), 4, present(is_valid), v, stat, errmsg)
            if (ok) x = days
        else
            ok = copy_column(t, 'get', name, p, c_loc(x), 8, present(is_valid), v, stat, errmsg)
        end if
        if (ok) then
            if (present(is_valid)) is_valid = reshape(v, [p%width, int(p%nrows)])
        else
            deallocate (x)
            allocate (x(0, 0))
        end if
    end procedure get_i64_2

    module procedure get_r32_2
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(0, 0))
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. plan_get(t, 'get', name, PQT_FLOAT32, 2, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%width, p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(x), 4, present(is_valid), v, stat, errmsg)) then
            if (present(is_valid)) is_valid = reshape(v, [p%width, int(p%nrows)])
        else
            deallocate (x)
            allocate (x(0, 0))
        end if
    end procedure get_r32_2

    module procedure get_r64_2
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(0, 0))
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. plan_get(t, 'get', name, PQT_FLOAT64, 2, p, found, stat, errmsg)) return
        deallocate (x)
        allocate (x(p%width, p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(x), 8, present(is_valid), v, stat, errmsg)) then
            if (present(is_valid)) is_valid = reshape(v, [p%width, int(p%nrows)])
        else
            deallocate (x)
            allocate (x(0, 0))
        end if
    end procedure get_r64_2

    module procedure get_l_2
        type(get_plan) :: p
        logical, allocatable :: v(:)
        integer(int8), allocatable, target :: b(:, :)
        allocate (x(0, 0))
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. plan_get(t, 'get', name, PQT_BOOL, 2, p, found, stat, errmsg)) return
        allocate (b(p%width, p%nrows))
        if (copy_column(t, 'get', name, p, c_loc(b), 1, present(is_valid), v, stat, errmsg)) then
            x = b /= 0
            if (present(is_valid)) is_valid = reshape(v, [p%width, int(p%nrows)])
        end if
    end procedure get_l_2

    ! ---------------------------------------------------------------- rows by index

    ! pqt_table_get_rows of rows(:) (this table's numbering, any order) into dst.
    logical function copy_rows(t, name, p, rows, dst, elem_nbytes, want_valid, valid, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        type(get_plan), intent(in) :: p
        integer(int64), intent(in) :: rows(:)
        type(c_ptr), intent(in) :: dst
        integer, intent(in) :: elem_nbytes
        logical, intent(in) :: want_valid
        logical, allocatable, intent(out) :: valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(int8), allocatable, target :: bits(:)
        integer(int64) :: n
        type(c_ptr) :: vp
        n = size(rows, kind=int64)
        allocate (bits(max(1_int64, (n + 7)/8)))
        bits = -1_int8
        vp = c_null_ptr
        if (want_valid) vp = c_loc(bits)
        copy_rows = .true.
        if (n > 0) copy_rows = checked(pqt_table_get_rows(t%h, c_string(name), rows, n, p%to_kind, &
                                                          dst, int(n*elem_nbytes, c_size_t), vp, &
                                                          int(size(bits), c_size_t)), &
                                       'parquet_table: get_slice', stat, errmsg)
        if (copy_rows .and. want_valid) then
            valid = unpack_bits(bits, n)
        else
            allocate (valid(0))
        end if
    end function

    module procedure slice_i32_8
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(size(rows)))
        if (present(is_valid)) allocate (is_valid(0))
        if (plan_get(t, 'get_slice', name, PQT_INT32, 1, p, found, stat, errmsg)) then
            if (copy_rows(t, name, p, rows, c_loc(x), 4, present(is_valid), v, stat, errmsg)) then
                if (present(is_valid)) call move_alloc(v, is_valid)
                return
            end if
        end if
        deallocate (x)
        allocate (x(0))
    end procedure slice_i32_8

    module procedure slice_i64_8
        type(get_plan) :: p
        logical, allocatable :: v(:)
        integer(int32), allocatable, target :: days(:)
        logical :: ok
        allocate (x(size(rows)))
        if (present(is_valid)) allocate (is_valid(0))
        if (plan_get(t, 'get_slice', name, PQT_INT64, 1, p, found, stat, errmsg)) then
            if (p%via_date) then
                allocate (days(size(rows)))
                ok = copy_rows(t, name, p, rows, c_loc(days), 4, present(is_valid), v, stat, errmsg)
                if (ok) x = days
            else
                ok = copy_rows(t, name, p, rows, c_loc(x), 8, present(is_valid), v, stat, errmsg)
            end if
            if (ok) then
                if (present(is_valid)) call move_alloc(v, is_valid)
                return
            end if
        end if
        deallocate (x)
        allocate (x(0))
    end procedure slice_i64_8

    module procedure slice_r32_8
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(size(rows)))
        if (present(is_valid)) allocate (is_valid(0))
        if (plan_get(t, 'get_slice', name, PQT_FLOAT32, 1, p, found, stat, errmsg)) then
            if (copy_rows(t, name, p, rows, c_loc(x), 4, present(is_valid), v, stat, errmsg)) then
                if (present(is_valid)) call move_alloc(v, is_valid)
                return
            end if
        end if
        deallocate (x)
        allocate (x(0))
    end procedure slice_r32_8

    module procedure slice_r64_8
        type(get_plan) :: p
        logical, allocatable :: v(:)
        allocate (x(size(rows)))
        if (present(is_valid)) allocate (is_valid(0))
        if (plan_get(t, 'get_slice', name, PQT_FLOAT64, 1, p, found, stat, errmsg)) then
            if (copy_rows(t, name, p, rows, c_loc(x), 8, present(is_valid), v, stat, errmsg)) then
                if (present(is_valid)) call move_alloc(v, is_valid)
                return
            end if
        end if
        deallocate (x)
        allocate (x(0))
    end procedure slice_r64_8

    module procedure slice_l_8
        type(get_plan) :: p
        logical, allocatable :: v(:)
        integer(int8), allocatable, target :: b(:)
        allocate (x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get_slice', name, PQT_BOOL, 1, p, found, stat, errmsg)) return
        allocate (b(size(rows)))
        if (copy_rows(t, name, p, rows, c_loc(b), 1, present(is_valid), v, stat, errmsg)) then
            x = b /= 0
            if (present(is_valid)) call move_alloc(v, is_valid)
        end if
    end procedure slice_l_8

    module procedure slice_s_8
        type(get_plan) :: p
        integer(int64) :: i, j, longest
        integer(int64), allocatable :: lens(:)
        type(c_ptr), allocatable :: ptrs(:)
        integer(c_int), allocatable :: nul(:)
        character(kind=c_char), pointer :: chars(:)
        allocate (character(len=0) :: x(0))
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. plan_get(t, 'get_slice', name, PQT_STRING, 1, p, found, stat, errmsg)) return
        allocate (lens(size(rows)), ptrs(size(rows)), nul(size(rows)))
        do i = 1, size(rows)
            if (.not. checked(pqt_table_get_string(t%h, c_string(name), rows(i), 0, ptrs(i), &
                                                   lens(i), nul(i)), 'parquet_table: get_slice', &
                              stat, errmsg)) return
        end do
        longest = 0
        if (size(rows) > 0) longest = maxval(lens)
        deallocate (x)
        allocate (character(len=longest) :: x(size(rows)))
        do i = 1, size(rows)
            x(i) = ''
            if (lens(i) == 0) cycle
            call c_f_pointer(ptrs(i), chars, [lens(i)])
            do j = 1, lens(i)
                x(i) (j:j) = chars(j)
            end do
        end do
        if (present(is_valid)) is_valid = nul == 0
    end procedure slice_s_8

    ! The same for default-integer row numbers.
    module procedure slice_i32_4
        call slice_i32_8(t, name, int(rows, int64), x, is_valid, found, stat, errmsg)
    end procedure slice_i32_4

    module procedure slice_i64_4
        call slice_i64_8(t, name, int(rows, int64), x, is_valid, found, stat, errmsg)
    end procedure slice_i64_4

    module procedure slice_r32_4
        call slice_r32_8(t, name, int(rows, int64), x, is_valid, found, stat, errmsg)
    end procedure slice_r32_4

    module procedure slice_r64_4
        call slice_r64_8(t, name, int(rows, int64), x, is_valid, found, stat, errmsg)
    end procedure slice_r64_4

    module procedure slice_l_4
        call slice_l_8(t, name, int(rows, int64), x, is_valid, found, stat, errmsg)
    end procedure slice_l_4

    module procedure slice_s_4
        call slice_s_8(t, name, int(rows, int64), x, is_valid, found, stat, errmsg)
    end procedure slice_s_4

    ! Is row i (elem e of a vector row; 0 or absent: the row) null?
    module procedure is_null_8
        integer(c_int) :: elem, r
        is_null_8 = .false.
        if (.not. opened(t, 'is_null', stat, errmsg)) return
        elem = 0
        if (present(e)) elem = e
        if (checked(pqt_table_is_null(t%h, c_string(name), i, elem, r), 'parquet_table: is_null', &
                    stat, errmsg, found)) is_null_8 = r /= 0
    end procedure is_null_8

    module procedure is_null_4
        is_null_4 = is_null_8(t, name, int(i, int64), e, found, stat, errmsg)
    end procedure is_null_4

    ! ---------------------------------------------------------------- row handles

    module procedure row_8
        character(len=24) :: a, n
        integer(int64) :: nrows
        if (.not. opened(t, 'row', stat, errmsg)) return
        nrows = pqt_table_nrows(t%h)
        if (i < 1 .or. i > nrows) then
            write (a, '(i0)') i
            write (n, '(i0)') nrows
            call fail(PQT_RANGE, 'parquet_table: row: row '//trim(a)// &
                      ' is outside the table (rows 1..'//trim(n)//')', stat, errmsg)
            return
        end if
        r%h = t%h
        r%i = i
        r%gen = pqt_table_generation(t%h)
    end procedure row_8

    module procedure row_4
        r = row_8(t, int(i, int64), stat, errmsg)
    end procedure row_4

    module procedure row_index
        row_index = r%i
    end procedure row_index

    ! .false. once the table has changed structurally (or the handle was never set).
    module procedure row_is_valid
        row_is_valid = c_associated(r%h)
        if (row_is_valid) row_is_valid = pqt_table_generation(r%h) == r%gen
    end procedure row_is_valid

    logical function row_live(r, proc, stat, errmsg)
        class(parquet_table_row), intent(in) :: r
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        row_live = r%is_valid()
        if (.not. row_live) call fail(PQT_MISUSE, 'parquet_table_row: '//proc// &
                                      ': the row handle is stale (the table changed since %row)', &
                                      stat, errmsg)
    end function

    module procedure row_is_null
        integer(c_int) :: elem, n
        row_is_null = .false.
        if (.not. row_live(r, 'is_null', stat, errmsg)) return
        elem = 0
        if (present(e)) elem = e
        if (checked(pqt_table_is_null(r%h, c_string(name), r%i, elem, n), &
                    'parquet_table_row: is_null', stat, errmsg, found)) row_is_null = n /= 0
    end procedure row_is_null

    ! One value of the row via pqt_table_get_value; to_kind as %get would use it.
    logical function row_value(r, name, want, dst, nbytes, via_date, is_null, found, stat, errmsg)
        class(parquet_table_row), intent(in) :: r
        character(len=*), intent(in) :: name
        integer(c_int), intent(in) :: want
        type(c_ptr), intent(in) :: dst
        integer, intent(in) :: nbytes
        logical, intent(out) :: via_date
        logical, intent(out), optional :: is_null, found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        type(parquet_table) :: view
        type(get_plan) :: p
        integer(c_int) :: n
        row_value = .false.
        via_date = .false.
        if (.not. row_live(r, 'get', stat, errmsg)) return
        ! plan_get takes a table: a temporary one sharing the handle, released before it goes
        view%h = r%h
        row_value = plan_get(view, 'row get', name, want, 1, p, found, stat, errmsg)
        view%h = c_null_ptr
        if (.not. row_value) return
        via_date = p%via_date
        row_value = checked(pqt_table_get_value(r%h, c_string(name), r%i, 0, p%to_kind, dst, &
                                                int(nbytes, c_size_t), n), &
                            'parquet_table_row: get', stat, errmsg)
        if (row_value .and. present(is_null)) is_null = n /= 0
    end function

    module procedure rget_i32
        logical :: d
        v = 0
        if (row_value(r, name, PQT_INT32, c_loc(v), 4, d, is_null, found, stat, errmsg)) continue
    end procedure rget_i32

    module procedure rget_i64
        integer(int32), target :: days
        logical :: d
        v = 0
        ! room for either: the plan decides whether an int32 date or an int64 arrives
        days = 0
        if (row_value(r, name, PQT_INT64, c_loc(v), 8, d, is_null, found, stat, errmsg)) then
            if (d) then
                days = transfer(v, days)
                v = days
            end if
        end if
    end procedure rget_i64

    module procedure rget_r32
        logical :: d
        v = 0
        if (row_value(r, name, PQT_FLOAT32, c_loc(v), 4, d, is_null, found, stat, errmsg)) continue
    end procedure rget_r32

    module procedure rget_r64
        logical :: d
        v = 0
        if (row_value(r, name, PQT_FLOAT64, c_loc(v), 8, d, is_null, found, stat, errmsg)) continue
    end procedure rget_r64

    module procedure rget_l
        integer(int8), target :: b
        logical :: d
        b = 0
        v = .false.
        if (row_value(r, name, PQT_BOOL, c_loc(b), 1, d, is_null, found, stat, errmsg)) v = b /= 0
    end procedure rget_l

    module procedure rget_s
        type(c_ptr) :: p
        integer(int64) :: n, j
        integer(c_int) :: nul
        character(kind=c_char), pointer :: chars(:)
        v = ''
        if (.not. row_live(r, 'get', stat, errmsg)) return
        if (.not. checked(pqt_table_get_string(r%h, c_string(name), r%i, 0, p, n, nul), &
                          'parquet_table_row: get', stat, errmsg, found)) return
        allocate (character(len=n) :: v)
        if (n > 0) then
            call c_f_pointer(p, chars, [n])
            do j = 1, n
                v(j:j) = chars(j)
            end do
        end if
        if (present(is_null)) is_null = nul /= 0
    end procedure rget_s
    ! ---------------------------------------------------------------- views (%col)

    ! The column's storage (pqt_table_column; reads it first if needed), if its element kind
    ! is one of `elems` -- the pointer path never converts -- and its shape fits `rank`
    ! (rank 1: a scalar column; rank 2: a vector). valid: a snapshot of the validity.
    logical function view_of(t, name, elems, rank, v, want_valid, valid, found, stat, errmsg)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: name
        integer(c_int), intent(in) :: elems(:)
        integer, intent(in) :: rank
        type(pqt_column_view), intent(out) :: v
        logical, intent(in) :: want_valid
        logical, allocatable, intent(out) :: valid(:)
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(int8), pointer :: bits(:)
        character(len=:), allocatable :: text
        view_of = .false.
        allocate (valid(0))
        if (.not. opened(t, 'col', stat, errmsg)) return
        v%struct_size = c_sizeof(v)
        if (.not. checked(pqt_table_column(t%h, c_string(name), 0, v), 'parquet_table: col', &
                          stat, errmsg, found)) return
        if (.not. any(iand(v%kind, 31) == elems) .or. iand(v%kind, PQT_LIST) /= 0 .or. &
            (rank == 1 .and. v%width /= 1)) then
            ! in a local first, as checked() builds its messages
            text = f_string(pqt_kind_name(v%kind))
            text = "parquet_table: col: column '"//trim(name)// &
                   "': pointer kind does not match the stored kind ("//text// &
                   '); the pointer path never widens -- use %get to copy with widening'
            call fail(PQT_KIND, text, stat, errmsg)
            return
        end if
        if (want_valid) then
            deallocate (valid)
            if (c_associated(v%validity)) then
                call c_f_pointer(v%validity, bits, [max(1_int64, (v%nelem + 7)/8)])
                valid = unpack_bits(bits, v%nelem)
            else
                allocate (valid(v%nelem))
                valid = .true.
            end if
        end if
        view_of = .true.
    end function

    module procedure col_i32
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. view_of(t, name, [PQT_INT32, PQT_DATE], 1, v, present(is_valid), valid, &
                          found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [v%nrows])
        if (present(is_valid)) call move_alloc(valid, is_valid)
    end procedure col_i32

    module procedure col_i64
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. view_of(t, name, [PQT_INT64, PQT_TIME, PQT_TIMESTAMP], 1, v, &
                          present(is_valid), valid, found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [v%nrows])
        if (present(is_valid)) call move_alloc(valid, is_valid)
    end procedure col_i64

    module procedure col_r32
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. view_of(t, name, [PQT_FLOAT32], 1, v, present(is_valid), valid, &
                          found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [v%nrows])
        if (present(is_valid)) call move_alloc(valid, is_valid)
    end procedure col_r32

    module procedure col_r64
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0))
        if (.not. view_of(t, name, [PQT_FLOAT64], 1, v, present(is_valid), valid, &
                          found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [v%nrows])
        if (present(is_valid)) call move_alloc(valid, is_valid)
    end procedure col_r64

    module procedure col_i32_2
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. view_of(t, name, [PQT_INT32, PQT_DATE], 2, v, present(is_valid), valid, &
                          found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [int(v%width, int64), v%nrows])
        if (present(is_valid)) is_valid = reshape(valid, [int(v%width, int64), v%nrows])
    end procedure col_i32_2

    module procedure col_i64_2
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. view_of(t, name, [PQT_INT64, PQT_TIME, PQT_TIMESTAMP], 2, v, &
                          present(is_valid), valid, found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [int(v%width, int64), v%nrows])
        if (present(is_valid)) is_valid = reshape(valid, [int(v%width, int64), v%nrows])
    end procedure col_i64_2

    module procedure col_r32_2
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. view_of(t, name, [PQT_FLOAT32], 2, v, present(is_valid), valid, &
                          found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [int(v%width, int64), v%nrows])
        if (present(is_valid)) is_valid = reshape(valid, [int(v%width, int64), v%nrows])
    end procedure col_r32_2

    module procedure col_r64_2
        type(pqt_column_view) :: v
        logical, allocatable :: valid(:)
        p => null()
        if (present(is_valid)) allocate (is_valid(0, 0))
        if (.not. view_of(t, name, [PQT_FLOAT64], 2, v, present(is_valid), valid, &
                          found, stat, errmsg)) return
        call c_f_pointer(v%data, p, [int(v%width, int64), v%nrows])
        if (present(is_valid)) is_valid = reshape(valid, [int(v%width, int64), v%nrows])
    end procedure col_r64_2
end submodule parquet_get
