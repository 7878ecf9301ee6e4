program per_thread_slices
    use parquet
    use iso_fortran_env, only: int64, real64
    implicit none

    integer(int64), allocatable :: bounds(:,:)
    real(real64) :: total
    integer :: rg

    call parquet_table_row_group_bounds("big.parquet", bounds)

    total = 0.0_real64
    !$omp parallel do reduction(+:total)
    do rg = 1, size(bounds, 2)
        block
            type(parquet_table) :: mine        ! see the note below -- NOT private(mine)
            real(real64), allocatable :: x(:)
            call parquet_open_table(mine, "big.parquet", bounds(1, rg), bounds(2, rg))
            call mine%get("mass", x)
            total = total + sum(x)
        end block
    end do
    !$omp end parallel do

    print *, "total mass:", total
end program per_thread_slices
