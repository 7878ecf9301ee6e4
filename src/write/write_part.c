/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_part.c - parts of one Parquet file written by several processes (layer: write;
 * docs/writing.md "Parts of one file").
 *
 * A part is the ordinary streaming writer with its bytes sent to a nameless spool beside the
 * target and no "PAR1" head, so every offset it records counts from the part's start. Its
 * close keeps the writer (its schema, options and key-value slots) and serializes a part
 * footer: the FileMetaData of its row groups, its encoded column and offset indexes, and
 * what the always-written key-value entries need from its rows (vector widths, longest
 * strings). Part k's bytes go to the shared file at 4 + the bytes of parts 0 .. k-1; the
 * holder of part 0 merges the footers: every absolute offset shifted by its part's start,
 * the offset indexes' page locations too (decoded, shifted, encoded again: their varints
 * may grow), the page indexes placed after the last part, ordinals renumbered, the entries
 * filled from every part's rows. Nothing here knows about MPI: the bytes travel however
 * the caller moves them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/meta_encode.h"
#include "pqt_file.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"
#include "write/write_dataset.h"
#include "write/write_file.h"
#include "write/write_io.h"

/* The part footer: magic, data bytes, rows, columns, FileMetaData bytes, column index bytes,
 * offset index bytes (little-endian), then per column the observed vector width and longest
 * string (int64 each), then the three byte runs. */
#define MAGIC "PQTPART1"
enum { HEAD = 48, PER_COL = 16, FILE_HEAD = 4 };

struct pqt_part {
    pqt_writer *w; /* rows flushed; its key-value entries are filled by pqt_part_assemble */
    pqt_buf footer;
    int64_t nbytes, nrows;
    bool assembled;
};

pqt_status pqt_writer_open_part(pqt_writer **ret, const char *path, pqt_table *template_table,
                                const pqt_write_opts *opts, int part)
{
    if (part < 0) return pqt_err(PQT_MISUSE, "pqt_writer_open_part: part %d (0 or more)", part);
    return pqt_writer_open_as(ret, path, template_table, opts, part, "pqt_writer_open_part");
}

static pqt_status serialize(pqt_writer *w, pqt_buf *out)
{
    pqt_file_meta m;
    PQT_TRY(pqt_writer_file_meta(w, &m));
    m.kv = NULL; /* filled at assembly, from every part's rows */
    m.nkv = 0;
    pqt_buf meta = {0};
    pqt_status st = pqt_meta_encode_file_meta(&meta, &m);
    if (st == PQT_OK && meta.len > UINT32_MAX)
        st = pqt_err(PQT_LIMIT, "the part's metadata is %zu bytes (2^32 - 1 at most)", meta.len);
    size_t n = HEAD + (size_t)w->ncols * PER_COL + meta.len + w->ci.len + w->oi.len;
    if (st == PQT_OK) st = pqt_buf_reserve(out, n);
    if (st == PQT_OK) {
        uint8_t *p = out->data;
        memcpy(p, MAGIC, 8);
        pqt_store_le64(p + 8, (uint64_t)w->off);
        pqt_store_le64(p + 16, (uint64_t)w->nrows);
        pqt_store_le32(p + 24, (uint32_t)w->ncols);
        pqt_store_le32(p + 28, (uint32_t)meta.len);
        pqt_store_le64(p + 32, (uint64_t)w->ci.len);
        pqt_store_le64(p + 40, (uint64_t)w->oi.len);
        p += HEAD;
        for (int k = 0; k < w->ncols; k++, p += PER_COL) {
            pqt_store_le64(p, (uint64_t)w->obs_width[k]);
            pqt_store_le64(p + 8, (uint64_t)w->obs_strlen[k]);
        }
        if (meta.len) memcpy(p, meta.data, meta.len);
        p += meta.len;
        if (w->ci.len) memcpy(p, w->ci.data, w->ci.len);
        p += w->ci.len;
        if (w->oi.len) memcpy(p, w->oi.data, w->oi.len);
        out->len = n;
    }
    pqt_buf_free(&meta);
    return st;
}

pqt_status pqt_writer_close_part(pqt_writer *w, pqt_part **ret)
{
    const char *call = "pqt_writer_close_part";
    if (!w || !ret) {
        pqt_writer_abort(w);
        return pqt_err(PQT_MISUSE, "%s: writer or ret is NULL", call);
    }
    pqt_status st = PQT_OK;
    if (!w->part)
        st = pqt_err(PQT_MISUSE, "%s: %s: the writer was opened by pqt_writer_open, not as a part",
                     call, w->path);
    else if (w->failed) /* its own error: another process reports it */
        st = pqt_err(w->fail_msg ? w->fail_st : PQT_MISUSE,
                     "%s: %s: an earlier write failed; nothing was written%s%s", call, w->path,
                     w->fail_msg ? ": " : "", w->fail_msg ? w->fail_msg : "");
    pqt_part *p = st == PQT_OK ? pqt_calloc(1, sizeof *p) : NULL;
    if (st == PQT_OK && !p) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    bool prefix = st == PQT_OK;
    if (st == PQT_OK) st = pqt_writer_flush_rg(w);
    if (st == PQT_OK) st = pqt_wio_sync(w->io);
    if (st == PQT_OK) st = serialize(w, &p->footer);
    if (st != PQT_OK) {
        if (prefix) pqt_err_prefix("%s: %s: ", call, w->path);
        if (p) pqt_buf_free(&p->footer);
        pqt_mem_free(p);
        pqt_writer_abort(w);
        return st;
    }
    p->w = w;
    p->nbytes = w->off;
    p->nrows = w->nrows;
    *ret = p;
    return PQT_OK;
}

pqt_status pqt_write_table_part(pqt_table *t, const char *path, const pqt_write_opts *opts,
                                int part, pqt_part **ret)
{
    if (!ret || part < 0)
        return pqt_err(PQT_MISUSE, "pqt_write_table_part: ret is NULL or part %d below 0", part);
    pqt_writer *w = NULL;
    PQT_TRY(pqt_writer_open_as(&w, path, t, opts, part, "pqt_write_table_part"));
    w->template_table = t;
    pqt_status st = pqt_writer_write(w, t);
    if (st != PQT_OK) {
        pqt_writer_abort(w);
        return st;
    }
    return pqt_writer_close_part(w, ret);
}

int64_t pqt_part_nbytes(const pqt_part *p)
{
    return p ? p->nbytes : 0;
}

int64_t pqt_part_nrows(const pqt_part *p)
{
    return p ? p->nrows : 0;
}

const void *pqt_part_footer(const pqt_part *p, size_t *nbytes_ret)
{
    if (nbytes_ret) *nbytes_ret = p ? p->footer.len : 0;
    return p ? p->footer.data : NULL;
}

void pqt_part_free(pqt_part *p)
{
    if (!p) return;
    pqt_writer_abort(p->w); /* closes the spool, which has no name */
    pqt_buf_free(&p->footer);
    pqt_mem_free(p);
}

/* ---- the part's bytes into the shared file ---- */

pqt_status pqt_part_write_to(const pqt_part *p, const char *tmp, int64_t offset)
{
    const char *call = "pqt_part_write_to";
    if (!p || !tmp || offset < FILE_HEAD)
        return pqt_err(PQT_MISUSE,
                       "%s: part or file is NULL, or offset %lld is inside the "
                       "file's 4-byte head",
                       call, (long long)offset);
    if (p->w->tmp && strcmp(p->w->tmp, tmp) == 0) { /* part 0, written in place */
        if (offset != FILE_HEAD)
            return pqt_err(PQT_MISUSE, "%s: %s: part 0 lies at byte 4, not %lld", call, tmp,
                           (long long)offset);
        if (fsync(p->w->fd) != 0)
            return pqt_err(PQT_IO, "%s: %s: flushing: %s", call, tmp, strerror(errno));
        return PQT_OK;
    }
    if (p->nbytes == 0) return PQT_OK;
    int fd = open(tmp, O_WRONLY);
    if (fd < 0) return pqt_err(PQT_IO, "%s: %s: cannot open: %s", call, tmp, strerror(errno));
    pqt_status st = PQT_OK;
    int64_t at = 0;
    /* in the kernel where it can (no copy through user memory; a reflink on some file
     * systems); by pread/pwrite where it cannot (another file system, an old kernel) */
    while (at < p->nbytes) {
        loff_t from = (loff_t)at, to = (loff_t)(offset + at);
        size_t want =
            p->nbytes - at < (int64_t)1 << 30 ? (size_t)(p->nbytes - at) : (size_t)1 << 30;
        ssize_t k = copy_file_range(p->w->fd, &from, fd, &to, want, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        at += k;
    }
    size_t cap = 1u << 20;
    uint8_t *b = at < p->nbytes ? pqt_malloc(cap) : NULL;
    if (at < p->nbytes && !b) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    while (st == PQT_OK && at < p->nbytes) {
        size_t want = p->nbytes - at < (int64_t)cap ? (size_t)(p->nbytes - at) : cap;
        ssize_t k = pread(p->w->fd, b, want, (off_t)at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            st = pqt_err(PQT_IO, "%s: %s: reading the part's spool at byte %lld: %s", call,
                         p->w->path, (long long)at, k < 0 ? strerror(errno) : "end of file");
            break;
        }
        for (ssize_t done = 0; st == PQT_OK && done < k;) {
            ssize_t n = pwrite(fd, b + done, (size_t)(k - done), (off_t)(offset + at + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                st = pqt_err(PQT_IO, "%s: %s: writing at byte %lld: %s", call, tmp,
                             (long long)(offset + at + done),
                             n < 0 ? strerror(errno) : "no progress");
            else
                done += n;
        }
        at += k;
    }
    /* each writer flushes its own bytes: on a network file system only its client can */
    if (st == PQT_OK && fsync(fd) != 0)
        st = pqt_err(PQT_IO, "%s: %s: flushing: %s", call, tmp, strerror(errno));
    if (close(fd) != 0 && st == PQT_OK)
        st = pqt_err(PQT_IO, "%s: %s: closing: %s", call, tmp, strerror(errno));
    pqt_mem_free(b);
    return st;
}

/* ---- the shared file ---- */

pqt_status pqt_shared_file_create(const pqt_part *p, char **tmp_ret)
{
    const char *call = "pqt_shared_file_create";
    if (!p || !tmp_ret) return pqt_err(PQT_MISUSE, "%s: part or tmp_ret is NULL", call);
    const char *path = p->w->path;
    if (p->w->tmp) { /* part 0: its bytes are in the shared file already */
        *tmp_ret = pqt_strdup(p->w->tmp);
        return *tmp_ret ? PQT_OK : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    struct stat sb;
    if (!p->w->o.overwrite && stat(path, &sb) == 0)
        return pqt_err(PQT_EXISTS, "%s: %s exists (set PQT_WOPT_OVERWRITE to replace it)", call,
                       path);
    size_t pn = strlen(path);
    char *tmp = pqt_malloc(pn + 16);
    if (!tmp) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    snprintf(tmp, pn + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        pqt_status st = pqt_err(PQT_IO, "%s: %s: cannot create a temporary file beside it: %s",
                                call, path, strerror(errno));
        pqt_mem_free(tmp);
        return st;
    }
    pqt_status st = PQT_OK;
    ssize_t k;
    while ((k = pwrite(fd, "PAR1", 4, 0)) < 0 && errno == EINTR) {
    }
    if (k != 4) st = pqt_err(PQT_IO, "%s: %s: writing the head: %s", call, tmp, strerror(errno));
    if (close(fd) != 0 && st == PQT_OK)
        st = pqt_err(PQT_IO, "%s: %s: closing: %s", call, tmp, strerror(errno));
    if (st != PQT_OK) {
        unlink(tmp);
        pqt_mem_free(tmp);
        return st;
    }
    *tmp_ret = tmp;
    return PQT_OK;
}

pqt_status pqt_shared_file_commit(pqt_part *first, const char *tmp, int64_t tail_offset,
                                  const void *tail, size_t tail_nbytes)
{
    const char *call = "pqt_shared_file_commit";
    if (!first || !tmp || (!tail && tail_nbytes) || tail_offset < FILE_HEAD)
        return pqt_err(PQT_MISUSE,
                       "%s: part 0, the temporary file, the tail and an offset past "
                       "the head are required",
                       call);
    const char *path = first->w->path;
    int fd = open(tmp, O_WRONLY);
    if (fd < 0) return pqt_err(PQT_IO, "%s: %s: cannot open: %s", call, tmp, strerror(errno));
    pqt_status st = PQT_OK;
    const uint8_t *t = tail;
    for (size_t done = 0; st == PQT_OK && done < tail_nbytes;) {
        ssize_t n = pwrite(fd, t + done, tail_nbytes - done, (off_t)(tail_offset + (int64_t)done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            st = pqt_err(PQT_IO, "%s: %s: writing the footer at byte %lld: %s", call, tmp,
                         (long long)(tail_offset + (int64_t)done),
                         n < 0 ? strerror(errno) : "no progress");
        else
            done += (size_t)n;
    }
    /* a longer file left by an earlier attempt would hide the footer at its end */
    if (st == PQT_OK && ftruncate(fd, (off_t)(tail_offset + (int64_t)tail_nbytes)) != 0)
        st = pqt_err(PQT_IO, "%s: %s: setting its size: %s", call, tmp, strerror(errno));
    if (st == PQT_OK && (fsync(fd) != 0 || fchmod(fd, 0644) != 0))
        st = pqt_err(PQT_IO, "%s: %s: flushing: %s", call, tmp, strerror(errno));
    if (close(fd) != 0 && st == PQT_OK)
        st = pqt_err(PQT_IO, "%s: %s: closing: %s", call, tmp, strerror(errno));
    if (st == PQT_OK && (st = pqt_wfile_commit(tmp, path, first->w->o.overwrite, true)) != PQT_OK)
        pqt_err_prefix("%s: ", call);
    if (st == PQT_OK && first->w->tmp && strcmp(first->w->tmp, tmp) == 0) {
        pqt_mem_free(first->w->tmp); /* named now: pqt_part_free must not remove it */
        first->w->tmp = NULL;
    }
    return st;
}

void pqt_shared_file_remove(const char *tmp)
{
    if (tmp) unlink(tmp);
}

/* ---- the footer of the whole file ---- */

/* One part footer, checked and decoded. */
typedef struct part_view {
    int64_t nbytes, nrows, base;
    uint32_t ncols;
    const uint8_t *obs, *ci, *oi;
    uint64_t ci_n, oi_n;
    pqt_file_meta m;
} part_view;

static pqt_status parse_footer(const void *bytes, size_t n, int k, pqt_arena *a, part_view *v)
{
    const uint8_t *p = bytes;
    if (!p || n < HEAD || memcmp(p, MAGIC, 8) != 0)
        return pqt_err(PQT_CORRUPT, "part %d: its footer (%zu bytes) is not a part footer", k, n);
    uint64_t nbytes = pqt_load_le64(p + 8), nrows = pqt_load_le64(p + 16);
    uint32_t ncols = pqt_load_le32(p + 24), meta_n = pqt_load_le32(p + 28);
    uint64_t ci_n = pqt_load_le64(p + 32), oi_n = pqt_load_le64(p + 40);
    uint64_t rest = n - HEAD;
    if (nbytes > INT64_MAX / 2 || nrows > INT64_MAX || (uint64_t)ncols * PER_COL > rest ||
        meta_n > rest - (uint64_t)ncols * PER_COL ||
        ci_n > rest - (uint64_t)ncols * PER_COL - meta_n ||
        oi_n != rest - (uint64_t)ncols * PER_COL - meta_n - ci_n)
        return pqt_err(PQT_CORRUPT,
                       "part %d: its footer's sizes (%u columns, metadata %u, column index %llu, "
                       "offset index %llu bytes) do not add up to its %zu bytes",
                       k, ncols, meta_n, (unsigned long long)ci_n, (unsigned long long)oi_n, n);
    v->nbytes = (int64_t)nbytes;
    v->nrows = (int64_t)nrows;
    v->ncols = ncols;
    v->obs = p + HEAD;
    const uint8_t *meta = v->obs + (size_t)ncols * PER_COL;
    v->ci = meta + meta_n;
    v->ci_n = ci_n;
    v->oi = v->ci + ci_n;
    v->oi_n = oi_n;
    memset(&v->m, 0, sizeof v->m);
    pqt_status st = pqt_meta_decode_file(meta, meta_n, 0, a, &v->m);
    if (st != PQT_OK) pqt_err_prefix("part %d: ", k);
    return st;
}

static bool within(int64_t off, int64_t len, int64_t n)
{
    return off >= 0 && len >= 0 && off <= n && len <= n - off;
}

/* Every offset of part k's row groups inside its own bytes and index runs. */
static pqt_status check_offsets(const part_view *v, int k, int ncols)
{
    int64_t rows = 0;
    for (int g = 0; g < v->m.n_row_groups; g++) {
        const pqt_row_group *rg = &v->m.row_groups[g];
        if (rg->ncolumns != ncols || rg->num_rows < 0 || rg->num_rows > v->nrows - rows)
            return pqt_err(PQT_CORRUPT,
                           "part %d: row group %d has %d columns and %lld rows (%d "
                           "columns, %lld rows in the part)",
                           k, g, rg->ncolumns, (long long)rg->num_rows, ncols, (long long)v->nrows);
        rows += rg->num_rows;
        for (int c = 0; c < ncols; c++) {
            const pqt_column_chunk *cc = &rg->columns[c];
            const pqt_column_meta *m = &cc->meta;
            bool ok =
                cc->has_meta && within(cc->file_offset, 0, v->nbytes) &&
                within(m->data_page_offset, 0, v->nbytes) &&
                (!m->has_dictionary_page_offset ||
                 within(m->dictionary_page_offset, 0, v->nbytes)) &&
                (!m->has_index_page_offset || within(m->index_page_offset, 0, v->nbytes)) &&
                (!m->has_bloom_filter_offset ||
                 within(m->bloom_filter_offset,
                        m->has_bloom_filter_length ? m->bloom_filter_length : 0, v->nbytes)) &&
                (!cc->has_column_index ||
                 within(cc->column_index_offset, cc->column_index_length, (int64_t)v->ci_n)) &&
                (!cc->has_offset_index ||
                 within(cc->offset_index_offset, cc->offset_index_length, (int64_t)v->oi_n));
            if (!ok)
                return pqt_err(PQT_CORRUPT,
                               "part %d: row group %d, column %d: an offset lies "
                               "outside the part's %lld bytes or its page indexes",
                               k, g, c, (long long)v->nbytes);
        }
    }
    if (rows != v->nrows || v->m.num_rows != v->nrows)
        return pqt_err(PQT_CORRUPT, "part %d: its row groups hold %lld rows, its footer says %lld",
                       k, (long long)rows, (long long)v->nrows);
    return PQT_OK;
}

/* Part k's offset index at [off, off + len) of its run, page locations moved by base,
 * appended to out; its new offset and length (relative to out) returned. */
static pqt_status shift_offset_index(const part_view *v, int k, pqt_column_chunk *cc, pqt_buf *out,
                                     pqt_arena *a)
{
    pqt_offset_index oi;
    memset(&oi, 0, sizeof oi);
    pqt_status st = pqt_meta_decode_offset_index(v->oi + cc->offset_index_offset,
                                                 (size_t)cc->offset_index_length, 0, a, &oi);
    if (st != PQT_OK) {
        pqt_err_prefix("part %d: ", k);
        return st;
    }
    for (int i = 0; i < oi.npages; i++) {
        if (!within(oi.pages[i].offset, oi.pages[i].compressed_page_size, v->nbytes))
            return pqt_err(PQT_CORRUPT,
                           "part %d: an offset index places page %d outside the "
                           "part's %lld bytes",
                           k, i, (long long)v->nbytes);
        oi.pages[i].offset += v->base;
    }
    size_t at = out->len;
    PQT_TRY(pqt_meta_encode_offset_index(out, &oi));
    if (out->len - at > INT32_MAX)
        return pqt_err(PQT_LIMIT, "part %d: an offset index grew past 2^31 bytes", k);
    cc->offset_index_offset = (int64_t)at;
    cc->offset_index_length = (int32_t)(out->len - at);
    return PQT_OK;
}

/* The observations of every part folded together (vector widths: -2 no row, -1 rows differ;
 * longest strings: -1 not tracked). */
static void merge_observations(pqt_writer *w, const part_view *v, int nparts)
{
    for (int c = 0; c < w->ncols; c++) {
        int64_t wd = -2, sl = -1;
        for (int k = 0; k < nparts; k++) {
            int64_t pw = (int64_t)pqt_load_le64(v[k].obs + (size_t)c * PER_COL);
            int64_t ps = (int64_t)pqt_load_le64(v[k].obs + (size_t)c * PER_COL + 8);
            if (pw != -2) wd = wd == -2 ? pw : wd == pw ? wd : -1;
            if (ps > sl) sl = ps;
        }
        w->obs_width[c] = wd;
        w->obs_strlen[c] = sl;
    }
}

static pqt_status assemble(pqt_part *first, int nparts, const void *const *footers,
                           const size_t *nbytes, pqt_arena *a, pqt_buf *tail, int64_t *tail_off)
{
    pqt_writer *w = first->w;
    part_view *v = pqt_arena_alloc_array(a, (size_t)nparts, sizeof *v);
    if (!v) return pqt_err(PQT_NOMEM, "out of memory");
    if (nbytes[0] != first->footer.len || !footers[0] ||
        memcmp(footers[0], first->footer.data, nbytes[0]) != 0)
        return pqt_err(PQT_MISUSE, "footer 0 is not the footer of the part assembling the file");
    int64_t at = FILE_HEAD, nrows = 0, nrg = 0;
    uint64_t ci_total = 0;
    for (int k = 0; k < nparts; k++) {
        PQT_TRY(parse_footer(footers[k], nbytes[k], k, a, &v[k]));
        char name[2][32];
        snprintf(name[0], sizeof name[0], "part 0");
        snprintf(name[1], sizeof name[1], "part %d", k);
        PQT_TRY(pqt_wsummary_same_schema(&v[0].m, &v[k].m, name[0], name[1], a));
        if (v[k].ncols != (uint32_t)w->ncols)
            return pqt_err(PQT_CORRUPT, "part %d: its footer has %u columns, part 0 %d", k,
                           v[k].ncols, w->ncols);
        PQT_TRY(check_offsets(&v[k], k, w->ncols));
        v[k].base = at;
        if (v[k].nbytes > INT64_MAX / 2 - at || v[k].nrows > INT64_MAX - nrows)
            return pqt_err(PQT_LIMIT, "part %d: the file would pass 2^62 bytes or 2^63 rows", k);
        at += v[k].nbytes;
        nrows += v[k].nrows;
        nrg += v[k].m.n_row_groups;
        ci_total += v[k].ci_n;
        if (nrg > INT32_MAX) return pqt_err(PQT_LIMIT, "part %d: more than 2^31 - 1 row groups", k);
    }
    const char *const **paths = pqt_arena_alloc_array(a, (size_t)w->ncols + 1, sizeof *paths);
    int *lens = pqt_arena_alloc_array(a, (size_t)w->ncols + 1, sizeof *lens);
    pqt_row_group *rgs = pqt_arena_alloc_array(a, (size_t)nrg + 1, sizeof *rgs);
    if (!paths || !lens || !rgs) return pqt_err(PQT_NOMEM, "out of memory");
    for (int c = 0; c < w->ncols; c++)
        PQT_TRY(pqt_wstruct_path(&w->cols[c], a, &paths[c], &lens[c]));
    /* the tail: every column index, every offset index, the footer */
    pqt_buf oi = {0};
    int64_t ci_base = at, oi_base = at + (int64_t)ci_total;
    uint64_t ci_at = 0;
    int r = 0;
    pqt_status st = pqt_buf_reserve(tail, (size_t)ci_total);
    for (int k = 0; st == PQT_OK && k < nparts; k++) {
        const part_view *pv = &v[k];
        st = pqt_buf_append(tail, pv->ci, (size_t)pv->ci_n);
        for (int g = 0; st == PQT_OK && g < pv->m.n_row_groups; g++) {
            pqt_row_group rg = pv->m.row_groups[g];
            if (rg.has_file_offset) rg.file_offset += pv->base;
            rg.ordinal = (int32_t)r;
            rg.has_ordinal = r <= INT16_MAX;
            for (int c = 0; st == PQT_OK && c < rg.ncolumns; c++) {
                pqt_column_chunk *cc = &rg.columns[c];
                pqt_column_meta *m = &cc->meta;
                cc->file_offset += pv->base;
                m->data_page_offset += pv->base;
                if (m->has_dictionary_page_offset) m->dictionary_page_offset += pv->base;
                if (m->has_index_page_offset) m->index_page_offset += pv->base;
                if (m->has_bloom_filter_offset) m->bloom_filter_offset += pv->base;
                if (cc->has_column_index) cc->column_index_offset += ci_base + (int64_t)ci_at;
                if (cc->has_offset_index) {
                    st = shift_offset_index(pv, k, cc, &oi, a);
                    cc->offset_index_offset += oi_base;
                }
                m->path_in_schema = paths[c];
                m->path_len = lens[c];
            }
            rgs[r++] = rg;
        }
        ci_at += pv->ci_n;
    }
    if (st == PQT_OK) st = pqt_buf_append(tail, oi.data, oi.len);
    pqt_buf_free(&oi);
    PQT_TRY(st);
    /* the entries from every part's rows: the VOTable's row count, widths, string lengths */
    merge_observations(w, v, nparts);
    int64_t own_rows = w->nrows;
    w->nrows = nrows;
    first->assembled = true; /* the entries are filled once */
    st = pqt_wmeta_fill(w);
    w->nrows = own_rows;
    PQT_TRY(st);
    pqt_file_meta m;
    PQT_TRY(pqt_writer_file_meta(w, &m));
    m.row_groups = rgs;
    m.n_row_groups = (int)nrg;
    m.num_rows = nrows;
    size_t meta_at = tail->len;
    PQT_TRY(pqt_meta_encode_file_meta(tail, &m));
    size_t flen = tail->len - meta_at;
    if (flen > UINT32_MAX)
        return pqt_err(PQT_LIMIT, "the footer is %zu bytes, more than a footer holds (2^32 - 1)",
                       flen);
    uint8_t end[8] = {0, 0, 0, 0, 'P', 'A', 'R', '1'};
    pqt_store_le32(end, (uint32_t)flen);
    PQT_TRY(pqt_buf_append(tail, end, 8));
    *tail_off = at;
    return PQT_OK;
}

pqt_status pqt_part_assemble(pqt_part *first, int nparts, const void *const *footers,
                             const size_t *footer_nbytes, int64_t *tail_offset_ret, void **tail_ret,
                             size_t *tail_nbytes_ret)
{
    const char *call = "pqt_part_assemble";
    if (!first || nparts < 1 || !footers || !footer_nbytes || !tail_offset_ret || !tail_ret ||
        !tail_nbytes_ret)
        return pqt_err(PQT_MISUSE, "%s: part 0, at least one footer and the outputs are required",
                       call);
    if (first->assembled)
        return pqt_err(PQT_MISUSE, "%s: %s: part 0 has assembled its file already", call,
                       first->w->path);
    pqt_arena a = {0};
    pqt_buf tail = {0};
    int64_t off = 0;
    pqt_status st = assemble(first, nparts, footers, footer_nbytes, &a, &tail, &off);
    pqt_arena_free(&a);
    if (st != PQT_OK) {
        pqt_buf_free(&tail);
        pqt_err_prefix("%s: %s: ", call, first->w->path);
        return st;
    }
    *tail_offset_ret = off;
    *tail_ret = tail.data;
    *tail_nbytes_ret = tail.len;
    return PQT_OK;
}
