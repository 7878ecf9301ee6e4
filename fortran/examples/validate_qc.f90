! Checking qc without keeping the columns (docs/fortran.md, "Examples"). Besides the documented
! lines: the declarations, the rule, and the print (mass's residency after the check, and the status
! of a second check).
program validate_qc
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_read_qc) :: qc
    integer :: s

    call qc%add("mass, >0")
call parquet_open_table(t, "catalogue.parquet", qc=qc)
call t%validate_qc()      ! reads each qc-declaring column, checks it, releases it again
    call t%validate_qc(stat=s)
    print *, t%residency("mass"), s
end program validate_qc
