/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_testutil.h - assertions and gathers shared by the MPI tests (mpi/tests/test_mpi_*.c).
 * A failed CHECK prints the rank, file:line and the expression; mpi_test_finish makes every
 * rank exit 1 when any rank failed.
 */
#ifndef PQT_MPI_TESTUTIL_H
#define PQT_MPI_TESTUTIL_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "pqt.h"

extern int mpi_test_failures;
extern int mpi_test_rank, mpi_test_size;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "rank %d: %s:%d: CHECK failed: %s\n", mpi_test_rank, __FILE__,        \
                    __LINE__, #cond);                                                              \
            mpi_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                                         \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        if (va_ != vb_) {                                                                          \
            fprintf(stderr, "rank %d: %s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n",             \
                    mpi_test_rank, __FILE__, __LINE__, #a, va_, #b, vb_);                          \
            mpi_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        int st_ = (int)(expr);                                                                     \
        if (st_ != 0) {                                                                            \
            fprintf(stderr, "rank %d: %s:%d: %s returned %d: %s\n", mpi_test_rank, __FILE__,      \
                    __LINE__, #expr, st_, pqt_errmsg());                                           \
            mpi_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* MPI_Init and the rank/size globals. */
void mpi_test_init(int *argc, char ***argv);
/* MPI_Finalize; the exit status (0 when no rank failed a check). */
int mpi_test_finish(void);
/* Every rank's n values, concatenated in rank order, on every rank (malloc'd; *total_ret). */
int64_t *mpi_test_allgather_i64(const int64_t *v, int64_t n, int64_t *total_ret);
/* A table column as int64 (pqt_table_get_alloc; nulls read as INT64_MIN); malloc'd. */
int64_t *mpi_test_column_i64(pqt_table *t, const char *name);

#endif
