! test_check.f90 - the binding's test programs count their failures here: check(cond, what)
! prints "FAIL what" when cond is false, and a program stops non-zero at its end when nfail
! is above 0.
module test_check
    implicit none
    private
    public :: check
    integer, public :: nfail = 0
contains
    subroutine check(cond, what)
        logical, intent(in) :: cond
        character(len=*), intent(in) :: what
        if (cond) return
        nfail = nfail + 1
        print '(a)', 'FAIL '//what
    end subroutine
end module test_check
