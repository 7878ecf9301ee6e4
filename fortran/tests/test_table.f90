! test_table.f90 - the table procedures of module parquet beyond %get: slices and their own
! row numbering, row-group bounds under a filter, the row index, residency, renaming and
! dropping, sorting, cloning, the filter/sort/qc/sample arguments of parquet_open_table, and
! failures reported through stat=/errmsg=/found=. Files: fortran/data (DuckDB; values are
! formulas of the row number, see make_data.mjs).
program test_table
    use parquet
    use parquet_tables, only: PARQUET_ROW_INDEX
    use iso_fortran_env, only: int32, int64, real64
    implicit none
    integer :: nfail = 0

    ! the work runs in a procedure, so its tables and arrays are finalized and freed on
    ! return (a main program's never are): a leak checker then sees only real leaks
    call run()
    if (nfail > 0) error stop 'test_table: failed'
    print '(a)', 'test_table: all passed'
contains
    subroutine run()
        type(parquet_table) :: t, u
        type(parquet_table_row) :: r
        type(parquet_filter) :: filt
        type(parquet_sortkey) :: srt
        type(parquet_read_qc) :: qc
        integer(int64), allocatable :: ids(:), b(:, :), fb(:, :), file_bounds(:, :), src(:), src2(:)
        integer(int32), allocatable :: i32(:)
        real(real64), allocatable :: x(:)
        logical, allocatable :: ok(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: names(:), strs(:)
        integer(int64) :: v, extent, next, lo, hi, matches
        integer :: s, s2, n, rg, unit
        logical :: found
        character(len=300) :: msg


        ! ---- a slice counts rows from its own first row
        call parquet_open_table(t, "kinds.parquet", 11, 20)
        call check(t%nrows() == 10 .and. t%nrows_unfiltered() == 10, 'slice 11..20 has 10 rows')
        call check(t%row_group_extent() == 30, 'row_group_extent: the covering row group (30)')
        r = t%row(1)
        call r%get("id", v)
        call check(v == 11 .and. r%index() == 1, '%row(1) is file row 11')
        call t%get_slice("id", [1, 10], ids)
        call check(all(ids == [11, 20]), 'get_slice with default-integer rows')
        call t%get_slice("id", [10_int64, 1_int64, 1_int64], ids)
        call check(all(ids == [20, 11, 11]), 'get_slice with int64 rows, any order, repeats')
        call t%get_slice("i32", [1, 2], i32, is_valid=ok)
        call check(all(i32 == [33, 0]) .and. all(ok .eqv. [.true., .false.]), &
                   'get_slice is_valid: file row 12 is null')
        call check(t%is_null("i32", 2) .and. .not. t%is_null("i32", 1_int64), '%is_null(name, i)')
        call t%get_slice("str", [1, 2], strs)
        call check(strs(1) == 'sss11' .and. strs(2) == '12', 'get_slice of strings')
        r = t%row(2)
        call check(r%is_null("i32") .and. .not. r%is_null("id"), 'row handle is_null')
        r = t%row(31, stat=s)
        call check(s == 51, '%row outside the table is PQT_RANGE with stat=')

        ! ---- a filtered slice: survivors renumbered, bounds per physical row group
        call filt%add("mass > 1.0e10")
        call parquet_open_table(t, "big.parquet", 1000001_int64, 2000000_int64, filter=filt)
        call check(t%nrows() == 10000 .and. t%nrows_unfiltered() == 1000000, &
                   'filtered slice: 10000 of 1000000')
        call t%row_group_bounds(b)
        call t%row_group_bounds(fb, physical=.true.)
        call parquet_table_row_group_bounds("big.parquet", file_bounds)
        call check(size(b, 2) == size(fb, 2) .and. all(fb == file_bounds), &
                   'physical bounds = footer bounds')
        ! expected per row group: the multiples of 100 (mass > 1e10) among its rows in the slice
        extent = 0
        next = 1
        n = 0
        do rg = 1, size(fb, 2)
            lo = max(fb(1, rg), 1000001_int64)
            hi = min(fb(2, rg), 2000000_int64)
            if (lo <= hi) extent = extent + fb(2, rg) - fb(1, rg) + 1
            matches = 0
            if (lo <= hi) matches = hi/100 - (lo - 1)/100
            if (b(1, rg) /= next .or. b(2, rg) /= next + matches - 1) n = n + 1
            next = next + matches
        end do
        call check(n == 0 .and. next == 10001, &
                   'default bounds: each row group its survivors in order, empty ranges elsewhere')
        call check(t%row_group_extent() == extent, 'row_group_extent: rows of the covering groups')
        call t%get(PARQUET_ROW_INDEX, src)
        call check(size(src) == 10000 .and. src(1) == 1000100 .and. src(10000) == 2000000 .and. &
                   all(mod(src, 100_int64) == 0), 'row index of the filtered slice: file rows')

        ! ---- the row index is virtual until asked for
        call parquet_open_table(t, "kinds.parquet")
        n = t%ncols()
        call check(t%has_column(PARQUET_ROW_INDEX) .and. n == 16, 'row index usable, not counted')
        call t%get(PARQUET_ROW_INDEX, src)
        call t%column_names(names)
        call check(t%ncols() == 17 .and. names(17) == PARQUET_ROW_INDEX .and. all(src == ids_1_30()), &
                   'row index 1..30, listed last once built')
        call t%drop_column(PARQUET_ROW_INDEX)
        call check(.not. t%has_column(PARQUET_ROW_INDEX), 'dropping the row index is for good')

        ! ---- residency
        call parquet_open_table(t, "kinds.parquet")
        call check(t%residency("i32") == RES_EMPTY, 'nothing read at open')
        call t%prefetch(" i32, f64;;str ")
        call check(t%residency("i32") == RES_FULL .and. t%residency("f64") == RES_FULL .and. &
                   t%residency("str") == RES_FULL .and. t%residency("f32") == RES_EMPTY, &
                   'prefetch of a list of names')
        call t%prefetch(["f32", "id "])
        call check(t%residency("f32") == RES_FULL, 'prefetch of an array of names')
        call t%prefetch("i32, nope", found=found)
        call check(.not. found, 'prefetch found=.false. for a missing name')
        call t%materialize_all()
        call check(t%residency("vflag") == RES_FULL .and. t%ncols() == 16, &
                   'materialize_all reads every column, no row index')

        ! ---- renaming and dropping
        call t%rename_column("f64", "half")
        call t%get("half", x)
        call check(.not. t%has_column("f64") .and. x(3) == 1.5_real64, 'rename_column')
        call t%drop_column("f32")
        call check(.not. t%has_column("f32") .and. t%ncols() == 15, 'drop_column')
        call t%drop_column("f32", found=found)
        call check(.not. found, 'drop_column found=.false.')
        n = t%kind("f32", found=found)
        call check(.not. found .and. n == PK_NONE, 'kind found=.false.')
        call t%get("f32", x, found=found)
        call check(.not. found .and. size(x) == 0, 'get found=.false. leaves an empty array')

        ! ---- positions, nulls, unreadable columns, generation
        call parquet_open_table(t, "kinds.parquet")
        call check(t%kind(1) == PK_INT64 .and. t%kind(2) == PK_INT32 .and. t%width(12) == 2 &
                   .and. t%residency(2) == RES_EMPTY, 'queries by 1-based position')
        n = t%kind(99, found=found)
        call check(.not. found .and. n == PK_NONE, 'a position past the last column: found=.false.')
        n = t%kind(99, stat=s, errmsg=msg)
        call check(s == 1 .and. index(msg, 'position 99') > 0, 'a position past the last: '//trim(msg))
        call check(t%has_nulls("i32") .and. .not. t%has_nulls("vi32") .and. t%has_nulls(5), &
                   'has_nulls from the footer')
        v = t%generation()
        call t%rename_column("i64", "big")
        call check(t%generation() > v, 'a rename bumps the generation')
        call parquet_open_table(t, "odd.parquet")
        call t%column_names(names)
        call check(size(names) == 4 .and. names(2) == 'm.key' .and. names(3) == 'm.value' .and. &
                   names(4) == 'raw', 'a MAP is listed as its key and value lists')
        call check(t%is_supported("m.key") .and. t%is_supported("m.value") .and. &
                   t%kind("raw") == PK_STRING .and. t%is_supported(4), &
                   'a MAP field is a list, a plain binary column reads as strings')
        call t%get("raw", strs, stat=s, errmsg=msg)
        call check(s == 0 .and. strs(1) == 'x1' .and. strs(5) == 'x5', &
                   'binary bytes into character (DuckDB wrote x1..x5): '//trim(msg))
        call t%get("id", ids)
        call check(all(ids == [1, 2, 3, 4, 5]), 'the readable column of that file reads')

        ! ---- sorting in memory, clone
        call parquet_open_table(t, "kinds.parquet")
        r = t%row(1)
        call t%sort_by("-id")
        call t%get("id", ids)
        call check(all(ids == 31 - ids_1_30()) .and. t%is_detached(), 'sort_by("-id") detaches')
        call check(.not. r%is_valid(), 'a row handle goes stale at a structural change')
        call r%get("id", v, stat=s)
        call check(s == 50, 'a stale row handle refuses with stat=')
        call parquet_open_table(t, "kinds.parquet")
        call t%prefetch("id")
        call t%sort_by(["i32"], descending=[.true.])
        call t%get("i32", i32, is_valid=ok)
        call check(i32(1) == 90 .and. all(.not. ok(24:30)), 'sort_by array form: nulls last')
        call t%clone(u)
        call u%get("id", ids)
        call check(ids(1) == 30 .and. u%is_detached(), 'a clone of a sorted table')

        call filt%clear()
        call filt%add("id > 20")
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call t%clone(u)
        call u%get("str", strs)
        call check(u%nrows() == 10 .and. strs(1) == 's21', 'a clone keeps the filter for unread columns')

        ! ---- filters: sets, bound names, clear
        call filt%clear()
        call filt%add_in("id", [3_int64, 5_int64, 9_int64])
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call check(t%nrows() == 3, 'add_in int64')
        call filt%clear()
        call filt%add_in("id", [3, 5, 9], negate=.true.)
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call check(t%nrows() == 27, 'add_in negate=.true.')
        call filt%clear()
        call filt%add_in("str", ["sss11", "12   ", "zz   "])
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call check(t%nrows() == 2, 'add_in strings (trimmed)')
        call filt%clear()
        call filt%add_in("f64", [0.5_real64, 1.0_real64, 2.0_real64], is_valid=[.true., .true., .false.])
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call check(t%nrows() == 2, 'add_in real64 with is_valid= leaving one out')
        call filt%clear()
        call filt%bind("s", [1, 2, 3])
        call filt%add("id in @s or id == 30")
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call check(t%nrows() == 4, 'bind a set, name it in a rule')
        call filt%clear()
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call check(t%nrows() == 30, 'a cleared filter keeps every row')
        call filt%add("id >", stat=s, errmsg=msg)
        call check(s == 56, 'a bad rule: PQT_BAD_FILTER with stat=: '//trim(msg))
        call filt%clear()
        call filt%add("nope > 1")
        call parquet_open_table(t, "kinds.parquet", filter=filt, stat=s, errmsg=msg)
        call check(s == 56 .and. index(msg, 'nope') > 0, 'an unknown filter column fails the open')
        call filt%clear()

        ! ---- sort keys and samples at open
        call srt%add("i32", nulls_first=.true.)
        call srt%add("-id")
        call parquet_open_table(t, "kinds.parquet", sort=srt)
        call t%get("id", ids)
        call check(all(ids(1:7) == [28, 24, 20, 16, 12, 8, 4]) .and. ids(8) == 1, &
                   'sort= at open: nulls first, then ties broken by -id')
        call srt%add("a, b", stat=s)
        call check(s == 50, 'one sort key per %add')
        call srt%add("-id desc", stat=s)
        call check(s == 58, 'a bad sort key: PQT_BAD_SORT')
        call parquet_open_table(t, "kinds.parquet", sample_fraction=0.0_real64)
        call check(t%nrows() == 0, 'sample_fraction=0 keeps no row')
        call parquet_open_table(t, "big.parquet", sample_fraction=0.01_real64, sample_seed=7, &
                                use_threads=.false.)
        call t%get(PARQUET_ROW_INDEX, src)
        call parquet_open_table(u, "big.parquet", sample_fraction=0.01_real64, sample_seed=7)
        call u%get(PARQUET_ROW_INDEX, src2)
        call check(size(src) > 15000 .and. size(src) < 25000 .and. size(src) == size(src2), &
                   'sample of about 1% with a seed')
        if (size(src) == size(src2)) call check(all(src == src2), 'the same seed keeps the same rows')

        ! ---- qc at open, checked on first touch
        call qc%add("i32, >100")
        call parquet_open_table(t, "kinds.parquet", qc=qc)
        call t%get("id", ids)
        call check(size(ids) == 30, 'a column without a rule reads')
        call t%get("i32", i32, stat=s, errmsg=msg)
        call check(s == 60 .and. t%residency("i32") == RES_EMPTY, 'a qc violation: PQT_QC, unread')
        call t%validate_qc(stat=s)
        call check(s == 60, 'validate_qc reports the violation')
        call parquet_open_table(t, "kinds.parquet", qc=qc, qc_soft=.true.)
        call t%get("i32", i32)
        call check(size(i32) == 30, 'qc_soft=.true.: the read goes on')
        call qc%clear()

        ! ---- a read-in MAML whose extra: sort: is not empty cannot open a slice (a sort
        ! reorders the whole file): a failure at open, and the table stays unopened
        open (newunit=unit, file='sort.maml', status='replace', action='write')
        write (unit, '(a)') 'table: input_table', 'extra:', '  sort:', '  - -mass'
        close (unit)
        call parquet_open_table(t, "big.parquet", 1, 10, maml="sort.maml", stat=s, errmsg=msg)
        n = int(t%nrows(stat=s2))
        call check(s /= 0 .and. s2 == 50, 'a slice with a MAML extra: sort: refused: '//trim(msg))

        ! ---- failures with stat=
        call parquet_open_table(t, "missing.parquet", stat=s, errmsg=msg)
        call check(s == 10 .and. index(msg, 'missing.parquet') > 0, 'missing file: PQT_IO')
        n = int(t%nrows(stat=s))
        call check(s == 50, 'a table left unopened refuses')
        call parquet_open_table(t, "big.parquet", 1_int64, 2000001_int64, stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, '2000001') > 0 .and. index(msg, '2000000 rows') > 0, &
                   'slice past the end: '//trim(msg))
        call parquet_open_table(t, "big.parquet", 0, 5, stat=s, errmsg=msg)
        call check(s == 51 .and. index(msg, '0..5') > 0 .and. index(msg, '2000000 rows') > 0, &
                   'slice below row 1: '//trim(msg))
        call parquet_open_table(t, "big.parquet", 9, 5, stat=s)
        call check(s == 51, 'slice with row_lo > row_hi')

    end subroutine

    function ids_1_30() result(k)
        integer(int64) :: k(30)
        integer :: i
        k = [(int(i, int64), i=1, 30)]
    end function

    subroutine check(good, what)
        logical, intent(in) :: good
        character(len=*), intent(in) :: what
        if (good) then
            print '(a,a)', 'ok   ', what
        else
            print '(a,a)', 'FAIL ', what
            nfail = nfail + 1
        end if
    end subroutine
end program test_table
