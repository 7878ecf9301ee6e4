! test_dataset.f90 - a directory of Parquet files opened as one table from Fortran (issue 31,
! docs/datasets.md). Rows 1..100 and 101..250 of catalogue.parquet are written here into the
! hive folders ds/part=1/a.parquet and ds/part=2/b.parquet; opening "ds" must give those 250
! rows in that order (the ids of the file), the hive column part (1 for the first 100 rows,
! then 2), parquet_row_index counting within each file, and a filter on part keeping the
! second file only (its footer alone read, the other file pruned by its folder name).
program test_dataset
    use parquet
    use test_check, only: check, nfail
    use iso_fortran_env, only: int64
    implicit none

    call run()
    if (nfail > 0) error stop 'test_dataset: failed'
    print '(a)', 'test_dataset: all passed'
contains
    subroutine run()
        type(parquet_table) :: src, t, first, second
        type(parquet_filter) :: filt
        integer(int64), allocatable :: ids(:), want(:), part(:), ri(:)
        integer(int64) :: i
        integer :: s

        call execute_command_line("mkdir -p ds/part=1 ds/part=2", exitstat=s)
        call check(s == 0, 'mkdir')
        call parquet_open_table(first, "catalogue.parquet", 1_int64, 100_int64)
        call parquet_write_table(first, "ds/part=1/a.parquet", overwrite=.true.)
        call parquet_open_table(second, "catalogue.parquet", 101_int64, 250_int64)
        call parquet_write_table(second, "ds/part=2/b.parquet", overwrite=.true.)
        call parquet_open_table(src, "catalogue.parquet", 1_int64, 250_int64)
        call src%get("id", want)

        call parquet_open_table(t, "ds")
        call check(t%nrows() == 250, 'the directory holds both files'' rows')
        call t%get("id", ids)
        call check(size(ids) == 250, '250 ids')
        if (size(ids) == 250) call check(all(ids == want), 'the ids in path order')
        call t%get("part", part)
        call check(size(part) == 250, 'the hive column')
        if (size(part) == 250) call check(all(part(1:100) == 1) .and. all(part(101:) == 2), &
                                          'part = 1, then 2')
        call t%get("parquet_row_index", ri)
        if (size(ri) == 250) call check(all(ri(1:100) == [(i, i=1, 100)]) .and. &
                                        all(ri(101:) == [(i, i=1, 150)]), &
                                        'the row index counts within each file')

        call filt%add("part = 2")
        call parquet_open_table(t, "ds", filter=filt)
        call check(t%nrows() == 150, 'part = 2 keeps the second file')
        call t%get("id", ids)
        if (size(ids) == 150) call check(all(ids == want(101:)), 'its ids')
    end subroutine
end program test_dataset
