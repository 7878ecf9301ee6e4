! parquet_query.f90 - submodule of module parquet: questions a table answers without
! copying values (rows, columns, kinds, widths, units, metadata, generation, row-group
! bounds, also of a file by its footer) and residency (%prefetch, %materialize_all,
! %validate_qc).
submodule(parquet) parquet_query
    implicit none

contains

    module procedure table_nrows
        table_nrows = 0
        if (opened(t, 'nrows', stat, errmsg)) table_nrows = pqt_table_nrows(t%h)
    end procedure table_nrows

    module procedure table_nrows_unfiltered
        table_nrows_unfiltered = 0
        if (opened(t, 'nrows_unfiltered', stat, errmsg)) &
            table_nrows_unfiltered = pqt_table_nrows_unfiltered(t%h)
    end procedure table_nrows_unfiltered

    module procedure table_row_group_extent
        table_row_group_extent = 0
        if (opened(t, 'row_group_extent', stat, errmsg)) &
            table_row_group_extent = pqt_table_row_group_extent(t%h)
    end procedure table_row_group_extent

    ! Per physical row group: this table's rows (default) or the file's (physical=.true.).
    module procedure table_row_group_bounds
        type(c_ptr) :: p
        integer(c_int) :: n, phys
        allocate (bounds(2, 0))
        if (.not. opened(t, 'row_group_bounds', stat, errmsg)) return
        phys = 0
        if (present(physical)) then
            if (physical) phys = 1
        end if
        if (.not. checked(pqt_table_row_group_bounds(t%h, phys, p, n), &
                          'parquet_table: row_group_bounds', stat, errmsg)) return
        call take_bounds(p, n, bounds)
    end procedure table_row_group_bounds

    module procedure table_ncols
        table_ncols = 0
        if (opened(t, 'ncols', stat, errmsg)) table_ncols = pqt_table_ncols(t%h)
    end procedure table_ncols

    ! The column names in slot order, each padded to the longest.
    module procedure table_column_names
        integer(c_int) :: i, n
        integer :: longest
        allocate (character(len=0) :: names(0))
        if (.not. opened(t, 'column_names', stat, errmsg)) return
        n = pqt_table_ncols(t%h)
        longest = 0
        do i = 0, n - 1
            longest = max(longest, len(f_string(pqt_table_column_name(t%h, i))))
        end do
        deallocate (names)
        allocate (character(len=longest) :: names(n))
        do i = 0, n - 1
            names(i + 1) = f_string(pqt_table_column_name(t%h, i))
        end do
    end procedure table_column_names

    ! Can `name` be used? (.true. for parquet_row_index before it is built.)
    module procedure table_has_column
        table_has_column = .false.
        if (opened(t, 'has_column', stat, errmsg)) &
            table_has_column = pqt_table_has_column(t%h, c_string(name)) /= 0
    end procedure table_has_column

    ! PK_* kind of a column (PK_NONE for one this library cannot read).
    module procedure table_kind
        integer(c_int) :: k
        table_kind = PK_NONE
        if (.not. opened(t, 'kind', stat, errmsg)) return
        if (checked(pqt_table_kind(t%h, c_string(name), k), 'parquet_table: kind', stat, &
                    errmsg, found)) table_kind = pk_of(k)
    end procedure table_kind

    ! Values per row: 1 for a scalar, w for a vector, 0 for a variable-length list.
    module procedure table_width
        integer(c_int) :: w
        table_width = 0
        if (.not. opened(t, 'width', stat, errmsg)) return
        if (checked(pqt_table_width(t%h, c_string(name), w), 'parquet_table: width', stat, &
                    errmsg, found)) table_width = w
    end procedure table_width

    ! Physical unit of a column ("" when none), from a read-in MAML; reads nothing.
    module procedure table_unit
        type(c_ptr) :: p
        unit = ''
        if (.not. opened(t, 'unit', stat, errmsg)) return
        if (checked(pqt_table_unit(t%h, c_string(name), p), 'parquet_table: unit', stat, &
                    errmsg, found)) unit = f_string(p)
    end procedure table_unit

    ! The value of one key of the source file's key-value metadata (as the file was at open;
    ! still there after a detach). found= turns a missing key into found = .false.; an
    ! in-memory table has no file (PQT_MISUSE).
    module procedure table_get_file_metadata
        type(c_ptr) :: p
        integer(c_int) :: st
        value = ''
        if (.not. opened(t, 'get_file_metadata', stat, errmsg)) return
        st = pqt_table_meta_value(t%h, c_string(key), p)
        if (st == PQT_NOT_FOUND .and. .not. present(found)) then
            ! pqt sets no message for an absent key
            call fail(int(st), 'parquet_table: get_file_metadata: the file has no key-value '// &
                      "metadata key '"//trim(key)//"'", stat, errmsg)
            return
        end if
        if (checked(st, 'parquet_table: get_file_metadata', stat, errmsg, found)) &
            value = f_string(p)
    end procedure table_get_file_metadata

    ! PARQUET_UNIT_* of a time or timestamp column, -1 for other kinds.
    module procedure table_time_unit
        integer(c_int) :: u
        table_time_unit = -1
        if (.not. opened(t, 'time_unit', stat, errmsg)) return
        if (checked(pqt_table_time_unit(t%h, c_string(name), u), 'parquet_table: time_unit', &
                    stat, errmsg, found)) table_time_unit = u
    end procedure table_time_unit

    ! RES_FULL once the column has been read, else RES_EMPTY.
    module procedure table_residency
        integer(c_int) :: r
        table_residency = RES_EMPTY
        if (.not. opened(t, 'residency', stat, errmsg)) return
        if (checked(pqt_table_residency(t%h, c_string(name), r), 'parquet_table: residency', &
                    stat, errmsg, found)) table_residency = r
    end procedure table_residency

    ! .false. for a column whose type this library cannot read (MAP, binary, ...): it is
    ! listed, %kind is PK_NONE, and reading it is an error naming it.
    module procedure table_is_supported
        integer(c_int) :: r
        table_is_supported = .false.
        if (.not. opened(t, 'is_supported', stat, errmsg)) return
        if (checked(pqt_table_is_supported(t%h, c_string(name), r), &
                    'parquet_table: is_supported', stat, errmsg, found)) table_is_supported = r /= 0
    end procedure table_is_supported

    ! .false.: no null for certain; .true.: nulls (resident column) or maybe (footer answer).
    module procedure table_has_nulls
        integer(c_int) :: r
        table_has_nulls = .false.
        if (.not. opened(t, 'has_nulls', stat, errmsg)) return
        if (checked(pqt_table_has_nulls(t%h, c_string(name), r), 'parquet_table: has_nulls', &
                    stat, errmsg, found)) table_has_nulls = r /= 0
    end procedure table_has_nulls

    ! The name at 1-based position j, or a failure like a missing name's ("" then).
    function name_at(t, proc, j, found, stat, errmsg) result(name)
        class(parquet_table), intent(in) :: t
        character(len=*), intent(in) :: proc
        integer, intent(in) :: j
        logical, intent(out), optional :: found
        integer, intent(out), optional :: stat
        character(len=*), intent(inout), optional :: errmsg
        character(len=:), allocatable :: name
        character(len=12) :: a, n
        name = ''
        if (.not. opened(t, proc, stat, errmsg)) return
        name = f_string(pqt_table_column_name(t%h, int(j - 1, c_int)))
        if (len(name) > 0) return
        if (present(found)) then
            found = .false.
            return
        end if
        write (a, '(i0)') j
        write (n, '(i0)') pqt_table_ncols(t%h)
        call fail(PQT_NOT_FOUND, 'parquet_table: '//proc//': no column at position '//trim(a)// &
                  ' (the table has '//trim(n)//')', stat, errmsg)
    end function

    module procedure kind_at
        character(len=:), allocatable :: name
        kind_at = PK_NONE
        name = name_at(t, 'kind', j, found, stat, errmsg)
        if (len(name) > 0) kind_at = table_kind(t, name, found, stat, errmsg)
    end procedure kind_at

    module procedure width_at
        character(len=:), allocatable :: name
        width_at = 0
        name = name_at(t, 'width', j, found, stat, errmsg)
        if (len(name) > 0) width_at = table_width(t, name, found, stat, errmsg)
    end procedure width_at

    module procedure unit_at
        character(len=:), allocatable :: name
        unit = ''
        name = name_at(t, 'unit', j, found, stat, errmsg)
        if (len(name) > 0) call table_unit(t, name, unit, found, stat, errmsg)
    end procedure unit_at

    module procedure residency_at
        character(len=:), allocatable :: name
        residency_at = RES_EMPTY
        name = name_at(t, 'residency', j, found, stat, errmsg)
        if (len(name) > 0) residency_at = table_residency(t, name, found, stat, errmsg)
    end procedure residency_at

    module procedure is_supported_at
        character(len=:), allocatable :: name
        is_supported_at = .false.
        name = name_at(t, 'is_supported', j, found, stat, errmsg)
        if (len(name) > 0) is_supported_at = table_is_supported(t, name, found, stat, errmsg)
    end procedure is_supported_at

    module procedure has_nulls_at
        character(len=:), allocatable :: name
        has_nulls_at = .false.
        name = name_at(t, 'has_nulls', j, found, stat, errmsg)
        if (len(name) > 0) has_nulls_at = table_has_nulls(t, name, found, stat, errmsg)
    end procedure has_nulls_at

    ! Counter bumped by every structural change (row handles compare it).
    module procedure table_generation
        table_generation = 0
        if (opened(t, 'generation', stat, errmsg)) table_generation = pqt_table_generation(t%h)
    end procedure table_generation

    module procedure table_is_detached
        table_is_detached = .false.
        if (opened(t, 'is_detached', stat, errmsg)) &
            table_is_detached = pqt_table_is_detached(t%h) /= 0
    end procedure table_is_detached

    ! Read the named columns now: "a,b;c" (blanks trimmed, empty names skipped).
    module procedure prefetch_text
        character(len=len(names)), allocatable :: list(:)
        integer :: at, cut, n
        allocate (list(0))
        at = 1
        do while (at <= len(names))
            cut = scan(names(at:), ',;')
            if (cut == 0) cut = len(names) - at + 2
            if (len_trim(names(at:at + cut - 2)) > 0) then
                n = size(list)
                list = [character(len=len(names)) :: list, adjustl(names(at:at + cut - 2))]
            end if
            at = at + cut
        end do
        call prefetch_list(t, list, found, stat, errmsg)
    end procedure prefetch_text

    module procedure prefetch_list
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        if (.not. opened(t, 'prefetch', stat, errmsg)) return
        call c_string_array(names, buf, ptrs)
        if (checked(pqt_table_prefetch(t%h, ptrs, size(names, kind=c_int)), &
                    'parquet_table: prefetch', stat, errmsg, found)) continue
    end procedure prefetch_list

    module procedure table_materialize_all
        if (.not. opened(t, 'materialize_all', stat, errmsg)) return
        if (checked(pqt_table_materialize_all(t%h), 'parquet_table: materialize_all', stat, &
                    errmsg)) continue
    end procedure table_materialize_all

    ! Check every declared qc bound, leaving residency as it was.
    module procedure table_validate_qc
        if (.not. opened(t, 'validate_qc', stat, errmsg)) return
        if (checked(pqt_table_validate_qc(t%h), 'parquet_table: validate_qc', stat, errmsg)) &
            continue
    end procedure table_validate_qc

    ! bounds(1, rg), bounds(2, rg): first and last file row of row group rg, from the footer.
    module procedure parquet_table_row_group_bounds
        type(c_ptr) :: p
        integer(c_int) :: n
        allocate (bounds(2, 0))
        if (.not. checked(pqt_row_group_bounds(c_string(file), p, n), &
                          'parquet_table_row_group_bounds', stat, errmsg)) return
        call take_bounds(p, n, bounds)
    end procedure parquet_table_row_group_bounds

    ! Copy pqt's 2 * n bounds at p into bounds(2, n) and free p.
    subroutine take_bounds(p, n, bounds)
        type(c_ptr), intent(in) :: p
        integer(c_int), intent(in) :: n
        integer(int64), allocatable, intent(inout) :: bounds(:, :)
        integer(int64), pointer :: b(:, :)
        if (allocated(bounds)) deallocate (bounds)
        allocate (bounds(2, n))
        if (n > 0) then
            call c_f_pointer(p, b, [2, int(n)])
            bounds = b
        end if
        call pqt_free(p)
    end subroutine
end submodule parquet_query
