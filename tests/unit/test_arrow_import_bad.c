/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_import_bad.c - hostile and failing Arrow streams: too few buffers, offsets past
 * their child or decreasing, a child array shorter than its struct, a missing child, a NULL
 * data buffer, a dictionary index past the dictionary, a view past its buffer, nulls in a
 * field declared not nullable, a type pqt cannot hold, get_schema and get_next failing.
 * Each must give its status with a message naming the field and the batch, release every
 * batch, the schema and the stream exactly once, and (written to a file) leave nothing in
 * the directory. Truth: the statuses and names the contract (pqt_arrow.h) promises.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pqt_arrow.h"
#include "test_arrow_import_build.h"
#include "testutil.h"

static char g_dir[256];

static int dir_entries(void)
{
    DIR *d = opendir(g_dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    if (d) closedir(d);
    return n;
}

typedef struct bad_case {
    const char *what;
    struct ArrowSchema *schema;
    struct ArrowArray *batches[3];
    int nbatch, fail_at, schema_fails;
    pqt_status want;
    const char *msg1, *msg2; /* substrings the message must hold */
} bad_case;

/* Run c twice: into a table and into a file; both fail as wanted and release everything. */
static void run(const bad_case *c)
{
    for (int to_file = 0; to_file < 2; to_file++) {
        ta_stream p;
        memset(&p, 0, sizeof p);
        p.schema = c->schema;
        for (int i = 0; i < c->nbatch; i++)
            p.batches[i] = c->batches[i];
        p.nbatch = c->nbatch, p.fail_at = c->fail_at, p.schema_fails = c->schema_fails;
        ta_batch_rel = ta_schema_rel = ta_stream_rel = ta_batch_out = ta_schema_out = 0;
        struct ArrowArrayStream s;
        ta_stream_init(&s, &p);
        pqt_table *t = NULL;
        char path[512];
        snprintf(path, sizeof path, "%s/out.parquet", g_dir);
        pqt_status st =
            to_file ? pqt_write_arrow_stream(path, &s, NULL) : pqt_table_from_arrow_stream(&s, &t);
        const char *m = pqt_errmsg();
        if (st != c->want || !strstr(m, c->msg1) || (c->msg2 && !strstr(m, c->msg2))) {
            fprintf(stderr, "%s (%s): status %s, message '%s'\n", c->what,
                    to_file ? "file" : "table", pqt_status_name(st), m);
            pqt_test_failures++;
        }
        CHECK(t == NULL);
        if (!ta_all_released())
            fprintf(stderr, "%s: releases: batches %d of %d, schema %d of %d, stream %d\n", c->what,
                    ta_batch_rel, ta_batch_out, ta_schema_rel, ta_schema_out, ta_stream_rel);
        CHECK(ta_all_released());
        CHECK_EQ_I64(dir_entries(), 0);
    }
}

static const int32_t ints[] = {1, 2, 3, 4};
static const int32_t offs_ok[] = {0, 1, 2, 3}, offs_down[] = {0, 3, 1, 4},
                     offs_neg[] = {-1, 0, 1, 2};
static const int32_t list_far[] = {0, 1, 2, 9};
static const char bytes[] = "abcd";
static const int8_t idx_far[] = {0, 1, 5};
static const uint8_t one_null[] = {0x05}; /* element 1 null */

static struct ArrowArray *batch1(struct ArrowArray *child)
{
    return ta_kids(ta_arr_new(3, 0, 0, 1, NULL), 1, child);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_arrow_bad_XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    ta_reset();

    /* an int32 array with only its validity buffer */
    bad_case c1 = {
        "short buffers",
        ta_sch_new("+s", "", 1, ta_sch_new("i", "x", 0)),
        {batch1(ta_arr_new(3, 0, 0, 2, NULL, ints)), batch1(ta_arr_new(3, 0, 0, 1, NULL))},
        2,
        -1,
        0,
        PQT_CORRUPT,
        "field 'x': 1 buffers, its type needs 2",
        "batch 2"};
    run(&c1);

    bad_case c2 = {"decreasing offsets",
                   ta_sch_new("+s", "", 1, ta_sch_new("u", "s", 0)),
                   {batch1(ta_arr_new(3, 0, 0, 3, NULL, offs_down, bytes))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 's': offsets decrease at element 2",
                   "batch 1"};
    run(&c2);

    bad_case c3 = {"negative offset",
                   ta_sch_new("+s", "", 1, ta_sch_new("u", "s", 0)),
                   {batch1(ta_arr_new(3, 0, 0, 3, NULL, offs_neg, bytes))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 's': offset -1",
                   "batch 1"};
    run(&c3);

    /* list offsets reaching element 9 of a child of 3 */
    bad_case c4 = {"list offsets out of bounds",
                   ta_sch_new("+s", "", 1, ta_sch_new("+l", "l", 1, ta_sch_new("i", "item", 0))),
                   {batch1(ta_kids(ta_arr_new(3, 0, 0, 2, NULL, list_far), 1,
                                   ta_arr_new(3, 0, 0, 2, NULL, ints)))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 'l': list offsets reach element 9",
                   "batch 1"};
    run(&c4);

    /* the struct has 3 rows, its child 2 */
    bad_case c5 = {"child shorter than its struct",
                   ta_sch_new("+s", "", 1, ta_sch_new("i", "x", 0)),
                   {batch1(ta_arr_new(2, 0, 0, 2, NULL, ints))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 'x': elements 0..2 are needed of an array of length 2",
                   "batch 1"};
    run(&c5);

    bad_case c6 = {"a child array missing",
                   ta_sch_new("+s", "", 2, ta_sch_new("i", "x", 0), ta_sch_new("i", "y", 0)),
                   {batch1(ta_arr_new(3, 0, 0, 2, NULL, ints))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "1 child arrays for 2 child fields",
                   "batch 1"};
    run(&c6);

    bad_case c7 = {"no data buffer",
                   ta_sch_new("+s", "", 1, ta_sch_new("g", "x", 0)),
                   {batch1(ta_arr_new(3, 0, 0, 2, NULL, NULL))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 'x': no data buffer for 3 values",
                   "batch 1"};
    run(&c7);

    struct ArrowSchema *dict_field = ta_sch_new("c", "d", 0);
    dict_field->dictionary = ta_sch_new("u", "", 0);
    struct ArrowArray *dict_arr = ta_arr_new(3, 0, 0, 2, NULL, idx_far);
    dict_arr->dictionary = ta_arr_new(3, 0, 0, 3, NULL, offs_ok, bytes);
    bad_case c8 = {"dictionary index out of range",
                   ta_sch_new("+s", "", 1, dict_field),
                   {batch1(dict_arr)},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 'd': element 2 has dictionary index 5",
                   "batch 1"};
    run(&c8);

    /* a view of 20 bytes at 10 in a variadic buffer of 16 */
    static uint8_t views[48];
    static const int64_t sizes[] = {16};
    int32_t len = 20, zero = 0, at = 10;
    memcpy(views + 32, &len, 4);
    memcpy(views + 40, &zero, 4);
    memcpy(views + 44, &at, 4);
    bad_case c9 = {"view past its buffer",
                   ta_sch_new("+s", "", 1, ta_sch_new("vu", "v", 0)),
                   {batch1(ta_arr_new(3, 0, 0, 4, NULL, views, bytes, sizes))},
                   1,
                   -1,
                   0,
                   PQT_CORRUPT,
                   "field 'v': element 2 views bytes 10..29",
                   "batch 1"};
    run(&c9);

    struct ArrowSchema *required = ta_sch_new("i", "r", 0);
    required->flags = 0;
    bad_case c10 = {"nulls in a field not nullable",
                    ta_sch_new("+s", "", 1, required),
                    {batch1(ta_arr_new(3, 0, 1, 2, one_null, ints))},
                    1,
                    -1,
                    0,
                    PQT_CORRUPT,
                    "field 'r' is declared not nullable and element 1",
                    "batch 1"};
    run(&c10);

    bad_case c11 = {"a duration",
                    ta_sch_new("+s", "", 2, ta_sch_new("i", "x", 0),
                               ta_sch_new("+s", "s", 1, ta_sch_new("tDs", "d", 0))),
                    {NULL},
                    0,
                    -1,
                    0,
                    PQT_UNSUPPORTED_TYPE,
                    "field 's.d': Arrow format 'tDs'",
                    NULL};
    run(&c11);

    bad_case c12 = {"a list of lists",
                    ta_sch_new("+s", "", 1,
                               ta_sch_new("+l", "ll", 1,
                                          ta_sch_new("+l", "item", 1, ta_sch_new("i", "item", 0)))),
                    {NULL},
                    0,
                    -1,
                    0,
                    PQT_UNSUPPORTED_TYPE,
                    "field 'll'",
                    NULL};
    run(&c12);

    static const int64_t huge_seconds[] = {1, INT64_MAX / 999, 3};
    bad_case c16 = {"seconds past milliseconds",
                    ta_sch_new("+s", "", 1, ta_sch_new("tss:", "ts", 0)),
                    {batch1(ta_arr_new(3, 0, 0, 2, NULL, huge_seconds))},
                    1,
                    -1,
                    0,
                    PQT_OVERFLOW,
                    "field 'ts': value",
                    "batch 1"};
    run(&c16);

    bad_case c17 = {"two fields, one name",
                    ta_sch_new("+s", "", 2, ta_sch_new("i", "s.a", 0),
                               ta_sch_new("+s", "s", 1, ta_sch_new("i", "a", 0))),
                    {NULL},
                    0,
                    -1,
                    0,
                    PQT_UNSUPPORTED,
                    "two fields make the column 's.a'",
                    NULL};
    run(&c17);

    bad_case c18 = {"an empty name",
                    ta_sch_new("+s", "", 1, ta_sch_new("i", "", 0)),
                    {NULL},
                    0,
                    -1,
                    0,
                    PQT_UNSUPPORTED,
                    "field 1 is named ''",
                    NULL};
    run(&c18);

    bad_case c13 = {"get_next fails",
                    ta_sch_new("+s", "", 1, ta_sch_new("i", "x", 0)),
                    {batch1(ta_arr_new(3, 0, 0, 2, NULL, ints))},
                    1,
                    1,
                    0,
                    PQT_IO,
                    "batch 2: the producer's get_next failed",
                    "the test producer failed on purpose"};
    run(&c13);

    bad_case c14 = {"get_schema fails",
                    ta_sch_new("+s", "", 1, ta_sch_new("i", "x", 0)),
                    {NULL},
                    0,
                    -1,
                    1,
                    PQT_IO,
                    "get_schema failed",
                    "the test producer failed on purpose"};
    run(&c14);

    bad_case c15 = {"not a struct",       ta_sch_new("i", "x", 0),   {NULL}, 0, -1, 0,
                    PQT_UNSUPPORTED_TYPE, "not a struct of columns", NULL};
    run(&c15);

    /* a released stream is refused and left alone; NULL arguments are refused */
    struct ArrowArrayStream s;
    memset(&s, 0, sizeof s);
    pqt_table *t = NULL;
    CHECK(pqt_table_from_arrow_stream(&s, &t) == PQT_MISUSE);
    CHECK(pqt_write_arrow_stream("x.parquet", NULL, NULL) == PQT_MISUSE);
    CHECK(pqt_table_from_arrow_stream(NULL, &t) == PQT_MISUSE);

    rmdir(g_dir);
    return pqt_test_done("test_arrow_import_bad");
}
