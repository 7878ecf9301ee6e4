! parquet_tables.f90 - module parquet_tables: the table-level names programs import on their
! own (`use parquet_tables, only: PARQUET_ROW_INDEX`). The same entities module parquet exports.
module parquet_tables
    use parquet, only: PARQUET_ROW_INDEX, parquet_table, parquet_table_row, RES_EMPTY, &
        RES_PARTIAL, RES_FULL
    implicit none
    private
    public :: PARQUET_ROW_INDEX, parquet_table, parquet_table_row, RES_EMPTY, RES_PARTIAL, RES_FULL
end module parquet_tables
