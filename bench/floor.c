/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floor.c - the physical floor of a workload: read (pread) and decompress the column chunks
 * it must read (W1: ra, dec, mass and z) with the codec library pqt uses, decoding nothing.
 *
 *   pqt_floor --file catalogue.parquet [--threads T] [--runs R] [--columns ra,dec,mass,z]
 *             [--range COL,LO,HI] [--evict PQT_EVICT_BIN]
 *
 * --range keeps only the row groups whose footer statistics of the int64 column COL overlap
 * [LO, HI] (W2's id range: the row groups any reader must touch) and, where COL's chunk has a
 * column and offset index, only the pages of each column holding the rows of COL's pages that
 * may overlap (plus dictionary pages; the index reads are timed too); --evict runs the pqt_evict
 * tool on the file before the warm-up and before every timed run (cold cache, untimed).
 *
 * One timed run = open + footer (pqt_footer_read) + for every (row group, column) chunk, in an
 * OpenMP parallel for over the chunks: pread the chunk, walk its pages
 * (pqt_meta_decode_page_header), decompress each page body (pqt_codec_decompress); no
 * levels, no values. A warm-up run, then `runs` timed runs; one JSON line on stdout:
 *   {"engine":"floor","threads":T,"chunks":..,"pages":..,"crc_pages":..,"bytes_read":..,
 *    "bytes_decompressed":..,"codec":"SNAPPY","times_ms":[..],"median":..,"min":..,"max":..}
 * or {"engine":"floor",...,"error":"..."}.
 *
 * Uses pqt's internal layers (links pqt_static): format/footer.h, format/meta.h, codec/codec.h.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_clock.h"
#include "codec/codec.h"
#include "evict_run.h"
#include "format/meta.h"
#include "util/buf.h"

#if defined(__has_include)
#if __has_include("format/footer.h")
#include "format/footer.h"
#define PQT_FLOOR_HAVE_FOOTER_H 1
#endif
#endif
#ifndef PQT_FLOOR_HAVE_FOOTER_H
/* format/footer.h is not written yet: its agreed signature. */
pqt_status pqt_footer_read(int fd, const char *path, int64_t file_size, pqt_arena *arena,
                           pqt_file_meta *out);
#endif

#define MAX_RUNS 100
#define MAX_THREADS 256
#define MAX_COLS 16

typedef struct {
    int64_t offset, nbytes;
    int codec;
} chunk;

typedef struct {
    uint8_t *raw, *out;
    size_t raw_cap, out_cap;
    pqt_codec_ctx *ctx;
} scratch;

static char g_err[1024];
static int g_failed;

static void set_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_err(const char *fmt, ...)
{
#pragma omp critical(floor_err)
    if (!g_failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g_err, sizeof g_err, fmt, ap);
        va_end(ap);
        g_failed = 1;
    }
}

static int grow(uint8_t **p, size_t *cap, size_t n)
{
    if (*cap >= n) return 0;
    free(*p);
    *p = malloc(n ? n : 1);
    *cap = *p ? n : 0;
    return *p ? 0 : -1;
}

typedef struct {
    int64_t pages, crc_pages, bytes_read, bytes_out;
    int codec;
    int nchunks;
    int row_groups; /* read (after --range) */
    int spans;      /* preads: chunks, or runs of pages with --range on a page index */
} run_stats;

/* Read and decompress one chunk. */
static void do_chunk(int fd, const char *path, const chunk *c, scratch *s, run_stats *rs)
{
    if (grow(&s->raw, &s->raw_cap, (size_t)c->nbytes)) {
        set_err("out of memory");
        return;
    }
    ssize_t got = pread(fd, s->raw, (size_t)c->nbytes, c->offset);
    if (got != c->nbytes) {
        set_err("%s: short read at %lld", path, (long long)c->offset);
        return;
    }
    int64_t pages = 0, crc = 0, out = 0;
    size_t pos = 0;
    while (pos < (size_t)c->nbytes) {
        pqt_page_header h;
        size_t hlen = 0;
        pqt_status st = pqt_meta_decode_page_header(s->raw + pos, (size_t)c->nbytes - pos,
                                                    c->offset + (int64_t)pos, &h, &hlen);
        if (st != PQT_OK) {
            set_err("page header at %lld: %s: %s", (long long)(c->offset + (int64_t)pos),
                    pqt_status_name(st), pqt_errmsg());
            return;
        }
        const uint8_t *body = s->raw + pos + hlen;
        if (h.compressed_size < 0 || h.uncompressed_size < 0 ||
            pos + hlen + (size_t)h.compressed_size > (size_t)c->nbytes) {
            set_err("page at %lld overruns its chunk", (long long)(c->offset + (int64_t)pos));
            return;
        }
        size_t skip = 0; /* v2: the levels are not compressed */
        int compressed = c->codec != PQT_CODEC_UNCOMPRESSED;
        if (h.type == PQT_PAGE_DATA_V2) {
            skip = (size_t)h.def_levels_nbytes + (size_t)h.rep_levels_nbytes;
            compressed = compressed && h.is_compressed;
            if (skip > (size_t)h.compressed_size || skip > (size_t)h.uncompressed_size) {
                set_err("page at %lld: levels longer than the page", (long long)(c->offset + (int64_t)pos));
                return;
            }
        }
        if (compressed && (h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2 ||
                           h.type == PQT_PAGE_DICTIONARY)) {
            size_t n = (size_t)h.uncompressed_size - skip;
            if (grow(&s->out, &s->out_cap, n)) {
                set_err("out of memory");
                return;
            }
            st = pqt_codec_decompress(s->ctx, c->codec, body + skip, (size_t)h.compressed_size - skip,
                                      s->out, n);
            if (st != PQT_OK) {
                set_err("page at %lld: %s: %s", (long long)(c->offset + (int64_t)pos),
                        pqt_status_name(st), pqt_errmsg());
                return;
            }
            out += (int64_t)n;
        }
        pages++;
        crc += h.has_crc;
        pos += hlen + (size_t)h.compressed_size;
    }
#pragma omp atomic
    rs->pages += pages;
#pragma omp atomic
    rs->crc_pages += crc;
#pragma omp atomic
    rs->bytes_out += out;
#pragma omp atomic
    rs->bytes_read += c->nbytes;
}

/* Is leaf `leaf` (its index in RowGroup.columns) inside a top-level field named in cols?
 * Leaves are the schema's nodes without children, in order; the top-level field is the
 * root's child whose subtree holds the leaf. */
static int column_matches(const pqt_file_meta *meta, int leaf, char cols[][64], int ncols)
{
    const char *top = NULL;
    int left = 0, seen = -1; /* left: nodes of the current top-level subtree still to visit */
    for (int i = 1; i < meta->nschema && seen < leaf; i++) {
        if (left == 0) top = meta->schema[i].name, left = 1;
        left += meta->schema[i].num_children - 1;
        if (meta->schema[i].num_children <= 0) seen++;
    }
    if (seen != leaf || !top) return 0;
    for (int i = 0; i < ncols; i++)
        if (!strcmp(top, cols[i])) return 1;
    return 0;
}

/* --range COL,LO,HI */
static struct {
    int on;
    char col[64];
    long long lo, hi;
} g_range;

/* An int64 bound from statistics: the column-order field, else the deprecated one. */
static int stat_i64(const uint8_t *p, uint32_t len, int has, long long *out)
{
    if (!has || len != 8 || !p) return 0;
    int64_t v;
    memcpy(&v, p, 8); /* little-endian plain encoding, as the hosts we run on */
    *out = (long long)v;
    return 1;
}

/* May row group rg hold a row of the --range? (no statistics: it may) */
static int range_overlaps(const pqt_file_meta *meta, const pqt_row_group *rg)
{
    char one[1][64];
    snprintf(one[0], sizeof one[0], "%s", g_range.col);
    for (int c = 0; c < rg->ncolumns; c++) {
        if (!rg->columns[c].has_meta || !column_matches(meta, c, one, 1)) continue;
        const pqt_column_meta *m = &rg->columns[c].meta;
        const pqt_stats *st = &m->stats;
        long long mn, mx;
        if (!m->has_stats) return 1;
        int hmin = stat_i64(st->min_value, st->min_value_len, st->has_min_value, &mn) ||
                   stat_i64(st->min, st->min_len, st->has_min, &mn);
        int hmax = stat_i64(st->max_value, st->max_value_len, st->has_max_value, &mx) ||
                   stat_i64(st->max, st->max_len, st->has_max, &mx);
        if (hmin && mn > g_range.hi) return 0;
        if (hmax && mx < g_range.lo) return 0;
        return 1;
    }
    return 1;
}

/* ---- W2 on a file with a page index: only the pages holding the range's rows ----------- */

typedef struct {
    chunk *v;
    int n, cap;
} chunk_list;

static int add_span(chunk_list *l, int64_t off, int64_t nbytes, int codec)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        chunk *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v) {
            set_err("out of memory");
            return -1;
        }
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = (chunk){.offset = off, .nbytes = nbytes, .codec = codec};
    return 0;
}

/* pread an index [off, off + len) and decode it into the arena; the bytes stay in *keep
 * (decoded bounds point into them) until the run ends. */
static int read_index(int fd, int64_t off, int32_t len, int column, pqt_arena *arena,
                      uint8_t **keep, void *out, run_stats *st)
{
    if (len <= 0 || !(*keep = malloc((size_t)len))) {
        set_err("index at %lld: bad length %d or out of memory", (long long)off, (int)len);
        return -1;
    }
    if (pread(fd, *keep, (size_t)len, off) != len) {
        set_err("short read of an index at %lld", (long long)off);
        return -1;
    }
    st->bytes_read += len;
    pqt_status s = column ? pqt_meta_decode_column_index(*keep, (size_t)len, off, arena, out)
                          : pqt_meta_decode_offset_index(*keep, (size_t)len, off, arena, out);
    if (s != PQT_OK) {
        set_err("index at %lld: %s: %s", (long long)off, pqt_status_name(s), pqt_errmsg());
        return -1;
    }
    return 0;
}

#define MAX_SPANS 4096
#define MAX_KEEP 4096 /* index buffers of one run (two per row group, one per paged chunk) */
typedef struct {
    int64_t lo[MAX_SPANS], hi[MAX_SPANS]; /* row spans [lo, hi) of the row group */
    int n;
} row_spans;

/* The rows of row group rg whose page of the --range column may hold a value in [LO, HI],
 * from its column index; 0 with spans filled, 1 when the chunk has no page index (read it
 * whole), -1 on error. */
static int range_rows(int fd, const pqt_row_group *rg, const pqt_column_chunk *cc, pqt_arena *arena,
                      uint8_t **keep, row_spans *rs, run_stats *st)
{
    pqt_column_index ci;
    pqt_offset_index oi;
    if (!cc->has_column_index || !cc->has_offset_index) return 1;
    if (read_index(fd, cc->column_index_offset, cc->column_index_length, 1, arena, &keep[0], &ci,
                   st) ||
        read_index(fd, cc->offset_index_offset, cc->offset_index_length, 0, arena, &keep[1], &oi,
                   st))
        return -1;
    if (ci.npages != oi.npages) return 1;
    rs->n = 0;
    for (int p = 0; p < oi.npages; p++) {
        long long mn, mx;
        if (ci.null_pages[p]) continue;
        int hmin = stat_i64(ci.min_values[p], ci.min_lens[p], 1, &mn);
        int hmax = stat_i64(ci.max_values[p], ci.max_lens[p], 1, &mx);
        if ((hmin && mn > g_range.hi) || (hmax && mx < g_range.lo)) continue;
        int64_t lo = oi.pages[p].first_row_index;
        int64_t hi = p + 1 < oi.npages ? oi.pages[p + 1].first_row_index : rg->num_rows;
        if (rs->n && rs->hi[rs->n - 1] == lo)
            rs->hi[rs->n - 1] = hi;
        else if (rs->n < MAX_SPANS)
            rs->lo[rs->n] = lo, rs->hi[rs->n] = hi, rs->n++;
        else
            return 1;
    }
    return 0;
}

/* Column chunk m restricted to the pages of its offset index that hold a row of rs, plus its
 * dictionary page; 1 when it has no offset index (read it whole). */
static int add_pages(int fd, const pqt_column_chunk *cc, const row_spans *rs, int64_t nrows,
                     pqt_arena *arena, uint8_t **keep, chunk_list *l, run_stats *st)
{
    const pqt_column_meta *m = &cc->meta;
    pqt_offset_index oi;
    if (!cc->has_offset_index) return 1;
    if (read_index(fd, cc->offset_index_offset, cc->offset_index_length, 0, arena, keep, &oi, st))
        return -1;
    if (oi.npages == 0) return 1;
    if (m->has_dictionary_page_offset && m->dictionary_page_offset > 0 &&
        m->dictionary_page_offset < oi.pages[0].offset &&
        add_span(l, m->dictionary_page_offset, oi.pages[0].offset - m->dictionary_page_offset,
                 m->codec))
        return -1;
    int64_t span_off = -1, span_len = 0;
    for (int p = 0; p <= oi.npages; p++) {
        int want = 0;
        if (p < oi.npages) {
            int64_t lo = oi.pages[p].first_row_index;
            int64_t hi = p + 1 < oi.npages ? oi.pages[p + 1].first_row_index : nrows;
            for (int i = 0; i < rs->n && !want; i++)
                want = lo < rs->hi[i] && rs->lo[i] < hi;
        }
        /* consecutive wanted pages are one pread */
        if (want && span_off >= 0 && span_off + span_len == oi.pages[p].offset) {
            span_len += oi.pages[p].compressed_page_size;
            continue;
        }
        if (span_off >= 0 && add_span(l, span_off, span_len, m->codec)) return -1;
        span_off = want ? oi.pages[p].offset : -1;
        span_len = want ? oi.pages[p].compressed_page_size : 0;
    }
    return 0;
}

/* One timed run. */
static int run_once(const char *path, int threads, char cols[][64], int ncols, scratch *scr,
                    run_stats *st)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_err("cannot open %s", path);
        return -1;
    }
    struct stat sb;
    pqt_arena arena;
    memset(&arena, 0, sizeof arena);
    pqt_file_meta meta;
    memset(&meta, 0, sizeof meta);
    chunk_list list = {0};
    static row_spans rows;
    uint8_t *keep[MAX_KEEP + 2] = {0}; /* index bytes, freed at the end of the run */
    int nkeep = 0;
    int rc = -1;
    if (fstat(fd, &sb) != 0) {
        set_err("cannot stat %s", path);
        goto out;
    }
    pqt_status s = pqt_footer_read(fd, path, (int64_t)sb.st_size, &arena, &meta);
    if (s != PQT_OK) {
        set_err("pqt_footer_read: %s: %s", pqt_status_name(s), pqt_errmsg());
        goto out;
    }
    int kept = 0, nchunks = 0;
    for (int g = 0; g < meta.n_row_groups; g++) {
        const pqt_row_group *rg = &meta.row_groups[g];
        if (g_range.on && !range_overlaps(&meta, rg)) continue;
        kept++;
        /* --range on a chunk with a page index: only the pages holding the range's rows */
        int paged = 0;
        char one[1][64];
        snprintf(one[0], sizeof one[0], "%s", g_range.col);
        for (int c = 0; g_range.on && nkeep + 2 <= MAX_KEEP && c < rg->ncolumns; c++) {
            if (!rg->columns[c].has_meta || !column_matches(&meta, c, one, 1)) continue;
            int r = range_rows(fd, rg, &rg->columns[c], &arena, &keep[nkeep], &rows, st);
            nkeep += 2;
            if (r < 0) goto out;
            paged = r == 0;
            break;
        }
        int matched = 0;
        for (int c = 0; c < rg->ncolumns; c++) {
            const pqt_column_meta *m = &rg->columns[c].meta;
            if (!rg->columns[c].has_meta || !column_matches(&meta, c, cols, ncols)) continue;
            matched++;
            st->codec = m->codec;
            if (paged && nkeep < MAX_KEEP) {
                int r = add_pages(fd, &rg->columns[c], &rows, rg->num_rows, &arena, &keep[nkeep++],
                                  &list, st);
                if (r < 0) goto out;
                if (r == 0) continue;
            }
            int64_t off = m->data_page_offset;
            if (m->has_dictionary_page_offset && m->dictionary_page_offset > 0 &&
                m->dictionary_page_offset < off)
                off = m->dictionary_page_offset;
            if (add_span(&list, off, m->total_compressed_size, m->codec)) goto out;
        }
        if (matched != ncols) {
            set_err("row group %d: found %d of the %d columns", g, matched, ncols);
            goto out;
        }
        nchunks += matched;
    }
    chunk *chunks = list.v;
    int n = list.n;
    st->nchunks = nchunks;
    st->spans = n;
    st->row_groups = kept;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int i = 0; i < n; i++) {
        int t = omp_get_thread_num(), failed;
#pragma omp atomic read
        failed = g_failed;
        if (!failed) do_chunk(fd, path, &chunks[i], &scr[t], st);
    }
    rc = g_failed ? -1 : 0;
out:
    free(list.v);
    for (int i = 0; i < nkeep && i < MAX_KEEP + 2; i++)
        free(keep[i]);
    pqt_arena_free(&arena);
    close(fd);
    return rc;
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

int main(int argc, char **argv)
{
    const char *path = NULL, *colspec = "ra,dec,mass,z", *evict_bin = NULL;
    int threads = 1, runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--file")) path = argv[i + 1];
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--columns")) colspec = argv[i + 1];
        else if (!strcmp(argv[i], "--evict"))
            evict_bin = argv[i + 1];
        else if (!strcmp(argv[i], "--range") && sscanf(argv[i + 1], "%63[^,],%lld,%lld",
                                                       g_range.col, &g_range.lo, &g_range.hi) == 3)
            g_range.on = 1;
        else path = NULL, i = argc;
    }
    if (!path || threads < 1 || threads > MAX_THREADS || runs < 1 || runs > MAX_RUNS || argc % 2 == 0) {
        fprintf(stderr,
                "usage: pqt_floor --file PATH [--threads T] [--runs R] [--columns a,b,...]\n"
                "                 [--range COL,LO,HI] [--evict PQT_EVICT_BIN]\n");
        return 2;
    }
    char cols[MAX_COLS][64];
    int ncols = 0;
    for (const char *p = colspec; *p && ncols < MAX_COLS;) {
        size_t len = strcspn(p, ",");
        snprintf(cols[ncols++], sizeof cols[0], "%.*s", (int)len, p);
        p += len + (p[len] == ',');
    }

    scratch *scr = calloc((size_t)threads, sizeof *scr);
    int ok = scr != NULL;
    for (int t = 0; ok && t < threads; t++) ok = pqt_codec_ctx_new(&scr[t].ctx) == PQT_OK;
    if (!ok) set_err("cannot create codec contexts");

    double times[MAX_RUNS];
    run_stats st;
    memset(&st, 0, sizeof st);
    static evict_log ev; /* --evict: cold runs, the file dropped from the page cache first */
    ok = ok && (!evict_bin || evict_run(evict_bin, path, &ev, g_err, sizeof g_err) == 0);
    ok = ok && run_once(path, threads, cols, ncols, scr, &st) == 0; /* warm-up */
    run_stats last = st;
    for (int r = 0; ok && r < runs; r++) {
        if (evict_bin && evict_run(evict_bin, path, &ev, g_err, sizeof g_err) != 0) {
            ok = 0;
            break;
        }
        memset(&st, 0, sizeof st);
        double t0 = bench_now_ms();
        ok = run_once(path, threads, cols, ncols, scr, &st) == 0;
        times[r] = bench_now_ms() - t0;
        last = st;
    }

    printf("{\"engine\":\"floor\",\"threads\":%d", threads);
    if (ok) {
        evict_print(&ev);
        printf(",\"row_groups\":%d,\"chunks\":%d,\"spans\":%d,\"pages\":%lld,\"crc_pages\":%lld,"
               "\"bytes_read\":%lld,\"bytes_decompressed\":%lld,\"codec\":",
               last.row_groups, last.nchunks, last.spans, (long long)last.pages,
               (long long)last.crc_pages, (long long)last.bytes_read, (long long)last.bytes_out);
        json_str(pqt_codec_name(last.codec));
        printf(",\"times_ms\":[");
        for (int r = 0; r < runs; r++) printf("%s%.6f", r ? "," : "", times[r]);
        qsort(times, (size_t)runs, sizeof times[0], bench_cmp_double);
        double med = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
        printf("],\"median\":%.6f,\"min\":%.6f,\"max\":%.6f}\n", med, times[0], times[runs - 1]);
    } else {
        printf(",\"error\":");
        json_str(g_err);
        printf("}\n");
    }
    for (int t = 0; scr && t < threads; t++) {
        free(scr[t].raw);
        free(scr[t].out);
        pqt_codec_ctx_free(scr[t].ctx);
    }
    free(scr);
    return 0;
}
