/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_curl_load.c - libcurl is loaded on the first URL, not before (src/remote/curl_api.c):
 * a local read leaves it unmapped (/proc/self/maps); a missing library or function is an error
 * naming the URL and libcurl, for every later URL too, and no call crashes; threads racing to
 * the first handle load it once. Each case runs in a child of its own, since a process loads
 * libcurl at most once.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pqt.h"
#include "remote/curl_api.h"
#include "testutil.h"

/* Is a library whose path holds name mapped in this process? (/proc files have no size, so
 * they are read line by line.) */
static bool mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL);
    char line[1024];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, name) != NULL;
    if (f) fclose(f);
    return found;
}

static void check_has(const char *text, const char *part)
{
    if (!strstr(text, part)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", text, part);
        pqt_test_failures++;
    }
}

/* A machine without libcurl: the open fails naming the URL and the library, changes nothing,
 * and so does the next one; the stand-ins answer every call without crashing. */
static void no_library(void)
{
    pqt_curl_set_soname("libpqt-test-no-such-curl.so.4");
    const char *urls[3] = {"http://127.0.0.1:9/a.parquet", "https://example.invalid/b.parquet",
                           "s3://bucket/c.parquet"};
    for (int i = 0; i < 3; i++) {
        pqt_table *t = NULL;
        CHECK_EQ_I64(pqt_table_open(urls[i], NULL, &t), PQT_UNSUPPORTED);
        CHECK(t == NULL);
        check_has(pqt_errmsg(), urls[i]);
        check_has(pqt_errmsg(),
                  "reading URLs needs libcurl (libcurl.so.4, Debian package libcurl4)");
        check_has(pqt_errmsg(), "libpqt-test-no-such-curl.so.4"); /* dlerror's own words */
    }
    CHECK(curl_easy_init() == NULL);
    CHECK(curl_multi_init() == NULL);
    CHECK(curl_share_init() == NULL);
    CHECK(curl_slist_append(NULL, "Accept: */*") == NULL);
    CHECK(curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK);
    CHECK(curl_easy_strerror(CURLE_OK) != NULL);
    curl_slist_free_all(NULL); /* what freeing an unsigned S3 target does */
    curl_easy_cleanup(NULL);
    CHECK(!mapped("/libcurl"));
}

/* A library that is not libcurl (too old a libcurl looks the same): the missing function is
 * named. libz is mapped already (libpqt links it). */
static void no_function(void)
{
    pqt_curl_set_soname("libz.so.1");
    CHECK_EQ_I64(pqt_curl_load("http://127.0.0.1:9/c.parquet"), PQT_UNSUPPORTED);
    check_has(pqt_errmsg(), "http://127.0.0.1:9/c.parquet: reading URLs needs libcurl");
    check_has(pqt_errmsg(), "libz.so.1 has no curl_global_init");
    CHECK(curl_easy_init() == NULL);
}

/* A local read maps no libcurl; the first URL maps it. */
static void local_then_url(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/cat_widths.parquet", NULL, &t));
    CHECK(pqt_table_nrows(t) > 0);
    pqt_table_close(t);
    CHECK(!mapped("/libcurl"));
    CHECK(curl_easy_strerror(CURLE_OK) != NULL);
    CHECK(!mapped("/libcurl"));
    CHECK_OK(pqt_curl_load("http://127.0.0.1:9/d.parquet"));
    CHECK(mapped("/libcurl")); /* libcurl.so.4.x.y, by its real name */
    /* libcurl's own text now, not the stand-in's */
    CHECK(strcmp(curl_easy_strerror(CURLE_OK), "No error") == 0);
    CURL *e = curl_easy_init();
    CHECK(e != NULL);
    CHECK(curl_easy_setopt(e, CURLOPT_URL, "http://127.0.0.1:9/") == CURLE_OK);
    curl_easy_cleanup(e);
}

static void *make_handle(void *arg)
{
    CURL **slot = arg;
    *slot = curl_easy_init(); /* the stand-in loads libcurl for whichever thread is first */
    return NULL;
}

/* Threads asking for their first handle at once all get one. */
static void racing_threads(void)
{
    enum { N = 8 };
    pthread_t th[N];
    CURL *h[N] = {0};
    for (int i = 0; i < N; i++)
        CHECK(pthread_create(&th[i], NULL, make_handle, &h[i]) == 0);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++) {
        CHECK(h[i] != NULL);
        curl_easy_cleanup(h[i]);
    }
    CHECK_OK(pqt_curl_load("http://127.0.0.1:9/e.parquet"));
}

static void in_child(const char *name, void (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        pqt_test_failures = 0; /* the child reports its own case only */
        fn();
        fflush(NULL);
        _exit(pqt_test_failures ? 1 : 0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "case %s failed (status %d)\n", name, status);
        pqt_test_failures++;
    }
}

int main(void)
{
    in_child("no_library", no_library);
    in_child("no_function", no_function);
    in_child("local_then_url", local_then_url);
    in_child("racing_threads", racing_threads);
    return pqt_test_done("test_curl_load");
}
