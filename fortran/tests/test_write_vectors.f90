! test_write_vectors.f90 - vector columns from Fortran arrays: %add_column of rank-2
! (width, nrows) integers, reals and strings, written by parquet_write_table (as LISTs) and
! read back as vectors of the same kind and width, values and element nulls as put in; the
! same rows through out%append(row); a width-1 rank-2 array is a scalar column.
program test_write_vectors
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call whole()
    call by_row()
    if (nfail > 0) error stop 'test_write_vectors: failed'
    print '(a)', 'test_write_vectors: all passed'
contains
    ! Three rows: v = (1 2 3), (4 null 6), (7 8 9); r = (0.5 -1), (2.25 3), (1e300 -0);
    ! s = ("a" "bb"), (null "dddd"), ("" "f"): "" present, not null.
    subroutine make(t)
        type(parquet_table), intent(inout) :: t
        integer(int32) :: i
        call parquet_new_table(t)
        call t%add_column("id", [1_int64, 2_int64, 3_int64])
        call t%add_column("v", reshape([(i, i=1, 9)], [3, 3]), &
                          is_valid=reshape([.true., .true., .true., .true., .false., .true., &
                                            .true., .true., .true.], [3, 3]))
        call t%add_column("r", reshape([0.5d0, -1d0, 2.25d0, 3d0, 1d300, -0d0], [2, 3]))
        call t%add_column("s", reshape(["a   ", "bb  ", "ccc ", "dddd", "    ", "f   "], [2, 3]), &
                          is_valid=reshape([.true., .true., .false., .true., .true., .true.], &
                                           [2, 3]))
        call t%add_column("one", reshape([10_int64, 20_int64, 30_int64], [1, 3]))
    end subroutine

    subroutine check_file(file, rows)
        character(len=*), intent(in) :: file
        integer, intent(in) :: rows(:)
        type(parquet_table) :: w
        integer(int32), allocatable :: v(:, :), want_v(:, :)
        real(real64), allocatable :: r(:, :), want_r(:, :)
        ! save: gfortran 12 reads the length of a deferred-length array at procedure
        ! entry, before any assignment (a false -Wuninitialized at -O2)
        character(len=:), allocatable, save :: s(:, :)
        character(len=4) :: want_s(2, 3)
        integer(int64), allocatable :: one(:), off(:)
        integer(int32), allocatable :: flat(:)
        logical, allocatable :: ok(:, :), want_ok(:, :), sok(:, :), want_sok(:, :)
        integer :: i
        allocate (want_v, source=reshape([(i, i=1, 9)], [3, 3]))
        want_v(2, 2) = 0   ! a null element copies as 0
        allocate (want_ok, source=reshape([.true., .true., .true., .true., .false., .true., .true., &
                                           .true., .true.], [3, 3]))
        allocate (want_r, source=reshape([0.5d0, -1d0, 2.25d0, 3d0, 1d300, -0d0], [2, 3]))
        want_s = reshape(["a   ", "bb  ", "    ", "dddd", "    ", "f   "], [2, 3])
        allocate (want_sok, source=reshape([.true., .true., .false., .true., .true., .true.], [2, 3]))
        call parquet_open_table(w, file)
        call check(w%nrows() == size(rows), file//': rows')
        call check(w%kind("v") == PK_INT32_VEC .and. w%width("v") == 3, file//': v int32[3]')
        call check(w%kind("r") == PK_FLOAT64_VEC .and. w%width("r") == 2, file//': r float64[2]')
        call check(w%kind("s") == PK_STRING_VEC .and. w%width("s") == 2, file//': s string[2]')
        call check(w%kind("one") == PK_INT64, file//': a width-1 rank-2 array is a scalar')
        if (w%nrows() /= size(rows)) return
        call w%get("v", v, is_valid=ok)
        call check(all(v == want_v(:, rows)) .and. all(ok .eqv. want_ok(:, rows)), &
                   file//': v values and the null (2, 2)')
        call w%get("r", r)
        call check(all(r == want_r(:, rows)), file//': r values')
        call w%get("s", s, is_valid=sok)
        call check(all(s == want_s(:, rows)) .and. all(sok .eqv. want_sok(:, rows)), &
                   file//': s values, "" present, (1, 2) null')
        call w%get("one", one)
        call check(all(one == [(10_int64*rows(i), i=1, size(rows))]), file//': one values')
        ! the list form sees rows of exactly three elements
        call w%get("v", flat, off)
        call check(all(off == [(1_int64 + 3*i, i=0, size(rows))]), file//': v offsets step 3')
    end subroutine

    subroutine whole()
        type(parquet_table) :: t
        call make(t)
        call parquet_write_table(t, "vectors.parquet")
        call check_file("vectors.parquet", [1, 2, 3])
    end subroutine

    ! Rows 3 and 2, one at a time.
    subroutine by_row()
        type(parquet_table) :: t
        type(parquet_table_writer) :: out
        call make(t)
        call parquet_open_writer_like(out, "vector_rows.parquet", t)
        call out%append(t%row(3))
        call out%append(t%row(2))
        call parquet_close_table_writer(out)
        call check_file("vector_rows.parquet", [3, 2])
    end subroutine
end program test_write_vectors
