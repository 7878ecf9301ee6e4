! test_write_lists.f90 - %add_column(name, values, offsets, [is_valid], [row_valid]) of
! variable-length lists, the layout %get(name, x, offsets) returns, written with
! parquet_write_table and read back from the file. Hand-written rows of "hits" (real64):
!   [1.5, 2.5], [], null (its value 8.8 dropped), [null, 4.5], [5.5]
! of "n" (int32): [7], [8, 9, 10], [], [11], [] and of "tags" (strings): ["a", "b"], null
! (its "zz" dropped), [], [null, "ccc"], []; then the refusals (offsets past the values, a
! row_valid of the wrong size, a kind= the values cannot take), which leave the table as it was.
program test_write_lists
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call run()
    if (nfail > 0) error stop 'test_write_lists: failed'
    print '(a)', 'test_write_lists: all passed'
contains
    subroutine run()
        type(parquet_table) :: t, back
        integer(int32), allocatable :: n(:)
        integer(int64), allocatable :: off(:), w8(:)
        logical, allocatable :: rv(:), ok(:)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: s(:)
        character(len=300) :: msg
        integer :: st, ncols

        call parquet_new_table(t)
        call t%add_column("id", [1_int64, 2_int64, 3_int64, 4_int64, 5_int64])
        call t%add_column("hits", [1.5d0, 2.5d0, 8.8d0, 3.5d0, 4.5d0, 5.5d0], &
                          [1_int64, 3_int64, 3_int64, 4_int64, 6_int64, 7_int64], &
                          is_valid=[.true., .true., .true., .false., .true., .true.], &
                          row_valid=[.true., .true., .false., .true., .true.], unit="keV")
        call t%add_column("n", [7, 8, 9, 10, 11], [1_int64, 2_int64, 5_int64, 5_int64, &
                                                   6_int64, 6_int64])
        ! trailing blanks dropped, as for string columns: "b ", "" and "   " are "b", "", ""
        call t%add_column("tags", ["a  ", "b  ", "zz ", "   ", "ccc"], [1_int64, 3_int64, &
                          4_int64, 4_int64, 6_int64, 6_int64], &
                          is_valid=[.true., .true., .true., .false., .true.], &
                          row_valid=[.true., .false., .true., .true., .true.])
        call t%add_column("when", [1000000_int64, 2000000_int64], [1_int64, 1_int64, 2_int64, &
                          3_int64, 3_int64, 3_int64], kind=PK_TIMESTAMP)
        call check(t%kind("hits") == PK_LIST .and. t%kind("n") == PK_LIST .and. &
                   t%kind("tags") == PK_LIST, 'all three are PK_LIST')
        call check_hits(t, 'in memory')

        ncols = t%ncols()
        call t%add_column("bad", [1.0d0, 2.0d0], [1_int64, 2_int64, 3_int64, 4_int64, &
                                                  4_int64, 4_int64], stat=st, errmsg=msg)
        call check(st == 50 .and. index(msg, 'offsets= reach value 3 of 2') > 0, &
                   'offsets past the values: PQT_MISUSE: '//trim(msg))
        call t%add_column("bad", [1.0d0], [1_int64, 2_int64, 2_int64, 2_int64, 2_int64, &
                                           2_int64], row_valid=[.true.], stat=st, errmsg=msg)
        call check(st == 50 .and. index(msg, 'row_valid=') > 0, &
                   'row_valid of the wrong size: PQT_MISUSE: '//trim(msg))
        call t%add_column("bad", [1_int64, 2_int64], [1_int64, 2_int64, 3_int64, 3_int64, &
                                                      3_int64, 3_int64], kind=PK_DATE, &
                          stat=st, errmsg=msg)
        call check(st == 52 .and. index(msg, 'kind= does not fit') > 0, &
                   'kind=PK_DATE with int64 list values: PQT_KIND: '//trim(msg))
        call check(t%ncols() == ncols, 'refused adds leave the table as it was')

        call parquet_write_table(t, "write_lists.parquet", overwrite=.true.)
        call parquet_open_table(back, "write_lists.parquet")
        call check(back%kind("hits") == PK_LIST, 'hits is a list in the file')
        call check_hits(back, 'from the file')
        call back%get("n", n, off, row_valid=rv)
        call check(all(n == [7, 8, 9, 10, 11]), 'n values from the file')
        call check(all(off == [1_int64, 2_int64, 5_int64, 5_int64, 6_int64, 6_int64]), &
                   'n offsets from the file')
        call check(all(rv), 'n has no null row')
        call back%get("when", w8, off)
        call check(all(w8 == [1000000_int64, 2000000_int64]) .and. &
                   all(off == [1_int64, 1_int64, 2_int64, 3_int64, 3_int64, 3_int64]), &
                   'when (timestamps, microseconds) from the file')
        call back%get("tags", s, off, is_valid=ok, row_valid=rv)
        call check(all(off == [1_int64, 3_int64, 3_int64, 3_int64, 5_int64, 5_int64]), &
                   'tags offsets from the file (the null row holds nothing)')
        call check(all(rv .eqv. [.true., .false., .true., .true., .true.]), 'tags null rows')
        call check(size(s) == 4, 'tags: four strings')
        if (size(s) == 4) call check(s(1) == "a" .and. s(2) == "b" .and. s(4) == "ccc" .and. &
                                     (ok(1) .and. ok(2) .and. .not. ok(3) .and. ok(4)), &
                                     'tags strings and nulls from the file')
    end subroutine

    subroutine check_hits(t, where)
        type(parquet_table), intent(inout) :: t
        character(len=*), intent(in) :: where
        real(real64), allocatable :: x(:)
        integer(int64), allocatable :: off(:)
        logical, allocatable :: ok(:), rv(:)
        call t%get("hits", x, off, is_valid=ok, row_valid=rv)
        call check(all(off == [1_int64, 3_int64, 3_int64, 3_int64, 5_int64, 6_int64]), &
                   where//': hits offsets (the null row holds nothing)')
        call check(all(rv .eqv. [.true., .true., .false., .true., .true.]), &
                   where//': hits null rows')
        call check(all(ok .eqv. [.true., .true., .false., .true., .true.]), &
                   where//': hits null elements')
        call check(size(x) == 5, where//': five elements')
        if (size(x) == 5) call check(x(1) == 1.5d0 .and. x(2) == 2.5d0 .and. x(4) == 4.5d0 &
                                     .and. x(5) == 5.5d0, where//': hits values')
    end subroutine
end program
