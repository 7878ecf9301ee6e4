! test_lists.f90 - %get of variable-length lists (values + offsets, element and row validity,
! widening) and of a vector of strings (rank-2 character), on lists.parquet, which DuckDB
! wrote from formulas of id = 1..12 (fortran/data/make_data.mjs):
!   li: null when id % 5 = 0, else id % 4 int32 elements id*10 + k (k = 0..), null when
!       (id + k) % 7 = 0
!   ls: null when id % 6 = 0, else id % 3 strings 'w<id>_<k>'
!   vs: VARCHAR[2] ['a<id>', 'bb<id>' or null when id % 4 = 0]
program test_lists
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64
    implicit none

    call run()
    if (nfail > 0) error stop 'test_lists: failed'
    print '(a)', 'test_lists: all passed'
contains
    subroutine run()
        type(parquet_table) :: t
        integer(int32), allocatable :: x4(:)
        integer(int64), allocatable :: x8(:), off(:), off8(:)
        logical, allocatable :: ok(:), rv(:), ok2(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: s(:), s2(:, :)
        character(len=300) :: msg
        integer(int64) :: id, k, at, bad, len_want
        integer :: st

        call parquet_open_table(t, "lists.parquet")
        call check(t%kind("li") == PK_LIST .and. t%kind("ls") == PK_LIST, 'lists are PK_LIST')
        call check(t%kind("vs") == PK_STRING_VEC .and. t%width("vs") == 2, &
                   'VARCHAR[2] is a vector of strings of width 2')

        ! ---- a list of int32
        call t%get("li", x4, off, is_valid=ok, row_valid=rv)
        call check(size(off) == 13 .and. off(1) == 1, 'offsets: nrows + 1, from 1')
        bad = 0
        do id = 1, 12
            if (rv(id) .neqv. mod(id, 5_int64) /= 0) bad = bad + 1
            len_want = 0
            if (rv(id)) len_want = mod(id, 4_int64)
            if (off(id + 1) - off(id) /= len_want) then
                bad = bad + 1
                cycle
            end if
            do k = 0, len_want - 1
                at = off(id) + k
                if (ok(at) .neqv. mod(id + k, 7_int64) /= 0) bad = bad + 1
                if (ok(at) .and. x4(at) /= id*10 + k) bad = bad + 1
                if (.not. ok(at) .and. x4(at) /= 0) bad = bad + 1
            end do
        end do
        call check(bad == 0, 'li: rows, lengths, values and nulls as DuckDB wrote them')
        call check(size(x4) == off(13) - 1 .and. size(ok) == size(x4), 'one value per element')
        call t%get("li", x8, off8)
        call check(all(off8 == off) .and. all(x8 == x4), 'li widened into int64')

        ! ---- a list of strings
        call t%get("ls", s, off, is_valid=ok, row_valid=rv)
        bad = 0
        do id = 1, 12
            if (rv(id) .neqv. mod(id, 6_int64) /= 0) bad = bad + 1
            len_want = 0
            if (rv(id)) len_want = mod(id, 3_int64)
            if (off(id + 1) - off(id) /= len_want) then
                bad = bad + 1
                cycle
            end if
            do k = 0, len_want - 1
                if (s(off(id) + k) /= 'w'//itoa(id)//'_'//itoa(k) .or. .not. ok(off(id) + k)) &
                    bad = bad + 1
            end do
        end do
        call check(bad == 0, "ls: rows of 'w<id>_<k>', null rows")

        ! ---- a vector of strings
        call t%get("vs", s2, is_valid=ok2)
        call check(all(shape(s2) == [2, 12]), 'vs as (2, nrows)')
        bad = 0
        do id = 1, 12
            if (s2(1, id) /= 'a'//itoa(id) .or. .not. ok2(1, id)) bad = bad + 1
            if (ok2(2, id) .neqv. mod(id, 4_int64) /= 0) bad = bad + 1
            if (ok2(2, id) .and. s2(2, id) /= 'bb'//itoa(id)) bad = bad + 1
            if (.not. ok2(2, id) .and. s2(2, id) /= '') bad = bad + 1
        end do
        call check(bad == 0, "vs: ['a<id>', 'bb<id>' (null when id % 4 = 0)]")
        call t%get("vs", s, off)
        call check(all(off == [(2*id + 1, id=0, 12)]) .and. s(3) == 'a2' .and. s(4) == 'bb2', &
                   'a vector through the list form: offsets 1, 3, 5, ...')

        ! ---- %set of a vector of strings (rank 2)
        s2(2, :) = 'z'
        s2(1, 1) = 'new'   ! s2 is as long as the longest string read (4)
        call t%set("vs", s2, is_valid=reshape([(id /= 4, id=1, 24)], [2, 12]))
        call t%get("vs", s2, is_valid=ok2)
        call check(s2(1, 1) == 'new' .and. all(s2(2, 3:) == 'z') .and. s2(2, 1) == 'z' .and. &
                   s2(1, 3) == 'a3' .and. s2(2, 2) == '' .and. .not. ok2(2, 2) .and. &
                   count(.not. ok2) == 1, '%set of a vector of strings, element 4 null')

        ! ---- shapes that do not fit
        call t%get("li", x4, stat=st, errmsg=msg)
        call check(st == 52 .and. index(msg, 'li') > 0, 'a list into a plain array: PQT_KIND: ' &
                   //trim(msg))
        call t%get("li", s, off, stat=st, errmsg=msg)
        call check(st == 52 .and. size(off) == 0, 'a list of int32 into strings: PQT_KIND: ' &
                   //trim(msg))
        call t%get("id", s2, stat=st)
        call check(st == 52, 'an int64 column into rank-2 character: PQT_KIND')
        call t%get("vs", s, stat=st)
        call check(st == 52, 'a vector of strings into rank 1: PQT_KIND')
        call t%get("id", x8, off, stat=st)
        call check(st == 52, 'a scalar column through the list form: PQT_KIND')
        call t%get("nope", x8, off, found=ok2(1, 1))
        call check(.not. ok2(1, 1) .and. size(off) == 0, 'found= on the list form')
    end subroutine

    function itoa(i) result(s)
        integer(int64), intent(in) :: i
        character(len=:), allocatable :: s
        character(len=20) :: b
        write (b, '(i0)') i
        s = trim(b)
    end function

end program test_lists
