! Must NOT compile: the slice forms of parquet_open_table have no sort= (a sort reorders the
! whole file, so the rows asked for would not be the rows kept).
program slice_sort
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_sortkey) :: srt
    call srt%add("-mass")
    call parquet_open_table(t, "big.parquet", 1, 100, sort=srt)
end program slice_sort
