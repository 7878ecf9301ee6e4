! test_rows.f90 - %set_null / %clear_null (one row, one element, rank-1 and rank-2 masks;
! the first bitmap is a structural change, later nulls are not), %cast (exact and not, on a
! resident column and before the first read), %delete_rows / %truncate (range-checked
! before any change, duplicates once, no-ops that keep the table attached) and %row_mask
! (the selection, the table unchanged). Truth: the values this program put in, and
! kinds.parquet's formulas (fortran/data/make_data.mjs, DuckDB): 30 rows, id = 1..30,
! i32 = 3*id (null when id % 4 == 0).
program test_rows
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call nulls()
    call casts()
    call removing_rows()
    call masks()
    if (nfail > 0) error stop 'test_rows: failed'
    print '(a)', 'test_rows: all passed'
contains
    subroutine nulls()
        type(parquet_table) :: t
        integer, parameter :: n = 6
        integer(int64) :: i, g
        integer(int32), allocatable :: a(:), got4(:)
        real(real64), allocatable :: v(:, :), gotv(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: gots(:)
        logical, allocatable :: ok(:), ok2(:, :), mask2(:, :)
        character(len=300) :: msg
        integer :: s
        logical :: found

        allocate (a, source=[(int(10*i, int32), i=1, n)])
        allocate (v(2, n))
        do i = 1, n
            v(:, i) = [real(i, real64), -real(i, real64)]
        end do
        call parquet_new_table(t)
        call t%add_column("a", a)
        call t%add_column("v", v)
        call t%add_column("s", [character(len=3) :: 'one', 'two', 'thr', 'fou', 'fiv', 'six'])

        ! one row of a scalar: the first null allocates the bitmap (a structural change)
        g = t%generation()
        call t%set_null("a", 3_int64)
        call check(t%is_null("a", 3) .and. .not. t%is_null("a", 2), 'set_null(a, 3)')
        call check(t%generation() > g, 'the first null of a column is a structural change')
        g = t%generation()
        call t%set_null("a", 5)
        call check(t%generation() == g, 'a null in an existing bitmap changes no generation')
        call t%get("a", got4, is_valid=ok)
        call check(all(ok .eqv. [.true., .true., .false., .true., .false., .true.]) .and. &
                   all(got4([1, 2, 4, 6]) == [10, 20, 40, 60]), 'a after two nulls')
        call t%clear_null("a", 5_int64)
        call t%get("a", got4, is_valid=ok)
        ! an element that becomes present reads 0 (pqt_table_clear_null)
        call check(ok(5) .and. got4(5) == 0 .and. .not. ok(3), 'clear_null(a, 5): present, 0')

        ! elements of a vector row, and a whole row
        call t%set_null("v", 2, 2)
        call check(t%is_null("v", 2, 2) .and. .not. t%is_null("v", 2, 1) .and. &
                   t%is_null("v", 2), 'set_null(v, 2, 2): that element only')
        call t%set_null("v", 4)
        call check(t%is_null("v", 4, 1) .and. t%is_null("v", 4, 2), 'set_null(v, 4): the row')
        call t%clear_null("v", 4, 1)
        call check(.not. t%is_null("v", 4, 1) .and. t%is_null("v", 4, 2), &
                   'clear_null(v, 4, 1): that element only')

        ! a string
        call t%set_null("s", 6)
        call t%get("s", gots, is_valid=ok)
        call check(.not. ok(6) .and. gots(6) == '' .and. gots(5) == 'fiv', 'set_null of a string')

        ! masks only add nulls
        call t%set_null("a", [.false., .true., .true., .true., .true., .true.])
        call t%get("a", got4, is_valid=ok)
        call check(all(ok .eqv. [.false., .true., .false., .true., .true., .true.]), &
                   'a rank-1 mask nulls its .false. rows and keeps the others as they were')
        allocate (mask2(2, n))
        mask2 = .true.
        mask2(1, 6) = .false.
        mask2(2, 1) = .false.
        call t%set_null("v", mask2)
        call t%get("v", gotv, is_valid=ok2)
        call check(.not. ok2(1, 6) .and. ok2(2, 6) .and. .not. ok2(2, 1) .and. ok2(1, 1) .and. &
                   .not. ok2(2, 2) .and. ok2(1, 4) .and. .not. ok2(2, 4) .and. &
                   count(.not. ok2) == 4, 'a rank-2 mask nulls its .false. elements')
        call check(gotv(1, 3) == 3d0 .and. gotv(2, 5) == -5d0, 'the other values stay')
        call t%set_null("v", [.true., .true., .false., .true., .true., .true.])
        call check(t%is_null("v", 3, 1) .and. t%is_null("v", 3, 2), &
                   'a rank-1 mask on a vector nulls whole rows')

        ! refusals: nothing changes
        call t%set_null("a", 0, stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, 'set_null') > 0, 'row 0: PQT_RANGE: '//trim(msg))
        call t%set_null("a", 7_int64, stat=s)
        call check(s == 51, 'row 7 of 6: PQT_RANGE')
        call t%set_null("v", 1, 3, stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, 'element 3') > 0, 'element 3 of 2: PQT_RANGE: '// &
                   trim(msg))
        call t%clear_null("a", 9, stat=s)
        call check(s == 51, 'clear_null(a, 9): PQT_RANGE')
        call t%set_null("a", [.false.], stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, '1 flags for 6 rows') > 0, &
                   'a mask of the wrong size: PQT_MISUSE: '//trim(msg))
        call t%set_null("v", mask2(:, 1:2), stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, '(2, 6)') > 0, &
                   'a rank-2 mask of the wrong shape: PQT_MISUSE: '//trim(msg))
        call t%get("a", got4, is_valid=ok)
        call check(count(.not. ok) == 2, 'refused calls changed nothing')
        call t%set_null("nope", 1, found=found)
        call check(.not. found, 'set_null of a missing column with found=')
        call t%set_null("nope", [.true.], found=found)
        call check(.not. found, 'set_null(mask) of a missing column with found=')
        call t%clear_null("nope", 1, found=found, stat=s)
        call check(.not. found .and. s == 0, 'clear_null of a missing column with found=')
        call t%set_null("nope", 1, stat=s)
        call check(s == 1, 'set_null of a missing column without found=: PQT_NOT_FOUND')
        call lists()
    end subroutine

    ! lists.parquet (make_data.mjs): li row 1 = [10], row 2 = [20, 21], row 3 = [30, 31, 32],
    ! row 4 = [], row 5 null.
    subroutine lists()
        type(parquet_table) :: t
        integer(int32), allocatable :: x(:)
        integer(int64), allocatable :: off(:)
        logical, allocatable :: ok(:), rv(:), m2(:, :)
        integer :: s
        call parquet_open_table(t, "lists.parquet", 1, 5)
        call t%set_null("li", 2)
        call t%clear_null("li", 5_int64)
        call t%set_null("li", 3, 2)
        call t%get("li", x, off, is_valid=ok, row_valid=rv)
        call check(all(rv .eqv. [.true., .false., .true., .true., .true.]), &
                   'a list row nulled, a null list row cleared')
        call check(all(off == [1, 2, 2, 5, 5, 5]) .and. all(x == [10, 30, 0, 32]) .and. &
                   all(ok .eqv. [.true., .true., .false., .true.]), &
                   'the nulled row lost its elements, the cleared one is empty, element 2 '// &
                   'of row 3 null')
        allocate (m2(1, 5))
        m2 = .true.
        call t%set_null("li", m2, stat=s)
        call check(s == 52, 'a rank-2 mask on a variable-length list: PQT_KIND')
    end subroutine

    subroutine casts()
        type(parquet_table) :: t, f
        integer(int32), allocatable :: got4(:)
        integer(int64), allocatable :: id(:)
        real(real64), allocatable :: x(:), got8(:)
        logical, allocatable :: ok(:)
        character(len=300) :: msg
        integer :: s
        logical :: found
        integer(int64) :: i

        call parquet_new_table(t)
        call t%add_column("x", [1d0, 2.5d0, -3d0, 4d0])
        call t%add_column("y", [1d0, 2d0, -3d0, 4d0])
        call t%cast("x", PK_INT32, stat=s, errmsg=msg)
        call check(s == 71 .and. index(msg, "'x'") > 0 .and. t%kind("x") == PK_FLOAT64, &
                   'an exact cast of 2.5 to int32: PQT_OVERFLOW, the column unchanged: '//trim(msg))
        call t%cast("x", PK_INT32, exact=.false.)
        call t%get("x", got4)
        call check(t%kind("x") == PK_INT32 .and. all(got4 == [1, 2, -3, 4]), &
                   'cast(exact=.false.): C conversion (2.5 -> 2)')
        call t%cast("y", PK_INT64)
        call check(t%kind("y") == PK_INT64, 'cast of whole values: int64')
        call t%get("y", id)
        call check(all(id == [1, 2, -3, 4]), 'the cast values')
        call t%cast("y", PK_INT64_VEC)
        call check(t%kind("y") == PK_INT64, 'a vector kind names its element (no-op here)')
        call t%add_column("s", [character(len=1) :: 'a', 'b', 'c', 'd'])
        call t%cast("s", PK_INT32, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, "'s'") > 0, 'a string column: PQT_KIND: '//trim(msg))
        call t%cast("x", PK_STRING, stat=s)
        call check(s == 52, 'to a string: PQT_KIND')
        call t%cast("nope", PK_INT32, found=found)
        call check(.not. found, 'cast of a missing column with found=')

        ! before the first read: only the decode kind changes
        call parquet_open_table(f, "kinds.parquet")
        call f%cast("i32", PK_FLOAT64)
        call check(f%residency("i32") == RES_EMPTY .and. f%kind("i32") == PK_FLOAT64, &
                   'cast before the first read reads nothing and reports the new kind')
        call f%get("i32", x, is_valid=ok)
        got8 = [(3d0*real(i, real64), i=1, 30)]
        call check(size(x) == 30, 'i32 cast to float64: 30 rows')
        if (size(x) == 30) call check(all(ok .eqv. [(mod(i, 4_int64) /= 0, i=1, 30)]) .and. &
                                      all(pack(x, ok) == pack(got8, ok)), &
                                      'i32 read as float64 = 3 * id, nulls where id % 4 == 0')
    end subroutine

    subroutine removing_rows()
        type(parquet_table) :: t
        integer(int64), allocatable :: id(:), want(:)
        integer(int64) :: i, g
        character(len=300) :: msg
        integer :: s

        ! no-ops keep the table attached and its generation (docs/fortran.md)
        call parquet_open_table(t, "kinds.parquet")
        call t%prefetch("id")
        g = t%generation()
        call t%truncate(30)
        call t%truncate(100_int64)
        call t%delete_rows([integer(int64) ::])
        call check(t%nrows() == 30 .and. .not. t%is_detached() .and. t%generation() == g, &
                   'truncate(n >= nrows) and delete_rows([]) change nothing')

        ! refused before any change
        call t%delete_rows([5_int64, 31_int64], stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, '31') > 0 .and. t%nrows() == 30 .and. &
                   .not. t%is_detached(), 'delete_rows with row 31 of 30: PQT_RANGE, '// &
                   'nothing deleted: '//trim(msg))
        call t%delete_rows([0], stat=s)
        call check(s == 51 .and. t%nrows() == 30, 'delete_rows([0]): PQT_RANGE')
        call t%truncate(-1, stat=s)
        call check(s == 50 .and. t%nrows() == 30, 'truncate(-1): PQT_MISUSE')

        ! duplicates go once; the table detaches
        call t%delete_rows([3, 1, 3, 30])
        call t%get("id", id)
        allocate (want, source=[integer(int64) :: 2, [(i, i=4, 29)]])
        call check(t%nrows() == 27 .and. size(id) == 27 .and. t%is_detached(), &
                   'delete_rows([3, 1, 3, 30]): 27 rows, detached')
        if (size(id) == 27) call check(all(id == want), 'the ids left')
        call t%get("i32", id, stat=s, errmsg=msg)
        call check(s == 54, 'a never-read column after the detach: PQT_DETACHED: '//trim(msg))
        call t%truncate(5)
        call t%get("id", id)
        call check(t%nrows() == 5 .and. all(id == [2, 4, 5, 6, 7]), 'truncate(5): the first five')
        call t%delete_rows([1_int64, 1_int64, 1_int64])
        call t%get("id", id)
        call check(all(id == [4, 5, 6, 7]), 'a row listed three times goes once')

        ! truncate of an attached table
        call parquet_open_table(t, "kinds.parquet")
        call t%prefetch("id")
        call t%truncate(3_int64)
        call t%get("id", id)
        call check(t%is_detached() .and. all(id == [1, 2, 3]), 'truncate(3): rows 1..3, detached')
    end subroutine

    subroutine masks()
        type(parquet_table) :: t
        type(parquet_filter) :: f, none
        logical, allocatable :: keep(:)
        integer(int64) :: i, g
        character(len=300) :: msg
        integer :: s

        call parquet_open_table(t, "kinds.parquet")
        call t%row_mask("i32 > 30", keep)
        ! 3*id > 30 and i32 not null (id % 4 /= 0)
        call check(size(keep) == 30, 'row_mask: one flag per row')
        if (size(keep) == 30) &
            call check(all(keep .eqv. [(i > 10 .and. mod(i, 4_int64) /= 0, i=1, 30)]), &
                       'row_mask("i32 > 30") = id > 10 and id % 4 /= 0')
        call check(t%nrows() == 30 .and. .not. t%is_detached(), 'row_mask changes no row')
        g = t%generation()
        call f%add("i32 > 30")
        call f%add("id <= 20")
        call t%row_mask(f, keep)
        call check(count(keep) == 7 .and. keep(11) .and. .not. keep(12) .and. keep(19) .and. &
                   .not. keep(21), 'row_mask(filter): two rules combine as and')
        call check(t%generation() == g .and. t%nrows() == 30, 'row_mask(filter) changes nothing')
        call t%row_mask(none, keep)
        call check(size(keep) == 30 .and. all(keep), 'a filter without rules passes every row')
        call t%row_mask("nope > 1", keep, stat=s, errmsg=msg)
        call check(s == 56 .and. size(keep) == 0 .and. index(msg, 'nope') > 0, &
                   'an unknown column: PQT_BAD_FILTER, keep empty: '//trim(msg))
    end subroutine

end program test_rows
