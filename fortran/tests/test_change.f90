! test_change.f90 - in-memory tables and changes: parquet_new_table and %add_column of every
! Fortran type (scalars, vectors, strings, dates/timestamps through kind=, units, nulls
! through is_valid=), %set, %append (missing columns null-filled), %filter_rows (rule and
! filter), %top_n, %argsort_by, then the table written and read back: every value equals
! what the program put in. %reload / %evict_column on a file table (kinds.parquet, DuckDB's
! formulas). Columns of zero rows from zero-size constructors. Failures through stat=.
program test_change
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real32, real64
    implicit none

    call run()
    call write_side_maml()
    call file_columns()
    call zero_rows()
    if (nfail > 0) error stop 'test_change: failed'
    print '(a)', 'test_change: all passed'
contains
    subroutine run()
        type(parquet_table) :: t, o, w
        type(parquet_filter) :: filt
        integer, parameter :: n = 12
        integer(int64) :: i
        integer(int64), allocatable :: id(:), ts(:), perm(:), got8(:)
        integer(int32), allocatable :: cnt(:), day(:), got4(:)
        real(real64), allocatable :: x(:), gotx(:)
        real(real32), allocatable :: v(:, :), gotv(:, :)
        logical, allocatable :: flag(:), gotl(:), pair(:, :), gotp(:, :), xok(:), ok(:)
        character(len=8), allocatable :: names(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: gots(:)
        character(len=:), allocatable :: u
        complex, allocatable :: z(:)
        character(len=300) :: msg
        integer :: s
        logical :: found

        allocate (id, source=[(i, i=1, n)])
        x = [(real(i, real64)*1.25d0 - 7d0, i=1, n)]         ! -5.75 .. 8
        xok = [(mod(i, 5_int64) /= 0, i=1, n)]               ! rows 5, 10 null
        cnt = [(int(100 - 7*i, int32), i=1, n)]
        flag = [(mod(i, 3_int64) == 0, i=1, n)]
        names = [character(len=8) :: 'alpha', '', 'gamma', 'd', 'epsilon', 'zeta', 'eta', &
                 'theta', 'iota', 'kappa', 'lambda', 'mu']
        allocate (v(3, n), pair(2, n))
        do i = 1, n
            v(:, i) = [real(i, real32), -real(i, real32), 0.5*real(i, real32)]
            pair(:, i) = [mod(i, 2_int64) == 0, i > 6]
        end do
        day = [(int(19000 + i, int32), i=1, n)]
        ts = [(i*3600000000_int64, i=1, n)]

        ! ---- building
        call parquet_new_table(t)
        call check(t%nrows() == 0 .and. t%ncols() == 0, 'a new table is empty')
        call t%add_column("id", id)
        call t%add_column("x", x, unit="m/s", is_valid=xok)
        call t%add_column("cnt", cnt, unit="kg")
        call t%add_column("flag", flag)
        call t%add_column("name", names)
        call t%add_column("v", v)
        call t%add_column("pair", pair)
        call t%add_column("day", day, kind=PK_DATE)
        call t%add_column("ts", ts, kind=PK_TIMESTAMP)
        call check(t%nrows() == n .and. t%ncols() == 9, 'nine columns of 12 rows')
        call check(t%kind("id") == PK_INT64 .and. t%kind("x") == PK_FLOAT64 .and. &
                   t%kind("cnt") == PK_INT32 .and. t%kind("flag") == PK_LOGICAL .and. &
                   t%kind("name") == PK_STRING .and. t%kind("v") == PK_FLOAT32_VEC .and. &
                   t%kind("pair") == PK_LOGICAL_VEC .and. t%kind("day") == PK_DATE .and. &
                   t%kind("ts") == PK_TIMESTAMP, 'kinds from the Fortran types and kind=')
        call check(t%width("v") == 3 .and. t%width("pair") == 2, 'vector widths')
        call t%unit("x", u)
        call check(u == 'm/s', 'unit= kept')
        call check(t%time_unit("ts") == PARQUET_UNIT_MICROS, 'timestamps are microseconds')

        ! ---- refusals change nothing
        call t%add_column("short", [1, 2, 3], stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, 'short') > 0, 'a column of another length: '// &
                   'PQT_MISUSE naming it: '//trim(msg))
        call t%add_column("id", id, stat=s)
        call check(s == 50, 'an existing name: PQT_MISUSE')
        allocate (z(n))
        z = (1.0, 2.0)
        call t%add_column("z", z, stat=s, errmsg=msg)
        call check(s == 52, 'complex values: PQT_KIND: '//trim(msg))
        call t%add_column("d2", x, kind=PK_DATE, stat=s)
        call check(s == 52, 'kind=PK_DATE with real values: PQT_KIND')
        call t%add_column("m", id, is_valid=[.true.], stat=s)
        call check(s == 50, 'is_valid= of the wrong size: PQT_MISUSE')
        call check(t%ncols() == 9, 'no column added by a refused call')

        ! ---- set: exact type and shape
        cnt = cnt + 1
        call t%set("cnt", cnt, is_valid=[(i /= 2, i=1, n)])
        call t%get("cnt", got4, is_valid=ok)
        call check(all(got4 == merge(0, cnt, [(i == 2, i=1, n)])) .and. &
                   all(ok .eqv. [(i /= 2, i=1, n)]), '%set with is_valid=')
        call t%set("cnt", x, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, 'int32') > 0, 'real64 values into an int32 '// &
                   'column: PQT_KIND naming its kind: '//trim(msg))
        call t%set("cnt", cnt(1:3), stat=s)
        call check(s == 50, 'too few values: PQT_MISUSE')
        call t%set("nope", cnt, found=found)
        call check(.not. found, '%set of a missing column with found=')
        names(2) = 'beta'
        call t%set("name", names)
        call t%get("name", gots)
        call check(all(gots == names), '%set of strings')
        call t%set("cnt", cnt)
        call check(.not. t%has_nulls("cnt"), '%set without is_valid= clears the nulls')
        v = 2*v
        call t%set("v", v)
        call t%get("v", gotv)
        call check(all(gotv == v), '%set of a vector column (rank 2)')
        call t%set("v", v(1:2, :), stat=s)
        call check(s == 50, '%set of a vector with another width: PQT_MISUSE')

        ! ---- append: other's columns are a subset; the rest null-filled
        call parquet_new_table(o)
        call o%add_column("id", [101_int64, 102_int64])
        call o%add_column("x", [1.0d0, 2.0d0], unit="m/s")
        call t%append(o)
        call check(t%nrows() == n + 2, 'append adds 2 rows')
        call t%get("id", got8)
        call check(all(got8 == [id, 101_int64, 102_int64]), 'appended ids')
        call t%get("cnt", got4, is_valid=ok)
        call check(all(ok .eqv. [(i <= n, i=1, n + 2)]), "missing columns are null in the " &
                   //'appended rows')
        call parquet_new_table(o)
        call o%add_column("x", [1.0d0], unit="km/s")
        call t%append(o, stat=s, errmsg=msg)
        call check(s == 55 .and. index(msg, 'x') > 0, 'append of another unit is '// &
                   'PQT_UNIT_MISMATCH: '//trim(msg))
        call check(t%nrows() == n + 2, '... and adds nothing')

        ! ---- filter_rows: the appended rows go, then the null x rows
        call t%filter_rows("id <= 12")
        call check(t%nrows() == n, 'filter_rows(rule)')
        call filt%add("x > -100")
        call t%filter_rows(filt)
        call t%get("id", got8)
        call check(all(got8 == pack(id, xok)), 'filter_rows(filter): null x rows dropped')
        call t%filter_rows("nosuch > 1", stat=s)
        call check(s == 56 .and. t%nrows() == 10, 'a bad rule: PQT_BAD_FILTER, rows unchanged')

        ! ---- the table written and read back: the values the program put in
        call parquet_write_table(t, "mem.parquet", write_maml=.true.)
        call parquet_open_table(w, "mem.parquet", maml="mem.maml")
        call check(w%nrows() == 10, 'written: 10 rows')
        call w%get("id", got8)
        call check(all(got8 == pack(id, xok)), 'id read back')
        call w%get("x", gotx)
        call check(all(gotx == pack(x, xok)), 'x read back')
        call w%unit("x", u)
        call check(u == 'm/s', 'unit read back through the written sidecar')
        call w%get("cnt", got4)
        call check(all(got4 == pack(cnt, xok)), 'cnt read back')
        call w%get("flag", gotl)
        call check(all(gotl .eqv. pack(flag, xok)), 'flag read back')
        call w%get("name", gots)
        call check(all(gots == pack(names, xok)), 'name read back')
        call w%get("v", gotv)
        call check(all(shape(gotv) == [3, 10]), 'v read back as (3, nrows)')
        if (all(shape(gotv) == [3, 10])) call check(all(gotv == v(:, pack(id, xok))), &
                                                    'v values read back')
        call w%get("pair", gotp)
        if (all(shape(gotp) == [2, 10])) then
            call check(all(gotp .eqv. pair(:, pack(id, xok))), 'pair read back')
        else
            call check(.false., 'pair read back as (2, nrows)')
        end if
        call w%get("day", got4)
        call check(w%kind("day") == PK_DATE .and. all(got4 == pack(day, xok)), 'day read back')
        call w%get("ts", got8)
        call check(w%kind("ts") == PK_TIMESTAMP .and. all(got8 == pack(ts, xok)), &
                   'ts read back')

        ! ---- top_n and argsort_by on what was written
        call w%argsort_by("-x", perm)
        ! x rises with id: descending x is descending id
        call check(all(perm == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]), '%argsort_by("-x")')
        call w%argsort_by(["flag", "id  "], perm, descending=[.true., .false.])
        call check(all(perm == [3, 5, 8, 10, 1, 2, 4, 6, 7, 9]), &
                   '%argsort_by(names, descending=): flag rows first, then by id')
        call check(w%nrows() == 10 .and. .not. w%is_detached(), 'argsort changes nothing')
        call w%top_n("x", 3)
        call w%get("id", got8)
        call check(all(got8 == [1, 2, 3]), '%top_n("x", 3): the 3 smallest x')
        call w%top_n(["id"], 2_int64, descending=[.true.])
        call w%get("id", got8)
        call check(all(got8 == [3, 2]), '%top_n(names, 2, descending=)')
        call w%top_n("-nosuch", 1, stat=s)
        call check(s /= 0 .and. w%nrows() == 2, 'top_n of a missing key is refused')
    end subroutine

    ! parquet_write_table(maml=): a write-side MAML protects a column (a null refused, no
    ! file) and renames one (col_map:).
    subroutine write_side_maml()
        type(parquet_table) :: t, w
        integer(int64), allocatable :: got(:)
        character(len=300) :: msg
        integer :: s, u
        logical :: there
        call parquet_new_table(t)
        call t%add_column("a", [10_int64, 20_int64, 30_int64], is_valid=[.true., .false., .true.])
        open (newunit=u, file="prot.maml", status="replace", action="write")
        write (u, '(a)') 'table: t', 'fields:', '  - name: a', 'extra:', '  protected_cols: a'
        close (u)
        call parquet_write_table(t, "prot.parquet", maml="prot.maml", stat=s, errmsg=msg)
        call check(s == 61 .and. index(msg, "'a'") > 0 .and. index(msg, 'row 2') > 0, &
                   'a null in a protected column: PQT_PROTECTED naming it and the row: ' &
                   //trim(msg))
        inquire (file="prot.parquet", exist=there)
        call check(.not. there, '... and no file')
        open (newunit=u, file="map.maml", status="replace", action="write")
        write (u, '(a)') 'table: t', 'fields:', '  - name: alpha', 'extra:', '  col_map:', &
            '    - a: alpha'
        close (u)
        call parquet_write_table(t, "map.parquet", maml="map.maml")
        call parquet_open_table(w, "map.parquet")
        call check(w%has_column("alpha") .and. .not. w%has_column("a"), &
                   'col_map: a is written as alpha')
        call w%get("alpha", got)
        call check(all(got == [10, 0, 30]) .and. w%has_nulls("alpha"), 'with its values and null')
    end subroutine

    ! %reload and %evict_column on a table opened on kinds.parquet.
    subroutine file_columns()
        type(parquet_table) :: t
        integer(int32), allocatable :: i32(:), back(:)
        integer(int64) :: i
        integer :: s
        logical :: found
        call parquet_open_table(t, "kinds.parquet")
        call t%prefetch("i32")
        call t%get("i32", i32)
        call check(t%residency("i32") == RES_FULL, 'prefetched: resident')
        call t%evict_column("i32")
        call check(t%residency("i32") == RES_EMPTY, '%evict_column: not resident')
        call t%get("i32", back)
        call check(all(back == i32), 'evicted column reads again the same')
        call t%set("i32", [(int(i, int32), i=1, 30)])
        call t%reload("i32", stat=s)
        call check(s == 50, '%reload of caller-written values without force=: PQT_MISUSE')
        call t%evict_column("i32", stat=s)
        call check(s == 50, '%evict_column of caller-written values without force=')
        call t%reload("i32", force=.true.)
        call t%get("i32", back)
        call check(all(back == [(merge(0_int64, 3*i, mod(i, 4_int64) == 0), i=1, 30)]), &
                   '%reload(force=.true.) reads the file values back (3 id, 0 for nulls)')
        call t%reload("nosuch", found=found)
        call check(.not. found, '%reload with found=')
        call t%add_column("mine", [(i, i=1, 30)])
        call t%evict_column("mine", force=.true., stat=s)
        call check(s == 50, 'an added column cannot be evicted')
    end subroutine

    ! Columns of zero rows from zero-size array constructors (gfortran passes them without
    ! storage: nothing may take their address), written and read back.
    subroutine zero_rows()
        type(parquet_table) :: t, w
        integer(int32), allocatable :: a(:)
        real(real32), allocatable :: v(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: str(:)
        integer :: s
        call parquet_new_table(t)
        call t%add_column("a", [integer(int32) ::])
        call t%add_column("b", [real(real64) ::], is_valid=[logical ::])
        call t%add_column("f", [logical ::])
        call t%add_column("s", [character(len=3) ::])
        call t%add_column("v", reshape([real(real32) ::], [2, 0]))
        call t%add_column("d", [integer(int32) ::], kind=PK_DATE)
        call check(t%nrows() == 0 .and. t%ncols() == 6, 'six columns of zero rows')
        call check(t%kind("a") == PK_INT32 .and. t%kind("b") == PK_FLOAT64 .and. &
                   t%kind("f") == PK_LOGICAL .and. t%kind("s") == PK_STRING .and. &
                   t%kind("v") == PK_FLOAT32_VEC .and. t%width("v") == 2 .and. &
                   t%kind("d") == PK_DATE, '... of the kinds of the values')
        call t%add_column("one", [1], stat=s)
        call check(s == 50, 'a column of one row into a table of zero: PQT_MISUSE')
        call t%set("a", [integer(int32) ::])
        call t%set_slice("a", [integer(int64) ::], [integer(int32) ::])
        call t%get("a", a)
        call t%get("v", v)
        call check(size(a) == 0 .and. all(shape(v) == [2, 0]), '%set and %get of zero rows')
        call parquet_write_table(t, "zero.parquet", overwrite=.true.)
        call parquet_open_table(w, "zero.parquet")
        call check(w%nrows() == 0 .and. w%ncols() == 6 .and. w%kind("v") == PK_FLOAT32_VEC, &
                   'written and read back: zero rows, the same columns')
        call w%get("s", str)
        call check(size(str) == 0, '... a string column of none')
    end subroutine

end program test_change
