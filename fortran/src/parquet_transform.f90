! parquet_transform.f90 - the read-time transform objects parquet_open_table takes: a filter
! (pqt_filter), sort keys (their text form, pqt_opts_set_sort) and qc rules (pqt_qc). Each is
! checked when it is built, as far as it can be without a file; columns are checked at open.
module parquet_transform
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int8, int32, int64, real32, real64
    use parquet_c
    use parquet_base
    implicit none
    private
    public :: parquet_filter, parquet_sortkey, parquet_read_qc

    ! Rules AND-combined; sets bound by name. The C object is made by the first call.
    type :: parquet_filter
        type(c_ptr) :: h = c_null_ptr
    contains
        procedure :: add => filter_add
        generic :: add_in => add_in_i32, add_in_i64, add_in_r32, add_in_r64, add_in_chr
        procedure, private :: add_in_i32, add_in_i64, add_in_r32, add_in_r64, add_in_chr
        generic :: bind => bind_i32, bind_i64, bind_r32, bind_r64, bind_chr
        procedure, private :: bind_i32, bind_i64, bind_r32, bind_r64, bind_chr
        procedure :: clear => filter_clear
        generic :: assignment(=) => filter_assign
        procedure, private :: filter_assign
        final :: filter_final
    end type

    ! Sort keys in the order added, kept as pqt's text form ("survey, -mass nulls_first").
    type :: parquet_sortkey
        character(len=:), allocatable :: text
        integer :: nkeys = 0
    contains
        procedure :: add => sortkey_add
        procedure :: clear => sortkey_clear
    end type

    ! Quality-control rules, one per column ("mass, >0").
    type :: parquet_read_qc
        type(c_ptr) :: h = c_null_ptr
    contains
        procedure :: add => qc_add
        procedure :: clear => qc_clear
        generic :: assignment(=) => qc_assign
        procedure, private :: qc_assign
        final :: qc_final
    end type

contains

    logical function filter_ready(f, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        filter_ready = .true.
        if (.not. c_associated(f%h)) &
            filter_ready = checked(pqt_filter_new(f%h), 'parquet_filter', stat, errmsg)
    end function

    ! Add one rule of the filter language (docs/filters.md), parsed now.
    subroutine filter_add(f, rule, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: rule
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (.not. filter_ready(f, stat, errmsg)) return
        if (checked(pqt_filter_add(f%h, c_string(rule)), 'parquet_filter: add', stat, errmsg)) &
            continue
    end subroutine

    subroutine filter_clear(f)
        class(parquet_filter), intent(inout) :: f
        if (c_associated(f%h)) call pqt_filter_clear(f%h)
    end subroutine

    subroutine filter_final(f)
        type(parquet_filter), intent(inout) :: f
        if (c_associated(f%h)) call pqt_filter_free(f%h)
        f%h = c_null_ptr
    end subroutine

    ! A copy would share the C object and free it twice.
    subroutine filter_assign(to, from)
        class(parquet_filter), intent(inout) :: to
        class(parquet_filter), intent(in) :: from
        if (c_associated(to%h) .or. c_associated(from%h) .or. .true.) &
            error stop 'parquet_filter: assignment: a filter cannot be copied; build another one'
    end subroutine

    ! The set (or bound name) call of pqt for one array, validity packed as bits.
    subroutine add_set(f, proc, column, is_set, kind, values, n, is_valid, negate, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: proc, column
        logical, intent(in) :: is_set
        integer(c_int), intent(in) :: kind
        type(c_ptr), intent(in) :: values
        integer(int64), intent(in) :: n
        logical, intent(in), optional :: is_valid(:), negate
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        integer(int8), allocatable, target :: bits(:)
        type(c_ptr) :: vp
        integer(c_int) :: neg, st
        if (.not. filter_ready(f, stat, errmsg)) return
        vp = c_null_ptr
        if (present(is_valid)) then
            if (size(is_valid, kind=int64) /= n) then
                call fail(PQT_MISUSE, proc//': is_valid= has a different size from values', &
                          stat, errmsg)
                return
            end if
            bits = pack_bits(is_valid)
            vp = c_loc(bits)
        end if
        neg = 0
        if (present(negate)) then
            if (negate) neg = 1
        end if
        if (is_set) then
            st = pqt_filter_add_in(f%h, c_string(column), kind, values, n, vp, neg)
        else
            st = pqt_filter_bind(f%h, c_string(column), kind, values, n, vp)
        end if
        if (checked(st, proc, stat, errmsg)) continue
    end subroutine

    subroutine add_in_i32(f, column, values, is_valid, negate, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: column
        integer(int32), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:), negate
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: add_in', column, .true., PQT_INT32, c_loc(values), &
                     size(values, kind=int64), is_valid, negate, stat, errmsg)
    end subroutine

    subroutine add_in_i64(f, column, values, is_valid, negate, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: column
        integer(int64), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:), negate
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: add_in', column, .true., PQT_INT64, c_loc(values), &
                     size(values, kind=int64), is_valid, negate, stat, errmsg)
    end subroutine

    subroutine add_in_r32(f, column, values, is_valid, negate, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: column
        real(real32), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:), negate
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: add_in', column, .true., PQT_FLOAT32, c_loc(values), &
                     size(values, kind=int64), is_valid, negate, stat, errmsg)
    end subroutine

    subroutine add_in_r64(f, column, values, is_valid, negate, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: column
        real(real64), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:), negate
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: add_in', column, .true., PQT_FLOAT64, c_loc(values), &
                     size(values, kind=int64), is_valid, negate, stat, errmsg)
    end subroutine

    ! Character elements are trimmed (a Fortran array pads every element to one length).
    subroutine add_in_chr(f, column, values, is_valid, negate, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: column
        character(len=*), intent(in) :: values(:)
        logical, intent(in), optional :: is_valid(:), negate
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        call c_string_array(values, buf, ptrs)
        call add_set(f, 'parquet_filter: add_in', column, .true., PQT_STRING, c_loc(ptrs), &
                     size(values, kind=int64), is_valid, negate, stat, errmsg)
    end subroutine

    subroutine bind_i32(f, name, values, is_valid, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: name
        integer(int32), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: bind', name, .false., PQT_INT32, c_loc(values), &
                     size(values, kind=int64), is_valid, stat=stat, errmsg=errmsg)
    end subroutine

    subroutine bind_i64(f, name, values, is_valid, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: name
        integer(int64), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: bind', name, .false., PQT_INT64, c_loc(values), &
                     size(values, kind=int64), is_valid, stat=stat, errmsg=errmsg)
    end subroutine

    subroutine bind_r32(f, name, values, is_valid, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: name
        real(real32), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: bind', name, .false., PQT_FLOAT32, c_loc(values), &
                     size(values, kind=int64), is_valid, stat=stat, errmsg=errmsg)
    end subroutine

    subroutine bind_r64(f, name, values, is_valid, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: name
        real(real64), intent(in), target, contiguous :: values(:)
        logical, intent(in), optional :: is_valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        call add_set(f, 'parquet_filter: bind', name, .false., PQT_FLOAT64, c_loc(values), &
                     size(values, kind=int64), is_valid, stat=stat, errmsg=errmsg)
    end subroutine

    subroutine bind_chr(f, name, values, is_valid, stat, errmsg)
        class(parquet_filter), intent(inout) :: f
        character(len=*), intent(in) :: name
        character(len=*), intent(in) :: values(:)
        logical, intent(in), optional :: is_valid(:)
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        call c_string_array(values, buf, ptrs)
        call add_set(f, 'parquet_filter: bind', name, .false., PQT_STRING, c_loc(ptrs), &
                     size(values, kind=int64), is_valid, stat=stat, errmsg=errmsg)
    end subroutine


    ! One key: "[-]column [asc|desc]", checked now by pqt's sort parser.
    subroutine sortkey_add(s, key, nulls_first, stat, errmsg)
        class(parquet_sortkey), intent(inout) :: s
        character(len=*), intent(in) :: key
        logical, intent(in), optional :: nulls_first
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: one
        type(c_ptr) :: opts
        integer(c_int) :: st
        if (scan(key, ',;') > 0) then
            call fail(PQT_MISUSE, "parquet_sortkey: add: '"//trim(key)// &
                      "' holds more than one key; add one key per call", stat, errmsg)
            return
        end if
        one = trim(adjustl(key))
        if (present(nulls_first)) then
            if (nulls_first) one = one//' nulls_first'
        end if
        if (.not. checked(pqt_opts_new(opts), 'parquet_sortkey: add', stat, errmsg)) return
        st = pqt_opts_set_sort(opts, c_string(one))
        call pqt_opts_free(opts)
        if (.not. checked(st, 'parquet_sortkey: add', stat, errmsg)) return
        if (s%nkeys == 0) then
            s%text = one
        else
            s%text = s%text//', '//one
        end if
        s%nkeys = s%nkeys + 1
    end subroutine

    subroutine sortkey_clear(s)
        class(parquet_sortkey), intent(inout) :: s
        if (allocated(s%text)) deallocate (s%text)
        s%nkeys = 0
    end subroutine

    ! One rule "column[, min[, max[, miss]]]" (docs/qc.md), parsed now.
    subroutine qc_add(q, rule, stat, errmsg)
        class(parquet_read_qc), intent(inout) :: q
        character(len=*), intent(in) :: rule
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (.not. c_associated(q%h)) then
            if (.not. checked(pqt_qc_new(q%h), 'parquet_read_qc: add', stat, errmsg)) return
        end if
        if (checked(pqt_qc_add(q%h, c_string(rule)), 'parquet_read_qc: add', stat, errmsg)) &
            continue
    end subroutine

    subroutine qc_clear(q)
        class(parquet_read_qc), intent(inout) :: q
        if (c_associated(q%h)) call pqt_qc_clear(q%h)
    end subroutine

    subroutine qc_final(q)
        type(parquet_read_qc), intent(inout) :: q
        if (c_associated(q%h)) call pqt_qc_free(q%h)
        q%h = c_null_ptr
    end subroutine

    subroutine qc_assign(to, from)
        class(parquet_read_qc), intent(inout) :: to
        class(parquet_read_qc), intent(in) :: from
        if (c_associated(to%h) .or. c_associated(from%h) .or. .true.) &
            error stop 'parquet_read_qc: assignment: qc rules cannot be copied; build another set'
    end subroutine
end module parquet_transform
