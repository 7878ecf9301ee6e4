! test_columns.f90 - column-structural changes of several columns and copies: %keep_columns
! (slot order kept, every missing name reported, nothing dropped then), %drop_columns
! (duplicates, ignore_missing=), %copy_column (to_kind=, exact=, nulls kept, found=) on an
! in-memory table and on kinds.parquet (i32 = 3*id, null when id is a multiple of 4: DuckDB's
! formula). Expected values are hand-computed in the comments. Failures through stat=.
program test_columns
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real32, real64
    implicit none

    call keep_drop()
    call copies()
    call file_copy()
    if (nfail > 0) error stop 'test_columns: failed'
    print '(a)', 'test_columns: all passed'
contains
    ! a, b, c, s: four columns of three rows.
    subroutine four(t)
        type(parquet_table), intent(inout) :: t
        call parquet_new_table(t)
        call t%add_column("a", [1, 2, 3])
        call t%add_column("b", [1.5d0, -2.25d0, 1d10])
        call t%add_column("c", [.true., .false., .true.])
        call t%add_column("s", ["x  ", "yy ", "zzz"])
    end subroutine

    subroutine keep_drop()
        type(parquet_table) :: t
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: names(:)
        character(len=300) :: msg
        integer(int64) :: g
        integer :: s
        call four(t)
        ! ---- keep_columns: refusals name every missing name and change nothing
        g = t%generation()
        call t%keep_columns(["a ", "zz", "yy"], stat=s, errmsg=msg)
        call check(s == 1 .and. index(msg, "'zz'") > 0 .and. index(msg, "'yy'") > 0 .and. &
                   index(msg, '2 columns missing') > 0, 'keep_columns with two missing '// &
                   'names: PQT_NOT_FOUND naming both: '//trim(msg))
        call check(t%ncols() == 4 .and. t%generation() == g, '... and nothing dropped')
        ! slot order is kept, not the order of the names
        call t%keep_columns(["s", "a"], force=.true.)
        call t%column_names(names)
        call check(size(names) == 2, 'keep_columns(["s", "a"]): two columns left')
        if (size(names) == 2) call check(names(1) == 'a' .and. names(2) == 's', &
                                         '... in slot order a, s')
        call check(t%generation() > g, '... a structural change')
        call check(t%nrows() == 3, '... rows unchanged')
        ! ---- drop_columns
        call four(t)
        call t%drop_columns(["b", "b", "c"])
        call t%column_names(names)
        call check(size(names) == 2, 'drop_columns(["b", "b", "c"]): duplicates are fine')
        if (size(names) == 2) call check(names(1) == 'a' .and. names(2) == 's', '... a, s left')
        g = t%generation()
        call t%drop_columns(["q", "a", "r"], stat=s, errmsg=msg)
        call check(s == 1 .and. index(msg, "'q'") > 0 .and. index(msg, "'r'") > 0 .and. &
                   t%ncols() == 2 .and. t%generation() == g, &
                   'drop_columns with missing names: PQT_NOT_FOUND naming them, nothing '// &
                   'dropped: '//trim(msg))
        call t%drop_columns(["q", "a", "r"], ignore_missing=.true.)
        call check(t%ncols() == 1 .and. .not. t%has_column("a") .and. t%has_column("s"), &
                   'drop_columns(ignore_missing=.true.) skips the missing names')
        g = t%generation()
        call t%drop_columns(["q"], ignore_missing=.true.)
        call check(t%ncols() == 1 .and. t%generation() == g, &
                   'dropping only missing names with ignore_missing= changes nothing')
    end subroutine

    subroutine copies()
        type(parquet_table) :: t
        real(real32), allocatable :: r4(:)
        real(real64), allocatable :: r8(:)
        integer(int32), allocatable :: i4(:)
        integer(int64), allocatable :: i8(:)
        logical, allocatable :: ok(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: str(:)
        character(len=:), allocatable :: u
        character(len=300) :: msg
        integer(int64) :: g
        integer :: s
        logical :: found
        call four(t)
        call t%add_column("n", [10_int64, 20_int64, 30_int64], unit="kg", &
                          is_valid=[.true., .false., .true.])
        ! same kind: an equal copy, unit and nulls kept; the source is untouched
        call t%copy_column("n", "n2")
        call t%get("n2", i8, is_valid=ok)
        call check(t%kind("n2") == PK_INT64 .and. all(i8 == [10, 0, 30]) .and. &
                   all(ok .eqv. [.true., .false., .true.]), 'copy_column: values and nulls')
        call t%unit("n2", u)
        call check(u == 'kg', '... and the unit')
        call t%set("n2", [1_int64, 2_int64, 3_int64])
        call t%get("n", i8)
        call check(all(i8 == [10, 0, 30]), 'setting the copy leaves the source alone')
        ! to_kind: int64 -> float32 (10, 20, 30 exact), a vector kind names its element
        call t%copy_column("n", "nf", to_kind=PK_FLOAT32_VEC)
        call t%get("nf", r4, is_valid=ok)
        call check(t%kind("nf") == PK_FLOAT32 .and. all(r4 == [10., 0., 30.]) .and. &
                   .not. ok(2), 'copy_column(to_kind=PK_FLOAT32_VEC): float32 values, null kept')
        ! float64 -> float32: 1.5, -2.25 and 1e10 = 2**10 * 9765625 (< 2**24) are exact
        call t%copy_column("b", "b4", to_kind=PK_FLOAT32)
        call t%get("b4", r4)
        call check(all(r4 == [1.5, -2.25, 1e10]), 'copy_column float64 -> float32 exact')
        ! exact (default): 1.5 does not survive int32
        g = t%generation()
        call t%copy_column("b", "bi", to_kind=PK_INT32, stat=s, errmsg=msg)
        call check(s == 71 .and. index(msg, "'b'") > 0, 'an inexact copy: PQT_OVERFLOW: ' &
                   //trim(msg))
        call check(.not. t%has_column("bi") .and. t%generation() == g, '... nothing added')
        ! exact=.false.: C's conversion: 1.5 -> 1, -2.25 -> -2, 1e10 out of range -> 0
        call t%copy_column("b", "bi", to_kind=PK_INT32, exact=.false.)
        call t%get("bi", i4)
        call check(all(i4 == [1, -2, 0]), 'copy_column(exact=.false.): truncation, 0 out of range')
        call t%get("b", r8)
        call check(all(r8 == [1.5d0, -2.25d0, 1d10]) .and. t%kind("b") == PK_FLOAT64, &
                   '... the source keeps its kind and values')
        ! strings copy as strings; converting them is PQT_KIND
        call t%copy_column("s", "s2")
        call t%get("s2", str)
        call check(all(str == ["x  ", "yy ", "zzz"]), 'a string column copies')
        call t%copy_column("s", "s3", to_kind=PK_INT64, stat=s)
        call check(s == 52 .and. .not. t%has_column("s3"), 'string -> int64: PQT_KIND')
        ! a missing source with found=; an existing destination is PQT_MISUSE
        g = t%generation()
        call t%copy_column("nosuch", "x", found=found)
        call check(.not. found .and. .not. t%has_column("x") .and. t%generation() == g, &
                   'copy_column of a missing source with found=')
        call t%copy_column("a", "b", stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, "'b'") > 0, 'copy onto an existing name: '// &
                   'PQT_MISUSE: '//trim(msg))
        call t%copy_column("a", "a_copy", found=found)
        call check(found .and. t%ncols() == 11, 'found= is .true. on success; 11 columns')
    end subroutine

    ! A copy of a file column reads it; the copy is in memory (no reload, no evict).
    subroutine file_copy()
        type(parquet_table) :: t
        integer(int64), allocatable :: got(:)
        logical, allocatable :: ok(:)
        integer(int64) :: i
        integer :: s
        call parquet_open_table(t, "kinds.parquet")
        call t%copy_column("i32", "i32_64", to_kind=PK_INT64)
        call t%get("i32_64", got, is_valid=ok)
        call check(all(got == [(merge(0_int64, 3*i, mod(i, 4_int64) == 0), i=1, 30)]) .and. &
                   all(ok .eqv. [(mod(i, 4_int64) /= 0, i=1, 30)]), &
                   'copy of a file column: 3*id, null every 4th row')
        call check(t%residency("i32") == RES_FULL, '... the source was read')
        call t%reload("i32_64", force=.true., stat=s)
        call check(s == 50, '... the copy has no file to reload from')
        call t%keep_columns(["i32_64"])
        call check(t%ncols() == 1 .and. .not. t%has_column(PARQUET_ROW_INDEX), &
                   'keep_columns without the row index drops it for good')
    end subroutine

end program test_columns
