! test_expr_filter.f90 - expression filters from Fortran (issue 30): column arithmetic, a
! function, % and LIKE in a parquet_filter, on rows 1..40 of tests/data/sql_filters/cat.parquet
! (DuckDB wrote it from formulas of id, tests/data/make_sql_filters.mjs):
!   g = 14 + mod(31 id, 1000) / 100, r = 13.5 + mod(53 id, 1000) / 100 (null when 19 | id),
!   flux = mod(97 id, 100000) / 10 + 0.1, name = 'obj-' || id (4 digits) when 3 | id, null when
!   11 | id. The rows each rule keeps were worked out by hand from those formulas:
! - g - r > 0.5 and r < 20: ids 1..19 have g - r <= 0.28 (r rises 0.53 a row, g 0.31; 19: r null);
!   20..31 have g - r >= 2.4 and r < 20 (r(31) = 19.93); r(32) = 20.46, r(33) = 20.99,
!   then g wraps: g - r < 0 for 33..37, r(38) null, g - r = 1.92 and 1.70 at 39 and 40.
! - -2.5 * log10(flux) + 22.5 < 18 is flux > 10^1.8 = 63.1: flux = 9.7 id + 0.1 passes from id 7.
! - id % 2 == 0 and name like 'obj-%': ids divisible by 6 (33, the only multiple of 11 and 3
!   below 40, is odd).
program test_expr_filter
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int64
    implicit none

    call run()
    if (nfail > 0) error stop 'test_expr_filter: failed'
    print '(a)', 'test_expr_filter: all passed'
contains
    subroutine keeps(rule, want, what)
        character(len=*), intent(in) :: rule, what
        integer(int64), intent(in) :: want(:)
        type(parquet_table) :: t
        type(parquet_filter) :: filt
        integer(int64), allocatable :: ids(:)

        call filt%add(rule)
        call parquet_open_table(t, "cat.parquet", 1_int64, 40_int64, filter=filt)
        call t%get("id", ids)
        call check(size(ids) == size(want), what//': as many rows as worked out by hand')
        if (size(ids) == size(want)) call check(all(ids == want), what//': the same ids')
    end subroutine

    subroutine run()
        integer(int64) :: i

        call keeps("g - r > 0.5 and r < 20", [integer(int64) :: (i, i=20, 31), 39, 40], &
                   'colour cut')
        call keeps("-2.5 * log10(flux) + 22.5 < 18 and id <= 12", [integer(int64) :: (i, i=7, 12)], &
                   'magnitude from a flux')
        call keeps("id % 2 == 0 and name like 'obj-%'", [integer(int64) :: (i, i=6, 36, 6)], '% and like')
    end subroutine
end program test_expr_filter
