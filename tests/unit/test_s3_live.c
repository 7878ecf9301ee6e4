/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_s3_live.c - pqt's S3 requests against tests/remote/http_server.py, whose
 * s3_verify.py checks every signature with its own SigV4 implementation: a GET signed through
 * libcurl by pqt_s3_apply verifies (a key with a space, '+' and '='; a Range); a wrong secret,
 * and a session key without its token, are refused with 403; an anonymous GET carries no
 * Authorization header; pqt_s3_list pages through a bucket two keys at a time (requests
 * counted in the server's log) and returns the keys in byte order, written out here by hand;
 * listing errors carry the HTTP status and S3's code; a listing (and a small object's GET)
 * after an injected 503 is retried, and 503s past the retries name the attempts. Exits 77
 * when python3 cannot run.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "remote/s3.h"
#include "remote_server.h"
#include "testutil.h"
#include "util/mem.h"

static char root[] = "/tmp/pqt_test_s3_live_XXXXXX";
static tsrv srv;

/* Keys of bkt below data/, in byte order. */
static const char *const DATA_KEYS[] = {"data/.hidden/z.parquet",
                                        "data/A.parquet",
                                        "data/_SUCCESS",
                                        "data/_metadata",
                                        "data/_tmp/q.parquet",
                                        "data/a.parquet",
                                        "data/notes.txt",
                                        "data/sub-x.parquet",
                                        "data/year=2021/b.parquet",
                                        "data/year=2021/x y+z.parquet",
                                        "data/year=2022/c.parquet"};
#define NDATA (int)(sizeof DATA_KEYS / sizeof *DATA_KEYS)

typedef struct got {
    char b[256];
    size_t n;
} got;

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
    got *g = ud;
    size_t n = size * nmemb;
    if (g->n + n < sizeof g->b) {
        memcpy(g->b + g->n, p, n);
        g->n += n;
    }
    return n;
}

/* GET s3_url's bytes lo..hi through curl as the HTTP client would; the HTTP status. */
static long fetch(const char *s3_url, int lo, int hi, got *g)
{
    pqt_s3_target t;
    memset(g, 0, sizeof *g);
    if (pqt_s3_resolve(s3_url, &t) != PQT_OK) return -1;
    CURL *easy = curl_easy_init();
    char range[64];
    snprintf(range, sizeof range, "Range: bytes=%d-%d", lo, hi);
    struct curl_slist *h = curl_slist_append(NULL, range);
    long http = -1;
    if (easy && h && pqt_s3_apply_headers(easy, &t, &h) == PQT_OK) {
        curl_easy_setopt(easy, CURLOPT_URL, t.url);
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, g);
        if (curl_easy_perform(easy) == CURLE_OK)
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &http);
    }
    curl_slist_free_all(h);
    curl_easy_cleanup(easy);
    pqt_s3_target_free(&t);
    return http;
}

/* The same as the HTTP client does it: the range as CURLOPT_RANGE (not signed), the target's
 * own headers through its sign hook, pqt_s3_sign. */
static long fetch_hook(const char *s3_url, const char *range, got *g)
{
    pqt_s3_target t;
    memset(g, 0, sizeof *g);
    if (pqt_s3_resolve(s3_url, &t) != PQT_OK) return -1;
    CURL *easy = curl_easy_init();
    long http = -1;
    if (easy && pqt_s3_sign(easy, &t) == PQT_OK) {
        curl_easy_setopt(easy, CURLOPT_URL, t.url);
        curl_easy_setopt(easy, CURLOPT_RANGE, range);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, g);
        if (curl_easy_perform(easy) == CURLE_OK)
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &http);
    }
    curl_easy_cleanup(easy);
    pqt_s3_target_free(&t);
    return http;
}

static void creds(const char *key, const char *secret, const char *token)
{
    if (key)
        setenv("AWS_ACCESS_KEY_ID", key, 1);
    else
        unsetenv("AWS_ACCESS_KEY_ID");
    if (secret)
        setenv("AWS_SECRET_ACCESS_KEY", secret, 1);
    else
        unsetenv("AWS_SECRET_ACCESS_KEY");
    if (token)
        setenv("AWS_SESSION_TOKEN", token, 1);
    else
        unsetenv("AWS_SESSION_TOKEN");
}

static void last_has(const char *a, const char *b)
{
    char line[8192];
    tsrv_log_last(&srv, line, sizeof line);
    if (!strstr(line, a) || (b && !strstr(line, b))) {
        fprintf(stderr, "  last request '%s' lacks '%s' or '%s'\n", line, a, b ? b : "");
        CHECK(0);
    }
}

static void test_get(void)
{
    const char *key = "data/year=2021/x y+z.parquet";
    char url[256];
    snprintf(url, sizeof url, "s3://bkt/%s", key);
    char body[256]; /* each file holds bkt/KEY */
    snprintf(body, sizeof body, "bkt/%s", key);
    got g;
    creds("AK", "SK", NULL);
    CHECK_EQ_I64(fetch(url, 2, 9, &g), 206);
    CHECK(g.n == 8 && memcmp(g.b, body + 2, 8) == 0);
    last_has("\"auth\": true, \"ok\": true",
             "\"path\": \"/bkt/data/year%3D2021/x%20y%2Bz.parquet\"");

    CHECK_EQ_I64(fetch_hook(url, "3-6", &g), 206);
    CHECK(g.n == 4 && memcmp(g.b, body + 3, 4) == 0);
    last_has("\"auth\": true, \"ok\": true", "\"status\": 206");

    creds("AK", "SK-wrong", NULL);
    CHECK_EQ_I64(fetch(url, 0, 3, &g), 403);
    CHECK_EQ_I64(fetch_hook(url, "0-3", &g), 403);
    last_has("SignatureDoesNotMatch", "\"ok\": false");

    creds("AKT", "SKT", "TOKEN-1");
    CHECK_EQ_I64(fetch(url, 0, 3, &g), 206);
    CHECK_EQ_I64(fetch_hook(url, "0-3", &g), 206);
    CHECK(g.n == 4 && memcmp(g.b, body, 4) == 0);
    creds("AKT", "SKT", NULL);
    CHECK_EQ_I64(fetch(url, 0, 3, &g), 403);
    last_has("x-amz-security-token is not the session token", NULL);

    creds(NULL, NULL, NULL); /* anonymous: served because the server runs --public */
    CHECK_EQ_I64(fetch(url, 0, 3, &g), 206);
    last_has("\"auth\": false", "\"status\": 206");
}

static void test_list(void)
{
    creds("AK", "SK", NULL);
    pqt_s3_target t;
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/", &t));
    pqt_s3_page all;
    const char *lq[] = {"\"path\": \"/bkt?", "max-keys=2", "prefix=data%2F"};
    int before = tsrv_log_count(&srv, lq, 3);
    CHECK_OK(pqt_s3_list(&t, "data/", 2, &all));
    CHECK_EQ_I64(all.n, NDATA);
    for (int64_t i = 0; i < all.n && i < NDATA; i++) {
        if (strcmp(all.obj[i].key, DATA_KEYS[i]) != 0) {
            fprintf(stderr, "  key %lld: '%s', want '%s'\n", (long long)i, all.obj[i].key,
                    DATA_KEYS[i]);
            CHECK(0);
        }
        CHECK_EQ_I64(all.obj[i].size, 4 + strlen(DATA_KEYS[i])); /* bkt/KEY */
        CHECK(all.obj[i].etag && all.obj[i].etag[0] == '"');
    }
    /* 11 keys two a page: 6 requests, 5 of them continuing */
    CHECK_EQ_I64(tsrv_log_count(&srv, lq, 3) - before, (NDATA + 1) / 2);
    const char *cq[] = {"continuation-token=", "\"ok\": true", "\"status\": 200"};
    CHECK_EQ_I64(tsrv_log_count(&srv, cq, 3), (NDATA + 1) / 2 - 1);
    pqt_s3_page_free(&all);

    /* "data" without the slash also has datax/ */
    CHECK_OK(pqt_s3_list(&t, "data", 0, &all));
    CHECK_EQ_I64(all.n, NDATA + 1);
    pqt_s3_page_free(&all);
    CHECK_OK(pqt_s3_list(&t, "nothing/", 0, &all));
    CHECK_EQ_I64(all.n, 0);
    pqt_s3_page_free(&all);
    pqt_s3_target_free(&t);

    REQUIRE_OK(pqt_s3_resolve("s3://no-such-bucket/", &t));
    CHECK_EQ_I64(pqt_s3_list(&t, "", 0, &all), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "HTTP 404 (NoSuchBucket") && strstr(pqt_errmsg(), "no-such-bucket"));
    CHECK(all.n == 0 && all.obj == NULL);
    pqt_s3_target_free(&t);

    creds("AK", "SK-wrong", NULL);
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/", &t));
    CHECK_EQ_I64(pqt_s3_list(&t, "data/", 0, &all), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "HTTP 403 (SignatureDoesNotMatch"));
    CHECK(strstr(pqt_errmsg(), "prefix 'data/'"));
    pqt_s3_target_free(&t);
}

/* A bucket of another region: S3 names it in x-amz-bucket-region, and so does the error. */
static void test_wrong_region(void)
{
    pqt_s3_target t;
    pqt_s3_page all;
    const char *hint =
        "the bucket is in region eu-west-1, not eu-central-1 (set AWS_REGION=eu-west-1)";
    creds("AK", "SK", NULL);
    REQUIRE_OK(pqt_s3_resolve("s3://eubkt/", &t));
    CHECK_EQ_I64(pqt_s3_list(&t, "", 0, &all), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "HTTP 400 (AuthorizationHeaderMalformed") &&
          strstr(pqt_errmsg(), hint));
    pqt_s3_target_free(&t);
    creds(NULL, NULL, NULL);
    REQUIRE_OK(pqt_s3_resolve("s3://eubkt/", &t));
    CHECK_EQ_I64(pqt_s3_list(&t, "", 0, &all), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "HTTP 301 (PermanentRedirect") && strstr(pqt_errmsg(), hint));
    pqt_s3_target_free(&t);
    /* signed for the bucket's region: listed */
    creds("AKW", "SKW", NULL);
    setenv("AWS_REGION", "eu-west-1", 1);
    REQUIRE_OK(pqt_s3_resolve("s3://eubkt/", &t));
    CHECK_OK(pqt_s3_list(&t, "", 0, &all));
    CHECK(all.n == 1 && strcmp(all.obj[0].key, "x.parquet") == 0);
    pqt_s3_page_free(&all);
    pqt_s3_target_free(&t);
    setenv("AWS_REGION", "eu-central-1", 1);
}

/* GET the server's control URL (http_server.py: the faults of the next requests). */
static void control(const char *query)
{
    char url[256];
    snprintf(url, sizeof url, "%s/_control?clear=1&%s", srv.endpoint, query);
    got g;
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &g);
    memset(&g, 0, sizeof g);
    CHECK(curl_easy_perform(e) == CURLE_OK);
    curl_easy_cleanup(e);
}

/* A listing goes through the HTTP client: a 503 (after the signature check) is retried, and
 * one past the retries names the listing, the URL and the attempts. */
static void test_list_retry(void)
{
    creds("AK", "SK", NULL);
    pqt_s3_target t;
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/", &t));
    pqt_s3_page all;
    const char *f503[] = {"\"status\": 503", "list-type=2", "\"ok\": true"};
    const char *ok200[] = {"list-type=2", "prefix=data%2F", "\"status\": 200", "\"ok\": true"};
    int b503 = tsrv_log_count(&srv, f503, 3), b200 = tsrv_log_count(&srv, ok200, 4);
    control("fail503=1");
    CHECK_OK(pqt_s3_list(&t, "data/", 0, &all));
    CHECK_EQ_I64(all.n, NDATA);
    pqt_s3_page_free(&all);
    CHECK_EQ_I64(tsrv_log_count(&srv, f503, 3) - b503, 1);
    CHECK_EQ_I64(tsrv_log_count(&srv, ok200, 4) - b200, 1);
    control("fail503=100");
    CHECK_EQ_I64(pqt_s3_list(&t, "data/", 0, &all), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "listing ") && strstr(pqt_errmsg(), "prefix 'data/'"));
    CHECK(strstr(pqt_errmsg(), "/bkt?list-type=2&prefix=data%2F: HTTP 503 (after 5 attempts)"));
    CHECK(all.n == 0 && all.obj == NULL);
    /* a small object's GET (HATS properties) too */
    control("fail503=2");
    char *text = NULL;
    size_t len = 0;
    CHECK_OK(pqt_s3_get_text(&t, "data/a.parquet", 1000, &text, &len));
    CHECK(text && len == strlen("bkt/data/a.parquet") && strcmp(text, "bkt/data/a.parquet") == 0);
    pqt_mem_free(text);
    control("clear=1");
    pqt_s3_target_free(&t);
}

int main(void)
{
    if (!mkdtemp(root)) return 77;
    for (int i = 0; i < NDATA; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "bkt/%s", DATA_KEYS[i]);
        tsrv_mkfile(root, rel, 1);
    }
    tsrv_mkfile(root, "bkt/datax/d.parquet", 1);
    tsrv_mkfile(root, "eubkt/x.parquet", 1);
    /* AK and AKT sign for eu-central-1, AKW for eu-west-1, where eubkt is */
    const char *args[] = {"--s3",
                          "AK:SK:eu-central-1",
                          "--s3",
                          "AKT:SKT:eu-central-1:TOKEN-1",
                          "--s3",
                          "AKW:SKW:eu-west-1",
                          "--public",
                          "--bucket-region",
                          "eubkt:eu-west-1",
                          NULL};
    if (tsrv_start(&srv, root, args) != 0) {
        fprintf(stderr, "test_s3_live: python3 tests/remote/http_server.py does not run\n");
        return 77;
    }
    setenv("AWS_ENDPOINT_URL", srv.endpoint, 1);
    setenv("AWS_REGION", "eu-central-1", 1);
    test_get();
    test_list();
    test_wrong_region();
    test_list_retry();
    tsrv_stop(&srv);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (!getenv("PQT_TEST_KEEP") && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return pqt_test_done("test_s3_live");
}
