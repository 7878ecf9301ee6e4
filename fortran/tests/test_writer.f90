! test_writer.f90 - the streaming writer (parquet_open_table_writer, out%append,
! parquet_close_table_writer): three slices of kinds.parquet appended make a file equal to
! the whole file (DuckDB's formulas for id and i32, the whole-file read for every column);
! three in-memory batches make a file holding what the program put in, in row groups of
! chunk_size=; the file appears only at close; a writer dropped unclosed leaves nothing; a
! batch of another kind is refused (stat=) and leaves no file.
program test_writer
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call slices()
    call batches()
    call refusals()
    if (nfail > 0) error stop 'test_writer: failed'
    print '(a)', 'test_writer: all passed'
contains
    ! kinds.parquet rows 1..10, 11..20, 21..30 through one writer.
    subroutine slices()
        type(parquet_table) :: a, b, c, whole, w
        type(parquet_table_writer) :: out
        integer(int64), allocatable :: x8(:), y8(:), v8(:, :), u8(:, :)
        integer(int32), allocatable :: x4(:)
        real(real64), allocatable :: xr(:), yr(:), vr(:, :), ur(:, :)
        logical, allocatable :: okx(:), oky(:), xl(:), yl(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: xs(:), ys(:), names(:)
        integer(int64) :: i
        integer :: j
        logical :: there
        call parquet_open_table(a, "kinds.parquet", 1, 10)
        call parquet_open_table(b, "kinds.parquet", 11, 20)
        call parquet_open_table(c, "kinds.parquet", 21, 30)
        call parquet_open_table_writer(out, "three.parquet", a)
        call out%append(a)
        call out%append(b)
        call out%append(c)
        call check(out%nrows() == 30, 'writer counts 30 rows')
        inquire (file="three.parquet", exist=there)
        call check(.not. there, 'no file before close')
        call parquet_close_table_writer(out)
        inquire (file="three.parquet", exist=there)
        call check(there, 'the file appears at close')

        call parquet_open_table(w, "three.parquet")
        call parquet_open_table(whole, "kinds.parquet")
        call check(w%nrows() == 30, '30 rows written')
        call w%get("id", x8)
        call check(all(x8 == [(i, i=1, 30)]), 'id = 1..30 in order')
        call w%get("i32", x4, is_valid=okx)
        call check(all(x4 == [(merge(0_int64, 3*i, mod(i, 4_int64) == 0), i=1, 30)]) .and. &
                   all(okx .eqv. [(mod(i, 4_int64) /= 0, i=1, 30)]), 'i32 = 3 id, nulls kept')
        ! every column equals the whole file's
        call whole%column_names(names)
        do j = 1, size(names)
            select case (whole%kind(names(j)))
            case (PK_INT32, PK_INT64, PK_DATE, PK_TIME, PK_TIMESTAMP)
                call whole%get(names(j), x8, is_valid=okx)
                call w%get(names(j), y8, is_valid=oky)
                call check(all(x8 == y8) .and. all(okx .eqv. oky), 'column '//trim(names(j)))
            case (PK_FLOAT32, PK_FLOAT64)
                call whole%get(names(j), xr, is_valid=okx)
                call w%get(names(j), yr, is_valid=oky)
                call check(all(xr == yr) .and. all(okx .eqv. oky), 'column '//trim(names(j)))
            case (PK_LOGICAL)
                call whole%get(names(j), xl, is_valid=okx)
                call w%get(names(j), yl, is_valid=oky)
                call check(all(xl .eqv. yl) .and. all(okx .eqv. oky), 'column '//trim(names(j)))
            case (PK_STRING)
                call whole%get(names(j), xs, is_valid=okx)
                call w%get(names(j), ys, is_valid=oky)
                call check(all(xs == ys) .and. all(okx .eqv. oky), 'column '//trim(names(j)))
            case (PK_INT32_VEC, PK_INT64_VEC)
                call whole%get(names(j), v8)
                call w%get(names(j), u8)
                call check(all(v8 == u8), 'column '//trim(names(j)))
            case (PK_FLOAT32_VEC, PK_FLOAT64_VEC)
                call whole%get(names(j), vr)
                call w%get(names(j), ur)
                call check(all(vr == ur), 'column '//trim(names(j)))
            case default
                call check(w%has_column(names(j)), 'column '//trim(names(j)))
            end select
        end do
    end subroutine

    ! In-memory batches of 5, 0 and 7 rows; row groups of 4 rows.
    subroutine batches()
        type(parquet_table) :: t, w
        type(parquet_table_writer) :: out
        integer(int64), allocatable :: id(:), got(:)
        real(real64), allocatable :: x(:), gotx(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: s(:)
        integer(int64), allocatable :: b(:, :)
        integer(int64) :: i
        integer :: k, n(3) = [5, 0, 7], first
        call parquet_new_table(t)
        call t%add_column("id", [1_int64])
        call t%add_column("x", [0.5d0], unit="K")
        call t%add_column("tag", ["a"])
        call parquet_open_table_writer(out, "batches.parquet", t, chunk_size=4, &
                                       compression="gzip", write_maml=.true.)
        first = 1
        do k = 1, 3
            id = [(i, i=first, first + n(k) - 1)]
            x = [(real(i, real64)/8, i=first, first + n(k) - 1)]
            call parquet_new_table(t)
            call t%add_column("tag", [(merge('even', 'odd ', mod(i, 2_int64) == 0), i=first, &
                                       first + n(k) - 1)])
            call t%add_column("x", x, unit="K")
            call t%add_column("id", id)
            call out%append(t)
            first = first + n(k)
        end do
        call parquet_close_table_writer(out)
        call parquet_open_table(w, "batches.parquet")
        call w%get("id", got)
        call check(size(got) == 12, '5 + 0 + 7 rows written')
        if (size(got) == 12) call check(all(got == [(i, i=1, 12)]), 'ids in append order')
        call w%get("x", gotx)
        if (size(gotx) == 12) call check(all(gotx == [(real(i, real64)/8, i=1, 12)]), &
                                         'x = id / 8')
        call w%get("tag", s)
        if (size(s) == 12) call check(all(s == [(merge('even', 'odd ', mod(i, 2_int64) == 0), &
                                                 i=1, 12)]), 'tag by parity (any column order)')
        call parquet_table_row_group_bounds("batches.parquet", b)
        call check(size(b, 2) == 3, 'chunk_size=4: 12 rows in 3 row groups')
        if (size(b, 2) == 3) call check(all(b(2, :) == [4, 8, 12]), 'row groups end at 4, 8, 12')
    end subroutine

    subroutine refusals()
        type(parquet_table) :: t, u
        type(parquet_table_writer) :: out
        character(len=300) :: msg
        integer :: s
        logical :: there
        call parquet_new_table(t)
        call t%add_column("id", [1_int64, 2_int64])
        ! a writer that goes out of scope unclosed leaves no file
        block
            type(parquet_table_writer) :: gone
            call parquet_open_table_writer(gone, "gone.parquet", t)
            call gone%append(t)
        end block
        inquire (file="gone.parquet", exist=there)
        call check(.not. there, 'an unclosed writer leaves no file')

        call parquet_open_table_writer(out, "bad.parquet", t)
        call out%append(t)
        call parquet_new_table(u)
        call u%add_column("id", [1.5d0])
        msg = ''
        call out%append(u, stat=s, errmsg=msg)
        call check(s == 52 .and. index(msg, 'id') > 0, 'a batch of another kind: PQT_KIND '// &
                   'naming the column: '//trim(msg))
        call parquet_close_table_writer(out, stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, 'not open') > 0, 'the failed writer is closed: '// &
                   trim(msg))
        inquire (file="bad.parquet", exist=there)
        call check(.not. there, 'and wrote no file')
        call parquet_open_table_writer(out, "batches2.parquet", t, compression="nope", stat=s)
        call check(s == 50, 'a bad option: PQT_MISUSE')
        call out%append(t, stat=s)
        call check(s == 50, 'append to a writer that did not open: PQT_MISUSE')
        call parquet_open_table_writer(out, "kinds.parquet", t, stat=s, errmsg=msg)
        call check(s == 11 .and. index(msg, 'overwrite=.true.') > 0, &
                   'an existing file: PQT_EXISTS at open: '//trim(msg))
    end subroutine

end program test_writer
