! test_write.f90 - parquet_write_table: a table opened on kinds.parquet (DuckDB wrote it from
! formulas of the row number, fortran/data/make_data.mjs) is written with the options of
! docs/fortran.md ("Writing"), reopened, and its values checked against those formulas; the row groups
! follow chunk_size=; a filtered table writes its survivors, row_index_name= their file rows;
! an existing file is refused (stat=/errmsg=) and left as it was, overwrite= replaces it;
! write_maml= writes the sidecar; bad options are reported.
program test_write
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call run()
    if (nfail > 0) error stop 'test_write: failed'
    print '(a)', 'test_write: all passed'
contains
    subroutine run()
        type(parquet_table) :: t, w
        type(parquet_filter) :: filt
        integer(int64), allocatable :: b(:, :), ids(:), src_row(:), i64(:), vi64(:, :)
        integer(int64), allocatable :: want_ids(:)
        integer(int32), allocatable :: i32(:), day(:)
        real(real64), allocatable :: f64(:), vf64(:, :)
        logical, allocatable :: flag(:), ok(:), ok2(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: strs(:), names(:), wnames(:)
        character(len=:), allocatable :: val
        character(len=300) :: msg
        integer(int64) :: id
        integer :: s, bad, rg
        logical :: there

        ! ---- a whole table, snappy, row groups of 7 rows
        call parquet_open_table(t, "kinds.parquet")
        call parquet_write_table(t, "w.parquet", compression="snappy", chunk_size=7)
        call parquet_open_table(w, "w.parquet")
        call check(w%nrows() == 30, 'written file has the 30 rows')
        call t%column_names(names)
        call w%column_names(wnames)
        call check(size(names) == size(wnames), 'every column is written')
        if (size(names) == size(wnames)) call check(all(names == wnames), 'in the same order')
        call parquet_table_row_group_bounds("w.parquet", b)
        call check(size(b, 2) == 5, 'chunk_size=7: 5 row groups of 30 rows')
        bad = 0
        do rg = 1, size(b, 2)
            if (b(1, rg) /= 7*(rg - 1) + 1 .or. b(2, rg) /= min(30, 7*rg)) bad = bad + 1
        end do
        call check(bad == 0, 'row groups 1..7, 8..14, ..., 29..30')
        call check(w%kind("day") == PK_DATE .and. w%kind("ts") == PK_TIMESTAMP .and. &
                   w%kind("vi64") == PK_INT64_VEC .and. w%width("vi64") == 3, &
                   'kinds and widths written')

        call w%get("id", ids)
        call check(all(ids == [(id, id=1, 30)]), 'id = 1..30')
        call w%get("i32", i32, is_valid=ok)
        bad = 0
        do id = 1, 30
            if (mod(id, 4_int64) == 0) then
                if (ok(id)) bad = bad + 1
            else if (.not. ok(id) .or. i32(id) /= 3*id) then
                bad = bad + 1
            end if
        end do
        call check(bad == 0, 'i32 = 3 id, null when id % 4 = 0')
        call w%get("i64", i64, is_valid=ok)
        bad = count([(ok(id) .neqv. mod(id, 5_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok(id) .and. i64(id) /= id*1000000000000_int64, id=1, 30)])
        call check(bad == 0, 'i64 = id 10^12, null when id % 5 = 0')
        call w%get("f64", f64, is_valid=ok)
        bad = count([(ok(id) .neqv. mod(id, 7_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok(id) .and. f64(id) /= real(id, real64)*0.5d0, id=1, 30)])
        call check(bad == 0, 'f64 = id / 2, null when id % 7 = 0')
        call w%get("flag", flag, is_valid=ok)
        bad = count([(ok(id) .neqv. mod(id, 8_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok(id) .and. (flag(id) .neqv. mod(id, 3_int64) == 0), id=1, 30)])
        call check(bad == 0, 'flag = (id % 3 = 0), null when id % 8 = 0')
        call w%get("str", strs, is_valid=ok)
        bad = count([(ok(id) .neqv. mod(id, 9_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok(id) .and. strs(id) /= expected_str(id), id=1, 30)])
        call check(bad == 0, "str = repeat('s', id % 4) || id, null when id % 9 = 0")
        call w%get("day", day, is_valid=ok)
        bad = count([(ok(id) .neqv. mod(id, 10_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok(id) .and. day(id) /= 10*id, id=1, 30)])
        call check(bad == 0, 'day = 1970-01-01 + 10 id days')
        call w%get("ts", i64, is_valid=ok)
        bad = count([(ok(id) .neqv. mod(id, 12_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok(id) .and. i64(id) /= id*1000000_int64, id=1, 30)])
        call check(bad == 0 .and. w%time_unit("ts") == PARQUET_UNIT_MICROS, &
                   'ts = id seconds after 1970, in microseconds')
        call w%get("vi64", vi64)
        bad = count([(any(vi64(:, id) /= [id, 10*id, 100*id]), id=1, 30)])
        call check(bad == 0, 'vi64 = [id, 10 id, 100 id]')
        call w%get("vf64", vf64, is_valid=ok2)
        bad = count([(vf64(1, id) /= 1.5d0*id .or. .not. ok2(1, id), id=1, 30)])
        bad = bad + count([(ok2(2, id) .neqv. mod(id, 3_int64) /= 0, id=1, 30)])
        bad = bad + count([(ok2(2, id) .and. vf64(2, id) /= -1.5d0*id, id=1, 30)])
        call check(bad == 0, 'vf64 = [1.5 id, -1.5 id (null when id % 3 = 0)]')

        ! ---- key-value metadata: metadata= entries; the source's copied only when asked
        call parquet_write_table(t, "meta.parquet", metadata=["survey=GAMA ", "release=3   "])
        call parquet_open_table(w, "meta.parquet")
        call w%get_file_metadata("survey", val)
        call check(val == 'GAMA', 'metadata= entry read back')
        call parquet_write_table(w, "meta_none.parquet")
        call parquet_write_table(w, "meta_all.parquet", copy_metadata=.true.)
        call parquet_write_table(w, "meta_one.parquet", metadata_keys=["release"])
        call parquet_open_table(w, "meta_none.parquet")
        call w%get_file_metadata("survey", val, found=there)
        call check(.not. there .and. val == '', 'without copy_metadata= nothing is copied')
        call parquet_open_table(w, "meta_all.parquet")
        call w%get_file_metadata("survey", val)
        call check(val == 'GAMA', 'copy_metadata= copies the source keys')
        call w%get_file_metadata("release", val)
        call check(val == '3', '... all of them')
        call parquet_open_table(w, "meta_one.parquet")
        call w%get_file_metadata("release", val, found=there)
        call check(there .and. val == '3', 'metadata_keys= copies the key named')
        call w%get_file_metadata("survey", val, found=there)
        call check(.not. there, '... and no other')
        call w%get_file_metadata("survey", val, stat=s, errmsg=msg)
        call check(s == 1 .and. index(msg, 'survey') > 0, 'a missing key without found=: '// &
                   'PQT_NOT_FOUND naming it: '//trim(msg))

        ! ---- an existing file is refused and left as it was
        msg = ''
        call parquet_write_table(t, "w.parquet", stat=s, errmsg=msg)
        call check(s == 11, 'existing file: stat = PQT_EXISTS (11)')
        call check(index(msg, 'parquet_write_table') == 1 .and. index(msg, 'w.parquet') > 0 &
                   .and. index(msg, 'overwrite=.true.') > 0, &
                   'errmsg names the procedure, the file and overwrite=: '//trim(msg))
        call parquet_table_row_group_bounds("w.parquet", b)
        call check(size(b, 2) == 5, 'the refused write left the file as it was')

        ! ---- a filtered table: its survivors, with their file rows; overwrite= replaces
        call filt%add("i32 > 30")
        call parquet_open_table(t, "kinds.parquet", filter=filt)
        call parquet_write_table(t, "w.parquet", overwrite=.true., row_index_name="src_row", &
                                 compression="zstd", compression_level=3, use_threads=.true., &
                                 write_maml=.true.)
        call parquet_open_table(w, "w.parquet")
        ! i32 = 3 id > 30 and not null (id % 4 /= 0)
        allocate (want_ids, source=pack([(id, id=1, 30)], [(id > 10 .and. mod(id, 4_int64) /= 0, id=1, 30)]))
        call w%get("id", ids)
        call check(size(ids) == size(want_ids), 'filtered write: 15 survivors')
        if (size(ids) == size(want_ids)) call check(all(ids == want_ids), 'their ids')
        call w%get("src_row", src_row, found=there)
        call check(there, 'row_index_name= adds the column')
        if (there .and. size(src_row) == size(want_ids)) &
            call check(all(src_row == want_ids), 'src_row = the file rows (id = file row here)')
        inquire (file="w.maml", exist=there)
        call check(there, 'write_maml= writes w.maml')

        ! ---- options pqt refuses, and a table that is not open
        call parquet_open_table(t, "kinds.parquet")
        msg = ''
        call parquet_write_table(t, "x.parquet", compression="lzma", stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, 'lzma') > 0, 'unknown codec: PQT_MISUSE naming it: ' &
                   //trim(msg))
        inquire (file="x.parquet", exist=there)
        call check(.not. there, 'nothing written after a refused option')
        call t%close()
        call parquet_write_table(t, "x.parquet", stat=s)
        call check(s == 50, 'a closed table: PQT_MISUSE')
    end subroutine

    function expected_str(id) result(s)
        integer(int64), intent(in) :: id
        character(len=:), allocatable :: s
        character(len=20) :: n
        write (n, '(i0)') id
        s = repeat('s', int(mod(id, 4_int64)))//trim(n)
    end function

end program test_write
