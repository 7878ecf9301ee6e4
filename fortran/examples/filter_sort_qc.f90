! Filtering, sorting and checking rows as the file is opened (docs/fortran.md, "Examples"). Besides
! the documented lines: the program, t and m, and the lines after the open: the largest surviving mass
! (sorted by -mass, m(1)), or a note that no row survived (on examples/catalogue.parquet, the
! README's file, none does: no mass there passes 1e12).
program filter_sort_qc
    use parquet
    use iso_fortran_env, only: real64
    implicit none
    type(parquet_table) :: t
    real(real64), allocatable :: m(:)

type(parquet_filter)  :: filt
type(parquet_sortkey) :: srt
type(parquet_read_qc) :: qc

call filt%add("mass > 1.0e12 and quality is_not_null")
call srt%add("-mass")
call qc%add("mass, >0")

call parquet_open_table(t, "catalogue.parquet", filter=filt, sort=srt, qc=qc)
print *, t%nrows()          ! rows that SURVIVED the filter
    call t%get("mass", m)
    if (size(m) > 0) then
        print *, m(1)           ! sorted by -mass: the largest surviving mass
    else
        print *, "no row survived the filter"
    end if
end program filter_sort_qc
