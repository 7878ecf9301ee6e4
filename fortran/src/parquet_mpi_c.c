/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet_mpi_c.c - the C half of module parquet_mpi (library pqt-fortran-mpi): a Fortran
 * communicator is an integer (mpi_f08's MPI_Comm holds one in MPI_VAL), a C one an opaque
 * handle that only MPI_Comm_f2c makes from it, and Fortran cannot call a C macro or an
 * MPI_Comm by value portably. Hidden: the library exports only its Fortran module.
 */
#include <mpi.h>
#include <stdint.h>

#include "pqt.h"
#include "pqt_mpi.h"

#define HIDDEN __attribute__((visibility("hidden")))

/* What parquet_mpi passes to module parquet's open as ctx: type(open_ctx) there, bind(c). */
struct open_ctx {
    MPI_Fint comm;
    int share_by; /* PQT_OPT_SHARE_BY, set only when > 0 so the default stays pqt's */
};

/* What parquet_mpi passes to module parquet's write as ctx: type(write_ctx) there. */
struct write_ctx {
    MPI_Fint comm;
    int dataset; /* 1: pqt_write_dataset_mpi (file is the directory), 0: pqt_write_table_mpi */
};

/* The opener parquet_open_table_via calls with the options module parquet built. */
HIDDEN pqt_status pqt_fortran_mpi_open(void *ctx, const char *path, pqt_opts *opts,
                                       pqt_table **ret);
HIDDEN pqt_status pqt_fortran_mpi_write(void *ctx, pqt_table *t, const char *path,
                                        const pqt_write_opts *opts);
HIDDEN pqt_status pqt_fortran_mpi_writer_open(void *ctx, pqt_writer **ret, const char *path,
                                              pqt_table *template_table,
                                              const pqt_write_opts *opts);
HIDDEN pqt_status pqt_fortran_mpi_writer_close(void *ctx, pqt_writer *w);
HIDDEN int pqt_fortran_mpi_rows(MPI_Fint comm, const pqt_table *t, int64_t *nrows,
                                int64_t *first_row);

pqt_status pqt_fortran_mpi_open(void *ctx, const char *path, pqt_opts *opts, pqt_table **ret)
{
    const struct open_ctx *c = ctx;
    *ret = NULL;
    /* the same value on every rank: a refusal here is every rank's, before any collective */
    if (c->share_by > 0) {
        pqt_status st = pqt_opts_set_int(opts, PQT_OPT_SHARE_BY, c->share_by);
        if (st != PQT_OK) return st;
    }
    return pqt_table_open_mpi(MPI_Comm_f2c(c->comm), path, opts, ret);
}

int pqt_fortran_mpi_rows(MPI_Fint comm, const pqt_table *t, int64_t *nrows, int64_t *first_row)
{
    return pqt_table_mpi_rows(MPI_Comm_f2c(comm), t, nrows, first_row);
}

/* The writer parquet_write_table_via calls with the options module parquet built; t is NULL
 * when this rank failed a check before writing: pqt then refuses it inside the collective,
 * so the other ranks fail too instead of waiting. */
pqt_status pqt_fortran_mpi_write(void *ctx, pqt_table *t, const char *path,
                                 const pqt_write_opts *opts)
{
    const struct write_ctx *c = ctx;
    MPI_Comm comm = MPI_Comm_f2c(c->comm);
    return c->dataset ? pqt_write_dataset_mpi(comm, t, path, opts)
                      : pqt_write_table_mpi(comm, t, path, opts);
}

/* The streaming pair parquet_open_table_writer_via / _close_ call; ctx is the Fortran
 * communicator handle. NULL template or writer: this rank failed a check, refused inside the
 * collective. */
pqt_status pqt_fortran_mpi_writer_open(void *ctx, pqt_writer **ret, const char *path,
                                       pqt_table *template_table, const pqt_write_opts *opts)
{
    return pqt_writer_open_mpi(MPI_Comm_f2c(*(const MPI_Fint *)ctx), ret, path, template_table,
                               opts);
}

pqt_status pqt_fortran_mpi_writer_close(void *ctx, pqt_writer *w)
{
    return pqt_writer_close_mpi(MPI_Comm_f2c(*(const MPI_Fint *)ctx), w);
}
