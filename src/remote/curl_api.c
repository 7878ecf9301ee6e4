/* SPDX-License-Identifier: Apache-2.0 */
/*
 * curl_api.c - loads libcurl.so.4 once, on the first URL, and switches the curl table of
 * curl_api.h from its stand-ins to libcurl's functions (layer: remote).
 */
#include "remote/curl_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

#define PQT_CURL_SONAME "libcurl.so.4"

/* The load's outcome, written once under load_once. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *soname = PQT_CURL_SONAME;
static pqt_status load_status;
static char load_why[512];
static pqt_curl_api loaded;

static bool load(void);

/* ---- the stand-ins, in use until libcurl is loaded ---- */

static CURLcode stand_global_init(long flags)
{
    return load() ? loaded.global_init(flags) : CURLE_FAILED_INIT;
}
static const char *stand_easy_strerror(CURLcode code)
{
    (void)code;
    return "libcurl is not loaded";
}
static CURL *stand_easy_init(void)
{
    return load() ? loaded.easy_init() : NULL;
}
static CURLcode stand_easy_setopt(CURL *easy, CURLoption option, ...)
{
    (void)easy, (void)option;
    return CURLE_FAILED_INIT;
}
static CURLcode stand_easy_getinfo(CURL *easy, CURLINFO info, ...)
{
    (void)easy, (void)info;
    return CURLE_FAILED_INIT;
}
static CURLcode stand_easy_perform(CURL *easy)
{
    (void)easy;
    return CURLE_FAILED_INIT;
}
static void stand_easy_reset(CURL *easy)
{
    (void)easy;
}
static void stand_easy_cleanup(CURL *easy)
{
    (void)easy;
}
static CURLM *stand_multi_init(void)
{
    return load() ? loaded.multi_init() : NULL;
}
static CURLMcode stand_multi_handle(CURLM *multi, CURL *easy)
{
    (void)multi, (void)easy;
    return CURLM_BAD_HANDLE;
}
static CURLMcode stand_multi_perform(CURLM *multi, int *running)
{
    (void)multi, (void)running;
    return CURLM_BAD_HANDLE;
}
static CURLMsg *stand_multi_info_read(CURLM *multi, int *left)
{
    (void)multi, (void)left;
    return NULL;
}
static CURLMcode stand_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int n_extra,
                                  int timeout_ms, int *numfds)
{
    (void)multi, (void)extra, (void)n_extra, (void)timeout_ms, (void)numfds;
    return CURLM_BAD_HANDLE;
}
static CURLMcode stand_multi_cleanup(CURLM *multi)
{
    (void)multi;
    return CURLM_BAD_HANDLE;
}
static CURLSH *stand_share_init(void)
{
    return load() ? loaded.share_init() : NULL;
}
static CURLSHcode stand_share_setopt(CURLSH *share, CURLSHoption option, ...)
{
    (void)share, (void)option;
    return CURLSHE_INVALID;
}
static CURLSHcode stand_share_cleanup(CURLSH *share)
{
    (void)share;
    return CURLSHE_INVALID;
}
static struct curl_slist *stand_slist_append(struct curl_slist *list, const char *s)
{
    return load() ? loaded.slist_append(list, s) : NULL;
}
static void stand_slist_free_all(struct curl_slist *list)
{
    (void)list;
}

static const pqt_curl_api stand_ins = {
    .global_init = stand_global_init,
    .easy_strerror = stand_easy_strerror,
    .easy_init = stand_easy_init,
    .easy_setopt = stand_easy_setopt,
    .easy_getinfo = stand_easy_getinfo,
    .easy_perform = stand_easy_perform,
    .easy_reset = stand_easy_reset,
    .easy_cleanup = stand_easy_cleanup,
    .multi_init = stand_multi_init,
    .multi_add_handle = stand_multi_handle,
    .multi_remove_handle = stand_multi_handle,
    .multi_perform = stand_multi_perform,
    .multi_info_read = stand_multi_info_read,
    .multi_poll = stand_multi_poll,
    .multi_cleanup = stand_multi_cleanup,
    .share_init = stand_share_init,
    .share_setopt = stand_share_setopt,
    .share_cleanup = stand_share_cleanup,
    .slist_append = stand_slist_append,
    .slist_free_all = stand_slist_free_all,
};

_Atomic(const pqt_curl_api *) pqt_curl_table = &stand_ins;

/* ---- the load ---- */

#define SYM(f)                                                                                     \
    {                                                                                              \
        "curl_" #f, offsetof(pqt_curl_api, f)                                                      \
    }
static const struct {
    const char *name;
    size_t offset;
} symbols[] = {
    SYM(global_init),     SYM(easy_strerror),    SYM(easy_init),           SYM(easy_setopt),
    SYM(easy_getinfo),    SYM(easy_perform),     SYM(easy_reset),          SYM(easy_cleanup),
    SYM(multi_init),      SYM(multi_add_handle), SYM(multi_remove_handle), SYM(multi_perform),
    SYM(multi_info_read), SYM(multi_poll),       SYM(multi_cleanup),       SYM(share_init),
    SYM(share_setopt),    SYM(share_cleanup),    SYM(slist_append),        SYM(slist_free_all),
};
#undef SYM
_Static_assert(sizeof symbols / sizeof *symbols == sizeof(pqt_curl_api) / sizeof(void (*)(void)),
               "every entry of pqt_curl_api has its symbol");

static void load_now(void)
{
    /* RTLD_LOCAL: curl's own dependencies (TLS libraries) stay out of the global namespace,
     * where they could bind to another copy the program carries. Never closed: the handles
     * it makes live as long as the process may use them. */
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        load_status = PQT_UNSUPPORTED;
        snprintf(load_why, sizeof load_why, "%s", e ? e : "cannot be loaded");
        return;
    }
    pqt_curl_api t;
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        dlerror();
        void *f = dlsym(lib, symbols[i].name);
        if (!f) {
            const char *e = dlerror();
            load_status = PQT_UNSUPPORTED;
            snprintf(load_why, sizeof load_why, "%s has no %s (too old?)%s%s", soname,
                     symbols[i].name, e ? ": " : "", e ? e : "");
            dlclose(lib);
            return;
        }
        /* POSIX guarantees a function's address survives the round trip through void * */
        memcpy((char *)&t + symbols[i].offset, &f, sizeof f);
    }
    CURLcode rc = t.global_init(CURL_GLOBAL_DEFAULT);
    if (rc != CURLE_OK) {
        load_status = PQT_IO;
        snprintf(load_why, sizeof load_why, "libcurl cannot start: %s", t.easy_strerror(rc));
        return;
    }
    loaded = t;
    load_status = PQT_OK;
    atomic_store_explicit(&pqt_curl_table, &loaded, memory_order_release);
}

static bool load(void)
{
    pthread_once(&load_once, load_now);
    return load_status == PQT_OK;
}

pqt_status pqt_curl_load(const char *why_url)
{
    if (load()) return PQT_OK;
    if (!why_url) why_url = "a URL";
    if (load_status == PQT_IO) return pqt_err(PQT_IO, "%s: %s", why_url, load_why);
    return pqt_err(load_status, "%s: reading URLs needs libcurl (%s, Debian package libcurl4): %s",
                   why_url, PQT_CURL_SONAME, load_why);
}

void pqt_curl_set_soname(const char *name)
{
    soname = name ? name : PQT_CURL_SONAME;
}
