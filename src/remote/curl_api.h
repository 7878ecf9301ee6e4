/* SPDX-License-Identifier: Apache-2.0 */
/*
 * curl_api.h - libcurl, loaded on the first URL rather than linked (layer: remote).
 * docs/remote.md "libcurl".
 *
 * libpqt does not link libcurl: with its own dependencies (TLS, Kerberos, LDAP, SSH...) it
 * would cost every program some 6 MB and the loading time at start, even one that only reads
 * local files. Include this header instead of <curl/curl.h>: it gives curl's types and
 * constants, and turns each curl_xxx the code calls into a pointer of one table that
 * pqt_curl_load fills from libcurl.so.4. The calling code reads as plain libcurl.
 *
 * Before a load the table holds stand-ins, so no call ever goes through a null pointer: the
 * functions that make something (curl_easy_init, curl_multi_init, curl_share_init,
 * curl_slist_append, curl_global_init) load libcurl first and fail as libcurl would when it
 * is missing; the others can only receive what those made, or NULL, and do nothing.
 * pqt_curl_load at the entries of remote code gives the error that names the URL.
 */
#ifndef PQT_REMOTE_CURL_API_H
#define PQT_REMOTE_CURL_API_H

/* curl's gcc type checks wrap curl_easy_setopt & co. in macros that would hide ours */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <stdatomic.h>

#include "pqt.h"

/* Every libcurl function pqt calls (add one here, in the symbol list and the stand-ins of
 * curl_api.c). */
typedef struct pqt_curl_api {
    CURLcode (*global_init)(long flags);
    const char *(*easy_strerror)(CURLcode code);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *easy);
    void (*easy_reset)(CURL *easy);
    void (*easy_cleanup)(CURL *easy);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int n_extra,
                            int timeout_ms, int *numfds);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_setopt)(CURLSH *share, CURLSHoption option, ...);
    CURLSHcode (*share_cleanup)(CURLSH *share);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
} pqt_curl_api;

/* The table in use: the stand-ins, then libcurl's (switched once, by the load). */
extern _Atomic(const pqt_curl_api *) pqt_curl_table;

static inline const pqt_curl_api *pqt_curl_fns(void)
{
    return atomic_load_explicit(&pqt_curl_table, memory_order_acquire);
}

/* Load libcurl.so.4 and curl_global_init it, once per process (thread-safe; later calls only
 * report the first one's outcome). why_url is the URL being opened, for the message.
 * Errors: PQT_UNSUPPORTED "<why_url>: reading URLs needs libcurl (libcurl.so.4, Debian
 * package libcurl4): <dlerror>" (a missing function is named the same way); PQT_IO when
 * curl_global_init fails. */
pqt_status pqt_curl_load(const char *why_url);

/* Tests only: load soname instead of libcurl.so.4 (before the first load; NULL restores it).
 * Lets a test see the error of a machine without libcurl. */
void pqt_curl_set_soname(const char *soname);

/* The calls of the code below this header go through the table. curl.h defines some of
 * these names as macros of its own (to check their argument count): ours replace them. */
#undef curl_global_init
#undef curl_easy_strerror
#undef curl_easy_init
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_easy_perform
#undef curl_easy_reset
#undef curl_easy_cleanup
#undef curl_multi_init
#undef curl_multi_add_handle
#undef curl_multi_remove_handle
#undef curl_multi_perform
#undef curl_multi_info_read
#undef curl_multi_poll
#undef curl_multi_cleanup
#undef curl_share_init
#undef curl_share_setopt
#undef curl_share_cleanup
#undef curl_slist_append
#undef curl_slist_free_all
#define curl_global_init (pqt_curl_fns()->global_init)
#define curl_easy_strerror (pqt_curl_fns()->easy_strerror)
#define curl_easy_init (pqt_curl_fns()->easy_init)
#define curl_easy_setopt (pqt_curl_fns()->easy_setopt)
#define curl_easy_getinfo (pqt_curl_fns()->easy_getinfo)
#define curl_easy_perform (pqt_curl_fns()->easy_perform)
#define curl_easy_reset (pqt_curl_fns()->easy_reset)
#define curl_easy_cleanup (pqt_curl_fns()->easy_cleanup)
#define curl_multi_init (pqt_curl_fns()->multi_init)
#define curl_multi_add_handle (pqt_curl_fns()->multi_add_handle)
#define curl_multi_remove_handle (pqt_curl_fns()->multi_remove_handle)
#define curl_multi_perform (pqt_curl_fns()->multi_perform)
#define curl_multi_info_read (pqt_curl_fns()->multi_info_read)
#define curl_multi_poll (pqt_curl_fns()->multi_poll)
#define curl_multi_cleanup (pqt_curl_fns()->multi_cleanup)
#define curl_share_init (pqt_curl_fns()->share_init)
#define curl_share_setopt (pqt_curl_fns()->share_setopt)
#define curl_share_cleanup (pqt_curl_fns()->share_cleanup)
#define curl_slist_append (pqt_curl_fns()->slist_append)
#define curl_slist_free_all (pqt_curl_fns()->slist_free_all)

#endif
