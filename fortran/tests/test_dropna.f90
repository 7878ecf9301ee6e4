! test_dropna.f90 - %dropna: how="any" (default) / "all", min_valid=, names= or the resident
! columns, refusals changing nothing; on kinds.parquet (i32 null when id is a multiple of 4,
! i64 of 5, vf64's second element of 3) and lists.parquet (li a null list when id is a
! multiple of 5; null elements do not null the row): DuckDB's formulas. A table attached to
! its file stays attached, and a column read later holds the surviving rows. Expected rows
! are hand-computed in the comments. Failures through stat=.
program test_dropna
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call in_memory()
    call from_files()
    if (nfail > 0) error stop 'test_dropna: failed'
    print '(a)', 'test_dropna: all passed'
contains
    ! id 1..6; a null in rows 2, 5; b null in rows 3, 5; c none. Present per row among a, b,
    ! c: r1 3, r2 2, r3 2, r4 3, r5 1, r6 3.
    subroutine six(t)
        type(parquet_table), intent(inout) :: t
        call parquet_new_table(t)
        call t%add_column("id", [1_int64, 2_int64, 3_int64, 4_int64, 5_int64, 6_int64])
        call t%add_column("a", [1, 2, 3, 4, 5, 6], &
                          is_valid=[.true., .false., .true., .true., .false., .true.])
        call t%add_column("b", [1d0, 2d0, 3d0, 4d0, 5d0, 6d0], &
                          is_valid=[.true., .true., .false., .true., .false., .true.])
        call t%add_column("c", [.true., .true., .true., .false., .false., .false.])
    end subroutine

    ! The ids left, or a mismatch.
    subroutine ids_are(t, want, what)
        type(parquet_table), intent(inout) :: t
        integer, intent(in) :: want(:)
        character(len=*), intent(in) :: what
        integer(int64), allocatable :: id(:)
        call t%get("id", id)
        if (size(id) /= size(want)) then
            call check(.false., what//': row count')
        else
            call check(all(id == want), what)
        end if
    end subroutine

    subroutine in_memory()
        type(parquet_table) :: t
        character(len=300) :: msg
        integer(int64) :: g
        integer :: s
        call six(t)
        call t%dropna()
        call ids_are(t, [1, 4, 6], 'dropna(): rows with a null in any column go (2, 3, 5)')
        call six(t)
        call t%dropna(["a", "b"], how="all")
        call ids_are(t, [1, 2, 3, 4, 6], 'dropna(["a", "b"], how="all"): only row 5')
        call six(t)
        call t%dropna(["a", "b", "c"], min_valid=2)
        call ids_are(t, [1, 2, 3, 4, 6], 'dropna(min_valid=2): row 5 has 1 present')
        call six(t)
        call t%dropna(["a", "b", "c"], min_valid=3)
        call ids_are(t, [1, 4, 6], 'dropna(min_valid=3) = how="any" over three columns')
        call six(t)
        call t%dropna(["b"], how="any")
        call ids_are(t, [1, 2, 4, 6], 'dropna(["b"]): rows 3, 5')
        ! refusals and no-ops change nothing
        call six(t)
        g = t%generation()
        call t%dropna(["a"], min_valid=1, how="any", stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, 'exclude') > 0, 'min_valid= with how=: '// &
                   'PQT_MISUSE: '//trim(msg))
        call t%dropna(how="some", stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, 'some') > 0, 'how="some": PQT_MISUSE: '//trim(msg))
        call t%dropna(min_valid=-1, stat=s)
        call check(s == 50, 'min_valid=-1: PQT_MISUSE')
        call t%dropna(["a ", "zz", "yy"], stat=s, errmsg=msg)
        call check(s == 1 .and. index(msg, "'zz'") > 0 .and. index(msg, "'yy'") > 0, &
                   'missing names: PQT_NOT_FOUND naming every one: '//trim(msg))
        call t%dropna(["c"])
        call t%dropna(min_valid=0)
        call check(t%nrows() == 6 .and. t%generation() == g, &
                   'refusals, a column without nulls and min_valid=0 change nothing')
        call t%dropna([character(len=1) ::])
        call ids_are(t, [1, 4, 6], 'an empty names= list is names= absent')
    end subroutine

    subroutine from_files()
        type(parquet_table) :: t
        integer(int64), allocatable :: id(:)
        integer(int32), allocatable :: i32(:)
        integer(int64) :: i
        call parquet_open_table(t, "kinds.parquet")
        call t%dropna()
        call check(t%nrows() == 30, 'dropna() with nothing resident: nothing to judge by')
        ! both null only for id 20
        call t%dropna(["i32", "i64"], how="all")
        call check(t%nrows() == 29 .and. .not. t%is_detached(), &
                   'dropna(["i32", "i64"], how="all"): id 20 goes, still attached')
        ! i32: the multiples of 4 go (20 already gone): 23 rows
        call t%dropna(["i32"])
        call t%get("id", id)
        call check(size(id) == 23 .and. .not. t%is_detached(), 'dropna(["i32"]): 23 rows')
        if (size(id) == 23) call check(all(id == pack([(i, i=1, 30)], &
                                                      [(mod(i, 4_int64) /= 0, i=1, 30)])), &
                                       '... a column read afterwards holds the survivors')
        call t%get("i32", i32)
        call check(all(i32 == 3*id), '... and i32 = 3*id')
        ! a vector with a null element: multiples of 3 go too (of 1..30 not multiples of 4:
        ! 3, 6, 9, 15, 18, 21, 27, 30 -> 15 rows left)
        call t%dropna(["vf64"])
        call check(t%nrows() == 15, 'dropna(["vf64"]): a null element nulls the row')
        ! variable-length lists: a null list is a null row, null elements are not
        call parquet_open_table(t, "lists.parquet")
        call t%dropna(["li"])
        call t%get("id", id)
        call check(size(id) == 10, 'dropna(["li"]): the null lists (5, 10) go')
        if (size(id) == 10) call check(all(id == [1, 2, 3, 4, 6, 7, 8, 9, 11, 12]), &
                                       '... rows with null elements stay')
    end subroutine

end program test_dropna
