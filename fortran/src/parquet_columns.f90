! parquet_columns.f90 - submodule of module parquet: column-structural changes: several
! columns at once (%keep_columns, %drop_columns), copies (%copy_column), one column dropped or
! renamed (%drop_column, %rename_column), over pqt_table_keep_columns / _drop_columns /
! _copy_column_v2 / _drop_column / _rename_column. None reads a column it
! drops; none changes the rows.
submodule(parquet) parquet_columns
    implicit none

contains

    ! A projection: only the named columns stay, in slot order (not the order of names).
    ! Every name is checked first: a missing one is PQT_NOT_FOUND naming every missing name,
    ! and nothing is dropped. force= is parquet-fortran's for generated-type predefined columns,
    ! which pqt does not have: accepted, changes nothing.
    module procedure table_keep_columns
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        if (.not. opened(t, 'keep_columns', stat, errmsg)) return
        if (present(force)) continue
        call c_string_array(names, buf, ptrs)
        if (checked(pqt_table_keep_columns(t%h, ptrs, size(names, kind=c_int)), &
                    'parquet_table: keep_columns', stat, errmsg)) continue
    end procedure table_keep_columns

    ! Drop every named column (duplicates are fine). Without ignore_missing= a missing name
    ! is PQT_NOT_FOUND naming every missing one and nothing is dropped; with it missing
    ! names are skipped. force= as for keep_columns.
    module procedure table_drop_columns
        character(kind=c_char, len=:), allocatable, target :: buf
        type(c_ptr), allocatable, target :: ptrs(:)
        integer(c_int) :: ign
        if (.not. opened(t, 'drop_columns', stat, errmsg)) return
        if (present(force)) continue
        ign = 0
        if (present(ignore_missing)) ign = merge(1, 0, ignore_missing)
        call c_string_array(names, buf, ptrs)
        if (checked(pqt_table_drop_columns(t%h, ptrs, size(names, kind=c_int), ign), &
                    'parquet_table: drop_columns', stat, errmsg)) continue
    end procedure table_drop_columns

    ! A new in-memory column dst holding src's values (src is read first), converted to
    ! to_kind (PK_*; a vector kind names its element; absent: src's kind) with %cast's rules:
    ! exact (default .true.) refuses a value that does not survive (PQT_OVERFLOW), .false.
    ! converts with C's rules. A missing src is found = .false. (nothing added).
    module procedure table_copy_column
        integer(c_int) :: k, ex
        if (.not. opened(t, 'copy_column', stat, errmsg)) return
        k = 0
        if (present(to_kind)) k = int(to_kind, c_int)
        if (k > 10 .and. k < 20) k = k - 10
        ex = 1
        if (present(exact)) ex = merge(1, 0, exact)
        if (checked(pqt_table_copy_column(t%h, c_string(src), c_string(dst), k, ex), &
                    'parquet_table: copy_column', stat, errmsg, found)) continue
    end procedure table_copy_column

    module procedure table_drop_column
        if (.not. opened(t, 'drop_column', stat, errmsg)) return
        if (checked(pqt_table_drop_column(t%h, c_string(name)), 'parquet_table: drop_column', &
                    stat, errmsg, found)) continue
    end procedure table_drop_column

    ! Change the lookup name only; the file column read stays the same.
    module procedure table_rename_column
        if (.not. opened(t, 'rename_column', stat, errmsg)) return
        if (checked(pqt_table_rename_column(t%h, c_string(old_name), c_string(new_name)), &
                    'parquet_table: rename_column', stat, errmsg, found)) continue
    end procedure table_rename_column
end submodule parquet_columns
