/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_footer.c - libFuzzer target: the input is a serialized FileMetaData (the footer
 * without its length and magic). Decode it, build the schema from it the way pqt_file_open
 * does, and touch every decoded pointer so that AddressSanitizer checks each one.
 */
#include "fuzz.h"
#include "format/meta.h"
#include "format/schema.h"

static volatile size_t sink; /* keeps the walk from being optimised away */

static void touch(const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t s = 0;
    for (size_t i = 0; i < n; i++) s += b[i];
    sink += s;
}

static void touch_str(const char *s)
{
    if (s) touch(s, strlen(s) + 1);
}

static void touch_stats(const pqt_stats *st)
{
    if (st->has_min) touch(st->min, st->min_len);
    if (st->has_max) touch(st->max, st->max_len);
    if (st->has_min_value) touch(st->min_value, st->min_value_len);
    if (st->has_max_value) touch(st->max_value, st->max_value_len);
}

static void touch_kv(const pqt_kv *kv, int n)
{
    for (int i = 0; i < n; i++) {
        touch(kv[i].key, kv[i].key_len);
        if (kv[i].value) touch(kv[i].value, kv[i].value_len);
    }
}

static void walk(const pqt_file_meta *m)
{
    for (int i = 0; i < m->nschema; i++) touch_str(m->schema[i].name);
    touch_kv(m->kv, m->nkv);
    touch_str(m->created_by);
    if (m->n_column_orders) touch(m->column_orders, (size_t)m->n_column_orders * 4);
    for (int g = 0; g < m->n_row_groups; g++) {
        const pqt_row_group *rg = &m->row_groups[g];
        if (rg->n_sorting) touch(rg->sorting, (size_t)rg->n_sorting * sizeof *rg->sorting);
        for (int c = 0; c < rg->ncolumns; c++) {
            const pqt_column_chunk *cc = &rg->columns[c];
            touch_str(cc->file_path);
            if (!cc->has_meta) continue;
            const pqt_column_meta *cm = &cc->meta;
            if (cm->n_encodings) touch(cm->encodings, (size_t)cm->n_encodings * 4);
            touch_kv(cm->kv, cm->nkv);
            if (cm->has_stats) touch_stats(&cm->stats);
            if (cm->n_encoding_stats)
                touch(cm->encoding_stats, (size_t)cm->n_encoding_stats * sizeof *cm->encoding_stats);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pqt_arena arena = {0};
    pqt_file_meta meta;
    if (pqt_meta_decode_file(data, size, 0, &arena, &meta) == PQT_OK) {
        walk(&meta);
        /* Both string modes: binary_as_string changes which leaves are readable. */
        for (int bas = 0; bas < 2; bas++) {
            pqt_arena sa = {0};
            pqt_schema schema;
            if (pqt_schema_build(&meta, bas, &sa, &schema) == PQT_OK) {
                for (int i = 0; i < schema.ncols; i++) {
                    touch_str(schema.cols[i].path);
                    touch_str(schema.cols[i].physical);
                    touch_str(schema.cols[i].logical);
                    touch_str(schema.cols[i].why_unsupported);
                }
            }
            pqt_arena_free(&sa);
        }
    }
    pqt_arena_free(&arena);
    return 0;
}
