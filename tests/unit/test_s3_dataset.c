/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_s3_dataset.c - datasets below s3:// and http:// prefixes (src/dataset/listing_remote.c)
 * listed from tests/remote/s3_test_server.py, signed and verified: the members a directory
 * walk of the same tree gives (checked here against pqt_ds_list_open on the server's own
 * directory, and written out by hand), hive keys from the keys' folders, _metadata noted,
 * s3:// globs (`**`, `*`, `[..]`, '_' names only when asked), member URLs (an http root's
 * keys encoded, an s3:// key literal), one object, an empty prefix, a HATS catalogue refused.
 * Exits 77 when python3 cannot run.
 */
#include <stdlib.h>
#include <string.h>

#include "api/file_access.h"
#include "dataset/listing.h"
#include "pqt.h"
#include "s3_server.h"
#include "testutil.h"
#include "util/mem.h"

static char root[] = "/tmp/pqt_test_s3_dataset_XXXXXX";
static s3srv srv;

static const char *const TREE[] = {"bkt/data/a.parquet",
                                   "bkt/data/A.parquet",
                                   "bkt/data/sub-x.parquet",
                                   "bkt/data/year=2021/b.parquet",
                                   "bkt/data/year=2021/x y+z.parquet",
                                   "bkt/data/year=2022/c.parquet",
                                   "bkt/data/_SUCCESS",
                                   "bkt/data/_metadata",
                                   "bkt/data/.hidden/z.parquet",
                                   "bkt/data/_tmp/q.parquet",
                                   "bkt/data/notes.txt",
                                   "bkt/datax/d.parquet",
                                   "bkt/empty/readme.txt",
                                   "bkt/hats/hats.properties",
                                   "bkt/hats/partition_info.csv",
                                   "bkt/hats/dataset/Norder=0/Dir=0/Npix=1.parquet"};

/* The members of a walk of bkt/data, in byte order (docs/datasets.md "Which files"). */
static const char *const WALK[] = {"A.parquet",
                                   "a.parquet",
                                   "sub-x.parquet",
                                   "year=2021/b.parquet",
                                   "year=2021/x y+z.parquet",
                                   "year=2022/c.parquet"};
#define NWALK 6

static void same_list(const pqt_ds_list *l, const char *const *want, int n, const char *what)
{
    CHECK_EQ_I64(l->n, n);
    for (int64_t i = 0; i < l->n && i < n; i++)
        if (strcmp(l->rel[i], want[i]) != 0) {
            fprintf(stderr, "  %s: member %lld '%s', want '%s'\n", what, (long long)i, l->rel[i],
                    want[i]);
            CHECK(0);
        }
}

static void test_prefix(void)
{
    pqt_ds_list l, disk;
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/data/", true, &l));
    same_list(&l, WALK, NWALK, "s3://bkt/data/");
    CHECK(strcmp(l.root, "s3://bkt/data") == 0);
    CHECK(l.has_metadata && !l.has_common_metadata && !l.is_hats);
    /* the walk of the same directory on disk agrees, hive keys and all */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/bkt/data", root);
    REQUIRE_OK(pqt_ds_list_open(dir, true, &disk));
    same_list(&l, (const char *const *)disk.rel, (int)disk.n, "disk");
    CHECK(disk.has_metadata == l.has_metadata);
    CHECK_EQ_I64(l.nkeys, 1);
    CHECK_EQ_I64(disk.nkeys, 1);
    if (l.nkeys == 1) {
        CHECK(strcmp(l.keys[0], "year") == 0 && l.key_is_int[0]);
        const char *year[NWALK] = {NULL, NULL, NULL, "2021", "2021", "2022"};
        for (int i = 0; i < NWALK; i++)
            CHECK(year[i] ? l.values[i] && strcmp(l.values[i], year[i]) == 0 : !l.values[i]);
    }
    char buf[512];
    CHECK(pqt_ds_member_path(&l, 4, buf, sizeof buf) > 0 &&
          strcmp(buf, "s3://bkt/data/year=2021/x y+z.parquet") == 0);
    pqt_ds_list_free(&disk);
    pqt_ds_list_free(&l);

    /* the same prefix as an http URL on the endpoint: the keys encoded in member URLs */
    char url[256], want[300];
    snprintf(url, sizeof url, "%s/bkt/data/", srv.endpoint);
    REQUIRE_OK(pqt_ds_list_open(url, false, &l));
    same_list(&l, WALK, NWALK, url);
    CHECK_EQ_I64(l.nkeys, 0);
    snprintf(want, sizeof want, "%s/bkt/data/year%%3D2021/x%%20y%%2Bz.parquet", srv.endpoint);
    CHECK(pqt_ds_member_path(&l, 4, buf, sizeof buf) > 0 && strcmp(buf, want) == 0);
    char *u = pqt_ds_member_url(l.root, l.rel[4]);
    CHECK(u && strcmp(u, want) == 0);
    pqt_mem_free(u);
    pqt_ds_list_free(&l);

    /* the whole bucket */
    REQUIRE_OK(pqt_ds_list_open("s3://bkt", false, &l));
    CHECK_EQ_I64(l.n, NWALK + 2); /* data/..., datax/d.parquet and hats/'s one partition file:
                                     a catalogue only where its properties are at the root */
    pqt_ds_list_free(&l);
}

static void test_glob(void)
{
    pqt_ds_list l;
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/data/**/*.parquet", true, &l));
    same_list(&l, WALK, NWALK, "**/*.parquet");
    CHECK(strcmp(l.root, "s3://bkt/data") == 0);
    CHECK_EQ_I64(l.nkeys, 1);
    pqt_ds_list_free(&l);
    const char *bc[] = {"year=2021/b.parquet", "year=2022/c.parquet"};
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/data/year=*/[bc].parquet", false, &l));
    same_list(&l, bc, 2, "year=*/[bc]");
    pqt_ds_list_free(&l);
    const char *under[] = {"_SUCCESS", "_metadata"};
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/data/_*", false, &l));
    same_list(&l, under, 2, "_*");
    pqt_ds_list_free(&l);
    const char *all[] = {"A.parquet",          "a.parquet",           "notes.txt",
                         "sub-x.parquet",      "year=2021/b.parquet", "year=2021/x y+z.parquet",
                         "year=2022/c.parquet"};
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/data/**", false, &l));
    same_list(&l, all, 7, "**");
    pqt_ds_list_free(&l);
    CHECK_EQ_I64(pqt_ds_list_open("s3://bkt/data/*.csv", false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "s3://bkt/data/*.csv"));
    CHECK_EQ_I64(pqt_ds_list_open("s3://bk*/x", false, &l), PQT_MISUSE);
}

static void test_edges(void)
{
    pqt_ds_list l;
    /* one object: a list of that one path, nothing listed */
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/data/a.parquet", false, &l));
    CHECK(l.n == 1 && strcmp(l.rel[0], "s3://bkt/data/a.parquet") == 0 && l.root[0] == '\0');
    pqt_ds_list_free(&l);
    CHECK(pqt_file_spec_is_dataset("s3://bkt/data/"));
    CHECK(pqt_file_spec_is_dataset("s3://bkt"));
    CHECK(pqt_file_spec_is_dataset("s3://bkt/d*/x.parquet"));
    CHECK(!pqt_file_spec_is_dataset("s3://bkt/data/a.parquet"));
    CHECK(!pqt_file_spec_is_dataset("https://h/x.parquet?X-Amz-Signature=ab*"));
    CHECK(pqt_file_spec_is_dataset("https://h/bkt/data/"));

    CHECK_EQ_I64(pqt_ds_list_open("s3://bkt/empty/", false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "no *.parquet object below 's3://bkt/empty/'"));
    CHECK(l.n == 0 && l.rel == NULL);
    CHECK_EQ_I64(pqt_ds_list_open("s3://bkt/nothing/", false, &l), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_ds_list_open("s3://bkt/hats/", false, &l), PQT_UNSUPPORTED);
    CHECK(strstr(pqt_errmsg(), "HATS") && strstr(pqt_errmsg(), "s3://bkt/hats/"));
    CHECK_EQ_I64(pqt_ds_list_open("s3://nobkt/data/", false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "HTTP 404"));
    setenv("AWS_SECRET_ACCESS_KEY", "wrong", 1);
    CHECK_EQ_I64(pqt_ds_list_open("s3://bkt/data/", false, &l), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "HTTP 403"));
    setenv("AWS_SECRET_ACCESS_KEY", "SK", 1);
}

int main(void)
{
    if (!mkdtemp(root)) return 77;
    for (size_t i = 0; i < sizeof TREE / sizeof *TREE; i++)
        s3srv_mkfile(root, TREE[i], 1);
    const char *args[] = {"--s3", "AK:SK", NULL}; /* signed only: no --public */
    if (s3srv_start(&srv, root, args) != 0) {
        fprintf(stderr, "test_s3_dataset: python3 tests/remote/s3_test_server.py does not run\n");
        return 77;
    }
    setenv("AWS_ENDPOINT_URL", srv.endpoint, 1);
    setenv("AWS_ACCESS_KEY_ID", "AK", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "SK", 1);
    unsetenv("AWS_REGION");
    unsetenv("AWS_DEFAULT_REGION");
    test_prefix();
    test_glob();
    test_edges();
    s3srv_stop(&srv);
    /* every request was signed and verified */
    const char *bad[] = {"\"ok\": false"};
    CHECK_EQ_I64(s3srv_log_count(&srv, bad, 1), 1); /* the one wrong secret of test_edges */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (!getenv("PQT_TEST_KEEP") && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return pqt_test_done("test_s3_dataset");
}
