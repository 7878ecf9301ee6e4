/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_meta.c - what an Arrow export says beside the values (issue 34): units
 * and a MAML's info and ucd as field metadata, field flags following the file (a required
 * column turns nullable once the caller writes a null into it), and a read failing while the
 * stream is pulled (get_next EIO, get_last_error naming the column and the row group), a
 * stream released unpulled. The leak count of private blocks returns to 0.
 * Truth: tests/data/maml/alltypes_units.maml's entries; the corpus' alltypes_plain.parquet
 * and nonnullable.impala.parquet (ID required) through the table's getters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/arrow_int.h"
#include "arrow_batches.h"
#include "arrow_check.h"
#include "pqt_arrow.h"
#include "testutil.h"

static char ab_rg_path[256];

/* The value of key in Arrow field metadata, or NULL (into buf). */
static const char *meta_get(const char *m, const char *key, char *buf, size_t cap)
{
    if (!m) return NULL;
    int32_t n, l;
    memcpy(&n, m, 4), m += 4;
    for (int i = 0; i < n; i++) {
        memcpy(&l, m, 4), m += 4;
        int hit = (size_t)l == strlen(key) && !memcmp(m, key, (size_t)l);
        m += l;
        memcpy(&l, m, 4), m += 4;
        if (hit && (size_t)l < cap) {
            memcpy(buf, m, (size_t)l);
            buf[l] = 0;
            return buf;
        }
        m += l;
    }
    return NULL;
}

/* Units and a MAML's info and ucd travel as field metadata. */
static void test_metadata(void)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    CHECK_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_maml(o, "tests/data/maml/alltypes_units.maml"));
    CHECK_OK(pqt_table_open("tests/data/parquet-testing/data/alltypes_plain.parquet", o, &t));
    pqt_opts_free(o);
    struct ArrowSchema s;
    CHECK_OK(pqt_table_export_arrow_schema(t, NULL, 0, &s));
    const struct ArrowSchema *d = NULL, *id = NULL;
    const struct ArrowArray *unused;
    CHECK(ab_child(&s, NULL, "double_col", &d, &unused) && ab_child(&s, NULL, "id", &id, &unused));
    char buf[128];
    const char *v;
    if (d) {
        CHECK((v = meta_get(d->metadata, "unit", buf, sizeof buf)) && !strcmp(v, "m/s"));
        CHECK((v = meta_get(d->metadata, "description", buf, sizeof buf)) && !strcmp(v, "a speed"));
        CHECK((v = meta_get(d->metadata, "ucd", buf, sizeof buf)) &&
              !strcmp(v, "phys.veloc;meta.main"));
    }
    if (id) {
        CHECK((v = meta_get(id->metadata, "unit", buf, sizeof buf)) && !strcmp(v, "Count"));
        CHECK(!meta_get(id->metadata, "description", buf, sizeof buf));
    }
    s.release(&s);
    /* the whole table through the stream, validated */
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 3, bs), 0);
    pqt_table *truth = NULL;
    CHECK_OK(
        pqt_table_open("tests/data/parquet-testing/data/alltypes_plain.parquet", NULL, &truth));
    ab_compare_scalar(truth, bs, "id");
    ab_compare_scalar(truth, bs, "double_col");
    ab_compare_scalar(truth, bs, "bool_col");
    ab_release(bs);
    free(bs);
    pqt_table_close(truth);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A read failing while the stream is pulled: EIO and the pqt message; a stream released
 * unpulled leaks nothing. */
static void test_pull_failure(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s.bad", ab_rg_path);
    size_t n = 0;
    char *bytes = pqt_test_read_file(ab_rg_path, &n);
    FILE *f = fopen(path, "wb");
    CHECK(bytes && f && fwrite(bytes, 1, n, f) == n);
    fclose(f);
    pqt_table *t = ab_open(path, NULL, NULL);
    /* the pages (not the footer) overwritten after the open */
    memset(bytes + 4, 0xEE, n / 2);
    f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, n, f) == n);
    fclose(f);
    struct ArrowArrayStream s;
    CHECK_OK(pqt_table_export_arrow_stream(t, NULL, 0, 0, &s));
    struct ArrowArray a;
    int r = s.get_next(&s, &a);
    CHECK(r == EIO);
    const char *msg = s.get_last_error(&s);
    CHECK(msg && strstr(msg, "column '") && strstr(msg, "row group 1"));
    s.release(&s);
    CHECK_OK(pqt_table_export_arrow_stream(t, NULL, 0, 0, &s));
    s.release(&s);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
    pqt_table_close(t);
    unlink(path);
    free(bytes);
}

/* Field flags follow the file: a required column is not nullable until the caller writes a
 * null into it. */
static void test_flags(void)
{
    pqt_table *t =
        ab_open("tests/data/parquet-testing/data/nonnullable.impala.parquet", NULL, NULL);
    struct ArrowSchema s;
    struct ArrowArray a;
    char why[256];
    CHECK_OK(pqt_table_export_arrow_array(t, "ID", &s, &a));
    CHECK(!(s.flags & ARROW_FLAG_NULLABLE));
    CHECK_EQ_I64(arrow_check_array(&s, &a, why, sizeof why), 0);
    a.release(&a);
    s.release(&s);
    CHECK_OK(pqt_table_set_null(t, "ID", 1, 0));
    CHECK_OK(pqt_table_export_arrow_array(t, "ID", &s, &a));
    CHECK(s.flags & ARROW_FLAG_NULLABLE);
    CHECK_EQ_I64(a.null_count, 1);
    CHECK_EQ_I64(arrow_check_array(&s, &a, why, sizeof why), 0);
    a.release(&a);
    s.release(&s);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

int main(void)
{
    ab_write_rg(ab_rg_path, sizeof ab_rg_path);
    test_metadata();
    test_pull_failure();
    test_flags();
    unlink(ab_rg_path);
    return pqt_test_done("test_arrow_export_meta");
}
