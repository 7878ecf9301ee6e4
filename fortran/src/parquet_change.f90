! parquet_change.f90 - submodule of module parquet: in-memory tables and changes to a table
! (add_column, set, append, filter_rows, sort_by, top_n, argsort_by, reload, evict_column). Values come
! in as class(*) arrays: raw_of copies them into the element type pqt stores (logical as one
! byte, character as offsets + bytes; zero-size arrays typed without select type, see
! raw_of_empty), and the kind is checked against the column's.
submodule(parquet) parquet_change
    implicit none

    ! An array of values as pqt takes it: one of the typed buffers, or strings.
    type :: raw_values
        integer(c_int) :: kind = PQT_NONE   ! element kind; PQT_NONE: a type pqt has no kind for
        character(len=32) :: type_name = ''
        integer(int32), allocatable :: i4(:)
        integer(int64), allocatable :: i8(:)
        real(real32), allocatable :: r4(:)
        real(real64), allocatable :: r8(:)
        integer(int8), allocatable :: b(:)
        ! strings: offsets(n + 1) into bytes, each value without its trailing blanks
        integer(int64), allocatable :: offsets(:)
        character(kind=c_char, len=:), allocatable :: bytes
    end type

    ! One value of each type raw_of knows, as molds for same_type_as (read only; see
    ! raw_of_empty).
    integer(int32), target, save :: mold_i4 = 0
    integer(int64), target, save :: mold_i8 = 0
    real(real32), target, save :: mold_r4 = 0
    real(real64), target, save :: mold_r8 = 0
    logical, target, save :: mold_l = .false.
    character(len=1), target, save :: mold_c = ' '
    class(*), pointer, save :: pm_i4 => mold_i4, pm_i8 => mold_i8, pm_r4 => mold_r4, &
        pm_r8 => mold_r8, pm_l => mold_l, pm_c => mold_c

contains

    module procedure parquet_new_table
        call t%close()
        if (checked(pqt_table_new(t%h), 'parquet_new_table', stat, errmsg)) continue
    end procedure parquet_new_table

    ! ---------------------------------------------------------------- values from Fortran

    ! The values of a rank-1 array (a rank-2 array comes flattened, column-major: row-major
    ! (width, nrows) as pqt stores vectors).
    subroutine raw_of(values, r)
        class(*), intent(in) :: values(:)
        type(raw_values), intent(out) :: r
        select type (values)
        type is (integer(int32))
            r%kind = PQT_INT32
            r%i4 = values
        type is (integer(int64))
            r%kind = PQT_INT64
            r%i8 = values
        type is (real(real32))
            r%kind = PQT_FLOAT32
            r%r4 = values
        type is (real(real64))
            r%kind = PQT_FLOAT64
            r%r8 = values
        type is (logical)
            r%kind = PQT_BOOL
            r%b = merge(1_int8, 0_int8, values)
        type is (character(len=*))
            ! gfortran 12 indexes a character array behind class(*) with a stride of one
            ! character (values(2) starts at the second byte); a whole-array copy is right
            block
                character(len=len(values)), allocatable :: str(:)
                allocate (str(size(values)))
                str(:) = values
                call strings_of(str, r)
            end block
        class default
            r%kind = PQT_NONE
            r%type_name = 'this type'
        end select
    end subroutine

    subroutine raw_of_2(values, r)
        class(*), intent(in) :: values(:, :)
        type(raw_values), intent(out) :: r
        ! flattened in array element order: (width, nrows) becomes pqt's rows of width values
        select type (values)
        type is (integer(int32))
            call raw_of(reshape(values, [size(values)]), r)
        type is (integer(int64))
            call raw_of(reshape(values, [size(values)]), r)
        type is (real(real32))
            call raw_of(reshape(values, [size(values)]), r)
        type is (real(real64))
            call raw_of(reshape(values, [size(values)]), r)
        type is (logical)
            call raw_of(reshape(values, [size(values)]), r)
        type is (character(len=*))
            block
                character(len=len(values)), allocatable :: str(:, :)
                allocate (str(size(values, 1), size(values, 2)))
                str(:, :) = values   ! a whole-array copy first: see raw_of
                call strings_of(reshape(str, [size(str)]), r)
            end block
        class default
            r%kind = PQT_NONE
            r%type_name = 'this type'
        end select
    end subroutine

    ! No values, of the type whose same(k) is .true. (int32, int64, real32, real64, logical,
    ! character). Each procedure taking class(*) values types a zero-size array this way
    ! before passing it on: gfortran gives a zero-size array constructor no storage (a null
    ! data pointer), and select type, or passing the array on to another class(*) dummy,
    ! forms an element address from that null pointer (undefined behaviour, which UBSan
    ! stops at). same_type_as looks at the dynamic types only (for intrinsic types the
    ! standard leaves its answer to the processor; gfortran compares them exactly, and
    ! test_change's zero-row columns check it).
    subroutine raw_of_empty(same, r)
        logical, intent(in) :: same(6)
        type(raw_values), intent(inout) :: r
        character(len=1) :: none(0)
        if (same(1)) then
            r%kind = PQT_INT32
            allocate (r%i4(0))
        else if (same(2)) then
            r%kind = PQT_INT64
            allocate (r%i8(0))
        else if (same(3)) then
            r%kind = PQT_FLOAT32
            allocate (r%r4(0))
        else if (same(4)) then
            r%kind = PQT_FLOAT64
            allocate (r%r8(0))
        else if (same(5)) then
            r%kind = PQT_BOOL
            allocate (r%b(0))
        else if (same(6)) then
            call strings_of(none, r)
        else
            r%kind = PQT_NONE
            r%type_name = 'this type'
        end if
    end subroutine

    ! Strings as pqt's offsets and bytes, each without its trailing blanks.
    subroutine strings_of(str, r)
        character(len=*), intent(in) :: str(:)
        type(raw_values), intent(inout) :: r
        integer(int64) :: i, at, n
        r%kind = PQT_STRING
        n = 0
        do i = 1, size(str)
            n = n + len_trim(str(i))
        end do
        allocate (r%offsets(size(str) + 1))
        allocate (character(kind=c_char, len=max(1_int64, n)) :: r%bytes)
        r%offsets(1) = 0
        at = 0
        do i = 1, size(str)
            n = len_trim(str(i))
            if (n > 0) r%bytes(at + 1:at + n) = str(i) (1:n)
            at = at + n
            r%offsets(i + 1) = at
        end do
    end subroutine

    ! Where the fixed-width values are, and their bytes.
    subroutine raw_data(r, p, nbytes)
        type(raw_values), intent(in), target :: r
        type(c_ptr), intent(out) :: p
        integer(c_size_t), intent(out) :: nbytes
        p = c_null_ptr
        nbytes = 0
        select case (r%kind)
        case (PQT_INT32)
            nbytes = 4*size(r%i4, kind=c_size_t)
            if (nbytes > 0) p = c_loc(r%i4)
        case (PQT_INT64)
            nbytes = 8*size(r%i8, kind=c_size_t)
            if (nbytes > 0) p = c_loc(r%i8)
        case (PQT_FLOAT32)
            nbytes = 4*size(r%r4, kind=c_size_t)
            if (nbytes > 0) p = c_loc(r%r4)
        case (PQT_FLOAT64)
            nbytes = 8*size(r%r8, kind=c_size_t)
            if (nbytes > 0) p = c_loc(r%r8)
        case (PQT_BOOL)
            nbytes = size(r%b, kind=c_size_t)
            if (nbytes > 0) p = c_loc(r%b)
        end select
    end subroutine

    ! A logical mask as pqt's validity bitmap (NULL when absent: every value present).
    subroutine validity_of(is_valid, n, bits, p, ok, proc, stat, errmsg)
        logical, intent(in), optional :: is_valid(:)
        integer(int64), intent(in) :: n
        integer(int8), allocatable, target, intent(out) :: bits(:)
        type(c_ptr), intent(out) :: p
        logical, intent(out) :: ok
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=24) :: a, b
        p = c_null_ptr
        ok = .true.
        if (.not. present(is_valid)) return
        if (size(is_valid, kind=int64) /= n) then
            write (a, '(i0)') size(is_valid, kind=int64)
            write (b, '(i0)') n
            call fail(PQT_MISUSE, proc//': is_valid= has '//trim(a)//' flags for '//trim(b)// &
                      ' values (it takes the shape of the values)', stat, errmsg)
            ok = .false.
            return
        end if
        bits = pack_bits(is_valid)
        p = c_loc(bits)
    end subroutine

    ! ---------------------------------------------------------------- add_column

    module procedure add_column_1
        type(raw_values) :: r
        if (size(values) > 0) then
            call raw_of(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        if (present(is_valid)) then
            call add_raw(t, name, r, 1, size(values, kind=int64), unit, is_valid, kind, force, &
                         stat, errmsg)
        else
            call add_raw(t, name, r, 1, size(values, kind=int64), unit, kind=kind, force=force, &
                         stat=stat, errmsg=errmsg)
        end if
    end procedure add_column_1

    module procedure add_column_2
        type(raw_values) :: r
        if (size(values) > 0) then
            call raw_of_2(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        if (present(is_valid)) then
            if (any(shape(is_valid) /= shape(values))) then
                call fail(PQT_MISUSE, 'parquet_table: add_column: is_valid= must have the '// &
                          'shape of the values', stat, errmsg)
                return
            end if
            call add_raw(t, name, r, size(values, 1), size(values, 2, kind=int64), unit, &
                         reshape(is_valid, [size(is_valid)]), kind, force, stat, errmsg)
        else
            call add_raw(t, name, r, size(values, 1), size(values, 2, kind=int64), unit, &
                         kind=kind, force=force, stat=stat, errmsg=errmsg)
        end if
    end procedure add_column_2

    module procedure add_column_list
        type(raw_values) :: r
        integer(int64), allocatable :: c_offsets(:)
        integer(int64) :: nrows
        character(len=24) :: a, b
        nrows = size(offsets, kind=int64) - 1
        if (nrows < 0) then
            call fail(PQT_MISUSE, "parquet_table: add_column: column '"//trim(name)// &
                      "': offsets= needs nrows + 1 entries (at least one)", stat, errmsg)
            return
        end if
        if (offsets(nrows + 1) - 1 > size(values, kind=int64)) then
            write (a, '(i0)') offsets(nrows + 1) - 1
            write (b, '(i0)') size(values, kind=int64)
            call fail(PQT_MISUSE, "parquet_table: add_column: column '"//trim(name)// &
                      "': offsets= reach value "//trim(a)//' of '//trim(b), stat, errmsg)
            return
        end if
        if (size(values) > 0) then
            call raw_of(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        c_offsets = offsets - 1 ! 1-based positions in values to 0-based indexes
        call add_raw(t, name, r, 1, nrows, unit, is_valid, kind, force, stat, errmsg, &
                     list_offsets=c_offsets, row_valid=row_valid, &
                     nvalues=size(values, kind=int64))
    end procedure add_column_list

    ! A new column of nrows rows of width values each. kind= (PK_DATE for int32 days,
    ! PK_TIME / PK_TIMESTAMP for int64 microseconds) stores the values as that kind.
    ! With list_offsets= (0-based, nrows + 1) the column is a variable-length list of the
    ! nvalues values, row_valid= its null rows.
    subroutine add_raw(t, name, r, width, nrows, unit, is_valid, kind, force, stat, errmsg, &
                       list_offsets, row_valid, nvalues)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: name
        type(raw_values), intent(in), target :: r
        integer, intent(in) :: width
        integer(int64), intent(in) :: nrows
        character(len=*), intent(in), optional :: unit
        logical, intent(in), optional :: is_valid(:)
        integer, intent(in), optional :: kind
        logical, intent(in), optional :: force
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(int64), intent(in), optional :: list_offsets(:)
        logical, intent(in), optional :: row_valid(:)
        integer(int64), intent(in), optional :: nvalues
        character(len=*), parameter :: proc = 'parquet_table: add_column'
        integer(int8), allocatable, target :: bits(:), row_bits(:)
        type(c_ptr) :: vp, dp, rp
        integer(c_size_t) :: nbytes
        integer(c_int) :: k, st
        logical :: ok, replacing
        character(len=:), allocatable :: as_name
        if (.not. opened(t, 'add_column', stat, errmsg)) return
        ! force= replaces an existing column: the new one is added under a free name first,
        ! so a refused add leaves the old column as it was, then takes the old one's name
        replacing = .false.
        if (present(force)) replacing = force
        if (replacing) replacing = pqt_table_has_column(t%h, c_string(name)) /= 0
        as_name = name
        if (replacing) then
            as_name = name//' (pqt: replacing)'
            do while (pqt_table_has_column(t%h, c_string(as_name)) /= 0)
                as_name = as_name//'+'
            end do
        end if
        if (present(list_offsets)) then
            call validity_of(is_valid, nvalues, bits, vp, ok, proc, stat, errmsg)
            if (ok) call validity_of(row_valid, nrows, row_bits, rp, ok, &
                                     proc//' (row_valid=, one per row)', stat, errmsg)
        else
            call validity_of(is_valid, width*nrows, bits, vp, ok, proc, stat, errmsg)
        end if
        if (.not. ok) return
        k = r%kind
        if (present(kind)) then
            if (kind == PK_DATE .and. k == PQT_INT32) then
                k = PQT_DATE
            else if ((kind == PK_TIME .or. kind == PK_TIMESTAMP) .and. k == PQT_INT64) then
                k = int(kind, c_int)
            else if (kind /= k) then
                call fail(PQT_KIND, proc//": column '"//trim(name)//"': kind= does not fit "// &
                          'the values (PK_DATE takes int32 days, PK_TIME and PK_TIMESTAMP '// &
                          'int64 microseconds; otherwise the kind is the type of the values)', &
                          stat, errmsg)
                return
            end if
        end if
        if (k == PQT_NONE) then
            call fail(PQT_KIND, proc//": column '"//trim(name)//"': values of "// &
                      trim(r%type_name)//' cannot be stored (integer(int32), integer(int64), '// &
                      'real(real32), real(real64), logical or character)', stat, errmsg)
            return
        end if
        if (present(list_offsets) .and. k == PQT_STRING) then
            st = pqt_table_add_string_list_column(t%h, c_string(as_name), list_offsets, rp, &
                                                  r%offsets, c_loc(r%bytes), vp, nrows, &
                                                  c_string(opt_text(unit)))
        else if (present(list_offsets)) then
            call raw_data(r, dp, nbytes)
            st = pqt_table_add_list_column(t%h, c_string(as_name), k, list_offsets, rp, dp, vp, &
                                           nrows, c_string(opt_text(unit)))
        else if (k == PQT_STRING) then
            ! width > 1: a vector of strings, element e of row i at (e, i) as for numbers
            st = pqt_table_add_string_column(t%h, c_string(as_name), int(width, c_int), &
                                                r%offsets, c_loc(r%bytes), vp, nrows, &
                                                c_string(opt_text(unit)))
        else
            call raw_data(r, dp, nbytes)
            if (width > 1) k = ior(k, PQT_VECTOR)
            st = pqt_table_add_column(t%h, c_string(as_name), k, int(width, c_int), dp, vp, &
                                      nrows, c_string(opt_text(unit)))
        end if
        if (st == PQT_OK .and. replacing) then
            st = pqt_table_drop_column(t%h, c_string(name))
            if (st == PQT_OK) st = pqt_table_rename_column(t%h, c_string(as_name), c_string(name))
        end if
        if (checked(st, proc, stat, errmsg)) continue
    end subroutine

    ! %set replaces every row: n values (rows of a vector) must be the table's row count.
    logical function one_per_row(t, n, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        integer(int64), intent(in) :: n
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=32) :: have, want
        one_per_row = n == t%nrows()
        if (one_per_row) return
        write (have, '(i0)') n
        write (want, '(i0)') t%nrows()
        call fail(PQT_MISUSE, 'parquet_table: set: '//trim(have)//' rows of values for a '// &
                  'table of '//trim(want)//' rows', stat, errmsg)
    end function

    pure function opt_text(s) result(v)
        character(len=*), intent(in), optional :: s
        character(len=:), allocatable :: v
        v = ''
        if (present(s)) v = s
    end function

    ! ---------------------------------------------------------------- set

    module procedure set_1
        type(raw_values) :: r
        integer(int64) :: i
        if (present(modify_nulls)) then
            if (.not. modify_nulls) then
                ! the nulls stay: the same as writing every row in place
                if (.not. one_per_row(t, size(values, kind=int64), stat, errmsg)) return
                call t%set_slice(name, [(i, i = 1, size(values, kind=int64))], values, &
                                 is_valid=is_valid, modify_nulls=.false., found=found, &
                                 stat=stat, errmsg=errmsg)
                return
            end if
        end if
        if (size(values) > 0) then
            call raw_of(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        if (present(is_valid)) then
            call set_raw(t, name, r, 1, size(values, kind=int64), is_valid, found, stat, errmsg)
        else
            call set_raw(t, name, r, 1, size(values, kind=int64), found=found, stat=stat, &
                         errmsg=errmsg)
        end if
    end procedure set_1

    module procedure set_2
        type(raw_values) :: r
        integer(int64) :: i
        if (present(modify_nulls)) then
            if (.not. modify_nulls) then
                if (.not. one_per_row(t, size(values, 2, kind=int64), stat, errmsg)) return
                call t%set_slice(name, [(i, i = 1, size(values, 2, kind=int64))], values, &
                                 is_valid=is_valid, modify_nulls=.false., found=found, &
                                 stat=stat, errmsg=errmsg)
                return
            end if
        end if
        if (size(values) > 0) then
            call raw_of_2(values, r)
        else
            call raw_of_empty([same_type_as(values, pm_i4), same_type_as(values, pm_i8), &
                               same_type_as(values, pm_r4), same_type_as(values, pm_r8), &
                               same_type_as(values, pm_l), same_type_as(values, pm_c)], r)
        end if
        if (present(is_valid)) then
            if (any(shape(is_valid) /= shape(values))) then
                call fail(PQT_MISUSE, 'parquet_table: set: is_valid= must have the shape of '// &
                          'the values', stat, errmsg)
                return
            end if
            call set_raw(t, name, r, size(values, 1), size(values, 2, kind=int64), &
                         reshape(is_valid, [size(is_valid)]), found, stat, errmsg)
        else
            call set_raw(t, name, r, size(values, 1), size(values, 2, kind=int64), found=found, &
                         stat=stat, errmsg=errmsg)
        end if
    end procedure set_2

    ! Replace every value: the shape must be the column's (width, nrows) and the type its
    ! exact stored kind (int32 for dates, int64 for times and timestamps); no widening.
    subroutine set_raw(t, name, r, width, nrows, is_valid, found, stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: name
        type(raw_values), intent(in), target :: r
        integer, intent(in) :: width
        integer(int64), intent(in) :: nrows
        logical, intent(in), optional :: is_valid(:)
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=*), parameter :: proc = 'parquet_table: set'
        integer(int8), allocatable, target :: bits(:)
        type(c_ptr) :: vp, dp
        integer(c_size_t) :: nbytes
        integer(c_int) :: st
        logical :: ok
        if (.not. opened(t, 'set', stat, errmsg)) return
        if (.not. fits_column(t, name, r, width, nrows, pqt_table_nrows(t%h), proc, found, &
                              stat, errmsg)) return
        call validity_of(is_valid, width*nrows, bits, vp, ok, proc, stat, errmsg)
        if (.not. ok) return
        if (r%kind == PQT_STRING) then
            st = pqt_table_set_strings(t%h, c_string(name), r%offsets, c_loc(r%bytes), vp, &
                                       c_null_ptr, c_null_ptr)
        else
            call raw_data(r, dp, nbytes)
            st = pqt_table_set(t%h, c_string(name), dp, nbytes, vp)
        end if
        if (checked(st, proc, stat, errmsg)) continue
    end subroutine

    ! .true. when values r of shape (width, nrows) fit column name exactly: its stored kind
    ! (int32 for dates, int64 for times and timestamps; no widening), its width and want_rows
    ! rows. Else a failure naming the column (with found=, a missing column is found=.false.).
    logical function fits_column(t, name, r, width, nrows, want_rows, proc, found, &
                                        stat, errmsg)
        class(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: name
        type(raw_values), intent(in) :: r
        integer, intent(in) :: width
        integer(int64), intent(in) :: nrows, want_rows
        character(len=*), intent(in) :: proc
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(c_int) :: k, w, elem
        character(len=80) :: have, want
        fits_column = .false.
        if (.not. checked(pqt_table_kind(t%h, c_string(name), k), proc, stat, errmsg, found)) &
            return
        if (.not. checked(pqt_table_width(t%h, c_string(name), w), proc, stat, errmsg)) return
        elem = iand(k, 31)
        if (elem == PQT_DATE) elem = PQT_INT32
        if (elem == PQT_TIME .or. elem == PQT_TIMESTAMP) elem = PQT_INT64
        if (iand(k, PQT_LIST) /= 0 .or. elem /= r%kind) then
            call fail(PQT_KIND, proc//": column '"//trim(name)//"' holds "// &
                      f_string(pqt_kind_name(k))//'; the values must be of its exact '// &
                      'stored type (no conversion: int32 for dates, int64 for times and '// &
                      'timestamps; variable-length lists cannot be set)', stat, errmsg)
            return
        end if
        if (width /= w .or. nrows /= want_rows) then
            write (have, '(a,i0,a,i0,a)') '(', width, ', ', nrows, ')'
            write (want, '(a,i0,a,i0,a)') '(', w, ', ', want_rows, ')'
            if (w == 1) write (want, '(i0,a)') want_rows, ' values (rank 1) or (1, n)'
            call fail(PQT_MISUSE, proc//": column '"//trim(name)//"' needs "//trim(want)// &
                      '; the values are '//trim(have), stat, errmsg)
            return
        end if
        fits_column = .true.
    end function

    ! ---------------------------------------------------------------- rows

    module procedure table_append
        if (.not. opened(t, 'append', stat, errmsg)) return
        if (.not. opened(other, 'append', stat, errmsg)) return
        if (checked(pqt_table_append(t%h, other%h), 'parquet_table: append', stat, errmsg)) &
            continue
    end procedure table_append

    module procedure filter_rows_rule
        if (.not. opened(t, 'filter_rows', stat, errmsg)) return
        if (checked(pqt_table_filter_rows(t%h, c_string(rule)), &
                    'parquet_table: filter_rows', stat, errmsg)) continue
    end procedure filter_rows_rule

    ! A filter without rules keeps every row.
    module procedure filter_rows_filter
        if (.not. opened(t, 'filter_rows', stat, errmsg)) return
        if (.not. c_associated(filter%h)) return
        if (checked(pqt_table_filter_rows_with(t%h, filter%h), 'parquet_table: filter_rows', stat, &
                    errmsg)) continue
    end procedure filter_rows_filter

    module procedure top_n_text_4
        call top_n_text_8(t, keys, int(n, int64), nulls_first, stat, errmsg)
    end procedure top_n_text_4

    ! Keep the n first rows of the order sort_by would give ("-mass", "group, -mass").
    module procedure top_n_text_8
        integer(c_int), allocatable, target :: nf(:)
        type(c_ptr) :: p
        if (.not. opened(t, 'top_n', stat, errmsg)) return
        p = c_null_ptr
        if (present(nulls_first)) then
            nf = merge(1, 0, nulls_first)
            if (size(nf) > 0) p = c_loc(nf)
        end if
        if (checked(pqt_table_top_n(t%h, c_string(keys), p, n), 'parquet_table: top_n', &
                    stat, errmsg)) continue
    end procedure top_n_text_8

    module procedure top_n_list_4
        call top_n_list_8(t, keys, int(n, int64), descending, nulls_first, stat, errmsg)
    end procedure top_n_list_4

    module procedure top_n_list_8
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        integer(c_int) :: desc(size(keys)), nf(size(keys))
        if (.not. opened(t, 'top_n', stat, errmsg)) return
        if (.not. key_flags('top_n', size(keys), descending, nulls_first, desc, nf, stat, &
                            errmsg)) return
        call c_string_array(keys, buf, ptrs)
        if (checked(pqt_table_top_n_names(t%h, ptrs, size(keys, kind=c_int), desc, nf, n), &
                    'parquet_table: top_n', stat, errmsg)) continue
    end procedure top_n_list_8

    ! perm(k): the row (1-based) that sort_by would put k-th; the table does not change.
    module procedure argsort_text
        integer(c_int), allocatable, target :: nf(:)
        integer(int64), allocatable, target :: p8(:)
        type(c_ptr) :: p
        allocate (perm(0))
        if (.not. opened(t, 'argsort_by', stat, errmsg)) return
        p = c_null_ptr
        if (present(nulls_first)) then
            nf = merge(1, 0, nulls_first)
            if (size(nf) > 0) p = c_loc(nf)
        end if
        allocate (p8(max(1_int64, pqt_table_nrows(t%h))))
        if (checked(pqt_table_argsort_by(t%h, c_string(keys), p, c_loc(p8), c_null_ptr, &
                                              0_c_int, c_null_ptr), 'parquet_table: argsort_by', &
                    stat, errmsg)) perm = p8(1:pqt_table_nrows(t%h))
    end procedure argsort_text

    module procedure argsort_list
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        integer(c_int) :: desc(size(keys)), nf(size(keys))
        integer(int64), allocatable, target :: p8(:)
        allocate (perm(0))
        if (.not. opened(t, 'argsort_by', stat, errmsg)) return
        if (.not. key_flags('argsort_by', size(keys), descending, nulls_first, desc, nf, stat, &
                            errmsg)) return
        call c_string_array(keys, buf, ptrs)
        allocate (p8(max(1_int64, pqt_table_nrows(t%h))))
        if (checked(pqt_table_argsort_by_names(t%h, ptrs, size(keys, kind=c_int), desc, nf, c_loc(p8), &
                                         c_null_ptr, 0_c_int, c_null_ptr), &
                    'parquet_table: argsort_by', stat, errmsg)) perm = p8(1:pqt_table_nrows(t%h))
    end procedure argsort_list

    ! descending=/nulls_first= as pqt's flags, one per key.
    logical function key_flags(proc, nkeys, descending, nulls_first, desc, nf, stat, errmsg)
        character(len=*), intent(in) :: proc
        integer, intent(in) :: nkeys
        logical, intent(in), optional :: descending(:), nulls_first(:)
        integer(c_int), intent(out) :: desc(nkeys), nf(nkeys)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        key_flags = .false.
        desc = 0
        nf = 0
        if (present(descending)) then
            if (size(descending) /= nkeys) then
                call fail(PQT_MISUSE, 'parquet_table: '//proc//': descending= needs one flag '// &
                          'per key', stat, errmsg)
                return
            end if
            desc = merge(1, 0, descending)
        end if
        if (present(nulls_first)) then
            if (size(nulls_first) /= nkeys) then
                call fail(PQT_MISUSE, 'parquet_table: '//proc//': nulls_first= needs one '// &
                          'flag per key', stat, errmsg)
                return
            end if
            nf = merge(1, 0, nulls_first)
        end if
        key_flags = .true.
    end function

    ! ---------------------------------------------------------------- residency

    module procedure table_reload
        integer(c_int) :: f
        if (.not. opened(t, 'reload', stat, errmsg)) return
        f = 0
        if (present(force)) f = merge(1, 0, force)
        if (checked(pqt_table_reload(t%h, c_string(name), f), 'parquet_table: reload', stat, &
                    errmsg, found)) continue
    end procedure table_reload

    module procedure table_evict_column
        integer(c_int) :: f
        if (.not. opened(t, 'evict_column', stat, errmsg)) return
        f = 0
        if (present(force)) f = merge(1, 0, force)
        if (checked(pqt_table_evict(t%h, c_string(name), f), 'parquet_table: evict_column', &
                    stat, errmsg, found)) continue
    end procedure table_evict_column

    ! Stable sort by keys in text form ("group, -mass"); nulls_first one flag per key.
    module procedure sort_by_text
        integer(c_int), allocatable, target :: nf(:)
        type(c_ptr) :: p
        if (.not. opened(t, 'sort_by', stat, errmsg)) return
        p = c_null_ptr
        if (present(nulls_first)) then
            nf = merge(1, 0, nulls_first)
            if (size(nf) > 0) p = c_loc(nf)
        end if
        if (checked(pqt_table_sort_by(t%h, c_string(keys), p), 'parquet_table: sort_by', &
                    stat, errmsg)) continue
    end procedure sort_by_text

    ! Stable sort by an array of column names (taken literally).
    module procedure sort_by_list
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
        if (checked(pqt_table_sort_by_names(t%h, ptrs, size(keys, kind=c_int), desc, nf), &
                    'parquet_table: sort_by', stat, errmsg)) continue
    end procedure sort_by_list
end submodule parquet_change
