! test_write_rows.f90 - writing chosen rows and cutting row groups: parquet_write_table's
! row_mask= (only the .true. rows written, the table unchanged, row_index_name= naming file
! rows), out%flush() (a row group now), parquet_write_table_chunk (exactly one row group
! whatever chunk_size says; with row_mask=; an empty chunk refused with the writer still
! open) and %filter_rows(mask). Truth: kinds.parquet's formulas (fortran/data/make_data.mjs,
! DuckDB: id = 1..30, i32 = 3*id, null when id % 4 == 0) and the row groups the program
! asked for, read back from the footer (parquet_table_row_group_bounds).
program test_write_rows
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64
    implicit none

    call masked_write()
    call chunks()
    call filter_by_mask()
    if (nfail > 0) error stop 'test_write_rows: failed'
    print '(a)', 'test_write_rows: all passed'
contains
    subroutine masked_write()
        type(parquet_table) :: t, r
        integer(int64) :: i
        integer(int64), allocatable :: id(:), src(:)
        integer(int32), allocatable :: i32(:)
        logical, allocatable :: ok(:), mask(:)
        character(len=300) :: msg
        integer :: s
        logical :: there

        call parquet_open_table(t, "kinds.parquet")
        mask = [(mod(i, 3_int64) == 0, i=1, 30)]
        call parquet_write_table(t, "third.parquet", row_mask=mask, row_index_name="src")
        call check(t%nrows() == 30 .and. t%residency("i32") == RES_EMPTY .and. &
                   .not. t%is_detached(), 'row_mask= leaves the table as it was')
        call parquet_open_table(r, "third.parquet")
        call r%get("id", id)
        call r%get("src", src)
        call r%get("i32", i32, is_valid=ok)
        call check(r%nrows() == 10 .and. size(id) == 10, 'ten rows of thirty written')
        if (size(id) == 10) then
            call check(all(id == [(3*i, i=1, 10)]) .and. all(src == id), &
                       'the ids 3, 6, .., 30 and their file rows')
            call check(all(ok .eqv. (mod(id, 4_int64) /= 0)) .and. &
                       all(pack(i32, ok) == pack(3*id, ok)), 'i32 = 3 * id, null when id % 4 == 0')
        end if

        call parquet_write_table(t, "bad.parquet", row_mask=[.true.], stat=s, errmsg=msg)
        inquire (file="bad.parquet", exist=there)
        call check(s == 50 .and. index(msg, '1 flags for 30 rows') > 0 .and. .not. there, &
                   'a row_mask of the wrong size: PQT_MISUSE, no file: '//trim(msg))
        mask = .false.
        call parquet_write_table(t, "none.parquet", row_mask=mask)
        call parquet_open_table(r, "none.parquet")
        call check(r%nrows() == 0 .and. r%has_column("i32"), 'a mask keeping no row: 0 rows')
    end subroutine

    subroutine chunks()
        type(parquet_table) :: t, a, b, c, empty, r
        type(parquet_table_writer) :: out
        integer(int64), allocatable :: bounds(:, :), id(:)
        integer(int64) :: i
        character(len=300) :: msg
        integer :: s

        call parquet_open_table(t, "kinds.parquet")
        call parquet_open_table(a, "kinds.parquet", 1, 10)
        call parquet_open_table(b, "kinds.parquet", 11, 20)
        call parquet_open_table(c, "kinds.parquet", 21, 30)
        call out%flush(stat=s)
        call check(s == 50, 'flush of a writer not open: PQT_MISUSE')
        call parquet_open_table_writer(out, "chunks.parquet", t, chunk_size=4)
        call out%append(a)          ! 4, 4, and 2 pending
        call out%flush()            ! 2
        call out%flush()            ! nothing pending: no row group
        call parquet_write_table_chunk(out, b)                     ! 10, not 4 + 4 + 2
        call parquet_write_table_chunk(out, c, row_mask=[(mod(i, 2_int64) == 0, i=21, 30)]) ! 5
        call parquet_write_table_chunk(out, c, row_mask=[(.false., i=21, 30)], stat=s, &
                                       errmsg=msg)
        call check(s == 50 .and. index(msg, 'keeps none') > 0, &
                   'a chunk whose mask keeps no row: PQT_MISUSE: '//trim(msg))
        call parquet_new_table(empty)
        call empty%add_column("id", [integer(int64) ::])
        call parquet_write_table_chunk(out, empty, stat=s, errmsg=msg)
        call check(s == 50 .and. index(msg, 'empty') > 0, 'an empty chunk: PQT_MISUSE: '//trim(msg))
        call parquet_write_table_chunk(out, c, row_mask=[.true.], stat=s)
        call check(s == 50, 'a chunk mask of the wrong size: PQT_MISUSE')
        call check(out%nrows() == 25, 'the writer is still open after the refusals: 25 rows')
        call parquet_close_table_writer(out)

        call parquet_table_row_group_bounds("chunks.parquet", bounds)
        call check(size(bounds, 2) == 5, 'five row groups')
        if (size(bounds, 2) == 5) &
            call check(all(bounds(2, :) - bounds(1, :) + 1 == [4, 4, 2, 10, 5]), &
                       'row groups of 4, 4, 2 (flush), 10 (a chunk), 5 (a masked chunk)')
        call parquet_open_table(r, "chunks.parquet")
        call r%get("id", id)
        call check(size(id) == 25, '25 rows read back')
        if (size(id) == 25) &
            call check(all(id == [[(i, i=1, 20)], [(i, i=22, 30, 2)]]), &
                       'ids 1..20 then the even ones of 21..30')
        call r%close()
        call parquet_open_table_writer(out, "chunks2.parquet", t)
        call parquet_write_table_chunk(out, a)
        call check(out%nrows() == 10, 'a chunk into a new writer')
        call out%abort()
    end subroutine

    subroutine filter_by_mask()
        type(parquet_table) :: t
        integer(int64) :: i
        integer(int32), allocatable :: i32(:)
        logical, allocatable :: ok(:)
        integer :: s

        call parquet_open_table(t, "kinds.parquet")
        call t%filter_rows([(i <= 3 .or. i == 30, i=1, 30)])
        call check(t%nrows() == 4 .and. .not. t%is_detached(), &
                   'filter_rows(mask): four rows, still attached')
        call t%get("i32", i32, is_valid=ok)
        call check(all(i32 == [3, 6, 9, 90]) .and. all(ok), 'i32 of rows 1, 2, 3, 30')
        call t%filter_rows([.true.], stat=s)
        call check(s == 50 .and. t%nrows() == 4, 'a mask of the wrong size: PQT_MISUSE')
    end subroutine

end program test_write_rows
