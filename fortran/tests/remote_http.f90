! remote_http.f90 - parquet_open_table on an http:// URL (docs/remote.md): catalogue.parquet
! served by tests/remote/http_server.py (started by run_example.py --http-server, which sets
! PQT_TEST_BASE) reads the same rows and values as the local file, with and without a filter;
! a missing file is stat= non-zero with a message naming the URL and the HTTP status.
program remote_http
    use parquet
    use test_check
    use iso_fortran_env, only: int32, int64, real64
    implicit none

    call run()
    if (nfail > 0) error stop 'remote_http: failed'
    print '(a)', 'remote_http: all passed'
contains
    subroutine run()
        type(parquet_table) :: loc, rem
        type(parquet_filter) :: filt
        integer(int64), allocatable :: id_l(:), id_r(:)
        real(real64), allocatable :: x_l(:), x_r(:)
        integer(int32), allocatable :: q_l(:), q_r(:)
        character(len=512) :: base, msg
        integer :: s, n

        call get_environment_variable("PQT_TEST_BASE", base, length=n, status=s)
        call check(s == 0 .and. n > 0, 'PQT_TEST_BASE is set (run_example.py --http-server)')
        if (s /= 0) return
        call parquet_open_table(loc, "catalogue.parquet")
        call parquet_open_table(rem, trim(base)//"/catalogue.parquet")
        call check(rem%nrows() == 1000 .and. loc%nrows() == 1000, '1000 rows both ways')
        call loc%get("id", id_l)
        call rem%get("id", id_r)
        call check(size(id_r) == 1000, '1000 ids over HTTP')
        if (size(id_r) == size(id_l)) call check(all(id_r == id_l), 'the ids equal the local ones')
        call loc%get("mass", x_l)
        call rem%get("mass", x_r)
        if (size(x_r) == size(x_l)) call check(all(x_r == x_l), 'mass equals the local values')
        call loc%get("quality", q_l)
        call rem%get("quality", q_r)
        if (size(q_r) == size(q_l)) call check(all(q_r == q_l), 'quality equals the local values')

        call filt%add("id > 700")
        call parquet_open_table(loc, "catalogue.parquet", filter=filt)
        call parquet_open_table(rem, trim(base)//"/catalogue.parquet", filter=filt)
        call check(rem%nrows() == loc%nrows() .and. rem%nrows() > 0, 'a filter keeps the same rows')
        call loc%get("ra", x_l)
        call rem%get("ra", x_r)
        if (size(x_r) == size(x_l)) call check(all(x_r == x_l), 'and the same ra values')

        call parquet_open_table(rem, trim(base)//"/none.parquet", stat=s, errmsg=msg)
        call check(s /= 0, 'a missing file is an error')
        call check(index(msg, trim(base)//"/none.parquet") > 0 .and. index(msg, "HTTP 404") > 0, &
                   'naming the URL and HTTP 404: '//trim(msg))
    end subroutine
end program remote_http
