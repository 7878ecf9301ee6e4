/* SPDX-License-Identifier: Apache-2.0 */
/*
 * error.c - thread-local last-error message and status names (layer: util).
 *
 * The message is the last failed public call's, on this thread: successful calls never touch
 * it (pqt.h, pqt_errmsg). A call that meets an internal failure and recovers from it (a fast
 * path that falls back) runs the failing part muted, so that failure records nothing.
 */
#include "error.h"

#include "pqt_file.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PQT_ERRMSG_NBYTES 1024

static _Thread_local char errmsg[PQT_ERRMSG_NBYTES];
static _Thread_local int muted;            /* nesting depth of pqt_err_mute */
static _Thread_local pqt_err_target target; /* buf NULL: errmsg */

/* Where this thread's failures go now: a worker's buffer, or its own last-error message. */
static char *dst_buf(size_t *n_ret)
{
    if (target.buf) {
        *n_ret = target.nbytes;
        return target.buf;
    }
    *n_ret = sizeof errmsg;
    return errmsg;
}

pqt_status pqt_err(pqt_status st, const char *fmt, ...)
{
    if (muted) return st;
    size_t n;
    char *dst = dst_buf(&n);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
    return st;
}

void pqt_err_prefix(const char *fmt, ...)
{
    if (muted) return;
    size_t n;
    char *dst = dst_buf(&n);
    char head[PQT_ERRMSG_NBYTES];
    char old[PQT_ERRMSG_NBYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    snprintf(old, sizeof old, "%s", dst);
    size_t hlen = strlen(head), olen = strlen(old);
    if (hlen > n - 1) hlen = n - 1;
    if (olen > n - 1 - hlen) olen = n - 1 - hlen;
    memmove(dst + hlen, old, olen);
    memcpy(dst, head, hlen);
    dst[hlen + olen] = '\0';
}

void pqt_err_mute(void) { muted++; }

void pqt_err_unmute(void)
{
    if (muted > 0) muted--;
}

pqt_err_target pqt_err_redirect(char *buf, size_t nbytes)
{
    pqt_err_target prev = target;
    if (buf && nbytes > 0) {
        buf[0] = '\0';
        target = (pqt_err_target){buf, nbytes};
    }
    return prev;
}

void pqt_err_restore(pqt_err_target prev) { target = prev; }

const char *pqt_errmsg(void) { return errmsg; }

const char *pqt_status_name(pqt_status st)
{
    switch (st) {
#define PQT_STATUS_NAME_(name, num, text)                                                          \
    case name:                                                                                     \
        return #name;
        PQT_STATUS_LIST(PQT_STATUS_NAME_)
#undef PQT_STATUS_NAME_
    }
    return "PQT_UNKNOWN";
}

unsigned pqt_version_number(void) { return PQT_VERSION_NUMBER; }

pqt_status pqt_set_error(pqt_status status, const char *message)
{
    return pqt_err(status, "%s", message ? message : "");
}
