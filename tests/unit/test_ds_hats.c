/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ds_hats.c - the HATS layout of a HEALPix-partitioned catalogue (src/dataset/hats.c), on
 * catalogues built by hand under a mkdtemp directory: hats.properties (ra/dec columns, comments,
 * blanks), partition_info.csv (any column order, extra columns), partitions as files and as
 * folders of files, members in (Norder, Npix) order numerically (not bytewise), Dir = Npix /
 * 10000 * 10000, the data root dataset/ or (older catalogues) the catalogue itself, and the
 * errors: a missing partition file, an empty partition folder, a header without Npix, a pixel
 * HEALPix does not have, a non-integer, a partition listed twice; a collection listed as its
 * primary catalogue; hats_npix_suffix (another suffix, or folders only).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw, symlink, mkdtemp */
#endif
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset/listing.h"
#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

static char top[] = "/tmp/pqt_test_ds_hats_XXXXXX";

/* top/rel holding text (folders made first). */
static void mkfile_text(const char *rel, const char *text)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    for (char *s = p + strlen(top) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) CHECK(!"mkdir");
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    REQUIRE_OK(f ? PQT_OK : PQT_IO);
    fputs(text, f);
    fclose(f);
}

static void mkfile(const char *rel)
{
    mkfile_text(rel, "PAR1");
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

typedef struct member {
    const char *rel;
    int order;
    int64_t pix;
} member;

static void expect(const pqt_ds_list *l, const member *want, int n)
{
    CHECK(l->is_hats && l->nkeys == 0 && l->values == NULL);
    CHECK_EQ_I64(l->n, n);
    for (int i = 0; i < n && i < l->n; i++) {
        if (strcmp(l->rel[i], want[i].rel) != 0)
            fprintf(stderr, "  member %d: got '%s', want '%s'\n", i, l->rel[i], want[i].rel);
        CHECK(strcmp(l->rel[i], want[i].rel) == 0);
        CHECK_EQ_I64(l->hats_order[i], want[i].order);
        CHECK_EQ_I64(l->hats_pix[i], want[i].pix);
    }
}

/* c/: a current HATS catalogue with its data under dataset/. */
static void catalogue(void)
{
    mkfile_text("c/hats.properties", "# HATS catalogue\n"
                                     "obs_collection=test\n"
                                     "\n"
                                     "hats_col_ra=ra_deg\r\n"
                                     "  hats_col_dec = dec_deg  \n"
                                     "! another comment\n"
                                     "hats_max_rows=1000\n"
                                     "hats_col_healpix=_healpix_29\n"
                                     "hats_col_healpix_order=29\n"
                                     "hats_creation_date=2025-03-12T12\\:44UTC\n");
    /* any order; bytewise "Norder=10" < "Norder=2" and "Npix=10" < "Npix=9": the order must be
     * numeric */
    mkfile_text("c/partition_info.csv", "Norder,Npix\n"
                                        "2,10\n"
                                        "10,12345\n"
                                        "0,5\n"
                                        "1,3\n"
                                        "2,9\n"
                                        "\n"
                                        "5,10005\n"
                                        "1,47\n");
    mkfile("c/dataset/_metadata");
    mkfile("c/dataset/_common_metadata");
    mkfile("c/dataset/Norder=0/Dir=0/Npix=5.parquet");
    mkfile("c/dataset/Norder=1/Dir=0/Npix=3/part1.parquet");
    mkfile("c/dataset/Norder=1/Dir=0/Npix=3/part0.parquet");
    mkfile("c/dataset/Norder=1/Dir=0/Npix=3/_SUCCESS");
    mkfile("c/dataset/Norder=1/Dir=0/Npix=3/.part0.parquet.crc");
    mkfile("c/dataset/Norder=1/Dir=0/Npix=47.parquet");
    mkfile("c/dataset/Norder=2/Dir=0/Npix=9.parquet");
    mkfile("c/dataset/Norder=2/Dir=0/Npix=10.parquet");
    mkfile("c/dataset/Norder=2/Dir=0/Npix=11.parquet"); /* not in the csv: not a member */
    mkfile("c/dataset/Norder=5/Dir=10000/Npix=10005.parquet");
    mkfile("c/dataset/Norder=10/Dir=10000/Npix=12345.parquet");
    static const member want[] = {
        {"Norder=0/Dir=0/Npix=5.parquet", 0, 5},
        {"Norder=1/Dir=0/Npix=3/part0.parquet", 1, 3},
        {"Norder=1/Dir=0/Npix=3/part1.parquet", 1, 3},
        {"Norder=1/Dir=0/Npix=47.parquet", 1, 47},
        {"Norder=2/Dir=0/Npix=9.parquet", 2, 9},
        {"Norder=2/Dir=0/Npix=10.parquet", 2, 10},
        {"Norder=5/Dir=10000/Npix=10005.parquet", 5, 10005},
        {"Norder=10/Dir=10000/Npix=12345.parquet", 10, 12345},
    };
    char spec[1024], root[1024];
    snprintf(spec, sizeof spec, "%s/c/", top);
    snprintf(root, sizeof root, "%s/c/dataset", top);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, true, &l)); /* hive asked for: still no keys */
    expect(&l, want, 8);
    CHECK(l.root && strcmp(l.root, root) == 0);
    CHECK(l.hats_ra && strcmp(l.hats_ra, "ra_deg") == 0);
    CHECK(l.hats_dec && strcmp(l.hats_dec, "dec_deg") == 0);
    CHECK(l.has_metadata && l.has_common_metadata);
    CHECK(l.hats_healpix && strcmp(l.hats_healpix, "_healpix_29") == 0);
    CHECK_EQ_I64(l.hats_healpix_order, 29);
    char buf[1024], path[1024];
    snprintf(path, sizeof path, "%s/c/dataset/Norder=1/Dir=0/Npix=3/part1.parquet", top);
    CHECK(pqt_ds_member_path(&l, 2, buf, sizeof buf) > 0 && strcmp(buf, path) == 0);
    pqt_ds_list_free(&l);
    CHECK(l.hats_order == NULL && l.hats_pix == NULL && l.hats_ra == NULL && !l.is_hats);

    /* a glob into the catalogue is an ordinary listing, bytewise */
    snprintf(spec, sizeof spec, "%s/c/dataset/Norder=2/*/*.parquet", top);
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    CHECK(!l.is_hats && l.n == 3 && strcmp(l.rel[0], "Dir=0/Npix=10.parquet") == 0);
    pqt_ds_list_free(&l);
}

/* o/: an older catalogue (partitions beside the properties), the csv with more columns in
 * another order, no ra/dec keys. */
static void older(void)
{
    mkfile_text("o/properties", "dataproduct_type=object\nhats_col_ra=r\\:a\\=b\\\\\n"
                                "hats_col_healpix_order=30\n");
    mkfile_text("o/partition_info.csv", "Dir, Npix ,num_rows,\"Norder\"\r\n"
                                        "0,44,100,1\r\n"
                                        "0,4,7,1\r\n");
    mkfile("o/_common_metadata");
    mkfile("o/Norder=1/Dir=0/Npix=4.parquet");
    mkfile("o/Norder=1/Dir=0/Npix=44.parquet");
    char spec[1024], root[1024];
    snprintf(spec, sizeof spec, "%s/o", top);
    snprintf(root, sizeof root, "%s/o", top);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    expect(&l,
           (const member[]){{"Norder=1/Dir=0/Npix=4.parquet", 1, 4},
                            {"Norder=1/Dir=0/Npix=44.parquet", 1, 44}},
           2);
    CHECK(l.root && strcmp(l.root, root) == 0);
    CHECK(l.hats_ra && strcmp(l.hats_ra, "r:a=b\\") == 0); /* escapes undone */
    CHECK(l.hats_dec == NULL && l.hats_healpix == NULL && l.hats_healpix_order == -1);
    CHECK(!l.has_metadata && l.has_common_metadata);
    pqt_ds_list_free(&l);
}

/* A collection: collection.properties naming the primary catalogue (here the folder g/, beside a
 * margin cache that must not be listed); and its errors. */
static void collection(void)
{
    mkfile_text("k/collection.properties", "#HATS Collection\n"
                                           "obs_collection=gaia\n"
                                           "hats_primary_table_url=g\n"
                                           "all_margins=g_10arcs\n");
    mkfile_text("k/g/hats.properties", "hats_col_ra=ra\nhats_col_dec=dec\n");
    mkfile_text("k/g/partition_info.csv", "Norder,Npix\n0,7\n");
    mkfile("k/g/dataset/Norder=0/Dir=0/Npix=7.parquet");
    mkfile_text("k/g_10arcs/hats.properties", "hats_col_ra=ra\n");
    mkfile_text("k/g_10arcs/partition_info.csv", "Norder,Npix\n0,7\n");
    mkfile("k/g_10arcs/dataset/Norder=0/Dir=0/Npix=7.parquet");
    char spec[1024], root[1024];
    snprintf(spec, sizeof spec, "%s/k", top);
    snprintf(root, sizeof root, "%s/k/g/dataset", top);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, true, &l));
    expect(&l, (const member[]){{"Norder=0/Dir=0/Npix=7.parquet", 0, 7}}, 1);
    CHECK(l.root && strcmp(l.root, root) == 0);
    CHECK(l.hats_dec && strcmp(l.hats_dec, "dec") == 0);
    pqt_ds_list_free(&l);

    static const struct {
        const char *props;
        pqt_status st;
        const char *needle;
    } bad[] = {
        {"obs_collection=x\n", PQT_NOT_FOUND, "no hats_primary_table_url"},
        {"hats_primary_table_url=s3://bucket/g\n", PQT_UNSUPPORTED, "not a local path"},
        {"hats_primary_table_url=nothere\n", PQT_NOT_FOUND, "nothere' holds no hats.properties"},
    };
    for (int i = 0; i < 3; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "k%d/collection.properties", i);
        mkfile_text(rel, bad[i].props);
        snprintf(spec, sizeof spec, "%s/k%d", top, i);
        memset(&l, 0x5A, sizeof l);
        CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), bad[i].st);
        if (!strstr(pqt_errmsg(), bad[i].needle))
            fprintf(stderr, "  k%d: message '%s' lacks '%s'\n", i, pqt_errmsg(), bad[i].needle);
        CHECK(strstr(pqt_errmsg(), bad[i].needle) != NULL);
        CHECK(l.n == 0 && l.root == NULL && !l.is_hats);
    }
}

/* hats_npix_suffix: another file suffix, or "/" for partitions that are folders of files. */
static void suffixes(void)
{
    mkfile_text("x/hats.properties", "hats_npix_suffix=.parq\n");
    mkfile_text("x/partition_info.csv", "Norder,Npix\n0,11\n0,4\n");
    mkfile("x/dataset/Norder=0/Dir=0/Npix=11.parq");
    mkfile("x/dataset/Norder=0/Dir=0/Npix=11.parquet"); /* not this one */
    mkfile("x/dataset/Norder=0/Dir=0/Npix=4/b.parq");
    mkfile("x/dataset/Norder=0/Dir=0/Npix=4/a.parquet");
    mkfile("x/dataset/Norder=0/Dir=0/Npix=4/notes.txt");
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/x", top);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    expect(&l,
           (const member[]){{"Norder=0/Dir=0/Npix=4/a.parquet", 0, 4},
                            {"Norder=0/Dir=0/Npix=4/b.parq", 0, 4},
                            {"Norder=0/Dir=0/Npix=11.parq", 0, 11}},
           3);
    pqt_ds_list_free(&l);

    mkfile_text("y/hats.properties", "hats_npix_suffix = /\n");
    mkfile_text("y/partition_info.csv", "Norder,Npix\n0,11\n");
    mkfile("y/dataset/Norder=0/Dir=0/Npix=11/part0.parquet");
    mkfile("y/dataset/Norder=0/Dir=0/Npix=11.parquet"); /* folders only */
    snprintf(spec, sizeof spec, "%s/y", top);
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    expect(&l, (const member[]){{"Norder=0/Dir=0/Npix=11/part0.parquet", 0, 11}}, 1);
    pqt_ds_list_free(&l);
    mkfile_text("y/partition_info.csv", "Norder,Npix\n0,11\n0,10\n");
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "no folder '") && strstr(pqt_errmsg(), "Dir=0/Npix=10'"));

    mkfile_text("y/hats.properties", "hats_npix_suffix=a/b\n");
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "hats_npix_suffix 'a/b'") != NULL);
    CHECK(l.n == 0 && l.hats_ra == NULL && l.root == NULL);
}

/* e<k>/: a catalogue whose csv is text and whose data holds only Norder=0/Dir=0/Npix=1; the
 * listing fails with st and a message holding needle. */
static void fails(int k, const char *csv, pqt_status st, const char *needle)
{
    char rel[64];
    snprintf(rel, sizeof rel, "e%d/hats.properties", k);
    mkfile_text(rel, "hats_col_ra=ra\n");
    snprintf(rel, sizeof rel, "e%d/partition_info.csv", k);
    mkfile_text(rel, csv);
    snprintf(rel, sizeof rel, "e%d/dataset/Norder=0/Dir=0/Npix=1.parquet", k);
    mkfile(rel);
    snprintf(rel, sizeof rel, "e%d/dataset/Norder=0/Dir=0/Npix=2/_SUCCESS", k);
    mkfile(rel);
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/e%d", top, k);
    pqt_ds_list l;
    memset(&l, 0x5A, sizeof l);
    pqt_status got = pqt_ds_list_open(spec, false, &l);
    CHECK_EQ_I64(got, st);
    if (!strstr(pqt_errmsg(), needle))
        fprintf(stderr, "  e%d: message '%s' lacks '%s'\n", k, pqt_errmsg(), needle);
    CHECK(strstr(pqt_errmsg(), needle) != NULL);
    CHECK(l.n == 0 && l.rel == NULL && l.root == NULL && l.hats_ra == NULL && !l.is_hats);
}

static void errors(void)
{
    fails(0, "Norder,Npix\n0,1\n0,3\n", PQT_NOT_FOUND, "Norder=0/Dir=0/Npix=3.parquet");
    fails(1, "Norder,Npix\n0,2\n", PQT_NOT_FOUND, "Npix=2' holds no *.parquet");
    fails(2, "Norder,Dir\n0,0\n", PQT_CORRUPT, "no Npix column");
    fails(3, "Norder,Npix\n0,1\n0,12\n", PQT_CORRUPT, "line 3");
    fails(4, "Norder,Npix\n0,1\n30,1\n", PQT_CORRUPT, "Norder=30");
    fails(5, "Norder,Npix\n0,x\n", PQT_CORRUPT, "line 2");
    fails(6, "Norder,Npix\n0,1\n0,-1\n", PQT_CORRUPT, "must be integers");
    fails(7, "Norder,Npix\n0,1\n0,1\n", PQT_CORRUPT, "listed twice");
    fails(8, "Norder,Npix\n0\n", PQT_CORRUPT, "line 2");
    fails(9, "", PQT_CORRUPT, "no header");
    /* an empty catalogue (header only) lists nothing and is no error */
    mkfile_text("z/hats.properties", "");
    mkfile_text("z/partition_info.csv", "Norder,Npix\n");
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/z", top);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    CHECK(l.is_hats && l.n == 0);
    pqt_ds_list_free(&l);
    /* without partition_info.csv it is an ordinary directory */
    mkfile_text("p/hats.properties", "hats_col_ra=ra\n");
    mkfile("p/dataset/Norder=0/Dir=0/Npix=1.parquet");
    snprintf(spec, sizeof spec, "%s/p", top);
    CHECK_OK(pqt_ds_list_open(spec, true, &l));
    CHECK(!l.is_hats && l.n == 1 && l.nkeys == 2 && l.hats_ra == NULL);
    pqt_ds_list_free(&l);
}

/* Every allocation failing in turn: PQT_NOMEM with the list zeroed, until the listing fits
 * (valgrind and ASan builds see that nothing leaks on the way). */
static void out_of_memory(void)
{
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/c", top);
    pqt_status st = PQT_NOMEM;
    long k = 0;
    for (; k < 10000 && st != PQT_OK; k++) {
        pqt_ds_list l;
        memset(&l, 0x5A, sizeof l);
        pqt_mem_fail_after(k);
        st = pqt_ds_list_open(spec, true, &l);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            CHECK(l.n > 0);
            pqt_ds_list_free(&l);
        } else {
            CHECK_EQ_I64(st, PQT_NOMEM);
            CHECK(l.n == 0 && l.rel == NULL && l.root == NULL && l.values == NULL);
        }
    }
    CHECK_EQ_I64(st, PQT_OK);
    printf("test_ds_hats: a HATS catalogue listed with each of its %ld allocations failing\n",
           k - 1);
}

int main(void)
{
    REQUIRE_OK(mkdtemp(top) ? PQT_OK : PQT_IO);
    catalogue();
    older();
    collection();
    suffixes();
    errors();
    out_of_memory();
    nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return pqt_test_done("test_ds_hats");
}
