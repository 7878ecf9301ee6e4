/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_file.c - the streaming file writer: row groups, page indexes, footer, and the
 * temporary file renamed into place at close (layer: write; parquet-format File Format,
 * PageIndex.md, BloomFilter.md).
 *
 * A row group's column chunks are built in memory (write_chunk.c) and appended to the
 * temporary file one after another when the row group is cut; their column and offset
 * indexes are encoded then and written after the last row group, as the format places them.
 * The user's path is created only at a successful close: fsync, then an atomic link (no
 * overwrite) or rename (overwrite), then fsync of the directory.
 */

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/meta_encode.h"
#include "maml/maml.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/enc.h"
#include "write/write_file.h"
#include "write/write_io.h"
#include "write/write_steps.h"

static pqt_status io_err(const pqt_writer *w, const char *what)
{
    return pqt_err(PQT_IO, "%s: %s: %s", w->path, what, strerror(errno));
}

static pqt_status put(pqt_writer *w, const void *p, size_t n)
{
    PQT_TRY(pqt_wio_put(w->io, p, n));
    w->off += (int64_t)n;
    return PQT_OK;
}

static char *arena_str(pqt_arena *a, const char *s, size_t n)
{
    char *d = pqt_arena_alloc(a, n + 1);
    if (d && n) memcpy(d, s, n);
    return d;
}

pqt_status pqt_writer_add_kv(pqt_writer *w, const char *k, size_t kn, const char *v, size_t vn,
                             bool replace)
{
    if (w->nkv == w->kvcap) {
        int cap = w->kvcap ? w->kvcap * 2 : 16;
        pqt_kv *nk = pqt_realloc(w->kv, (size_t)cap * sizeof *nk);
        if (!nk) return pqt_err(PQT_NOMEM, "out of memory");
        w->kv = nk;
        w->kvcap = cap;
    }
    for (int i = 0; replace && i < w->nkv; i++) { /* a later entry replaces an earlier one */
        if (w->kv[i].key_len == kn && memcmp(w->kv[i].key, k, kn) == 0) {
            w->kv[i].value = arena_str(&w->arena, v, vn);
            w->kv[i].value_len = (uint32_t)vn;
            return w->kv[i].value ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
        }
    }
    pqt_kv *e = &w->kv[w->nkv];
    e->key = arena_str(&w->arena, k, kn);
    e->value = arena_str(&w->arena, v, vn);
    if (!e->key || !e->value) return pqt_err(PQT_NOMEM, "out of memory");
    e->key_len = (uint32_t)kn;
    e->value_len = (uint32_t)vn;
    w->nkv++;
    return PQT_OK;
}

static pqt_status add_kv(pqt_writer *w, const char *k, size_t kn, const char *v, size_t vn)
{
    return pqt_writer_add_kv(w, k, kn, v, vn, true);
}

static pqt_status add_kv_str(pqt_writer *w, const char *k, const char *v, bool replace)
{
    return pqt_writer_add_kv(w, k, strlen(k), v ? v : "", v ? strlen(v) : 0, replace);
}

/* The value of sub-key name (case-insensitive) of a map item, or NULL. */
static const char *sub_value(const pqt_maml_item *x, const char *name)
{
    for (int i = 0; i < x->nsub; i++)
        if (x->sub[i].internal && !strcasecmp(x->sub[i].internal, name)) return x->sub[i].file;
    return NULL;
}

/* The MAML's key-value embedding (docs/writing.md): per field column.<name>.unit,
 * .description (info), .ucd, .data_type; per table-level section the entries of its table. */
static pqt_status embed_maml(pqt_writer *w, const pqt_maml *m)
{
    char key[600];
    for (int i = 0; i < m->nfields; i++) {
        const pqt_maml_field *f = &m->fields[i];
        if (!f->name) continue;
        const char *what[4] = {"unit", "description", "ucd", "data_type"};
        const char *val[4] = {f->unit && strcasecmp(f->unit, "unitless") ? f->unit : NULL, f->info,
                              f->ucd, f->data_type};
        for (int j = 0; j < 4; j++) {
            int kn = snprintf(key, sizeof key, "column.%s.%s", f->name, what[j]);
            if (!val[j] || kn < 0 || (size_t)kn >= sizeof key) continue;
            PQT_TRY(add_kv_str(w, key, val[j], true));
        }
    }
    for (int i = 0; i < m->ntop; i++) {
        const pqt_maml_kv *e = &m->top[i];
        const char *sec = e->key;
        bool numbered = !strcmp(sec, "dois") || !strcmp(sec, "depends") ||
                        !strcmp(sec, "comments") || !strcmp(sec, "coauthors");
        const char *stem = !strcmp(sec, "dois")       ? "DOI"
                           : !strcmp(sec, "depends")  ? "depends"
                           : !strcmp(sec, "comments") ? "comment"
                                                      : "coauthor";
        if (!e->items) { /* a scalar section, or keywords: joined with ";" */
            if (e->value) PQT_TRY(add_kv_str(w, sec, e->value, true));
            continue;
        }
        if (!strcmp(sec, "keywords")) {
            if (e->value) PQT_TRY(add_kv_str(w, sec, e->value, true));
            continue;
        }
        for (int j = 0; j < e->nitems; j++) {
            const pqt_maml_item *x = &e->items[j];
            if (!strcmp(sec, "keyarray")) {
                const char *k = sub_value(x, "key");
                if (k && *k) PQT_TRY(add_kv_str(w, k, sub_value(x, "value"), true));
                continue;
            }
            char v[2400];
            const char *val = x->text;
            if (!strcmp(sec, "dois") && !x->text) val = sub_value(x, "DOI");
            if (!strcmp(sec, "depends") && !x->text) {
                /* the four parts in a fixed order, a missing one empty */
                snprintf(v, sizeof v, "%s;%s;%s;%s", sub_value(x, "survey") ? sub_value(x, "survey") : "",
                         sub_value(x, "dataset") ? sub_value(x, "dataset") : "",
                         sub_value(x, "table") ? sub_value(x, "table") : "",
                         sub_value(x, "version") ? sub_value(x, "version") : "");
                val = v;
            }
            if (!val && x->nsub > 0) val = x->sub[0].file; /* a map: its first sub-key */
            if (!val) continue;
            if (numbered) {
                snprintf(key, sizeof key, "%s_%d", stem, j + 1);
                PQT_TRY(add_kv_str(w, key, val, true));
            } else {
                PQT_TRY(add_kv_str(w, sec, val, false)); /* repeated key, file order */
            }
        }
    }
    return PQT_OK;
}

static bool wanted_key(const pqt_write_opts *o, const char *k)
{
    /* Arrow's and pandas' schema blobs describe the source's columns, which a subset or a
     * reorder would contradict: readers trusting them would misread the copy */
    if (strcmp(k, "ARROW:schema") == 0 || strcmp(k, "pandas") == 0) return false;
    if (o->nmeta_keys == 0) return true;
    for (int i = 0; i < o->nmeta_keys; i++)
        if (strcmp(o->meta_keys[i], k) == 0) return true;
    return false;
}

static pqt_status build_kv(pqt_writer *w, pqt_table *t)
{
    const pqt_write_opts *o = &w->o;
    const pqt_kv *kv = NULL;
    int nkv = o->copy_metadata && t ? pqt_tview_kv(t, &kv) : 0;
    for (int i = 0; i < nkv; i++) {
        const pqt_kv *e = &kv[i];
        if (!e->key || !wanted_key(o, e->key)) continue;
        PQT_TRY(add_kv(w, e->key, e->key_len, e->value ? e->value : "",
                       e->value ? e->value_len : 0));
    }
    for (int i = 0; i < w->ncols; i++) {
        if (!w->cols[i].unit[0]) continue;
        char key[600];
        int kn = snprintf(key, sizeof key, "column.%s.unit", w->cols[i].name);
        if (kn < 0 || (size_t)kn >= sizeof key) continue;
        PQT_TRY(add_kv(w, key, (size_t)kn, w->cols[i].unit, strlen(w->cols[i].unit)));
    }
    PQT_TRY(pqt_wmeta_reserve(w));
    if (w->maml) PQT_TRY(embed_maml(w, w->maml));
    for (int i = 0; i < o->nkv; i++) {
        const char *eq = strchr(o->kv[i], '=');
        PQT_TRY(add_kv(w, o->kv[i], (size_t)(eq - o->kv[i]), eq + 1, strlen(eq + 1)));
    }
    return PQT_OK;
}

void pqt_writer_keep_failure(pqt_writer *w, pqt_status st)
{
    if (w->fail_msg) return;
    w->fail_st = st;
    w->fail_msg = pqt_strdup(pqt_errmsg()); /* NULL when out of memory: the status remains */
}

void pqt_writer_abort(pqt_writer *w)
{
    if (!w) return;
    pqt_mem_free(w->fail_msg);
    pqt_wio_free(w->io); /* before the descriptor closes: its thread may be writing */
    if (w->fd >= 0) close(w->fd);
    if (w->tmp) unlink(w->tmp);
    if (w->side_tmp) unlink(w->side_tmp);
    pqt_mem_free(w->side_tmp);
    if (w->chunks)
        for (int i = 0; i < w->ncols; i++) pqt_wchunk_free(&w->chunks[i]);
    pqt_mem_free(w->chunks);
    pqt_mem_free(w->col_weight);
    pqt_writer_free_threads(w);
    pqt_wcols_free(w->cols, w->ncols);
    pqt_wopts_clear(&w->o);
    pqt_buf_free(&w->ci);
    pqt_buf_free(&w->oi);
    pqt_buf_free(&w->tmpbuf);
    pqt_buf_free(&w->maml_src);
    pqt_mem_free(w->rgs);
    pqt_mem_free(w->kv);
    pqt_wmeta_free(w);
    pqt_arena_free(&w->arena);
    if (w->maml) pqt_maml_unref(w->maml);
    pqt_mem_free(w->path);
    pqt_mem_free(w->tmp);
    pqt_mem_free(w);
}

/* The MAML's text for the verbatim sidecar, read now: the file may change before close. */
static pqt_status keep_maml_source(pqt_writer *w)
{
    if (w->o.maml_text) return pqt_buf_append(&w->maml_src, w->o.maml_text, strlen(w->o.maml_text));
    FILE *fp = fopen(w->o.maml_path, "rb");
    if (!fp) return pqt_err(PQT_IO, "MAML %s: cannot open: %s", w->o.maml_path, strerror(errno));
    char chunk[65536];
    pqt_status st = PQT_OK;
    size_t k;
    while (st == PQT_OK && (k = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        st = pqt_buf_append(&w->maml_src, chunk, k);
        if (st == PQT_OK && w->maml_src.len > PQT_MAML_MAX_NBYTES)
            st = pqt_err(PQT_BAD_MAML, "MAML %s: grew past %zu bytes while being read",
                         w->o.maml_path, PQT_MAML_MAX_NBYTES);
    }
    if (st == PQT_OK && ferror(fp)) st = pqt_err(PQT_IO, "MAML %s: read error", w->o.maml_path);
    fclose(fp);
    return st;
}

int64_t pqt_writer_nrows(const pqt_writer *w)
{
    return w ? w->nrows : 0;
}

const char *pqt_writer_temp_path(const pqt_writer *w)
{
    return w ? w->tmp : NULL;
}

pqt_status pqt_writer_open_as(pqt_writer **ret, const char *path, pqt_table *t,
                              const pqt_write_opts *opts, int part, const char *call)
{
    if (!ret || !path || !*path || !t)
        return pqt_err(PQT_MISUSE, "%s: ret, path and template table are required", call);
    pqt_write_opts o;
    PQT_TRY(pqt_wopts_copy(&o, opts));
    struct stat sb;
    if (!o.overwrite && stat(path, &sb) == 0) {
        pqt_wopts_clear(&o);
        return pqt_err(PQT_EXISTS, "%s: %s exists (set PQT_WOPT_OVERWRITE to replace it)", call, path);
    }
    if (part >= 0 && o.write_maml) {
        pqt_wopts_clear(&o);
        return pqt_err(PQT_MISUSE, "%s: %s: PQT_WOPT_WRITE_MAML: a part of a file writes no "
                                   "sidecar",
                       call, path);
    }
    pqt_writer *w = pqt_calloc(1, sizeof *w);
    if (!w) {
        pqt_wopts_clear(&o);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    w->fd = -1;
    w->o = o;
    size_t pn = strlen(path);
    w->path = pqt_strdup(path);
    w->tmp = pqt_malloc(pn + 16);
    if (!w->path || !w->tmp) {
        pqt_writer_abort(w);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    bool spool = part > 0; /* part 0 is written in place, into the shared temporary file */
    snprintf(w->tmp, pn + 16, spool ? "%s.part-XXXXXX" : "%s.tmp-XXXXXX", path);
    w->fd = mkstemp(w->tmp);
    if (w->fd < 0) {
        pqt_status st = pqt_err(PQT_IO, "%s: %s: cannot create a temporary file beside it: %s",
                                call, path, strerror(errno));
        pqt_mem_free(w->tmp);
        w->tmp = NULL;
        pqt_writer_abort(w);
        return st;
    }
    w->part = part >= 0;
    if (spool) { /* a spool nobody else opens: nameless at once, so nothing is left behind */
        unlink(w->tmp);
        pqt_mem_free(w->tmp);
        w->tmp = NULL;
    }
    pqt_status st = PQT_OK;
    if (part == 0) { /* the file's head, outside the part: its offsets start at 0 all the same */
        ssize_t k;
        while ((k = write(w->fd, "PAR1", 4)) < 0 && errno == EINTR) {
        }
        if (k != 4) st = pqt_err(PQT_IO, "%s: writing the head: %s", w->tmp, strerror(errno));
    }
    if (st == PQT_OK)
        st = pqt_wio_open(&w->io, w->fd, spool ? w->path : w->tmp, o.background_io);
    if (st == PQT_OK && o.maml_path) st = pqt_maml_load_file(o.maml_path, &w->maml);
    else if (o.maml_text) st = pqt_maml_load_text(o.maml_text, &w->maml);
    if (st == PQT_OK && w->maml && o.write_maml) st = keep_maml_source(w);
    if (st == PQT_OK) st = pqt_wcols_from_table(t, &w->o, w->maml, &w->cols, &w->ncols);
    if (st == PQT_OK) {
        w->chunks = pqt_calloc((size_t)w->ncols + 1, sizeof *w->chunks);
        w->col_weight = pqt_calloc((size_t)w->ncols + 1, sizeof *w->col_weight);
        if (!w->chunks || !w->col_weight) st = pqt_err(PQT_NOMEM, "out of memory");
        for (int i = 0; st == PQT_OK && i < w->ncols; i++)
            w->col_weight[i] = w->cols[i].nbytes_per_value * (w->cols[i].is_list ? 4 : 1);
        for (int i = 0; st == PQT_OK && i < w->ncols; i++)
            st = pqt_wchunk_init(&w->chunks[i], &w->cols[i], &w->o);
    }
    if (st == PQT_OK) st = build_kv(w, t);
    if (st == PQT_OK && part < 0) st = put(w, "PAR1", 4); /* a part's offsets start at 0 */
    if (st != PQT_OK) {
        pqt_err_prefix("%s: %s: ", call, path);
        pqt_writer_abort(w);
        return st;
    }
    *ret = w;
    return PQT_OK;
}

pqt_status pqt_writer_open(pqt_writer **ret, const char *path, pqt_table *t,
                           const pqt_write_opts *opts)
{
    return pqt_writer_open_as(ret, path, t, opts, -1, "pqt_writer_open");
}

/* ---- row groups ---- */

static int boundary_order(const pqt_wcol *c, const pqt_wpage *p, int n)
{
    bool asc = true, desc = true;
    int prev = -1;
    for (int i = 0; i < n; i++) {
        if (p[i].null_page) continue;
        if (prev >= 0) {
            int a = pqt_wstats_cmp(c, p[prev].min, p[prev].min_len, p[i].min, p[i].min_len);
            int b = pqt_wstats_cmp(c, p[prev].max, p[prev].max_len, p[i].max, p[i].max_len);
            if (a > 0 || b > 0) asc = false;
            if (a < 0 || b < 0) desc = false;
        }
        prev = i;
    }
    return asc ? PQT_ORDER_ASCENDING : desc ? PQT_ORDER_DESCENDING : PQT_ORDER_UNORDERED;
}

/* Encode chunk k's column index and offset index into w->ci / w->oi (offsets relative to
 * those buffers; made absolute at close). */
static pqt_status page_indexes(pqt_writer *w, pqt_wchunk *ch, pqt_column_chunk *cc,
                               int64_t pages_at)
{
    int n = ch->npages;
    pqt_arena a = {0};
    pqt_status st = PQT_OK;
    pqt_page_location *loc = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *loc);
    bool *np = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *np);
    const uint8_t **mins = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *mins);
    const uint8_t **maxs = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *maxs);
    uint32_t *minl = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *minl);
    uint32_t *maxl = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *maxl);
    int64_t *nulls = pqt_arena_alloc_array(&a, (size_t)n + 1, sizeof *nulls);
    if (!loc || !np || !mins || !maxs || !minl || !maxl || !nulls) {
        pqt_arena_free(&a);
        return pqt_err(PQT_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        const pqt_wpage *p = &ch->pidx[i];
        loc[i].offset = pages_at + p->offset;
        loc[i].compressed_page_size = p->nbytes;
        loc[i].first_row_index = p->first_row;
        np[i] = p->null_page;
        mins[i] = p->has_minmax ? p->min : (const uint8_t *)"";
        maxs[i] = p->has_minmax ? p->max : (const uint8_t *)"";
        minl[i] = p->has_minmax ? p->min_len : 0;
        maxl[i] = p->has_minmax ? p->max_len : 0;
        nulls[i] = p->null_count;
    }
    if (ch->stats_ok) {
        pqt_column_index ci = {0};
        ci.null_pages = np;
        ci.npages = n;
        ci.min_values = mins;
        ci.max_values = maxs;
        ci.min_lens = minl;
        ci.max_lens = maxl;
        ci.null_counts = nulls;
        ci.boundary_order = boundary_order(ch->col, ch->pidx, n);
        size_t at = w->ci.len;
        st = pqt_meta_encode_column_index(&w->ci, &ci);
        cc->has_column_index = st == PQT_OK;
        cc->column_index_offset = (int64_t)at;
        cc->column_index_length = (int32_t)(w->ci.len - at);
    }
    if (st == PQT_OK) {
        pqt_offset_index oi;
        memset(&oi, 0, sizeof oi);
        oi.pages = loc;
        oi.npages = n;
        size_t at = w->oi.len;
        st = pqt_meta_encode_offset_index(&w->oi, &oi);
        cc->has_offset_index = st == PQT_OK;
        cc->offset_index_offset = (int64_t)at;
        cc->offset_index_length = (int32_t)(w->oi.len - at);
    }
    pqt_arena_free(&a);
    return st;
}

static pqt_status chunk_meta(pqt_writer *w, pqt_wchunk *ch, pqt_column_chunk *cc, int64_t start)
{
    const pqt_wcol *c = ch->col;
    pqt_column_meta *m = &cc->meta;
    memset(cc, 0, sizeof *cc);
    cc->has_meta = true;
    cc->file_offset = start;
    m->type = c->ptype;
    m->codec = w->o.codec;
    PQT_TRY(pqt_wstruct_path(c, &w->arena, &m->path_in_schema, &m->path_len));
    m->num_values = ch->nvals;
    int32_t *enc = pqt_arena_alloc_array(&w->arena, 4, sizeof *enc);
    if (!enc) return pqt_err(PQT_NOMEM, "out of memory");
    int ne = 0;
    enc[ne++] = PQT_ENC_PLAIN; /* also the dictionary page's */
    enc[ne++] = PQT_ENC_RLE;
    if (ch->used_dict_enc) enc[ne++] = PQT_ENC_RLE_DICTIONARY;
    m->encodings = enc;
    m->n_encodings = ne;
    /* encoding_stats let a reader prove from the footer that every data page is dictionary
     * encoded (a chunk here is all dictionary or all PLAIN: write_chunk.c redoes it PLAIN
     * when the dictionary gives up), so a predicate can be decided on the dictionary alone */
    pqt_page_enc_stats *es = pqt_arena_alloc_array(&w->arena, 2, sizeof *es);
    if (!es) return pqt_err(PQT_NOMEM, "out of memory");
    int data_type = w->o.page_version == 2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA;
    int nes = 0;
    if (ch->used_dict_enc && ch->dict_page.len > 0)
        es[nes++] = (pqt_page_enc_stats){PQT_PAGE_DICTIONARY, PQT_ENC_PLAIN, 1};
    if (ch->ndata_pages > 0)
        es[nes++] = (pqt_page_enc_stats){data_type,
                                         ch->used_dict_enc ? PQT_ENC_RLE_DICTIONARY : PQT_ENC_PLAIN,
                                         ch->ndata_pages};
    m->encoding_stats = es;
    m->n_encoding_stats = nes;
    int64_t dict_n = (int64_t)ch->dict_page.len;
    if (dict_n > 0) {
        m->has_dictionary_page_offset = true;
        m->dictionary_page_offset = start;
    }
    m->data_page_offset = start + dict_n;
    m->total_compressed_size = dict_n + (int64_t)ch->pages.len;
    m->total_uncompressed_size = ch->uncompressed_nbytes;
    if (w->o.statistics) {
        pqt_stats *s = &m->stats;
        m->has_stats = true;
        s->has_null_count = true;
        s->null_count = ch->stats.null_count;
        if (ch->stats.has_minmax) {
            uint8_t *mn = (uint8_t *)arena_str(&w->arena, (const char *)ch->stats.min.data, ch->stats.min.len);
            uint8_t *mx = (uint8_t *)arena_str(&w->arena, (const char *)ch->stats.max.data, ch->stats.max.len);
            if (!mn || !mx) return pqt_err(PQT_NOMEM, "out of memory");
            s->min_value = mn;
            s->max_value = mx;
            s->min_value_len = (uint32_t)ch->stats.min.len;
            s->max_value_len = (uint32_t)ch->stats.max.len;
            s->has_min_value = s->has_max_value = true;
            s->is_min_value_exact = s->is_max_value_exact = true;
            s->has_is_min_value_exact = s->has_is_max_value_exact = true;
        }
    }
    return PQT_OK;
}

pqt_status pqt_writer_flush_rg(pqt_writer *w)
{
    if (w->rg_nrows == 0) return PQT_OK;
    PQT_TRY(pqt_writer_finish_chunks(w));
    if (w->nrg == w->rgcap) {
        int cap = w->rgcap ? w->rgcap * 2 : 8;
        pqt_row_group *r = pqt_realloc(w->rgs, (size_t)cap * sizeof *r);
        if (!r) return pqt_err(PQT_NOMEM, "out of memory");
        w->rgs = r;
        w->rgcap = cap;
    }
    pqt_row_group *rg = &w->rgs[w->nrg];
    memset(rg, 0, sizeof *rg);
    rg->columns = pqt_arena_alloc_array(&w->arena, (size_t)w->ncols + 1, sizeof *rg->columns);
    if (!rg->columns) return pqt_err(PQT_NOMEM, "out of memory");
    rg->ncolumns = w->ncols;
    rg->num_rows = w->rg_nrows;
    rg->file_offset = w->off;
    rg->has_file_offset = true;
    rg->ordinal = (int32_t)w->nrg;
    rg->has_ordinal = w->nrg <= INT16_MAX;
    int64_t unc = 0, comp = 0;
    for (int k = 0; k < w->ncols; k++) {
        pqt_wchunk *ch = &w->chunks[k];
        pqt_column_chunk *cc = &rg->columns[k];
        int64_t start = w->off;
        PQT_TRY(chunk_meta(w, ch, cc, start));
        PQT_TRY(put(w, ch->dict_page.data, ch->dict_page.len));
        PQT_TRY(put(w, ch->pages.data, ch->pages.len));
        if (w->o.page_index) PQT_TRY(page_indexes(w, ch, cc, start + (int64_t)ch->dict_page.len));
        unc += cc->meta.total_uncompressed_size;
        comp += cc->meta.total_compressed_size;
    }
    for (int k = 0; k < w->ncols; k++) { /* bloom filters after the row group's data */
        pqt_wchunk *ch = &w->chunks[k];
        if (!ch->bloom) continue;
        w->tmpbuf.len = 0;
        PQT_TRY(pqt_bloom_builder_write(ch->bloom, &w->tmpbuf));
        pqt_column_meta *m = &rg->columns[k].meta;
        m->has_bloom_filter_offset = m->has_bloom_filter_length = true;
        m->bloom_filter_offset = w->off;
        m->bloom_filter_length = (int32_t)w->tmpbuf.len;
        PQT_TRY(put(w, w->tmpbuf.data, w->tmpbuf.len));
    }
    rg->total_byte_size = unc;
    rg->total_compressed_size = comp;
    rg->has_total_compressed_size = true;
    for (int k = 0; k < w->ncols; k++) {
        w->col_weight[k] = (int64_t)(w->chunks[k].pages.len + w->chunks[k].dict_page.len);
        pqt_wchunk_reset(&w->chunks[k]);
    }
    w->nrg++;
    w->rg_nrows = 0;
    return PQT_OK;
}

/* ---- close ---- */

static pqt_status commit_parquet(pqt_writer *w);

/* The sidecar's text to a temporary file beside it (renamed once the parquet file is). */
static pqt_status write_side_tmp(pqt_writer *w, char **side_ret)
{
    char *side = pqt_sidecar_path(w->path);
    if (!side) return pqt_err(PQT_NOMEM, "out of memory");
    struct stat sb;
    if (!w->o.overwrite && stat(side, &sb) == 0) {
        pqt_status st = pqt_err(PQT_EXISTS, "%s exists (set PQT_WOPT_OVERWRITE to replace it)", side);
        pqt_mem_free(side);
        return st;
    }
    w->tmpbuf.len = 0;
    pqt_status st = w->maml ? pqt_sidecar_verbatim((const char *)w->maml_src.data, w->maml_src.len,
                                                   w->maml, w->cols, w->ncols, w->o.kv,
                                                   w->o.nkv, &w->tmpbuf)
                            : pqt_sidecar_text(w->cols, w->ncols, w->path, &w->tmpbuf);
    size_t sn = strlen(side);
    if (st == PQT_OK && !(w->side_tmp = pqt_malloc(sn + 16))) st = pqt_err(PQT_NOMEM, "out of memory");
    int fd = -1;
    if (st == PQT_OK) {
        snprintf(w->side_tmp, sn + 16, "%s.tmp-XXXXXX", side);
        fd = mkstemp(w->side_tmp);
        if (fd < 0) {
            st = pqt_err(PQT_IO, "%s: cannot create a temporary file beside it: %s", side,
                         strerror(errno));
            pqt_mem_free(w->side_tmp);
            w->side_tmp = NULL;
        }
    }
    if (fd >= 0) {
        size_t off = 0;
        while (st == PQT_OK && off < w->tmpbuf.len) {
            ssize_t k = write(fd, w->tmpbuf.data + off, w->tmpbuf.len - off);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) st = pqt_err(PQT_IO, "%s: writing: %s", w->side_tmp, strerror(errno));
            else off += (size_t)k;
        }
        if (st == PQT_OK && (fsync(fd) != 0 || fchmod(fd, 0644) != 0))
            st = pqt_err(PQT_IO, "%s: flushing: %s", w->side_tmp, strerror(errno));
        if (close(fd) != 0 && st == PQT_OK)
            st = pqt_err(PQT_IO, "%s: closing: %s", w->side_tmp, strerror(errno));
    }
    if (st != PQT_OK) {
        pqt_mem_free(side);
        return st;
    }
    *side_ret = side;
    return PQT_OK;
}

pqt_status pqt_writer_file_meta(pqt_writer *w, pqt_file_meta *m)
{
    memset(m, 0, sizeof *m);
    m->version = w->o.page_version == 2 ? 2 : 1;
    PQT_TRY(pqt_wcols_schema(w->cols, w->ncols, &w->arena, &m->schema, &m->nschema));
    m->num_rows = w->nrows;
    m->row_groups = w->rgs;
    m->n_row_groups = w->nrg;
    m->kv = w->kv;
    m->nkv = w->nkv;
    m->created_by = "pqt version " PQT_VERSION_STRING;
    int32_t *orders = pqt_arena_alloc_array(&w->arena, (size_t)w->ncols + 1, sizeof *orders);
    if (!orders) return pqt_err(PQT_NOMEM, "out of memory");
    for (int k = 0; k < w->ncols; k++) orders[k] = 1; /* TYPE_ORDER */
    m->column_orders = orders;
    m->n_column_orders = w->ncols;
    return PQT_OK;
}

static pqt_status finish_file(pqt_writer *w)
{
    PQT_TRY(pqt_writer_flush_rg(w));
    PQT_TRY(pqt_wmeta_fill(w));
    int64_t ci_base = w->off;
    PQT_TRY(put(w, w->ci.data, w->ci.len));
    int64_t oi_base = w->off;
    PQT_TRY(put(w, w->oi.data, w->oi.len));
    for (int r = 0; r < w->nrg; r++) {
        for (int k = 0; k < w->ncols; k++) {
            pqt_column_chunk *cc = &w->rgs[r].columns[k];
            if (cc->has_column_index) cc->column_index_offset += ci_base;
            if (cc->has_offset_index) cc->offset_index_offset += oi_base;
        }
    }
    pqt_file_meta m;
    PQT_TRY(pqt_writer_file_meta(w, &m));
    w->tmpbuf.len = 0;
    PQT_TRY(pqt_meta_encode_file_meta(&w->tmpbuf, &m));
    uint32_t flen = (uint32_t)w->tmpbuf.len;
    PQT_TRY(put(w, w->tmpbuf.data, w->tmpbuf.len));
    PQT_TRY(put(w, &flen, 4));
    PQT_TRY(put(w, "PAR1", 4));
    PQT_TRY(pqt_wio_sync(w->io));
    if (!w->o.defer_sync && fsync(w->fd) != 0)
        return io_err(w, "flushing the temporary file to disk");
    if (fchmod(w->fd, 0644) != 0) return io_err(w, "setting the file mode");
    if (close(w->fd) != 0) {
        w->fd = -1;
        return io_err(w, "closing the temporary file");
    }
    w->fd = -1;
    char *side = NULL;
    if (w->o.write_maml) PQT_TRY(write_side_tmp(w, &side));
    pqt_status st = commit_parquet(w);
    if (st == PQT_OK && side && rename(w->side_tmp, side) != 0)
        st = pqt_err(PQT_IO, "%s: renaming the sidecar's temporary file: %s", side, strerror(errno));
    if (st == PQT_OK && side) {
        pqt_mem_free(w->side_tmp);
        w->side_tmp = NULL;
    }
    pqt_mem_free(side);
    return st;
}

pqt_status pqt_wfile_commit(const char *tmp, const char *path, bool overwrite, bool sync)
{
    if (overwrite) {
        if (rename(tmp, path) != 0)
            return pqt_err(PQT_IO, "%s: renaming the temporary file: %s", path, strerror(errno));
    } else {
        /* link refuses an existing name atomically: a file that appeared meanwhile wins */
        if (link(tmp, path) != 0) {
            if (errno == EEXIST)
                return pqt_err(PQT_EXISTS, "%s exists (set PQT_WOPT_OVERWRITE to replace it)",
                               path);
            return pqt_err(PQT_IO, "%s: linking the temporary file to its name: %s", path,
                           strerror(errno));
        }
        unlink(tmp);
    }
    char *dcopy = sync ? pqt_strdup(path) : NULL;
    if (dcopy) {
        int dfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY);
        if (dfd >= 0) {
            (void)fsync(dfd); /* the rename durable too; a failure here loses nothing written */
            close(dfd);
        }
        pqt_mem_free(dcopy);
    }
    return PQT_OK;
}

static pqt_status commit_parquet(pqt_writer *w)
{
    PQT_TRY(pqt_wfile_commit(w->tmp, w->path, w->o.overwrite, !w->o.defer_sync));
    pqt_mem_free(w->tmp);
    w->tmp = NULL;
    return PQT_OK;
}

pqt_status pqt_writer_close(pqt_writer *w)
{
    if (!w) return pqt_err(PQT_MISUSE, "pqt_writer_close: writer is NULL");
    pqt_status st = w->failed ? pqt_err(PQT_MISUSE, "pqt_writer_close: %s: an earlier write "
                                                     "failed; nothing was written",
                                        w->path)
                              : finish_file(w);
    if (st != PQT_OK && !w->failed) pqt_err_prefix("pqt_writer_close: %s: ", w->path);
    pqt_writer_abort(w);
    return st;
}
