/* SPDX-License-Identifier: Apache-2.0 */
/*
 * error.h - the thread-local "last error" of pqt (layer: util).
 *
 * Every fallible internal call returns a pqt_status and, on failure, records a
 * message naming the thing that failed (file, column, byte offset, range).
 * Outer layers add context with pqt_err_prefix() as the failure travels up,
 * so the innermost layer reports what it saw and the outer ones say where.
 */
#ifndef PQT_UTIL_ERROR_H
#define PQT_UTIL_ERROR_H

#include "pqt.h"

#if defined(__GNUC__)
#define PQT_LIKELY(x) __builtin_expect(!!(x), 1)
#define PQT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PQT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PQT_LIKELY(x) (x)
#define PQT_UNLIKELY(x) (x)
#define PQT_PRINTF(a, b)
#endif

/* Record status and message; returns status so callers can `return pqt_err(...)`. */
pqt_status pqt_err(pqt_status st, const char *fmt, ...) PQT_PRINTF(2, 3);

/* Prepend context ("column 'x', row group 3: ") to the current message. */
void pqt_err_prefix(const char *fmt, ...) PQT_PRINTF(1, 2);

/* A public call that succeeds leaves the message of the last failure in place (pqt.h), so a
 * failure the caller recovers from must not record one: run it between pqt_err_mute() and
 * pqt_err_unmute() (they nest; this thread only). While muted, pqt_err and pqt_err_prefix
 * record nothing; statuses are returned as usual. */
void pqt_err_mute(void);
void pqt_err_unmute(void);

/* A worker thread of a parallel region hands its failure to the calling thread, which records
 * it; the worker (an OpenMP pool thread, later perhaps a user's thread) must keep its own
 * message. pqt_err_redirect(buf, nbytes) sends this thread's failures to buf (emptied first)
 * until pqt_err_restore(the returned previous target); redirections nest. */
typedef struct pqt_err_target {
    char *buf;
    size_t nbytes;
} pqt_err_target;
pqt_err_target pqt_err_redirect(char *buf, size_t nbytes);
void pqt_err_restore(pqt_err_target prev);

#define PQT_TRY(expr)                                                                              \
    do {                                                                                           \
        pqt_status pqt_try_st_ = (expr);                                                           \
        if (PQT_UNLIKELY(pqt_try_st_ != PQT_OK)) return pqt_try_st_;                               \
    } while (0)

#endif
