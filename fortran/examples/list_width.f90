! A variable-length LIST column's width is discovered, not declared (docs/fortran.md, "Examples").
! Besides the documented lines: the declarations, lo/hi (a slice inside the first row group) and the
! last print. The file's spec column holds 4 elements a row in its first row group and 1..3 in its
! second.
program list_width
    use parquet
    implicit none
    type(parquet_table) :: t, full, part
    integer :: w, lo, hi

    lo = 1
    hi = 100

call parquet_open_table(t, "from_another_tool.parquet")
print *, t%width("spec")     ! may read data, for a variable-length LIST column

call parquet_open_table(full, "from_another_tool.parquet")
w = full%width("spec")            ! measured over every row group; nothing stays resident
call parquet_open_table(part, "from_another_tool.parquet", lo, hi)
    print *, w, part%width("spec")
end program list_width
