! parquet_base.f90 - what module parquet shares between its parts: the public constants (PK_*
! kinds, RES_* residencies, PARQUET_ROW_INDEX), the error convention of every procedure
! (optional stat=/errmsg=, else `error stop` with pqt's message) and C string conversions.
module parquet_base
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: int8, int32, int64, real32, real64
    use parquet_c
    implicit none
    private
    public :: PK_NONE, PK_INT32, PK_INT64, PK_FLOAT32, PK_FLOAT64, PK_LOGICAL, PK_STRING, &
        PK_DATE, PK_TIME, PK_TIMESTAMP, PK_INT32_VEC, PK_INT64_VEC, PK_FLOAT32_VEC, &
        PK_FLOAT64_VEC, PK_LOGICAL_VEC, PK_STRING_VEC, PK_DATE_VEC, PK_TIME_VEC, &
        PK_TIMESTAMP_VEC, PK_LIST, RES_EMPTY, RES_PARTIAL, RES_FULL, PARQUET_ROW_INDEX, &
        PARQUET_UNIT_MILLIS, PARQUET_UNIT_MICROS, PARQUET_UNIT_NANOS
    public :: fail, checked, c_string_array, last_error, c_string, f_string, pack_bits, &
        unpack_bits, pk_of, mask_bytes

    ! The kinds %kind reports (docs/fortran.md): nine scalar kinds, the same nine as
    ! fixed-width vectors (+10), and a variable-length list.
    integer, parameter :: PK_NONE = 0, PK_INT32 = 1, PK_INT64 = 2, PK_FLOAT32 = 3, &
        PK_FLOAT64 = 4, PK_LOGICAL = 5, PK_STRING = 6, PK_DATE = 7, PK_TIME = 8, &
        PK_TIMESTAMP = 9, PK_INT32_VEC = 11, PK_INT64_VEC = 12, PK_FLOAT32_VEC = 13, &
        PK_FLOAT64_VEC = 14, PK_LOGICAL_VEC = 15, PK_STRING_VEC = 16, PK_DATE_VEC = 17, &
        PK_TIME_VEC = 18, PK_TIMESTAMP_VEC = 19, PK_LIST = 21
    integer, parameter :: RES_EMPTY = 0, RES_PARTIAL = 1, RES_FULL = 2
    ! Time units of time and timestamp columns (%time_unit), pqt_time_unit's numbers.
    integer, parameter :: PARQUET_UNIT_MILLIS = 0, PARQUET_UNIT_MICROS = 1, PARQUET_UNIT_NANOS = 2
    character(len=*), parameter :: PARQUET_ROW_INDEX = 'parquet_row_index'

contains

    ! The failure convention: with stat= present the caller gets the status (and errmsg= the
    ! text) and decides; without it the program ends with `error stop` and the message.
    subroutine fail(st, msg, stat, errmsg)
        integer, intent(in) :: st
        character(len=*), intent(in) :: msg
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        if (present(errmsg)) errmsg = msg
        if (present(stat)) then
            stat = st
        else
            error stop msg
        end if
    end subroutine

    ! .true. when a pqt call succeeded (stat= set to 0, found= to .true.). A missing column
    ! (PQT_NOT_FOUND) with found= present is no failure: found= .false., stat= 0. Anything
    ! else fails as `fail` says, with "proc: " before pqt's message.
    logical function checked(st, proc, stat, errmsg, found)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        logical, intent(out), optional :: found
        ! the message in a local first: gfortran 12 sized a concatenation with a function's
        ! deferred-length result wrongly when two threads failed at once (ASan: a read past
        ! the temporary), and a local of its own is each thread's
        character(len=:), allocatable :: text
        checked = st == PQT_OK
        if (checked) then
            if (present(stat)) stat = 0
            if (present(found)) found = .true.
        else if (st == PQT_NOT_FOUND .and. present(found)) then
            found = .false.
            if (present(stat)) stat = 0
        else if (st == PQT_PARALLEL) then
            ! pqt names its C call; a Fortran program calls the type-bound one
            text = last_error()
            text = proc//': '//text// &
                   ' (in Fortran: call t%prefetch(names) before the parallel region)'
            call fail(int(st), text, stat, errmsg)
        else
            if (present(found)) found = .false.
            text = last_error()
            text = proc//': '//text
            call fail(int(st), text, stat, errmsg)
        end if
    end function

    ! pqt's message of the last failure on this thread.
    function last_error() result(msg)
        character(len=:), allocatable :: msg
        msg = f_string(pqt_errmsg())
    end function

    ! A NUL-terminated copy of s for C (trailing blanks are not part of a Fortran name).
    pure function c_string(s) result(c)
        character(len=*), intent(in) :: s
        character(kind=c_char, len=:), allocatable :: c
        c = trim(s)//c_null_char
    end function

    ! The C string at p as a Fortran string ("" for NULL).
    function f_string(p) result(s)
        type(c_ptr), intent(in) :: p
        character(len=:), allocatable :: s
        character(kind=c_char), pointer :: chars(:)
        integer :: n, i
        if (.not. c_associated(p)) then
            s = ''
            return
        end if
        n = int(c_strlen(p))
        call c_f_pointer(p, chars, [n])
        allocate (character(len=n) :: s)
        do i = 1, n
            s(i:i) = chars(i)
        end do
    end function

    ! A logical array as pqt's bitmap: bit i (LSB first) set when v(i) is .true.
    function pack_bits(v) result(bits)
        logical, intent(in) :: v(:)
        integer(int8), allocatable :: bits(:)
        integer :: i
        allocate (bits(max(1, (size(v) + 7)/8)))
        bits = 0_int8
        do i = 1, size(v)
            if (v(i)) bits((i - 1)/8 + 1) = ibset(bits((i - 1)/8 + 1), mod(i - 1, 8))
        end do
    end function

    ! A row mask as pqt takes it: one byte per row, 1 where mask is .true.; .false. (and a
    ! PQT_MISUSE failure naming proc) when the mask has not one flag per row (n rows).
    logical function mask_bytes(mask, n, bytes, proc, stat, errmsg)
        logical, intent(in) :: mask(:)
        integer(int64), intent(in) :: n
        integer(int8), allocatable, intent(out) :: bytes(:)
        character(len=*), intent(in) :: proc
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=24) :: a, b
        mask_bytes = size(mask, kind=int64) == n
        if (.not. mask_bytes) then
            write (a, '(i0)') size(mask, kind=int64)
            write (b, '(i0)') n
            call fail(PQT_MISUSE, proc//': row_mask has '//trim(a)//' flags for '//trim(b)// &
                      ' rows (one per row of the table)', stat, errmsg)
            return
        end if
        allocate (bytes(max(1_int64, n)))
        bytes = 0_int8
        where (mask) bytes(1:n) = 1_int8
    end function

    ! pqt's bitmap of n bits as a logical array.
    pure function unpack_bits(bits, n) result(v)
        integer(int8), intent(in) :: bits(:)
        integer(int64), intent(in) :: n
        logical :: v(n)
        integer(int64) :: i
        do i = 1, n
            v(i) = btest(bits((i - 1)/8 + 1), int(mod(i - 1, 8_int64)))
        end do
    end function

    ! values as C strings: each trimmed and NUL-terminated in buf, ptrs(i) pointing at the
    ! i-th. buf must stay allocated while ptrs is used.
    subroutine c_string_array(values, buf, ptrs)
        character(len=*), intent(in) :: values(:)
        character(kind=c_char, len=:), allocatable, target, intent(out) :: buf
        type(c_ptr), allocatable, target, intent(out) :: ptrs(:)
        integer :: i, at, n
        n = 0
        do i = 1, size(values)
            n = n + len_trim(values(i)) + 1
        end do
        allocate (character(kind=c_char, len=max(n, 1)) :: buf)
        allocate (ptrs(max(size(values), 1)))
        at = 1
        do i = 1, size(values)
            n = len_trim(values(i))
            buf(at:at + n) = values(i) (1:n)//c_null_char
            ptrs(i) = c_loc(buf(at:at))
            at = at + n + 1
        end do
    end subroutine

    ! The PK_* kind of a pqt_kind: uint64 columns read as int64 (docs/reading.md, "Kinds").
    pure integer function pk_of(kind)
        integer(c_int), intent(in) :: kind
        integer :: elem
        if (iand(kind, PQT_LIST) /= 0) then
            pk_of = PK_LIST
            return
        end if
        elem = iand(kind, 31)
        if (elem == PQT_UINT64) elem = PK_INT64
        if (elem == PQT_BINARY) elem = PK_STRING ! bytes read into character like strings
        if (elem > PK_TIMESTAMP) elem = PK_NONE
        pk_of = elem
        if (iand(kind, PQT_VECTOR) /= 0 .and. elem /= PK_NONE) pk_of = elem + 10
    end function
end module parquet_base
