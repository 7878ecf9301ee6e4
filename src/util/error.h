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

/* Forget the last message (a successful public call leaves the old one in place). */
void pqt_err_clear(void);

#define PQT_TRY(expr)                                                                              \
    do {                                                                                           \
        pqt_status pqt_try_st_ = (expr);                                                           \
        if (PQT_UNLIKELY(pqt_try_st_ != PQT_OK)) return pqt_try_st_;                               \
    } while (0)

#endif
