/*
 * error.c - thread-local last-error message and status names (layer: util).
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PQT_ERRMSG_NBYTES 1024

static _Thread_local char errmsg[PQT_ERRMSG_NBYTES];

pqt_status pqt_err(pqt_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof errmsg, fmt, ap);
    va_end(ap);
    return st;
}

void pqt_err_prefix(const char *fmt, ...)
{
    char head[PQT_ERRMSG_NBYTES];
    char old[PQT_ERRMSG_NBYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, errmsg, sizeof old);
    size_t hlen = strlen(head), olen = strlen(old);
    if (hlen > sizeof errmsg - 1) hlen = sizeof errmsg - 1;
    if (olen > sizeof errmsg - 1 - hlen) olen = sizeof errmsg - 1 - hlen;
    memcpy(errmsg, head, hlen);
    memcpy(errmsg + hlen, old, olen);
    errmsg[hlen + olen] = '\0';
}

void pqt_err_clear(void) { errmsg[0] = '\0'; }

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
