! match: WARNING: pqt_table_check_qc: in-memory table: qc violation for column 'x' .written anyway.: declared min >= 0, max <= 100, data range \[-2.*, 700.*\], 2 of 3 valid element.s. out of range
! test_write_qc.f90 - parquet_write_table's qc= (write-side qc: warnings, counted in
! qc_violations=, and the file is written all the same; row_mask= checks only the rows
! written; a rule that cannot apply fails before anything is written) and release=
! (.false.: what the write read stays resident; default: residency as found, qc= included).
program test_write_qc
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call warnings()
    call refused()
    call release()
    if (nfail > 0) error stop 'test_write_qc: failed'
    print '(a)', 'test_write_qc: all passed'
contains
    ! x = 1, -2, null, 700 against [0, 100] with Nulls forbidden: two warnings (range: -2 and
    ! 700 of the 3 present; nulls: 1 of 4); n = 1..4 against >= 1: none.
    subroutine warnings()
        type(parquet_table) :: t, w
        type(parquet_read_qc) :: qc
        real(real64), allocatable :: x(:)
        logical, allocatable :: ok(:)
        integer :: nv
        call parquet_new_table(t)
        call t%add_column("x", [1.0d0, -2.0d0, 0.0d0, 700.0d0], &
                          is_valid=[.true., .true., .false., .true.])
        call t%add_column("n", [1_int64, 2_int64, 3_int64, 4_int64])
        call qc%add("x, >=0, <=100, ")
        call qc%add("n, >=1")
        nv = -1
        call parquet_write_table(t, "qc.parquet", qc=qc, qc_violations=nv)
        call check(nv == 2, 'warnings: range and nulls of x are two violations')
        call parquet_open_table(w, "qc.parquet")
        call w%get("x", x, is_valid=ok)
        call check(size(x) == 4, 'warnings: the file is written all the same')
        if (size(x) == 4) call check(all(x == [1.0d0, -2.0d0, 0.0d0, 700.0d0]) .and. &
                                     all(ok .eqv. [.true., .true., .false., .true.]), &
                                     'warnings: the values as they were')
        ! rows 1 and 3 only: x = 1 is in range, the null still counts
        call parquet_write_table(t, "qc_mask.parquet", row_mask=[.true., .false., .true., &
                                 .false.], qc=qc, qc_violations=nv)
        call check(nv == 1, 'warnings: row_mask= checks only the rows written (the null)')
        ! no violation: 0
        call qc%clear()
        call qc%add("n, >=1, <=4")
        call parquet_write_table(t, "qc_clean.parquet", qc=qc, qc_violations=nv)
        call check(nv == 0, 'warnings: none when every rule holds')
    end subroutine

    ! A rule for a missing column, or a bound of another kind: stat=, no file.
    subroutine refused()
        type(parquet_table) :: t
        type(parquet_read_qc) :: q1, q2
        character(len=300) :: msg
        integer :: s
        logical :: there
        call parquet_new_table(t)
        call t%add_column("x", [1.0d0, 2.0d0])
        call q1%add("nope, >0")
        msg = ''
        call parquet_write_table(t, "qc_none.parquet", qc=q1, stat=s, errmsg=msg)
        call check(s == 1, 'refused: a rule for a missing column is PQT_NOT_FOUND')
        call check(index(msg, "no column 'nope'") > 0, 'refused: names it: '//trim(msg))
        inquire (file="qc_none.parquet", exist=there)
        call check(.not. there, 'refused: nothing written')
        call q2%add("x, >abc")
        call parquet_write_table(t, "qc_kind.parquet", qc=q2, stat=s, errmsg=msg)
        call check(s == 52, 'refused: a string bound on a float column is PQT_KIND')
        inquire (file="qc_kind.parquet", exist=there)
        call check(.not. there, 'refused: nothing written (kind)')
    end subroutine

    ! kinds.parquet rows 1..10: i32 = 3 id (null for 4, 8); against <= 20, 21, 27, 30 break it.
    subroutine release()
        type(parquet_table) :: t, w
        type(parquet_read_qc) :: qc
        type(parquet_table_row) :: r
        integer(int32), allocatable :: i32(:)
        integer :: nv
        call parquet_open_table(t, "kinds.parquet", 1, 10)
        r = t%row(1)
        call qc%add("i32, >=0, <=20")
        call parquet_write_table(t, "rel_default.parquet", qc=qc, qc_violations=nv)
        call check(nv == 1, 'release: i32 out of range is one violation')
        call check(t%residency("i32") == RES_EMPTY .and. t%residency("str") == RES_EMPTY, &
                   'release: default leaves residency as found (qc= included)')
        call check(r%is_valid(), 'release: the write is no structural change')
        call parquet_write_table(t, "rel_keep.parquet", release=.false.)
        call check(t%residency("i32") == RES_FULL .and. t%residency("str") == RES_FULL, &
                   'release=.false.: what the write read stays resident')
        call parquet_open_table(w, "rel_keep.parquet")
        call w%get("i32", i32)
        call check(all(i32 == [3, 6, 9, 0, 15, 18, 21, 0, 27, 30]), 'release: values written')
    end subroutine
end program test_write_qc
