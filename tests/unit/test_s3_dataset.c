/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_s3_dataset.c - datasets below s3:// and http:// prefixes (src/dataset/listing_remote.c)
 * listed from tests/remote/http_server.py, signed and verified: the members a directory
 * walk of the same tree gives (checked here against pqt_ds_list_open on the server's own
 * directory, and written out by hand), hive keys from the keys' folders, _metadata noted,
 * s3:// globs (`**`, `*`, `[..]`, '_' names only when asked), member URLs (an http root's
 * keys encoded, an s3:// key literal), one object, an empty prefix; a HATS catalogue listed as
 * on disk (properties and partition list fetched, partition files and folders found).
 * Exits 77 when python3 cannot run.
 */
#include <stdlib.h>
#include <string.h>

#include "api/file_access.h"
#include "dataset/listing.h"
#include "pqt.h"
#include "remote_server.h"
#include "testutil.h"
#include "util/mem.h"

static char root[] = "/tmp/pqt_test_s3_dataset_XXXXXX";
static tsrv srv;

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
                                   "bkt/hats/dataset/Norder=0/Dir=0/Npix=1.parquet",
                                   "bkt/hats/dataset/Norder=1/Dir=0/Npix=44/part0.parquet",
                                   "bkt/hats/dataset/Norder=1/Dir=0/Npix=44/_tmp.parquet",
                                   "bkt/hats/dataset/_metadata",
                                   "bkt/badhats/hats.properties",
                                   "bkt/badhats/dataset/Norder=0/Dir=0/Npix=1.parquet"};

/* root/rel holding text */
static void put(const char *rel, const char *text)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    REQUIRE_OK(f ? PQT_OK : PQT_IO);
    fputs(text, f);
    fclose(f);
}

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
    CHECK_EQ_I64(l.n, NWALK + 4); /* data/..., datax/d.parquet, the partition files below
                                     hats/ and badhats/ (not catalogues at the bucket's root) */
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
    /* a HATS catalogue: hats.c reads its properties and partition list over S3 and finds
     * each partition (a file, a folder) in the listing: as on disk */
    pqt_ds_list disk;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/bkt/hats", root);
    REQUIRE_OK(pqt_ds_list_open("s3://bkt/hats/", true, &l));
    REQUIRE_OK(pqt_ds_list_open(dir, true, &disk));
    const char *parts[] = {"Norder=0/Dir=0/Npix=1.parquet", "Norder=1/Dir=0/Npix=44/part0.parquet"};
    same_list(&l, parts, 2, "s3://bkt/hats/");
    same_list(&disk, parts, 2, "disk hats");
    CHECK(l.is_hats && strcmp(l.root, "s3://bkt/hats/dataset") == 0);
    CHECK(l.has_metadata && !l.has_common_metadata && l.nkeys == 0);
    CHECK(l.hats_ra && strcmp(l.hats_ra, "ra") == 0 && l.hats_dec &&
          strcmp(l.hats_dec, "dec") == 0);
    CHECK(l.hats_healpix && strcmp(l.hats_healpix, "_healpix_29") == 0 &&
          l.hats_healpix_order == 29);
    for (int i = 0; i < 2 && l.n == 2 && disk.n == 2; i++)
        CHECK(l.hats_order[i] == disk.hats_order[i] && l.hats_pix[i] == disk.hats_pix[i]);
    CHECK(l.n == 2 && l.hats_order[1] == 1 && l.hats_pix[1] == 44);
    pqt_ds_list_free(&disk);
    pqt_ds_list_free(&l);
    /* a partition listed but absent: the disk's error */
    CHECK_EQ_I64(pqt_ds_list_open("s3://bkt/badhats/", false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "Norder=2 Npix=5") && strstr(pqt_errmsg(), "s3://bkt/badhats"));
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
        tsrv_mkfile(root, TREE[i], 1);
    const char *props = "# written by hand\nhats_col_ra = ra\nhats_col_dec=dec\n"
                        "hats_col_healpix=_healpix_29\nhats_col_healpix_order=29\n";
    put("bkt/hats/hats.properties", props);
    put("bkt/hats/partition_info.csv", "Norder,Npix,num_rows\n1,44,10\n0,1,5\n");
    put("bkt/badhats/hats.properties", props);
    put("bkt/badhats/partition_info.csv", "Norder,Npix\n0,1\n2,5\n");
    const char *args[] = {"--s3", "AK:SK", NULL}; /* signed only: no --public */
    if (tsrv_start(&srv, root, args) != 0) {
        fprintf(stderr, "test_s3_dataset: python3 tests/remote/http_server.py does not run\n");
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
    /* every request was signed and verified */
    const char *bad[] = {"\"ok\": false"};
    CHECK_EQ_I64(tsrv_log_count(&srv, bad, 1), 1); /* the one wrong secret of test_edges */
    tsrv_stop(&srv);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (!getenv("PQT_TEST_KEEP") && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return pqt_test_done("test_s3_dataset");
}
