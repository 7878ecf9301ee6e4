! test_write_like.f90 - parquet_open_writer_like (a writer with t's columns and the writer
! options) and out%append(row) (one row of a table, by its %row handle): values read back
! against DuckDB's formulas for kinds.parquet (fortran/data/make_data.mjs); rows appended
! one by one in any order, mixed with whole tables; only the template's columns of the row's
! table are read; a stale row handle and a row without a template column are refused
! without ending the writer.
program test_write_like
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call like()
    call rows()
    call subset()
    call refusals()
    if (nfail > 0) error stop 'test_write_like: failed'
    print '(a)', 'test_write_like: all passed'
contains
    ! kinds.parquet rows 1..10 through a writer made like them, in row groups of 4.
    subroutine like()
        type(parquet_table) :: t, w
        type(parquet_table_writer) :: out
        integer(int64), allocatable :: id(:), b(:, :)
        integer(int32), allocatable :: i32(:)
        logical, allocatable :: ok(:)
        character(len=:), allocatable :: v
        character(len=300) :: msg
        integer(int64) :: i
        integer :: s
        call parquet_open_table(t, "kinds.parquet", 1, 10)
        call parquet_open_writer_like(out, "like.parquet", t, chunk_size=4, &
                                      metadata=["origin=test_write_like"])
        call out%append(t)
        call parquet_close_table_writer(out)
        call parquet_open_table(w, "like.parquet")
        call check(w%ncols() == t%ncols(), 'like: every column of t')
        call w%get("id", id)
        call check(all(id == [(i, i=1, 10)]), 'like: id = 1..10')
        call w%get("i32", i32, is_valid=ok)
        call check(all(i32 == [(merge(0_int64, 3*i, mod(i, 4_int64) == 0), i=1, 10)]) .and. &
                   all(ok .eqv. [(mod(i, 4_int64) /= 0, i=1, 10)]), 'like: i32 = 3 id, nulls')
        call w%get_file_metadata("origin", v)
        call check(v == "test_write_like", 'like: metadata= written')
        call parquet_table_row_group_bounds("like.parquet", b)
        call check(size(b, 2) == 3, 'like: chunk_size=4 gives 3 row groups')
        if (size(b, 2) == 3) call check(all(b(2, :) == [4, 8, 10]), 'like: groups end 4, 8, 10')

        ! the file exists: refused, named after this procedure, unless overwrite=.true.
        msg = ''
        call parquet_open_writer_like(out, "like.parquet", t, stat=s, errmsg=msg)
        call check(s == 11, 'like: an existing file is PQT_EXISTS')
        call check(index(msg, 'parquet_open_writer_like: ') == 1 .and. &
                   index(msg, 'overwrite=.true.') > 0, 'like: message names the call: '//trim(msg))
        call parquet_open_writer_like(out, "like.parquet", t, overwrite=.true., stat=s)
        call check(s == 0, 'like: overwrite=.true. opens')
        call out%append(t%row(3))
        call parquet_close_table_writer(out)
        call parquet_open_table(w, "like.parquet")
        call w%get("id", id)
        call check(size(id) == 1, 'like: the overwritten file has one row')
        if (size(id) == 1) call check(id(1) == 3, 'like: it is row 3')
    end subroutine

    ! Rows 5, 8, 2, 12, 30 of the whole lazy file one at a time, then rows 1..2 as a table.
    subroutine rows()
        type(parquet_table) :: k, w
        type(parquet_table_writer) :: out
        integer(int64), parameter :: pick(5) = [5, 8, 2, 12, 30]
        integer(int64), allocatable :: id(:), i64(:), day(:), tod(:), ts(:), want(:)
        integer(int32), allocatable :: i32(:), vi32(:, :)
        real(real64), allocatable :: f64(:), vf64(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: str(:)
        logical, allocatable :: ok(:), okv(:, :)
        integer :: j
        call parquet_open_table(k, "kinds.parquet")
        call parquet_open_writer_like(out, "rows.parquet", k)
        do j = 1, size(pick)
            call out%append(k%row(pick(j)))
        end do
        call check(out%nrows() == 5, 'rows: 5 rows appended')
        call out%append(k%row(1_int32))
        block
            type(parquet_table) :: two
            call parquet_open_table(two, "kinds.parquet", 2, 2)
            call out%append(two)
        end block
        call parquet_close_table_writer(out)

        allocate (want, source=[pick, 1_int64, 2_int64])
        call parquet_open_table(w, "rows.parquet")
        call w%get("id", id)
        call check(size(id) == 7, 'rows: 7 rows written')
        if (size(id) /= 7) return
        call check(all(id == want), 'rows: id in append order')
        call w%get("i32", i32, is_valid=ok)
        call check(all(i32 == [(merge(0_int64, 3*want(j), mod(want(j), 4_int64) == 0), &
                                j=1, 7)]) .and. all(ok .eqv. mod(want, 4_int64) /= 0), &
                   'rows: i32 = 3 id, null where id % 4 = 0')
        call w%get("i64", i64, is_valid=ok)
        call check(all(pack(i64, ok) == pack(want*1000000000000_int64, mod(want, 5_int64) /= 0)) &
                   .and. all(ok .eqv. mod(want, 5_int64) /= 0), 'rows: i64 = id 10^12')
        call w%get("f64", f64, is_valid=ok)
        call check(all(pack(f64, ok) == pack(real(want, real64)*0.5d0, mod(want, 7_int64) /= 0)) &
                   .and. all(ok .eqv. mod(want, 7_int64) /= 0), 'rows: f64 = id / 2')
        call w%get("str", str, is_valid=ok)
        call check(all(ok), 'rows: no str null (no id % 9 = 0)')
        call check(all(str == ['s5  ', '8   ', 'ss2 ', '12  ', 'ss30', 's1  ', 'ss2 ']), &
                   'rows: str = repeat(s, id % 4) // id')
        call w%get("day", day, is_valid=ok)
        call check(all(pack(day, ok) == pack(want*10, mod(want, 10_int64) /= 0)) .and. &
                   all(ok .eqv. mod(want, 10_int64) /= 0), 'rows: day = 10 id days')
        call w%get("tod", tod)
        call check(all(tod == want*1000000), 'rows: tod = id seconds (microseconds)')
        call w%get("ts", ts, is_valid=ok)
        call check(all(pack(ts, ok) == pack(want*1000000, mod(want, 12_int64) /= 0)) .and. &
                   all(ok .eqv. mod(want, 12_int64) /= 0), 'rows: ts = id seconds, null id 12')
        call w%get("vi32", vi32)
        call check(all(vi32(1, :) == want) .and. all(vi32(2, :) == -want), 'rows: vi32 = [id, -id]')
        call w%get("vf64", vf64, is_valid=okv)
        call check(all(vf64(1, :) == real(want, real64)*1.5d0), 'rows: vf64(1) = 1.5 id')
        call check(all(okv(2, :) .eqv. mod(want, 3_int64) /= 0), 'rows: vf64(2) null id % 3 = 0')
        call check(all(pack(vf64(2, :), okv(2, :)) == &
                       pack(-real(want, real64)*1.5d0, mod(want, 3_int64) /= 0)), &
                   'rows: vf64(2) = -1.5 id')
        ! f64 is a DECIMAL(21,1) in the file, written from its exact values: each row went
        ! as a narrowed clone of k, which read only that row's row group and left k unread
        call check(k%residency("str") == RES_EMPTY, 'rows: the decimal path reads nothing into k')
    end subroutine

    ! A template of two columns: a row of a table with more copies only those two, reads
    ! them into the table (where they stay, as %row's %get would leave them) and nothing else.
    subroutine subset()
        type(parquet_table) :: tmpl, k, w
        type(parquet_table_writer) :: out
        integer(int64), allocatable :: id(:), i64(:)
        logical, allocatable :: ok(:)
        call parquet_new_table(tmpl)
        call tmpl%add_column("i64", [0_int64], is_valid=[.false.])
        call tmpl%add_column("id", [0_int64])
        call parquet_open_table_writer(out, "subset.parquet", tmpl)
        call parquet_open_table(k, "kinds.parquet")
        call out%append(k%row(7))
        call out%append(k%row(5))
        call parquet_close_table_writer(out)
        call check(k%residency("str") == RES_EMPTY .and. k%residency("f64") == RES_EMPTY, &
                   'subset: columns not in the template are not read')
        call check(k%residency("i64") == RES_FULL .and. k%residency("id") == RES_FULL, &
                   'subset: template columns were read and stay')
        call parquet_open_table(w, "subset.parquet")
        call check(w%ncols() == 2, 'subset: two columns written')
        call w%get("id", id)
        call w%get("i64", i64, is_valid=ok)
        call check(all(id == [7, 5]), 'subset: id 7, 5')
        call check(all(ok .eqv. [.true., .false.]), 'subset: i64 null for id 5 (id % 5 = 0)')
        call check(i64(1) == 7000000000000_int64, 'subset: i64 = id 10^12 for id 7')
    end subroutine

    ! A stale handle and a row of a table without a template column: refused with stat=,
    ! and the writer goes on.
    subroutine refusals()
        type(parquet_table) :: k, other, w
        type(parquet_table_writer) :: out
        type(parquet_table_row) :: r, never
        integer(int64), allocatable :: id(:)
        character(len=300) :: msg
        integer :: s
        call parquet_open_table(k, "kinds.parquet", 1, 5)
        call k%keep_columns(["id ", "i64"])
        call parquet_open_writer_like(out, "refused.parquet", k)
        r = k%row(2)
        call out%append(r)
        call k%rename_column("i64", "big")
        call k%rename_column("big", "i64")
        msg = ''
        call out%append(r, stat=s, errmsg=msg)
        call check(s == 50, 'refusals: a stale row is PQT_MISUSE')
        call check(index(msg, 'stale') > 0, 'refusals: message says stale: '//trim(msg))
        call out%append(never, stat=s)
        call check(s == 50, 'refusals: a row handle never set is PQT_MISUSE')
        call parquet_new_table(other)
        call other%add_column("id", [9_int64])
        msg = ''
        call out%append(other%row(1), stat=s, errmsg=msg)
        call check(s == 1, 'refusals: a row without column i64 is PQT_NOT_FOUND')
        call check(index(msg, "'i64'") > 0, 'refusals: message names i64: '//trim(msg))
        call out%append(k%row(4))
        call parquet_close_table_writer(out, stat=s)
        call check(s == 0, 'refusals: the writer went on and closed')
        call parquet_open_table(w, "refused.parquet")
        call w%get("id", id)
        call check(size(id) == 2, 'refusals: two rows written')
        if (size(id) == 2) call check(all(id == [2, 4]), 'refusals: rows 2 and 4')
    end subroutine
end program test_write_like
