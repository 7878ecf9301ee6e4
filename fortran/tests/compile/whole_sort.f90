! Must compile: the same call on the whole-file form (the control for slice_sort.f90).
program whole_sort
    use parquet
    implicit none
    type(parquet_table) :: t
    type(parquet_sortkey) :: srt
    call srt%add("-mass")
    call parquet_open_table(t, "big.parquet", sort=srt)
end program whole_sort
