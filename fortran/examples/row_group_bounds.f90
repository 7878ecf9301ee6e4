! Which rows a row group holds (docs/fortran.md, "Examples"). Besides the documented lines: the
! declarations, the open, the footer-only call and the print (a whole-file table with no transform:
! all three are the same array).
program row_group_bounds
    use parquet
    use iso_fortran_env, only: int64
    implicit none
    type(parquet_table) :: t
    integer(int64), allocatable :: mine(:,:), theirs(:,:), bounds(:,:)

    call parquet_open_table(t, "big.parquet")
    call t%row_group_bounds(mine)                    ! rows OF THIS TABLE, per row group
    call t%row_group_bounds(theirs, physical=.true.) ! the file's own rows, per row group
    call parquet_table_row_group_bounds("big.parquet", bounds)
    print *, size(mine, 2), all(mine == theirs), all(theirs == bounds)
end program row_group_bounds
