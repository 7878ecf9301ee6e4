! example.f90 - pqt's C API called from Fortran through ISO_C_BINDING (the Fortran module
! `parquet` will wrap these): prints the library's version and the size of a file, as
! ../find_package/example.c does.
program pqt_example
    use, intrinsic :: iso_c_binding
    implicit none

    interface
        function pqt_version_number() bind(c, name='pqt_version_number')
            import :: c_int
            integer(c_int) :: pqt_version_number
        end function
        function pqt_file_open(path, opts, ret) bind(c, name='pqt_file_open')
            import :: c_int, c_char, c_ptr
            character(kind=c_char), intent(in) :: path(*)
            type(c_ptr), value :: opts
            type(c_ptr), intent(out) :: ret
            integer(c_int) :: pqt_file_open
        end function
        function pqt_file_nrows(f) bind(c, name='pqt_file_nrows')
            import :: c_int64_t, c_ptr
            type(c_ptr), value :: f
            integer(c_int64_t) :: pqt_file_nrows
        end function
        function pqt_file_ncols(f) bind(c, name='pqt_file_ncols')
            import :: c_int, c_ptr
            type(c_ptr), value :: f
            integer(c_int) :: pqt_file_ncols
        end function
        subroutine pqt_file_close(f) bind(c, name='pqt_file_close')
            import :: c_ptr
            type(c_ptr), value :: f
        end subroutine
    end interface

    character(len=4096) :: path
    type(c_ptr) :: f
    integer(c_int) :: st

    if (command_argument_count() /= 1) then
        write (*, '(a)') 'usage: pqt_example_fortran FILE.parquet'
        stop 2
    end if
    call get_command_argument(1, path)
    ! pqt_version_number returns a C unsigned; the value fits a default integer.
    write (*, '(a,i0)') 'pqt_version_number ', pqt_version_number()
    st = pqt_file_open(trim(path)//c_null_char, c_null_ptr, f)
    if (st /= 0) then
        write (*, '(a,a,i0)') trim(path), ': pqt_file_open failed with status ', st
        stop 1
    end if
    write (*, '(a,a,i0,a,i0,a)') trim(path), ': ', pqt_file_nrows(f), ' rows, ', &
        pqt_file_ncols(f), ' columns'
    call pqt_file_close(f)
end program
