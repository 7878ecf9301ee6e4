/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_remote_io.c - tables opened by URL from tests/remote/http_server.py (started here on
 * 127.0.0.1): the requests its log records and the scan counters against what the layout of
 * the file says, and the values against the local read. Exits 77 without python3.
 */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pqt.h"
#include "pqt_file.h"
#include "remote/curl_api.h"
#include "remote_server.h"
#include "testutil.h"

static char base[64];
static char logpath[512];
static tsrv srv;

/* The server goes with the test, however it ends (a REQUIRE_OK's exit included). */
static void stop_server(void)
{
    tsrv_stop(&srv);
}

static size_t discard(char *p, size_t s, size_t n, void *u)
{
    (void)p, (void)u;
    return s * n;
}

/* Set the server's faults (http_server.py's control URL). */
static void control(const char *query)
{
    char url[256];
    snprintf(url, sizeof url, "%s/_control?clear=1&%s", base, query);
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, discard);
    CHECK(curl_easy_perform(e) == CURLE_OK);
    curl_easy_cleanup(e);
}

/* Lines of the request log so far. */
static int log_lines(void)
{
    char *t = pqt_test_read_text(logpath);
    int n = 0;
    for (char *p = t; p && *p; p++) n += *p == '\n';
    free(t);
    return n;
}

/* The Range header of log line k (0-based) into buf ("" when none). */
static void log_range(int k, char *buf, size_t cap)
{
    char *t = pqt_test_read_text(logpath), *p = t;
    buf[0] = 0;
    for (int i = 0; p && i < k; i++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    const char *r = p ? strstr(p, "\"range\": \"") : NULL;
    if (r) {
        r += 10;
        size_t n = strcspn(r, "\"");
        snprintf(buf, cap, "%.*s", (int)(n < cap - 1 ? n : cap - 1), r);
    }
    free(t);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static pqt_table *open_url(const char *name, pqt_opts *o)
{
    char url[256];
    snprintf(url, sizeof url, "%s/%s", base, name);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(url, o, &t));
    return t;
}

/* Column name of t equals column name of the local file under the same options. */
static void check_same_f64(pqt_table *t, const char *local, pqt_opts *o, const char *name)
{
    pqt_table *l = NULL;
    REQUIRE_OK(pqt_table_open(local, o, &l));
    void *a = NULL, *b = NULL;
    int64_t na = -1, nb = -2;
    CHECK_OK(pqt_table_get_alloc(t, name, PQT_FLOAT64, &a, NULL, &na));
    CHECK_OK(pqt_table_get_alloc(l, name, PQT_FLOAT64, &b, NULL, &nb));
    CHECK_EQ_I64(na, nb);
    CHECK(a && b && na == nb && memcmp(a, b, (size_t)na * 8) == 0);
    pqt_free(a);
    pqt_free(b);
    pqt_table_close(l);
}

int main(void)
{
    if (tsrv_start(&srv, "tests/data", NULL) != 0) {
        fprintf(stderr, "test_remote_io: the test server did not start (python3?): skipped\n");
        return 77;
    }
    snprintf(base, sizeof base, "%s", srv.endpoint);
    snprintf(logpath, sizeof logpath, "%s", srv.log);
    atexit(stop_server);
    char rg[64];
    pqt_scan_counts c;

    /* the open is one suffix request of 64 KiB, which holds this footer */
    int l0 = log_lines();
    pqt_table *t = open_url("table_rg.parquet", NULL);
    CHECK_EQ_I64(log_lines() - l0, 1);
    log_range(l0, rg, sizeof rg);
    CHECK(strcmp(rg, "bytes=-65536") == 0);
    CHECK_OK(pqt_table_scan_stats(t, &c));
    CHECK_EQ_I64(c.requests, 1);
    CHECK_EQ_I64(c.bytes_fetched, 65536);
    CHECK_EQ_I64(c.retries, 0);

    /* every column at once: the chunks lie back to back from byte 4 to the footer, so with
     * the default gap they are one request; the values are the local file's */
    pqt_file *lf = NULL;
    REQUIRE_OK(pqt_file_open("tests/data/table_rg.parquet", NULL, &lf));
    const char *const cols[] = {"id", "i32", "f32", "f64"};
    l0 = log_lines();
    CHECK_OK(pqt_table_prefetch(t, cols, 4));
    CHECK_EQ_I64(log_lines() - l0, 1);
    CHECK_OK(pqt_table_scan_stats(t, &c));
    CHECK_EQ_I64(c.requests, 2);
    check_same_f64(t, "tests/data/table_rg.parquet", NULL, "f64");
    check_same_f64(t, "tests/data/table_rg.parquet", NULL, "f32");
    pqt_table_close(t);
    pqt_file_close(lf);

    /* a footer longer than the hint: a second request, for exactly the rest of it */
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_REMOTE_FOOTER_HINT, 100));
    l0 = log_lines();
    t = open_url("table_rg.parquet", o);
    CHECK_EQ_I64(log_lines() - l0, 2);
    log_range(l0, rg, sizeof rg);
    CHECK(strcmp(rg, "bytes=-100") == 0);
    pqt_table_close(t);
    pqt_opts_free(o);

    /* one column over 5 row groups, no coalescing across the other columns' bytes: 4
     * requests (the last row group's chunk came with the open's 64 KiB), in flight together:
     * with 300 ms per request, far less than 4 x 300 ms */
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_REMOTE_COALESCE_GAP, 1));
    t = open_url("table_rg.parquet", o);
    control("latency_ms=300");
    l0 = log_lines();
    double t0 = now_s();
    const char *const one[] = {"f32"};
    CHECK_OK(pqt_table_prefetch(t, one, 1));
    double dt = now_s() - t0;
    control("latency_ms=0");
    CHECK_EQ_I64(log_lines() - l0, 4);
    if (dt >= 1.2) fprintf(stderr, "4 requests took %.2f s: not in flight together\n", dt);
    CHECK(dt < 1.2);
    check_same_f64(t, "tests/data/table_rg.parquet", NULL, "f32");
    pqt_table_close(t);
    pqt_opts_free(o);

    /* W2's shape: 1% of a sorted column through a filter at open, on a file with a page
     * index: only the pages holding those rows travel, not the chunk */
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "id >= 3000 and id < 3073"));
    t = open_url("parquet-testing/data/alltypes_tiny_pages.parquet", o);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open("tests/data/parquet-testing/data/alltypes_tiny_pages.parquet", NULL,
                             &f));
    CHECK_EQ_I64(pqt_table_nrows(t), 73);
    check_same_f64(t, "tests/data/parquet-testing/data/alltypes_tiny_pages.parquet", o,
                   "double_col");
    CHECK_OK(pqt_table_scan_stats(t, &c));
    /* the file is 454233 bytes, the double_col chunk alone ~72 KB: the open's 64 KiB
     * (footer and page indexes) plus a few pages of id and double_col */
    if (getenv("PQT_TEST_VERBOSE") || c.bytes_fetched > 65536 + 20000)
        fprintf(stderr, "W2 shape: %lld bytes fetched in %lld requests\n",
                (long long)c.bytes_fetched, (long long)c.requests);
    CHECK(c.bytes_fetched <= 65536 + 20000);
    pqt_file_close(f);
    pqt_table_close(t);
    pqt_opts_free(o);

    /* faults with the data right: 503s, a reset and a short body, retried */
    control("fail503=2");
    t = open_url("table_rg.parquet", NULL);
    CHECK_OK(pqt_table_scan_stats(t, &c));
    CHECK_EQ_I64(c.retries, 2);
    CHECK_EQ_I64(c.requests, 3);
    control("short=1&reset=1");
    check_same_f64(t, "tests/data/table_rg.parquet", NULL, "f64");
    CHECK_OK(pqt_table_scan_stats(t, &c));
    /* libcurl itself sends a request again, once, when a reused connection closes before
     * any answer: the reset may not count as one of ours */
    CHECK(c.retries == 3 || c.retries == 4);
    pqt_table_close(t);

    /* no retries asked: the first 503 is the error, naming URL, range and status */
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_REMOTE_RETRIES, 0));
    control("fail503=1");
    char url[256];
    snprintf(url, sizeof url, "%s/table_rg.parquet", base);
    t = NULL;
    pqt_status st = pqt_table_open(url, o, &t);
    CHECK_EQ_I64(st, PQT_IO);
    char want[400];
    snprintf(want, sizeof want, "%s: the last 65536 bytes: HTTP 503", url);
    if (!strstr(pqt_errmsg(), want)) fprintf(stderr, "message: %s\n", pqt_errmsg());
    CHECK(strstr(pqt_errmsg(), want) != NULL);
    pqt_opts_free(o);

    /* the file changes after the open: the read fails, and says so */
    control("etag_change_after=1");
    t = open_url("table_rg.parquet", NULL);
    void *d = NULL;
    CHECK(pqt_table_get_alloc(t, "f64", PQT_FLOAT64, &d, NULL, NULL) == PQT_IO);
    CHECK(strstr(pqt_errmsg(), "changed while being read") != NULL);
    CHECK(strstr(pqt_errmsg(), "bytes ") != NULL);
    pqt_free(d);
    pqt_table_close(t);
    control("");

    /* a second open of a URL while a handle on it is open shares its source: no request of
     * its own (a command opens a file for its schema, then for its rows), the same values */
    l0 = log_lines();
    pqt_table *a = open_url("table_rg.parquet", NULL);
    pqt_file *b = NULL;
    snprintf(url, sizeof url, "%s/table_rg.parquet", base);
    REQUIRE_OK(pqt_file_open(url, NULL, &b));
    CHECK_EQ_I64(log_lines() - l0, 1);
    check_same_f64(a, "tests/data/table_rg.parquet", NULL, "f64");
    pqt_table_close(a);
    pqt_file *lf2 = NULL;
    REQUIRE_OK(pqt_file_open("tests/data/table_rg.parquet", NULL, &lf2));
    CHECK_EQ_I64(pqt_file_nrows(b), pqt_file_nrows(lf2));
    pqt_file_close(lf2);
    pqt_file_close(b);
    /* once every handle is closed, an open asks the server again; so does one whose options
     * differ from the open handle's (its own footer hint) */
    l0 = log_lines();
    a = open_url("table_rg.parquet", NULL);
    CHECK_EQ_I64(log_lines() - l0, 1);
    pqt_opts *o2 = NULL;
    REQUIRE_OK(pqt_opts_new(&o2));
    CHECK_OK(pqt_opts_set_int(o2, PQT_OPT_REMOTE_FOOTER_HINT, 32768));
    pqt_table *a2 = open_url("table_rg.parquet", o2);
    CHECK_EQ_I64(log_lines() - l0, 2);
    pqt_table_close(a2);
    pqt_table_close(a);
    pqt_opts_free(o2);

    /* pqt_file_will_read: the columns over a row range in one coalesced request, after which
     * reading them one at a time asks for nothing; a local file ignores it; misuse refused */
    pqt_file *h = NULL;
    REQUIRE_OK(pqt_file_open(url, NULL, &h));
    int all4[4];
    for (int k = 0; k < 4; k++) REQUIRE_OK(pqt_file_find_column(h, cols[k], &all4[k]));
    int64_t nr = pqt_file_nrows(h);
    l0 = log_lines();
    CHECK_OK(pqt_file_will_read(h, all4, 4, 1, nr));
    CHECK_EQ_I64(log_lines() - l0, 1);
    for (int k = 0; k < 4; k++) {
        pqt_array *arr = NULL;
        CHECK_OK(pqt_file_read(h, all4[k], 1, nr, &arr));
        pqt_array_free(arr);
    }
    CHECK_EQ_I64(log_lines() - l0, 1);
    int bad = 99;
    CHECK(pqt_file_will_read(h, &bad, 1, 1, nr) == PQT_MISUSE);
    CHECK(pqt_file_will_read(h, all4, 4, 1, nr + 1) == PQT_RANGE);
    CHECK(pqt_file_will_read(h, NULL, 1, 1, nr) == PQT_MISUSE);
    pqt_file_close(h);
    REQUIRE_OK(pqt_file_open("tests/data/table_rg.parquet", NULL, &h));
    CHECK_OK(pqt_file_will_read(h, all4, 4, 1, nr));
    pqt_file_close(h);

    stop_server();
    return pqt_test_done("test_remote_io");
}
