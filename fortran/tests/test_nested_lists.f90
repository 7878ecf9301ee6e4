! test_nested_lists.f90 - %get_nested of lists of lists (values + one parquet_list_level per
! level, 1-based offsets, list and value validity) on nested_lists.parquet, which DuckDB wrote
! (tests/data/make_nested_lists.mjs), id = 1..6:
!   ll  INTEGER[][]:   [[1, 2], [3]]  NULL  []  [[], NULL, [4, NULL, 5]]  [NULL]  [[6]]
!   lll INTEGER[][][]: [[[1], [2, 3]], [[]]]  NULL  []  [NULL, [[4, NULL]]]  [[NULL]]  [[[6]]]
! Truth: the offsets and validity below, worked out by hand from those rows.
program test_nested_lists
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call run()
    if (nfail > 0) error stop 'test_nested_lists: failed'
    print '(a)', 'test_nested_lists: all passed'
contains
    subroutine run()
        type(parquet_table) :: t, s
        integer(int32), allocatable :: x(:)
        real(real64), allocatable :: r(:)
        type(parquet_list_level), allocatable :: lv(:)
        logical, allocatable :: ok(:)
        character(len=300) :: msg
        integer :: st
        logical :: found

        call parquet_open_table(t, "nested_lists.parquet")
        call t%get_nested("ll", x, lv, is_valid=ok)
        call check(size(lv) == 2, 'll: two levels')
        call check(all(lv(1)%offsets == [1, 3, 3, 3, 6, 7, 8]), 'll: rows -> inner lists')
        call check(all(lv(1)%valid .eqv. [.true., .false., .true., .true., .true., .true.]), &
                   'll: row 2 is a null list, row 3 an empty one')
        call check(all(lv(2)%offsets == [1, 3, 4, 4, 4, 7, 7, 8]), 'll: inner lists -> values')
        call check(all(lv(2)%valid .eqv. [.true., .true., .true., .false., .true., .false., &
                                          .true.]), 'll: inner lists 4 and 6 are null')
        call check(all(x == [1, 2, 3, 4, 0, 5, 6]), 'll: values, a null one as 0')
        call check(all(ok .eqv. [.true., .true., .true., .true., .false., .true., .true.]), &
                   'll: value 5 is null')

        call t%get_nested("lll", x, lv)
        call check(size(lv) == 3, 'lll: three levels')
        call check(all(lv(1)%offsets == [1, 3, 3, 3, 5, 6, 7]), 'lll: level 1 offsets')
        call check(all(lv(2)%offsets == [1, 3, 4, 4, 5, 6, 7]), 'lll: level 2 offsets')
        call check(all(lv(2)%valid .eqv. [.true., .true., .false., .true., .true., .true.]), &
                   'lll: level 2 validity')
        call check(all(lv(3)%offsets == [1, 2, 4, 4, 6, 6, 7]), 'lll: level 3 offsets')
        call check(all(lv(3)%valid .eqv. [.true., .true., .true., .true., .false., .true.]), &
                   'lll: level 3 validity')
        call check(all(x == [1, 2, 3, 4, 0, 6]), 'lll: values')

        ! a slice of rows 4..5: [[], NULL, [4, NULL, 5]] and [NULL]
        call parquet_open_table(s, "nested_lists.parquet", 4, 5)
        call s%get_nested("ll", x, lv, is_valid=ok)
        call check(all(lv(1)%offsets == [1, 4, 5]) .and. all(lv(1)%valid), 'slice: rows')
        call check(all(lv(2)%offsets == [1, 1, 1, 4, 4]), 'slice: inner lists')
        call check(all(lv(2)%valid .eqv. [.true., .false., .true., .false.]), &
                   'slice: inner validity')
        call check(all(x == [4, 0, 5]) .and. all(ok .eqv. [.true., .false., .true.]), &
                   'slice: values')

        ! errors: another kind, not a list of lists, no such column
        call t%get_nested("ll", r, lv, stat=st, errmsg=msg)
        call check(st /= 0 .and. index(msg, 'lists of lists of int32') > 0, &
                   'a float64 array for int32 values: '//trim(msg))
        call t%get_nested("id", x, lv, stat=st, errmsg=msg)
        call check(st /= 0 .and. index(msg, 'is not a list of lists') > 0, &
                   'a flat column: '//trim(msg))
        call t%get_nested("nope", x, lv, found=found)
        call check(.not. found .and. size(lv) == 0, 'found= for a missing column')
    end subroutine
end program test_nested_lists
