/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_s3_xml.c - the ListObjectsV2 reader (src/remote/s3_xml.c): a page as S3 writes it
 * (namespace, entities, ETags in &quot;, a continuation token), an S3 <Error>, and hostile
 * answers each refused with PQT_CORRUPT (a DOCTYPE, an unknown entity, unbalanced or too deep
 * elements, a key past 4096 bytes, a Size that is no count, IsTruncated without a token, a
 * second document, an answer past 32 MiB); then every truncation and 20,000 byte flips of the
 * page are read without a crash (OK or PQT_CORRUPT only). Expected keys written by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "remote/s3.h"
#include "testutil.h"

static const char PAGE[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
    "<Name>bkt</Name><Prefix>d/</Prefix><KeyCount>3</KeyCount><MaxKeys>3</MaxKeys>"
    "<IsTruncated>true</IsTruncated>"
    "<NextContinuationToken>tok+/=&amp;1</NextContinuationToken>\n"
    "  <Contents><Key>d/a&amp;b &lt;c&gt;.parquet</Key>"
    "<LastModified>2026-01-01T00:00:00.000Z</LastModified>"
    "<ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>1234</Size>"
    "<StorageClass>STANDARD</StorageClass></Contents>\n"
    "  <!-- a comment --><Contents><Key>d/caf&#233;/&#xE9;t&#xe9;.parquet</Key><Size>0</Size>"
    "<Owner><ID>x</ID></Owner></Contents>"
    "<Contents><Key><![CDATA[d/<raw>&.parquet]]></Key><Size>9007199254740993</Size></Contents>"
    "</ListBucketResult>\n";

static void test_page(void)
{
    pqt_s3_page pg;
    REQUIRE_OK(pqt_s3_xml_page(PAGE, strlen(PAGE), "test", &pg));
    CHECK_EQ_I64(pg.n, 3);
    CHECK(pg.truncated);
    CHECK(pg.next_token && strcmp(pg.next_token, "tok+/=&1") == 0);
    CHECK(pg.err_code == NULL);
    if (pg.n == 3) {
        CHECK(strcmp(pg.obj[0].key, "d/a&b <c>.parquet") == 0);
        CHECK_EQ_I64(pg.obj[0].size, 1234);
        CHECK(pg.obj[0].etag &&
              strcmp(pg.obj[0].etag, "\"9b2cf535f27731c974343645a3985328\"") == 0);
        CHECK(strcmp(pg.obj[1].key, "d/caf\xC3\xA9/\xC3\xA9t\xC3\xA9.parquet") == 0);
        CHECK_EQ_I64(pg.obj[1].size, 0);
        CHECK(pg.obj[1].etag == NULL);
        CHECK(strcmp(pg.obj[2].key, "d/<raw>&.parquet") == 0);
        CHECK_EQ_I64(pg.obj[2].size, 9007199254740993LL);
    }
    pqt_s3_page_free(&pg);

    const char *last = "<ListBucketResult><IsTruncated>false</IsTruncated><KeyCount>0</KeyCount>"
                       "</ListBucketResult>";
    REQUIRE_OK(pqt_s3_xml_page(last, strlen(last), "test", &pg));
    CHECK(pg.n == 0 && !pg.truncated && pg.next_token == NULL);
    pqt_s3_page_free(&pg);

    const char *err = "<?xml version=\"1.0\"?><Error><Code>NoSuchBucket</Code>"
                      "<Message>The specified bucket does not exist</Message>"
                      "<BucketName>b</BucketName></Error>";
    REQUIRE_OK(pqt_s3_xml_page(err, strlen(err), "test", &pg));
    CHECK(pg.err_code && strcmp(pg.err_code, "NoSuchBucket") == 0);
    CHECK(pg.err_msg && strcmp(pg.err_msg, "The specified bucket does not exist") == 0);
    pqt_s3_page_free(&pg);
}

static void refused(const char *xml, const char *why)
{
    pqt_s3_page pg;
    memset(&pg, 0x5a, sizeof pg);
    pqt_status st = pqt_s3_xml_page(xml, strlen(xml), "listing X", &pg);
    CHECK_EQ_I64(st, PQT_CORRUPT);
    CHECK(pg.obj == NULL && pg.n == 0 && pg.next_token == NULL);
    if (st == PQT_CORRUPT && (!strstr(pqt_errmsg(), why) || !strstr(pqt_errmsg(), "listing X"))) {
        fprintf(stderr, "  message '%s' lacks '%s'\n", pqt_errmsg(), why);
        CHECK(0);
    }
}

static void test_hostile(void)
{
    refused("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><ListBucketResult></ListBucketResult>", "DOCTYPE");
    refused("<ListBucketResult><Contents><Key>&a;</Key><Size>1</Size></Contents>"
            "</ListBucketResult>",
            "unknown entity");
    refused("<ListBucketResult><Contents><Key>&#0;</Key></Contents></ListBucketResult>",
            "no character");
    refused("<ListBucketResult><Contents><Key>&#xD800;</Key></Contents></ListBucketResult>",
            "no character");
    refused("<ListBucketResult><Contents></ListBucketResult>", "closes no open element");
    refused("<ListBucketResult><Contents><Key>k</Key><Size>1</Size></Contents>", "ends inside");
    refused("<ListBucketResult><Contents><Key>k</Key><Size>1x</Size></Contents>"
            "</ListBucketResult>",
            "not a count");
    refused("<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",
            "without Key or Size");
    refused("<ListBucketResult><Contents><Key>k</Key><Key>j</Key><Size>1</Size></Contents>"
            "</ListBucketResult>",
            "element twice");
    refused("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
            "without a NextContinuationToken");
    refused("<ListBucketResult><IsTruncated>yes</IsTruncated></ListBucketResult>", "true or false");
    refused("<ListBucketResult></ListBucketResult><ListBucketResult></ListBucketResult>",
            "second document");
    refused("<Html><Body>gateway</Body></Html>", "neither");
    refused("hello", "outside");
    refused("", "no XML element");
    refused("<ListBucketResult><Contents><Key><b>k</b></Key></Contents></ListBucketResult>",
            "inside a text field");

    char deep[2048] = "<ListBucketResult>";
    for (int i = 0; i < 20; i++)
        strcat(deep, "<a>");
    refused(deep, "too deep");

    size_t big = 5000;
    char *longkey = malloc(big + 200);
    REQUIRE_OK(longkey ? PQT_OK : PQT_NOMEM);
    strcpy(longkey, "<ListBucketResult><Contents><Key>");
    size_t at = strlen(longkey);
    memset(longkey + at, 'k', big);
    strcpy(longkey + at + big, "</Key><Size>1</Size></Contents></ListBucketResult>");
    refused(longkey, "longer than 4096");
    free(longkey);

    /* past 32 MiB: refused before a byte is read */
    size_t huge = (size_t)PQT_S3_MAX_PAGE_BYTES + 1;
    char *h = malloc(huge + 1);
    REQUIRE_OK(h ? PQT_OK : PQT_NOMEM);
    memset(h, ' ', huge);
    h[huge] = '\0';
    memcpy(h, "<ListBucketResult>", 18);
    refused(h, "bigger than 32 MiB");
    free(h);
}

/* Every prefix of the page, and random byte flips: OK or PQT_CORRUPT, never anything else. */
static void test_mangled(void)
{
    size_t n = strlen(PAGE);
    char *buf = malloc(n + 1);
    REQUIRE_OK(buf ? PQT_OK : PQT_NOMEM);
    int ok = 0, bad = 0;
    for (size_t len = 0; len <= n; len++) {
        memcpy(buf, PAGE, len);
        pqt_s3_page pg;
        pqt_status st = pqt_s3_xml_page(buf, len, "trunc", &pg);
        CHECK(st == PQT_OK || st == PQT_CORRUPT);
        if (st == PQT_OK)
            ok++, pqt_s3_page_free(&pg);
        else
            bad++;
    }
    CHECK(ok >= 1 && bad > 100); /* the whole page reads; a cut inside the element does not */
    uint64_t seed = 35;
    for (int i = 0; i < 20000; i++) {
        memcpy(buf, PAGE, n);
        for (int k = 0; k < 3; k++)
            buf[pqt_test_rand(&seed) % n] = (char)(pqt_test_rand(&seed) & 0xff);
        pqt_s3_page pg;
        pqt_status st = pqt_s3_xml_page(buf, n, "flip", &pg);
        CHECK(st == PQT_OK || st == PQT_CORRUPT);
        if (st == PQT_OK) {
            CHECK(pg.n <= 3);
            for (int64_t j = 0; j < pg.n; j++)
                CHECK(pg.obj[j].key && pg.obj[j].key[0] && pg.obj[j].size >= 0);
            pqt_s3_page_free(&pg);
        }
    }
    free(buf);
}

int main(void)
{
    test_page();
    test_hostile();
    test_mangled();
    return pqt_test_done("test_s3_xml");
}
