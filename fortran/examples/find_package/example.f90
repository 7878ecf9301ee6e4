! example.f90 - a program using module parquet from an installed pqt: prints a file's size
! as ../../../examples/find_package_fortran/example.f90 does through the C API.
program pqt_fortran_example
    use parquet
    implicit none
    type(parquet_table) :: t
    character(len=4096) :: path

    if (command_argument_count() /= 1) then
        write (*, '(a)') 'usage: pqt_fortran_example FILE.parquet'
        stop 2
    end if
    call get_command_argument(1, path)
    call parquet_open_table(t, trim(path))
    write (*, '(a,a,i0,a,i0,a)') trim(path), ': ', t%nrows(), ' rows, ', t%ncols(), ' columns'
end program pqt_fortran_example
