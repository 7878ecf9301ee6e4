/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ds_listing.c - which files a dataset spec names (src/dataset/listing.c), on trees built
 * by hand under a mkdtemp directory: a directory's *.parquet files in bytewise path order with
 * '.'/'_' entries skipped, globs (`**` at the start, middle and end, `[a-c]`, `[!x]`, `[^x]`,
 * `?`, quoting), a pattern matching nothing, symlinked directories followed but never around a
 * loop, the caller's own list kept in its order, and 10,000 files listed (the time printed).
 * The expected lists are written out by hand from the trees.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw, symlink, mkdtemp */
#endif
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dataset/listing.h"
#include "pqt.h"
#include "testutil.h"

static char top[] = "/tmp/pqt_test_ds_listing_XXXXXX";

/* top/rel as a file (its folders made first) holding a few bytes. */
static void mkfile(const char *rel)
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
    fputs("PAR1", f);
    fclose(f);
}

static void mkdir_rel(const char *rel)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    CHECK(mkdir(p, 0755) == 0);
}

static void symlink_rel(const char *target, const char *rel)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    CHECK(symlink(target, p) == 0);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

/* The list is exactly want[0..n) (relative paths), root as given. */
static void expect(const pqt_ds_list *l, const char *root, const char *const *want, int n)
{
    CHECK_EQ_I64(l->n, n);
    if (root) CHECK(l->root && strcmp(l->root, root) == 0);
    for (int i = 0; i < n && i < l->n; i++)
        if (strcmp(l->rel[i], want[i]) != 0) {
            fprintf(stderr, "  member %d: got '%s', want '%s'\n", i, l->rel[i], want[i]);
            CHECK(!"member differs");
        }
}

/* List spec (under top when it is relative to it) and compare. */
static void expect_spec(const char *spec_rel, const char *root_rel, const char *const *want, int n)
{
    char spec[1024], root[1024];
    snprintf(spec, sizeof spec, "%s/%s", top, spec_rel);
    snprintf(root, sizeof root, "%s%s%s", top, root_rel[0] ? "/" : "", root_rel);
    pqt_ds_list l;
    pqt_status st = pqt_ds_list_open(spec, false, &l);
    if (st != PQT_OK) fprintf(stderr, "  '%s': %s\n", spec_rel, pqt_errmsg());
    CHECK_OK(st);
    expect(&l, root, want, n);
    pqt_ds_list_free(&l);
}

/* The tree most checks share: top/t. */
static void build_tree(void)
{
    mkfile("t/b.parquet");
    mkfile("t/a.parquet");
    mkfile("t/A.parquet");
    mkfile("t/sub-x.parquet"); /* '-' sorts before '/': bytewise, not walk order */
    mkfile("t/sub/c.parquet");
    mkfile("t/sub/deeper/d.parquet");
    mkfile("t/_SUCCESS");
    mkfile("t/_metadata");
    mkfile("t/_common_metadata");
    mkfile("t/_temporary/x.parquet");
    mkfile("t/.hidden/y.parquet");
    mkfile("t/.a.parquet.crc");
    mkfile("t/.z.parquet");
    mkfile("t/notes.txt");
    mkfile("t/x*y.parquet");
    mkfile("t/xay.parquet");
    mkdir_rel("t/empty");
}

static void directory(void)
{
    static const char *const all[] = {"A.parquet",     "a.parquet",     "b.parquet",
                                      "sub-x.parquet", "sub/c.parquet", "sub/deeper/d.parquet",
                                      "x*y.parquet",   "xay.parquet"};
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/t//", top); /* trailing slashes are not part of the root */
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    char root[1024];
    snprintf(root, sizeof root, "%s/t", top);
    expect(&l, root, all, 8);
    CHECK(l.has_metadata && l.has_common_metadata && !l.is_hats && l.nkeys == 0);

    char buf[1024];
    int len = pqt_ds_member_path(&l, 5, buf, sizeof buf);
    char want[1024];
    snprintf(want, sizeof want, "%s/t/sub/deeper/d.parquet", top);
    CHECK(len == (int)strlen(want) && strcmp(buf, want) == 0);
    CHECK_EQ_I64(pqt_ds_member_path(&l, 5, buf, strlen(want)), -1); /* no room for the NUL */
    CHECK_EQ_I64(pqt_ds_member_path(&l, 8, buf, sizeof buf), -1);
    pqt_ds_list_free(&l);
    CHECK(l.n == 0 && l.rel == NULL && l.root == NULL);

    expect_spec("t/sub", "t/sub", (const char *const[]){"c.parquet", "deeper/d.parquet"}, 2);

    /* nothing there; a directory without members; one with only a summary */
    snprintf(spec, sizeof spec, "%s/t/missing", top);
    memset(&l, 0x5A, sizeof l);
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), spec) != NULL);
    CHECK(l.n == 0 && l.rel == NULL && l.root == NULL); /* zeroed */
    snprintf(spec, sizeof spec, "%s/t/empty", top);
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), spec) != NULL);
    mkfile("s/_common_metadata");
    snprintf(spec, sizeof spec, "%s/s", top);
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    CHECK(l.n == 0 && l.has_common_metadata && !l.has_metadata);
    pqt_ds_list_free(&l);

    /* one regular file: the caller's list of that path */
    snprintf(spec, sizeof spec, "%s/t/a.parquet", top);
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    expect(&l, "", (const char *const[]){spec}, 1);
    pqt_ds_list_free(&l);
}

static void globs(void)
{
    CHECK(pqt_ds_is_pattern("a/*.parquet") && pqt_ds_is_pattern("a?") &&
          pqt_ds_is_pattern("[ab]") && !pqt_ds_is_pattern("a/b.parquet"));
    expect_spec("t/*.parquet", "t",
                (const char *const[]){"A.parquet", "a.parquet", "b.parquet", "sub-x.parquet",
                                      "x*y.parquet", "xay.parquet"},
                6);
    /* ** in the middle: zero or more directories */
    expect_spec("t/**/*.parquet", "t",
                (const char *const[]){"A.parquet", "a.parquet", "b.parquet", "sub-x.parquet",
                                      "sub/c.parquet", "sub/deeper/d.parquet", "x*y.parquet",
                                      "xay.parquet"},
                8);
    expect_spec("t/sub/**/d.parquet", "t/sub", (const char *const[]){"deeper/d.parquet"}, 1);
    expect_spec("t/**/sub/*.parquet", "t", (const char *const[]){"sub/c.parquet"}, 1);
    /* ** at the end: every file below, any name */
    expect_spec("t/sub/**", "t/sub", (const char *const[]){"c.parquet", "deeper/d.parquet"}, 2);
    expect_spec("t/**", "t",
                (const char *const[]){"A.parquet", "a.parquet", "b.parquet", "notes.txt",
                                      "sub-x.parquet", "sub/c.parquet", "sub/deeper/d.parquet",
                                      "x*y.parquet", "xay.parquet"},
                9);
    /* a file reached twice by a pattern is listed once */
    expect_spec("t/**/**/c.parquet", "t", (const char *const[]){"sub/c.parquet"}, 1);
    /* classes, negation, ? and quoting */
    expect_spec("t/[a-c].parquet", "t", (const char *const[]){"a.parquet", "b.parquet"}, 2);
    expect_spec("t/[!a].parquet", "t", (const char *const[]){"A.parquet", "b.parquet"}, 2);
    expect_spec("t/[^ab].parquet", "t", (const char *const[]){"A.parquet"}, 1);
    expect_spec("t/[]a].parquet", "t", (const char *const[]){"a.parquet"}, 1);
    expect_spec("t/?.parquet", "t", (const char *const[]){"A.parquet", "a.parquet", "b.parquet"},
                3);
    expect_spec("t/s?b/*.parquet", "t", (const char *const[]){"sub/c.parquet"}, 1);
    expect_spec("t/x\\*y.parquet", "t", (const char *const[]){"x*y.parquet"}, 1);
    expect_spec("t/x?y.parquet", "t", (const char *const[]){"x*y.parquet", "xay.parquet"}, 2);
    /* wildcards skip '.' and '_' names unless the pattern starts with them */
    expect_spec("t/_*", "t", (const char *const[]){"_SUCCESS", "_common_metadata", "_metadata"}, 3);
    expect_spec("t/.*.parquet", "t", (const char *const[]){".z.parquet"}, 1);
}

static void glob_errors_and_cwd(void)
{
    char spec[1024];
    pqt_ds_list l;
    snprintf(spec, sizeof spec, "%s/t/nomatch*.parquet", top);
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), spec) != NULL);
    CHECK(l.n == 0 && l.root == NULL);
    snprintf(spec, sizeof spec, "%s/nodir/*.parquet", top);
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);
    snprintf(spec, sizeof spec, "%s/t/*/x.parquet", top); /* _temporary is not matched by * */
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);

    /* a literal component longer than any name, and a pattern longer than any path */
    char longname[301];
    memset(longname, 'a', 300);
    longname[300] = '\0';
    snprintf(spec, sizeof spec, "%s/t/s?b/%s", top, longname);
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_NOT_FOUND);
    char *huge = malloc(6001);
    REQUIRE_OK(huge ? PQT_OK : PQT_NOMEM);
    for (int i = 0; i < 3000; i++)
        memcpy(huge + 2 * i, "d/", 2);
    strcpy(huge + 5998, "*");
    CHECK_EQ_I64(pqt_ds_list_open(huge, false, &l), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "path too long") != NULL);
    free(huge);

    /* ** at the start of a relative pattern: root is "." */
    char cwd[1024];
    REQUIRE_OK(getcwd(cwd, sizeof cwd) ? PQT_OK : PQT_IO);
    char t[1024];
    snprintf(t, sizeof t, "%s/t", top);
    REQUIRE_OK(chdir(t) == 0 ? PQT_OK : PQT_IO);
    CHECK_OK(pqt_ds_list_open("**/d.parquet", false, &l));
    expect(&l, ".", (const char *const[]){"sub/deeper/d.parquet"}, 1);
    char buf[256];
    CHECK(pqt_ds_member_path(&l, 0, buf, sizeof buf) > 0 &&
          strcmp(buf, "./sub/deeper/d.parquet") == 0);
    pqt_ds_list_free(&l);
    CHECK_OK(pqt_ds_list_open("sub/*.parquet", false, &l));
    expect(&l, "sub", (const char *const[]){"c.parquet"}, 1);
    pqt_ds_list_free(&l);
    CHECK_OK(pqt_ds_list_open(".", false, &l));
    CHECK(l.n == 8 && strcmp(l.root, ".") == 0 && l.has_metadata);
    pqt_ds_list_free(&l);
    REQUIRE_OK(chdir(cwd) == 0 ? PQT_OK : PQT_IO);
}

/* l/a/x.parquet, l/a/up -> .. and l/a/self -> . (loops), l/link -> a (a second way in). */
static void symlinks(void)
{
    mkfile("l/a/x.parquet");
    symlink_rel("..", "l/a/up");
    symlink_rel(".", "l/a/self");
    symlink_rel("a", "l/link");
    symlink_rel("nowhere.parquet", "l/dangling.parquet");
    static const char *const want[] = {"a/x.parquet", "link/x.parquet"};
    expect_spec("l", "l", want, 2);
    expect_spec("l/**/x.parquet", "l", want, 2);
    expect_spec("l/**", "l", want, 2);
}

static void paths(void)
{
    const char *p[] = {"z/b.parquet", "/abs/a.parquet", "m.parquet"};
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_paths(p, 3, false, &l));
    expect(&l, "", p, 3);
    char buf[64];
    CHECK(pqt_ds_member_path(&l, 1, buf, sizeof buf) == 14 && strcmp(buf, p[1]) == 0);
    CHECK(!l.has_metadata && l.nkeys == 0);
    pqt_ds_list_free(&l);
    CHECK_EQ_I64(pqt_ds_list_paths(p, 0, false, &l), PQT_MISUSE);
    const char *bad[] = {"a.parquet", ""};
    CHECK_EQ_I64(pqt_ds_list_paths(bad, 2, false, &l), PQT_MISUSE);
    CHECK(l.n == 0 && l.rel == NULL);
}

static void unreadable(void)
{
    if (geteuid() == 0) {
        printf("test_ds_listing: running as root, an unreadable directory is not checked\n");
        return;
    }
    mkfile("u/ok.parquet");
    mkfile("u/closed/x.parquet");
    char p[1024], spec[1024];
    snprintf(p, sizeof p, "%s/u/closed", top);
    snprintf(spec, sizeof spec, "%s/u", top);
    CHECK(chmod(p, 0) == 0);
    pqt_ds_list l;
    CHECK_EQ_I64(pqt_ds_list_open(spec, false, &l), PQT_IO);
    CHECK(strstr(pqt_errmsg(), p) != NULL);
    CHECK(l.n == 0 && l.rel == NULL);
    CHECK(chmod(p, 0755) == 0);
}

/* 100 folders of 100 files; listed in order, the time printed. */
static void many(void)
{
    char rel[64];
    for (int d = 0; d < 100; d++)
        for (int f = 0; f < 100; f++) {
            snprintf(rel, sizeof rel, "m/d%02d/f%03d.parquet", 99 - d, f);
            mkfile(rel);
        }
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/m", top);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, true, &l));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("test_ds_listing: 10,000 files listed in %.3f s\n",
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    CHECK_EQ_I64(l.n, 10000);
    int sorted = 0;
    for (int64_t i = 0; i < l.n; i++) {
        snprintf(rel, sizeof rel, "d%02d/f%03d.parquet", (int)(i / 100), (int)(i % 100));
        sorted += strcmp(l.rel[i], rel) == 0;
    }
    CHECK_EQ_I64(sorted, 10000);
    pqt_ds_list_free(&l);
    snprintf(spec, sizeof spec, "%s/m/**/f05?.parquet", top);
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    CHECK(l.n == 1000 && strcmp(l.rel[0], "d00/f050.parquet") == 0 &&
          strcmp(l.rel[999], "d99/f059.parquet") == 0);
    pqt_ds_list_free(&l);
}

/* The component matcher against the C library's fnmatch(3) on random ASCII patterns and names
 * (no '.', ':' or '=' that would start fnmatch's collating classes; ASCII, so `?` is a byte). */
static void matcher_vs_fnmatch(void)
{
    static const char pal[] = "aabbcc*?*?-!^][\\";
    static const char sal[] = "abc-!^][*?\\";
    uint64_t rng = 31;
    int agree = 0, matched = 0;
    enum { ROUNDS = 200000 };
    for (int r = 0; r < ROUNDS; r++) {
        char pat[12], name[10];
        int np = 1 + (int)(pqt_test_rand(&rng) % 10), ns = (int)(pqt_test_rand(&rng) % 9);
        for (int i = 0; i < np; i++)
            pat[i] = pal[pqt_test_rand(&rng) % (sizeof pal - 1)];
        if (pat[np - 1] == '\\') pat[np - 1] = '*'; /* fnmatch: no match; ours: a '\\' */
        pat[np] = '\0';
        for (int i = 0; i < ns; i++)
            name[i] = sal[pqt_test_rand(&rng) % 4]; /* mostly letters */
        if (ns > 0 && pqt_test_rand(&rng) % 4 == 0)
            name[pqt_test_rand(&rng) % (uint64_t)ns] = sal[pqt_test_rand(&rng) % (sizeof sal - 1)];
        name[ns] = '\0';
        bool want = fnmatch(pat, name, 0) == 0, got = pqt_ds_glob_match(pat, name);
        if (got != want && agree + 20 > r)
            fprintf(stderr, "  pattern '%s' name '%s': fnmatch %d, ours %d\n", pat, name, want,
                    got);
        agree += got == want;
        matched += want;
    }
    CHECK_EQ_I64(agree, ROUNDS);
    CHECK(matched > ROUNDS / 40); /* both answers were asked for */
    printf("test_ds_listing: %d of %d random names matched\n", matched, ROUNDS);
    /* `?` is a whole UTF-8 character, fnmatch's C locale a byte */
    CHECK(pqt_ds_glob_match("?.parquet", "\xc3\xa9.parquet"));
    CHECK(!pqt_ds_glob_match("??.parquet", "\xc3\xa9.parquet"));
}

int main(void)
{
    REQUIRE_OK(mkdtemp(top) ? PQT_OK : PQT_IO);
    build_tree();
    directory();
    globs();
    glob_errors_and_cwd();
    symlinks();
    paths();
    unreadable();
    many();
    matcher_vs_fnmatch();
    nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return pqt_test_done("test_ds_listing");
}
