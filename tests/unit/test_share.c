/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_share.c - pqt_table_open_share without MPI: the shares of nparts opens, concatenated
 * in part order, are the rows of the whole open (one file and datasets; bytes and rows;
 * filters, slices); a snapshot recorded by one open is replayed by another that reads no
 * footer; snapshot bytes that are truncated or garbled fail cleanly (never a crash); a file
 * that changed size since the recording is refused.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

/* The snapshot an open hands on: copied, as another process would receive it. */
typedef struct got_snap {
    void *bytes;
    size_t n;
    int calls;
} got_snap;

static pqt_status keep_snapshot(void *user, const void *bytes, size_t n)
{
    got_snap *g = user;
    g->calls++;
    free(g->bytes);
    g->bytes = malloc(n);
    memcpy(g->bytes, bytes, n);
    g->n = n;
    return PQT_OK;
}

static pqt_status refuse_snapshot(void *user, const void *bytes, size_t n)
{
    (void)user;
    (void)bytes;
    (void)n;
    return PQT_IO;
}

static int64_t *column(pqt_table *t, const char *name, int64_t *n)
{
    void *data = NULL;
    *n = 0;
    CHECK_OK(pqt_table_get_alloc(t, name, PQT_INT64, &data, NULL, n));
    return data;
}

static pqt_opts *opts_for(const char *filter, int by, int64_t lo, int64_t hi)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    if (filter) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SHARE_BY, by));
    if (lo) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
    if (hi) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi));
    return o;
}

/* The parts' ids and row indexes, in part order, equal the whole open's; part 0 records and
 * the others replay its snapshot, reading no footer. */
static void check_parts(const char *path, const char *filter, int by, int64_t lo, int64_t hi,
                        int nparts)
{
    pqt_opts *o = opts_for(filter, by, lo, hi);
    pqt_table *whole;
    REQUIRE_OK(pqt_table_open(path, o, &whole));
    int64_t n = 0, nri = 0;
    int64_t *id = column(whole, "id", &n), *ri = column(whole, "parquet_row_index", &nri);
    got_snap g = {0};
    int64_t at = 0, footers = 0;
    bool same = true;
    for (int p = 0; p < nparts; p++) {
        pqt_table *t = NULL;
        if (p == 0) {
            CHECK_OK(pqt_table_open_share(path, o, 0, nparts, NULL, 0, keep_snapshot, &g, &t));
            CHECK_EQ_I64(g.calls, 1);
        } else {
            CHECK_OK(pqt_table_open_share(path, o, p, nparts, g.bytes, g.n, NULL, NULL, &t));
        }
        if (!t) continue;
        pqt_scan_counts sc;
        CHECK_OK(pqt_table_scan_stats(t, &sc));
        footers += sc.footers_read;
        if (p > 0) CHECK_EQ_I64(sc.footers_read, 0);
        char text[8192], want[64];
        pqt_table_explain(t, text, sizeof text);
        snprintf(want, sizeof want, "share %d of %d (%s)", p + 1, nparts,
                 by == PQT_SHARE_ROWS ? "exact rows" : "row groups balanced by bytes");
        CHECK(strstr(text, want) != NULL);
        int64_t k = 0, kri = 0;
        int64_t *pid = column(t, "id", &k), *pri = column(t, "parquet_row_index", &kri);
        pqt_table *c = NULL; /* a clone keeps the share */
        CHECK_OK(pqt_table_clone(t, &c));
        int64_t kc = 0;
        int64_t *cid = c ? column(c, "id", &kc) : NULL;
        CHECK_EQ_I64(kc, k);
        CHECK(k == 0 || (cid && cid[0] == pid[0] && cid[k - 1] == pid[k - 1]));
        pqt_free(cid);
        pqt_table_close(c);
        for (int64_t i = 0; i < k && same; i++)
            same = at + i < n && pid[i] == id[at + i] && pri[i] == ri[at + i];
        at += k;
        pqt_free(pid);
        pqt_free(pri);
        pqt_table_close(t);
    }
    if (!same || at != n)
        fprintf(stderr, "%s [%s] by %d in %d parts: %lld rows, whole %lld\n", path,
                filter ? filter : "", by, nparts, (long long)at, (long long)n);
    CHECK(same);
    CHECK_EQ_I64(at, n);
    pqt_scan_counts wc;
    CHECK_OK(pqt_table_scan_stats(whole, &wc));
    CHECK_EQ_I64(footers, wc.footers_read);
    free(g.bytes);
    pqt_free(id);
    pqt_free(ri);
    pqt_table_close(whole);
    pqt_opts_free(o);
}

/* Truncations (every one of the first 64 bytes, then about 400 more) and flipped bits of a
 * snapshot: an error or a table, never a crash (the open either fails cleanly or reads a
 * footer the garbling left valid). */
static void check_hostile_snapshot(const char *path)
{
    pqt_table *t = NULL;
    got_snap g = {0};
    REQUIRE_OK(pqt_table_open_share(path, NULL, 0, 2, NULL, 0, keep_snapshot, &g, &t));
    pqt_table_close(t);
    const uint8_t *snap = g.bytes;
    size_t n = g.n;
    uint8_t *copy = malloc(n);
    for (size_t len = 0; len < n; len += len < 64 ? 1 : 1 + n / 400) {
        memcpy(copy, snap, len);
        t = NULL;
        pqt_status st = pqt_table_open_share(path, NULL, 1, 2, copy, len, NULL, NULL, &t);
        CHECK(st != PQT_OK);
        CHECK(t == NULL);
    }
    uint64_t rng = 7;
    for (int k = 0; k < 120; k++) {
        memcpy(copy, snap, n);
        size_t at = (size_t)(pqt_test_rand(&rng) % n);
        copy[at] ^= (uint8_t)(1u << (pqt_test_rand(&rng) % 8));
        t = NULL;
        if (pqt_table_open_share(path, NULL, 1, 2, copy, n, NULL, NULL, &t) == PQT_OK)
            pqt_table_close(t);
    }
    free(copy);
    free(g.bytes);
}

/* A file that grew after the recording is refused when replayed. */
static void check_changed_file(void)
{
    char path[] = "/tmp/pqt_test_share_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE_OK(fd < 0);
    FILE *in = fopen("fortran/data/catalogue.parquet", "rb");
    REQUIRE_OK(in == NULL);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
        CHECK(write(fd, buf, k) == (ssize_t)k);
    fclose(in);
    pqt_table *t = NULL;
    got_snap g = {0};
    CHECK_OK(pqt_table_open_share(path, NULL, 0, 2, NULL, 0, keep_snapshot, &g, &t));
    pqt_table_close(t);
    CHECK(write(fd, "x", 1) == 1);
    t = NULL;
    CHECK_EQ_I64(pqt_table_open_share(path, NULL, 1, 2, g.bytes, g.n, NULL, NULL, &t), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "changed") != NULL);
    close(fd);
    unlink(path);
    free(g.bytes);
}

int main(void)
{
    const char *big = "fortran/data/big.parquet"; /* 2,000,000 rows in 20 row groups */
    const char *hive = "tests/data/datasets/duckdb_hive";
    const char *hats = "tests/data/datasets/hats_small";
    for (int nparts = 1; nparts <= 7; nparts += 3) {
        check_parts(big, NULL, PQT_SHARE_BYTES, 0, 0, nparts);
        check_parts(big, NULL, PQT_SHARE_ROWS, 0, 0, nparts);
        check_parts(big, "id % 5 == 1", PQT_SHARE_ROWS, 0, 0, nparts);
        check_parts(big, "id < 300000 or id > 1900000", PQT_SHARE_BYTES, 0, 0, nparts);
        check_parts(big, NULL, PQT_SHARE_ROWS, 12345, 1500000, nparts);
        check_parts(hive, "year >= 2019", PQT_SHARE_BYTES, 0, 0, nparts);
        check_parts(hats, "cone(ra, dec, 210, 30, 8)", PQT_SHARE_ROWS, 0, 0, nparts);
    }
    /* more parts than row groups: some parts are empty, none fails */
    check_parts(big, NULL, PQT_SHARE_BYTES, 0, 0, 33);
    check_hostile_snapshot(big);
    check_hostile_snapshot(hive);
    check_changed_file();
    /* misuse: a part out of range; both replaying and recording */
    pqt_table *t = NULL;
    got_snap g = {0};
    CHECK_EQ_I64(pqt_table_open_share(big, NULL, 2, 2, NULL, 0, NULL, NULL, &t), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_open_share(big, NULL, 0, 2, "x", 1, keep_snapshot, &g, &t),
                 PQT_MISUSE);
    /* the callback's failure is the open's; nothing is returned */
    CHECK_EQ_I64(pqt_table_open_share(big, NULL, 0, 2, NULL, 0, refuse_snapshot, NULL, &t), PQT_IO);
    CHECK_EQ_I64(pqt_table_open_share(hive, NULL, 0, 2, NULL, 0, refuse_snapshot, NULL, &t),
                 PQT_IO);
    CHECK(t == NULL);
    return pqt_test_done("test_share");
}
