! match: WARNING: .*qc violation for column 'i32'
! test_qc_soft.f90 - qc_soft=.true. warns instead of failing: the read succeeds with every
! value, and pqt's warning reaches standard output as a "WARNING: " line (checked by the
! runner: the program cannot see its own output). kinds.parquet's i32 holds 3..90 and nulls.
program test_qc_soft
    use parquet
    use iso_fortran_env, only: int32
    implicit none
    ! the work runs in a procedure, so its tables and arrays are finalized and freed on
    ! return (a main program's never are): a leak checker then sees only real leaks
    call run()
contains
    subroutine run()
        type(parquet_table) :: t
        type(parquet_read_qc) :: qc
        integer(int32), allocatable :: i32(:)
        integer :: s

        call qc%add("i32, >100")
        call parquet_open_table(t, "kinds.parquet", qc=qc, qc_soft=.true.)
        call t%get("i32", i32, stat=s)
        if (s /= 0 .or. size(i32) /= 30 .or. i32(1) /= 3) then
            print '(a)', 'FAIL soft qc: the read should succeed'
            error stop 'test_qc_soft: failed'
        end if
        print '(a)', 'ok   soft qc: read 30 values despite the violation'
    end subroutine
end program test_qc_soft
