! test_kinds.f90 - %get of every kind of fortran/data/kinds.parquet (written by DuckDB,
! fortran/data/make_data.mjs: 30 rows, each value a formula of id = 1..30, each column null on
! its own period), with and without is_valid=: values against the formulas, nulls as 0 /
! .false. / blank, %kind and %width, widening, and the kind errors with stat=.
program test_kinds
    use parquet
    use iso_fortran_env, only: int32, int64, real32, real64
    implicit none
    integer :: nfail = 0

    ! the work runs in a procedure, so its tables and arrays are finalized and freed on
    ! return (a main program's never are): a leak checker then sees only real leaks
    call run()
    if (nfail > 0) error stop 'test_kinds: failed'
    print '(a)', 'test_kinds: all passed'
contains
    subroutine run()
        type(parquet_table) :: t
        integer(int64), allocatable :: id(:), i64(:), v64(:, :)
        integer(int32), allocatable :: i32(:), v32(:, :)
        real(real32), allocatable :: f32(:), vf32(:, :)
        real(real64), allocatable :: f64(:), vf64(:, :), wide(:)
        logical, allocatable :: flag(:), vflag(:, :), ok(:), ok2(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: str(:)
        integer(int64) :: k(30), day_k(30)
        integer :: s, i
        character(len=200) :: msg
        character(len=16) :: text
        integer(int64), pointer :: pi64(:), pvi64(:, :)
        integer(int32), pointer :: pi32(:)
        real(real32), pointer :: pr32(:)
        real(real64), pointer :: pr64(:), pv64(:, :)
        logical :: found

        k = [(int(i, int64), i=1, 30)]
        call parquet_open_table(t, "kinds.parquet")
        call check(t%nrows() == 30, 'nrows')

        call t%get("id", id)
        call check(all(id == k), 'int64 id 1..30')

        ! int32, null every 4th row
        call check(t%kind("i32") == PK_INT32 .and. t%width("i32") == 1, 'i32 kind and width')
        call t%get("i32", i32)
        call check(all(i32 == merge(0_int64, 3*k, mod(k, 4_int64) == 0)), 'i32 values, nulls as 0')
        call t%get("i32", i32, is_valid=ok)
        call check(all(ok .eqv. mod(k, 4_int64) /= 0), 'i32 is_valid')
        call t%get("i32", i64)
        call check(all(i64 == merge(0_int64, 3*k, mod(k, 4_int64) == 0)), 'i32 widens into int64')

        call check(t%kind("i64") == PK_INT64, 'i64 kind')
        call t%get("i64", i64, is_valid=ok)
        call check(all(i64 == merge(0_int64, k*1000000000000_int64, mod(k, 5_int64) == 0)), &
                   'i64 values')
        call check(all(ok .eqv. mod(k, 5_int64) /= 0), 'i64 is_valid')

        call check(t%kind("f32") == PK_FLOAT32, 'f32 kind')
        call t%get("f32", f32, is_valid=ok)
        call check(all(f32 == merge(0.0_real32, real(k, real32)/4, mod(k, 6_int64) == 0)), 'f32 values')
        call check(all(ok .eqv. mod(k, 6_int64) /= 0), 'f32 is_valid')
        call t%get("f32", wide)
        call check(all(wide == merge(0.0_real64, real(k, real64)/4, mod(k, 6_int64) == 0)), &
                   'f32 widens into real64')

        call check(t%kind("f64") == PK_FLOAT64, 'f64 kind')
        call t%get("f64", f64)
        call check(all(f64 == merge(0.0_real64, real(k, real64)*0.5_real64, mod(k, 7_int64) == 0)), &
                   'f64 values')
        call t%get("f64", f64, is_valid=ok)
        call check(all(ok .eqv. mod(k, 7_int64) /= 0), 'f64 is_valid')

        call check(t%kind("flag") == PK_LOGICAL, 'logical kind')
        call t%get("flag", flag, is_valid=ok)
        call check(all(flag .eqv. (mod(k, 3_int64) == 0 .and. mod(k, 8_int64) /= 0)), &
                   'logical values, nulls as .false.')
        call check(all(ok .eqv. mod(k, 8_int64) /= 0), 'logical is_valid')

        ! strings: 's' repeated id % 4 times, then id; as long as the longest, nulls blank
        call check(t%kind("str") == PK_STRING, 'string kind')
        call t%get("str", str, is_valid=ok)
        call check(size(str) == 30 .and. len(str) == 5, 'strings: 30 of the longest length (sss27)')
        do i = 1, 30
            write (text, '(a,i0)') repeat('s', mod(i, 4)), i
            if (mod(i, 9) == 0) text = ''
            if (str(i) /= text) then
                call check(.false., 'string row '//trim(text)//' read as '//str(i))
                exit
            end if
        end do
        call check(all(ok .eqv. mod(k, 9_int64) /= 0), 'string is_valid')
        call t%get("str", str)
        call check(str(4) == '4' .and. str(9) == '', 'strings without is_valid')

        ! date (days since 1970-01-01) into int64 and int32
        day_k = merge(0_int64, 10*k, mod(k, 10_int64) == 0)
        call check(t%kind("day") == PK_DATE, 'date kind')
        call t%get("day", i64, is_valid=ok)
        call check(all(i64 == day_k), 'date values as int64 days')
        call check(all(ok .eqv. mod(k, 10_int64) /= 0), 'date is_valid')
        call t%get("day", i32)
        call check(all(i32 == day_k), 'date values as int32 days')

        ! time and timestamp: int64 in their unit (DuckDB writes microseconds)
        call check(t%kind("tod") == PK_TIME .and. t%time_unit("tod") == PARQUET_UNIT_MICROS, &
                   'time kind and unit')
        call t%get("tod", i64, is_valid=ok)
        call check(all(i64 == merge(0_int64, k*1000000, mod(k, 11_int64) == 0)), 'time values (us)')
        call check(all(ok .eqv. mod(k, 11_int64) /= 0), 'time is_valid')
        call check(t%kind("ts") == PK_TIMESTAMP .and. t%time_unit("ts") == PARQUET_UNIT_MICROS, &
                   'timestamp kind and unit')
        call t%get("ts", i64, is_valid=ok)
        call check(all(i64 == merge(0_int64, k*1000000, mod(k, 12_int64) == 0)), &
                   'timestamp values (us)')
        call check(all(ok .eqv. mod(k, 12_int64) /= 0), 'timestamp is_valid')
        call check(t%time_unit("f64") == -1, 'time_unit of a float column is -1')

        ! uint32 reads as int64 (docs/reading.md, "Kinds")
        call check(t%kind("u32") == PK_INT64, 'uint32 column reads as PK_INT64')
        call t%get("u32", i64)
        call check(all(i64 == k), 'uint32 values')

        ! vectors: (width, nrows)
        call check(t%kind("vi32") == PK_INT32_VEC .and. t%width("vi32") == 2, 'int32 vector')
        call t%get("vi32", v32)
        call check(all(shape(v32) == [2, 30]), 'int32 vector shape (2, 30)')
        call check(all(v32(1, :) == k) .and. all(v32(2, :) == -k), 'int32 vector values')
        call check(t%kind("vi64") == PK_INT64_VEC .and. t%width("vi64") == 3, 'int64 vector')
        call t%get("vi64", v64, is_valid=ok2)
        call check(all(v64(1, :) == k) .and. all(v64(2, :) == 10*k) .and. all(v64(3, :) == 100*k), &
                   'int64 vector values')
        call check(all(ok2), 'int64 vector: no nulls')
        call t%get("vi32", v64)
        call check(all(v64(2, :) == -k), 'int32 vector widens into int64')
        call check(t%kind("vf32") == PK_FLOAT32_VEC, 'float32 vector kind')
        call t%get("vf32", vf32)
        call check(all(vf32(1, :) == real(k, real32)/2) .and. all(vf32(2, :) == real(k, real32)/4), &
                   'float32 vector values')
        call check(t%kind("vf64") == PK_FLOAT64_VEC, 'float64 vector kind')
        call t%get("vf64", vf64, is_valid=ok2)
        call check(all(vf64(1, :) == 1.5_real64*k), 'float64 vector first element')
        call check(all(vf64(2, :) == merge(0.0_real64, -1.5_real64*k, mod(k, 3_int64) == 0)), &
                   'float64 vector second element, nulls as 0')
        call check(all(ok2(1, :)) .and. all(ok2(2, :) .eqv. mod(k, 3_int64) /= 0), &
                   'float64 vector is_valid per element')
        call t%get("vf32", vf64)
        call check(all(vf64(2, :) == real(k, real64)/4), 'float32 vector widens into real64')
        call check(t%kind("vflag") == PK_LOGICAL_VEC, 'logical vector kind')
        call t%get("vflag", vflag)
        call check(all(vflag(1, :) .eqv. mod(k, 2_int64) == 0) .and. &
                   all(vflag(2, :) .eqv. mod(k, 2_int64) == 1), 'logical vector values')

        ! %col: pointers into the table's storage, exact kinds only
        call t%col("id", pi64)
        call check(all(pi64 == k), '%col int64')
        pi64(1) = 100
        call t%get("id", i64)
        call check(i64(1) == 100, '%col points at the storage %get copies from')
        call t%col("i32", pi32, is_valid=ok)
        call check(all(pi32 == merge(0_int64, 3*k, mod(k, 4_int64) == 0)) .and. &
                   all(ok .eqv. mod(k, 4_int64) /= 0), '%col int32 with is_valid')
        call t%col("day", pi32)
        call check(all(pi32 == day_k), '%col of a date column as int32 days')
        call t%col("ts", pi64)
        call check(pi64(2) == 2000000, '%col of a timestamp column as int64')
        call t%col("f32", pr32)
        call check(pr32(2) == 0.5_real32, '%col real32')
        call t%col("vf64", pv64, is_valid=ok2)
        call check(all(shape(pv64) == [2, 30]) .and. pv64(1, 2) == 3.0_real64 .and. &
                   .not. ok2(2, 3), '%col of a vector: (width, nrows)')
        call t%col("vi64", pvi64)
        call check(all(pvi64(3, :) == 100*k), '%col of an int64 vector')
        call t%col("i32", pi64, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, 'pointer kind does not match') > 0 .and. &
                   .not. associated(pi64), '%col never widens: '//trim(msg))
        call t%col("vf64", pr64, stat=s)
        call check(s == 52, '%col of a vector into a rank-1 pointer refused')
        call t%col("nope", pr64, found=found)
        call check(.not. found .and. .not. associated(pr64), '%col found=.false.')

        ! kind errors, reported with stat= (PQT_KIND = 52); nothing is left in the array
        call t%get("f64", i32, stat=s, errmsg=msg)
        call check(s == 52 .and. size(i32) == 0 .and. index(msg, "'f64'") > 0, &
                   'float64 into int32 refused: '//trim(msg))
        call t%get("i64", f64, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, 'int64') > 0, 'int64 into real64 refused')
        call t%get("vf64", f64, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, 'rank-2') > 0, 'vector into rank-1 refused: '//trim(msg))
        call t%get("str", f64, stat=s)
        call check(s == 52, 'string into real64 refused')
        call t%get("f64", str, stat=s)
        call check(s == 52, 'float64 into strings refused')
        call t%get("nope", f64, stat=s, errmsg=msg)
        call check(s == 1 .and. index(msg, "'nope'") > 0, 'unknown column: '//trim(msg))

    end subroutine

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
end program test_kinds
