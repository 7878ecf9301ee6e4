/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_s3_resolve.c - s3:// and http(s) prefix addressing, region and credentials from the
 * environment (src/remote/s3_resolve.c), and what pqt_s3_apply and pqt_s3_apply_headers put on a
 * handle. Every expected URL is written out by hand from docs/remote.md "S3"; the key encoding
 * against AWS's rule (only A-Z a-z 0-9 - . _ ~ kept, '/' kept in keys).
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "remote/s3.h"
#include "testutil.h"

static void clear_env(void)
{
    const char *vars[] = {"AWS_ACCESS_KEY_ID",  "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                          "AWS_REGION",         "AWS_DEFAULT_REGION",    "AWS_ENDPOINT_URL",
                          "AWS_ENDPOINT_URL_S3"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
}

static int streq(const char *a, const char *b)
{
    if (a && b && strcmp(a, b) == 0) return 1;
    fprintf(stderr, "  got '%s', want '%s'\n", a ? a : "(null)", b ? b : "(null)");
    return 0;
}

static void test_virtual_hosted(void)
{
    clear_env();
    pqt_s3_target t;
    REQUIRE_OK(pqt_s3_resolve("s3://my-bucket/data/x.parquet", &t));
    CHECK(streq(t.url, "https://my-bucket.s3.us-east-1.amazonaws.com/data/x.parquet"));
    CHECK(streq(t.bucket_url, "https://my-bucket.s3.us-east-1.amazonaws.com"));
    CHECK(streq(t.bucket, "my-bucket"));
    CHECK(streq(t.key, "data/x.parquet"));
    CHECK(streq(t.region, "us-east-1"));
    CHECK(t.access_key == NULL && t.secret_key == NULL && t.session_token == NULL);
    pqt_s3_target_free(&t);

    setenv("AWS_DEFAULT_REGION", "eu-west-3", 1);
    REQUIRE_OK(pqt_s3_resolve("s3://b/k", &t));
    CHECK(streq(t.url, "https://b.s3.eu-west-3.amazonaws.com/k"));
    pqt_s3_target_free(&t);
    setenv("AWS_REGION", "ap-south-1", 1); /* AWS_REGION wins over AWS_DEFAULT_REGION */
    REQUIRE_OK(pqt_s3_resolve("s3://b", &t));
    CHECK(streq(t.url, "https://b.s3.ap-south-1.amazonaws.com/"));
    CHECK(streq(t.key, ""));
    CHECK(streq(t.region, "ap-south-1"));
    pqt_s3_target_free(&t);

    /* a dotted bucket goes path style (the wildcard certificate covers one label) */
    REQUIRE_OK(pqt_s3_resolve("s3://my.bucket/k", &t));
    CHECK(streq(t.url, "https://s3.ap-south-1.amazonaws.com/my.bucket/k"));
    pqt_s3_target_free(&t);
}

static void test_key_encoding(void)
{
    clear_env();
    pqt_s3_target t;
    /* taken literally: "%41" is three bytes of the key, encoded as %2541 */
    REQUIRE_OK(pqt_s3_resolve("s3://b/a b/k=v+w/%41~é?.parquet", &t));
    CHECK(streq(t.key, "a b/k=v+w/%41~é?.parquet"));
    CHECK(streq(t.url,
                "https://b.s3.us-east-1.amazonaws.com/a%20b/k%3Dv%2Bw/%2541~%C3%A9%3F.parquet"));
    pqt_s3_target_free(&t);

    char buf[64];
    size_t len = 0;
    CHECK(pqt_s3_uri_encode("a/b c", 5, false, buf, sizeof buf, &len));
    CHECK(streq(buf, "a%2Fb%20c"));
    CHECK_EQ_I64(len, 9);
    len = 0;
    CHECK(!pqt_s3_uri_encode("a/b c", 5, true, buf, 6, &len)); /* "a/b%20c" needs 8 */
    CHECK_EQ_I64(len, 0);
}

static void test_endpoint_and_credentials(void)
{
    clear_env();
    setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000/", 1);
    setenv("AWS_ACCESS_KEY_ID", "AKID", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "SECRET", 1);
    setenv("AWS_SESSION_TOKEN", "TOKEN", 1);
    pqt_s3_target t;
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/dir/f.parquet", &t));
    CHECK(streq(t.url, "http://127.0.0.1:9000/bkt/dir/f.parquet"));
    CHECK(streq(t.sigv4, "aws:amz:us-east-1:s3"));
    CHECK(t.headers && t.headers->next && !t.headers->next->next);
    if (t.headers && t.headers->next) {
        CHECK(streq(t.headers->data,
                    "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4"
                    "649b934ca495991b7852b855"));
        CHECK(streq(t.headers->next->data, "x-amz-security-token: TOKEN"));
    }
    CHECK(streq(t.bucket_url, "http://127.0.0.1:9000/bkt"));
    CHECK(streq(t.access_key, "AKID"));
    CHECK(streq(t.secret_key, "SECRET"));
    CHECK(streq(t.session_token, "TOKEN"));
    pqt_s3_target_free(&t);
    /* AWS_ENDPOINT_URL_S3 is the S3-only setting and wins */
    setenv("AWS_ENDPOINT_URL_S3", "https://minio.example:9443", 1);
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/f", &t));
    CHECK(streq(t.url, "https://minio.example:9443/bkt/f"));
    pqt_s3_target_free(&t);
    unsetenv("AWS_ENDPOINT_URL_S3");

    /* an http prefix on the endpoint is signed; on another host it is not */
    REQUIRE_OK(pqt_s3_resolve("http://127.0.0.1:9000/bkt/a%20b/", &t));
    CHECK(streq(t.bucket, "bkt"));
    CHECK(streq(t.key, "a b/"));
    CHECK(streq(t.bucket_url, "http://127.0.0.1:9000/bkt"));
    CHECK(streq(t.url, "http://127.0.0.1:9000/bkt/a%20b/"));
    CHECK(streq(t.access_key, "AKID"));
    pqt_s3_target_free(&t);
    REQUIRE_OK(pqt_s3_resolve("https://other.example/bkt/p/", &t));
    CHECK(t.access_key == NULL && t.secret_key == NULL && t.session_token == NULL);
    CHECK(streq(t.key, "p/"));
    pqt_s3_target_free(&t);
    REQUIRE_OK(pqt_s3_resolve("http://127.0.0.1:90000/bkt/p/", &t)); /* another port */
    CHECK(t.access_key == NULL);
    pqt_s3_target_free(&t);

    /* the handle: anonymous adds nothing, signed adds the two headers */
    CURL *easy = curl_easy_init();
    REQUIRE_OK(easy ? PQT_OK : PQT_NOMEM);
    struct curl_slist *h = curl_slist_append(NULL, "Accept: */*");
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/f", &t));
    CHECK_OK(pqt_s3_apply_headers(easy, &t, &h));
    int n = 0;
    for (struct curl_slist *p = h; p; p = p->next, n++)
        if (n == 1)
            CHECK(streq(p->data, "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb924"
                                 "27ae41e4649b934ca495991b7852b855"));
        else if (n == 2)
            CHECK(streq(p->data, "x-amz-security-token: TOKEN"));
    CHECK_EQ_I64(n, 3);
    pqt_s3_target_free(&t);
    curl_slist_free_all(h);
    clear_env();
    REQUIRE_OK(pqt_s3_resolve("s3://bkt/f", &t));
    h = NULL;
    CHECK_OK(pqt_s3_apply_headers(easy, &t, &h));
    CHECK(h == NULL);
    CHECK(t.sigv4 == NULL && t.headers == NULL);
    CHECK_OK(pqt_s3_apply(easy, &t));
    CHECK_OK(pqt_s3_sign(easy, &t));
    pqt_s3_target_free(&t);
    curl_easy_cleanup(easy);
}

static void expect_error(const char *url, pqt_status want, const char *part)
{
    pqt_s3_target t;
    memset(&t, 0x5a, sizeof t);
    pqt_status st = pqt_s3_resolve(url, &t);
    CHECK_EQ_I64(st, want);
    CHECK(t.url == NULL && t.bucket == NULL);
    if (!strstr(pqt_errmsg(), part) || !strstr(pqt_errmsg(), url)) {
        fprintf(stderr, "  %s: message '%s' lacks '%s' or the URL\n", url, pqt_errmsg(), part);
        CHECK(0);
    }
}

static void test_errors(void)
{
    clear_env();
    expect_error("s3://", PQT_MISUSE, "no bucket");
    expect_error("s3:///key", PQT_MISUSE, "no bucket");
    expect_error("s3://bad bucket/k", PQT_MISUSE, "not a bucket name");
    expect_error("s3://b@evil.com/k", PQT_MISUSE, "not a bucket name");
    expect_error("ftp://b/k", PQT_MISUSE, "not an s3://");
    expect_error("https://host", PQT_MISUSE, "no bucket");
    setenv("AWS_REGION", "us-east-1:x", 1);
    expect_error("s3://b/k", PQT_MISUSE, "not a region name");
    unsetenv("AWS_REGION");
    setenv("AWS_ACCESS_KEY_ID", "AKID", 1);
    expect_error("s3://b/k", PQT_MISUSE, "AWS_SECRET_ACCESS_KEY is not");
    setenv("AWS_SECRET_ACCESS_KEY", "S\r\nX-Evil: 1", 1);
    expect_error("s3://b/k", PQT_MISUSE, "control character");
    clear_env();
    setenv("AWS_ENDPOINT_URL", "localhost:9000", 1);
    expect_error("s3://b/k", PQT_MISUSE, "AWS_ENDPOINT_URL");
    clear_env();
}

int main(void)
{
    test_virtual_hosted();
    test_key_encoding();
    test_endpoint_and_credentials();
    test_errors();
    return pqt_test_done("test_s3_resolve");
}
