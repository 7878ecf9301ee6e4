! test_cells.f90 - values written into chosen rows: %set_element (one cell, exact type, the
! row's null cleared) and %set_slice (rows in order, a repeated row keeps its last value,
! is_valid=, modify_nulls=, vectors through rank 2), their refusals (nothing written), the
! in-place writes keeping row handles, and on kinds.parquet (i32 = 3*id, null when id is a
! multiple of 4: DuckDB's formula) the column becoming the program's (%reload needs force=).
! %set(modify_nulls=.false.) keeping the nulls and %add_column(force=.true.) replacing a column
! (a refused replacement leaving the old one). Expected values are hand-computed in the
! comments. Failures through stat=.
program test_cells
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real32, real64
    implicit none

    call elements()
    call slices()
    call file_cells()
    call whole_columns()
    if (nfail > 0) error stop 'test_cells: failed'
    print '(a)', 'test_cells: all passed'
contains
    ! a: 1..5, row 3 null; x: 0.5, 1.5, .. 4.5; f: all .false.; s: strings; day: dates.
    subroutine five(t)
        type(parquet_table), intent(inout) :: t
        call parquet_new_table(t)
        call t%add_column("a", [1, 2, 3, 4, 5], is_valid=[.true., .true., .false., .true., .true.])
        call t%add_column("x", [0.5d0, 1.5d0, 2.5d0, 3.5d0, 4.5d0])
        call t%add_column("f", [.false., .false., .false., .false., .false.])
        call t%add_column("s", ["p", "q", "r", "s", "t"])
        call t%add_column("day", [19000, 19001, 19002, 19003, 19004], kind=PK_DATE)
    end subroutine

    subroutine elements()
        type(parquet_table) :: t
        type(parquet_table_row) :: r
        integer(int32), allocatable :: a(:)
        real(real64), allocatable :: x(:)
        logical, allocatable :: f(:), ok(:)
        character(len=300) :: msg
        integer(int64) :: g
        integer :: s
        logical :: found
        call five(t)
        r = t%row(2)
        g = t%generation()
        ! row 3 was null: it takes 30 and becomes present
        call t%set_element("a", 3, 30)
        call t%get("a", a, is_valid=ok)
        call check(all(a == [1, 2, 30, 4, 5]) .and. all(ok), &
                   'set_element("a", 3, 30): the value, and the null cleared')
        call t%set_element("x", 1_int64, 9.25d0)
        call t%get("x", x)
        call check(all(x == [9.25d0, 1.5d0, 2.5d0, 3.5d0, 4.5d0]), 'set_element of a real64')
        call t%set_element("f", 4, .true.)
        call t%get("f", f)
        call check(all(f .eqv. [.false., .false., .false., .true., .false.]), &
                   'set_element of a logical')
        call t%set_element("day", 5, 20000)
        call t%get("day", a)
        call check(a(5) == 20000, 'set_element of a date takes int32 days')
        call check(t%generation() == g .and. r%is_valid(), &
                   'writes in place: no structural change, row handles stay valid')
        ! refusals change nothing
        call t%set_element("a", 2, 7_int64, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, "'a'") > 0, 'int64 into an int32 column: '// &
                   'PQT_KIND (no conversion): '//trim(msg))
        call t%set_element("x", 2, 1.0, stat=s)
        call check(s == 52, 'real32 into a real64 column: PQT_KIND')
        call t%set_element("a", 6, 1, stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, 'row 6') > 0, 'a row past the last: PQT_RANGE '// &
                   'naming it: '//trim(msg))
        call t%set_element("s", 1, "z", stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, 'strings') > 0, 'a string cell: PQT_KIND: '// &
                   trim(msg))
        call t%set_element("nosuch", 1, 1, found=found)
        call check(.not. found, 'set_element with found= on a missing column')
        call t%get("a", a)
        call check(all(a == [1, 2, 30, 4, 5]), '... and the refusals wrote nothing')
    end subroutine

    subroutine slices()
        type(parquet_table) :: t
        integer(int32), allocatable :: a(:)
        real(real64), allocatable :: x(:)
        real(real32), allocatable :: v(:, :)
        logical, allocatable :: ok(:), okv(:, :)
        character(len=300) :: msg
        integer(int64) :: g
        integer :: s, i
        call five(t)
        call t%add_column("v", reshape([(real(i, real32), i=1, 10)], [2, 5]))
        ! rows in order; row 5 listed twice keeps the last value (30)
        call t%set_slice("x", [5, 1, 5], [10d0, 20d0, 30d0])
        call t%get("x", x)
        call check(all(x == [20d0, 1.5d0, 2.5d0, 3.5d0, 30d0]), &
                   'set_slice: rows in order, the last write of a repeated row wins')
        ! is_valid=: row 2 null, row 3 present; the first null is a structural change
        g = t%generation()
        call t%set_slice("x", [2_int64, 3_int64], [-1d0, -2d0], is_valid=[.false., .true.])
        call t%get("x", x, is_valid=ok)
        call check(all(ok .eqv. [.true., .false., .true., .true., .true.]) .and. x(3) == -2d0, &
                   'set_slice(is_valid=): .false. makes the row null')
        call check(t%generation() > g, '... the first null bitmap is a structural change')
        ! modify_nulls=.false.: a null row stays null; the default clears it
        call t%set_slice("a", [3, 2], [300, 200], modify_nulls=.false.)
        call t%get("a", a, is_valid=ok)
        call check(all(ok .eqv. [.true., .true., .false., .true., .true.]) .and. a(2) == 200, &
                   'set_slice(modify_nulls=.false.) leaves row 3 null')
        call t%set_slice("a", [3], [300])
        call t%get("a", a, is_valid=ok)
        call check(all(ok) .and. all(a == [1, 200, 300, 4, 5]), &
                   'set_slice (modify_nulls default .true.) makes row 3 present')
        ! a vector column takes rank 2 (width, rows)
        call t%set_slice("v", [4], reshape([-7.0, -8.0], [2, 1]), &
                         is_valid=reshape([.true., .false.], [2, 1]))
        call t%get("v", v, is_valid=okv)
        call check(all(v(:, 4) == [-7.0, 0.0]) .and. all(v(:, 3) == [5.0, 6.0]) .and. &
                   .not. okv(2, 4) .and. okv(1, 4) .and. count(.not. okv) == 1, &
                   'set_slice of a vector row, one element null')
        ! refusals change nothing
        call t%set_slice("a", [1, 9], [5, 6], stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, 'row 9') > 0, 'a row outside: PQT_RANGE: '// &
                   trim(msg))
        call t%set_slice("a", [1, 2, 3], [5, 6], stat=s, errmsg=msg)
        call check(s == 50, 'three rows, two values: PQT_MISUSE: '//trim(msg))
        call t%set_slice("a", [1, 2], [5, 6], is_valid=[.true.], stat=s)
        call check(s == 50, 'is_valid= of another size: PQT_MISUSE')
        call t%set_slice("a", [1], [5_int64], stat=s)
        call check(s == 52, 'int64 values into int32: PQT_KIND')
        call t%set_slice("v", [1], [5.0, 6.0], stat=s, errmsg=msg)
        call check(s == 50, 'rank 1 into a vector column: PQT_MISUSE: '//trim(msg))
        call t%get("a", a)
        call check(all(a == [1, 200, 300, 4, 5]), '... and nothing was written')
    end subroutine

    ! A file column is read first; written values are the program's (reload needs force=).
    subroutine whole_columns()
        type(parquet_table) :: t
        integer(int32), allocatable :: a(:)
        real(real64), allocatable :: x(:)
        logical, allocatable :: ok(:)
        integer :: s, n
        call five(t)
        ! row 3 of a is null: modify_nulls=.false. writes every value and keeps that null
        call t%set("a", [10, 20, 30, 40, 50], modify_nulls=.false.)
        call t%get("a", a, is_valid=ok)
        call check(all(a([1, 2, 4, 5]) == [10, 20, 40, 50]) .and. &
                   all(ok .eqv. [.true., .true., .false., .true., .true.]), &
                   'set(modify_nulls=.false.): the values, row 3 still null')
        ! is_valid= adds a null (row 2), and row 3 stays null
        call t%set("a", [1, 2, 3, 4, 5], is_valid=[.true., .false., .true., .true., .true.], &
                   modify_nulls=.false.)
        call t%get("a", a, is_valid=ok)
        call check(all(ok .eqv. [.true., .false., .false., .true., .true.]) .and. &
                   a(1) == 1 .and. a(5) == 5, 'set(is_valid=, modify_nulls=.false.)')
        ! a count that is not the row count is refused, nothing written
        call t%set("a", [7, 7, 7], modify_nulls=.false., stat=s)
        call t%get("a", a)
        call check(s /= 0 .and. a(1) == 1 .and. a(5) == 5, &
                   'set(modify_nulls=.false.) of 3 values for 5 rows: refused, unchanged')
        ! the default drops the null bitmap
        call t%set("a", [6, 7, 8, 9, 10])
        call t%get("a", a, is_valid=ok)
        call check(all(a == [6, 7, 8, 9, 10]) .and. all(ok), 'set without modify_nulls=')
        ! add_column of an existing name: refused without force=, replaced with it
        n = t%ncols()
        call t%add_column("x", [1, 2, 3, 4, 5], stat=s)
        call check(s /= 0, 'add_column of an existing name without force=: refused')
        call t%add_column("x", [-1, -2, -3, -4, -5], unit="m", force=.true.)
        call t%get("x", a)
        call check(all(a == [-1, -2, -3, -4, -5]) .and. t%ncols() == n .and. &
                   t%kind("x") == PK_INT32, 'add_column(force=.true.): x replaced, now int32')
        ! a replacement that cannot be added (3 rows for 5) leaves the old column
        call t%add_column("x", [1.0d0, 2.0d0, 3.0d0], force=.true., stat=s)
        call t%get("x", a)
        call check(s /= 0 .and. all(a == [-1, -2, -3, -4, -5]) .and. t%ncols() == n, &
                   'a refused add_column(force=.true.) keeps the old column')
        call t%add_column("new", [0.5d0, 0.5d0, 0.5d0, 0.5d0, 0.5d0], force=.true.)
        call t%get("new", x)
        call check(t%ncols() == n + 1 .and. all(x == 0.5d0), 'force= on a new name just adds')
    end subroutine

    subroutine file_cells()
        type(parquet_table) :: t
        integer(int32), allocatable :: got(:)
        integer :: s
        call parquet_open_table(t, "kinds.parquet")
        call t%set_element("i32", 4, 99)
        call t%get("i32", got)
        call check(got(4) == 99 .and. .not. t%is_null("i32", 4) .and. got(3) == 9 .and. &
                   got(8) == 0 .and. t%is_null("i32", 8), &
                   'set_element on a file column: row 4 (was null) is 99; row 8 still null')
        call t%reload("i32", stat=s)
        call check(s == 50, '... the column is the program''s: %reload needs force=')
        call t%reload("i32", force=.true.)
        call t%set_slice("i32", [1, 2], [7, 8], modify_nulls=.false.)
        call t%reload("i32", stat=s)
        call check(s == 50, 'set_slice marks the column the program''s too')
    end subroutine

end program test_cells
