/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_summary.c - a dataset's summary files: _metadata (every file's row groups, each
 * column chunk's file_path naming its file relative to the dataset) and _common_metadata
 * (the schema alone), as Spark, Dask and pyarrow write them (layer: write; docs/writing.md
 * "Datasets"). A summary is a Parquet file with no data: "PAR1", the FileMetaData, its
 * length and "PAR1". The files' footers are read once each; nothing else of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/footer.h"
#include "format/meta_encode.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"
#include "write/write_dataset.h"

/* Schema elements a and b describe the same node. */
static bool elem_same(const pqt_schema_elem *a, const pqt_schema_elem *b)
{
    return strcmp(a->name, b->name) == 0 && a->type == b->type &&
           (a->type != PQT_PT_FIXED_LEN_BYTE_ARRAY || a->type_length == b->type_length) &&
           a->repetition == b->repetition &&
           a->converted_type == b->converted_type && a->logical.id == b->logical.id &&
           a->logical.scale == b->logical.scale && a->logical.precision == b->logical.precision &&
           a->logical.unit == b->logical.unit && a->logical.utc == b->logical.utc &&
           a->logical.bit_width == b->logical.bit_width &&
           a->logical.is_signed == b->logical.is_signed && a->scale == b->scale &&
           a->precision == b->precision;
}

/* The leaves' paths (root excluded), in column order: paths[k] has lens[k] names (arena).
 * With want >= 1, stop at element `want` and put its dotted path in dotted (cap bytes). */
static pqt_status walk(const pqt_file_meta *m, const char *file, pqt_arena *a,
                       const char *const **paths, int *lens, int *nleaves, int want, char *dotted,
                       size_t cap)
{
    int n = m->nschema;
    int *idx = pqt_calloc((size_t)n + 1, sizeof *idx),
        *rem = pqt_calloc((size_t)n + 1, sizeof *rem);
    pqt_status st = idx && rem ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    int sp = 0, leaves = 0;
    if (st == PQT_OK && n > 0) {
        idx[0] = 0;
        rem[0] = m->schema[0].num_children;
        sp = 1;
    }
    for (int i = 1; st == PQT_OK && i < n; i++) {
        while (sp > 0 && rem[sp - 1] <= 0)
            sp--;
        if (sp == 0) {
            st = pqt_err(PQT_CORRUPT, "%s: schema element %d is outside the root's children", file,
                         i);
            break;
        }
        rem[sp - 1]--;
        const pqt_schema_elem *e = &m->schema[i];
        if (i == want) {
            size_t at = 0;
            dotted[0] = '\0';
            for (int d = 1; d <= sp; d++) {
                const char *s = d < sp ? m->schema[idx[d]].name : e->name;
                int k = snprintf(dotted + at, cap - at, "%s%s", d > 1 ? "." : "", s);
                if (k < 0 || (size_t)k >= cap - at) break;
                at += (size_t)k;
            }
            break;
        }
        if (e->num_children > 0) {
            idx[sp] = i;
            rem[sp] = e->num_children;
            sp++;
            continue;
        }
        if (paths) {
            const char **p = pqt_arena_alloc_array(a, (size_t)sp, sizeof *p);
            if (!p) {
                st = pqt_err(PQT_NOMEM, "out of memory");
                break;
            }
            for (int d = 1; d < sp; d++)
                p[d - 1] = m->schema[idx[d]].name;
            p[sp - 1] = e->name;
            paths[leaves] = p;
            lens[leaves] = sp;
        }
        leaves++;
    }
    pqt_mem_free(idx);
    pqt_mem_free(rem);
    if (nleaves) *nleaves = leaves;
    return st;
}

/* The first schema element where b differs from a, -1 when none. */
static int schema_diff(const pqt_file_meta *a, const pqt_file_meta *b)
{
    int n = a->nschema < b->nschema ? a->nschema : b->nschema;
    /* children counts last: a column missing from b is named, not its parent (the root) */
    for (int i = 0; i < n; i++)
        if (!elem_same(&a->schema[i], &b->schema[i])) return i;
    if (a->nschema != b->nschema) return n;
    for (int i = 0; i < n; i++)
        if (a->schema[i].num_children != b->schema[i].num_children) return i;
    return -1;
}

pqt_status pqt_wsummary_same_schema(const pqt_file_meta *a, const pqt_file_meta *b,
                                    const char *a_name, const char *b_name, pqt_arena *ar)
{
    int d = schema_diff(a, b);
    if (d < 0) return PQT_OK;
    char col[512] = "";
    const pqt_file_meta *m = d < a->nschema ? a : b;
    PQT_TRY(walk(m, b_name, ar, NULL, NULL, NULL, d, col, sizeof col));
    return pqt_err(PQT_SCHEMA_MISMATCH,
                   "%s and %s have different schemas: they first "
                   "differ at column '%s'",
                   a_name, b_name, col[0] ? col : "(the root)");
}

static pqt_status read_footer(const char *dir, const char *file, pqt_arena *a, pqt_file_meta *m)
{
    size_t cap = strlen(dir) + strlen(file) + 2;
    char *path = pqt_malloc(cap);
    if (!path) return pqt_err(PQT_NOMEM, "out of memory");
    snprintf(path, cap, "%s/%s", dir, file);
    pqt_io *io = NULL;
    pqt_status st = pqt_io_open_path(path, &io);
    if (st == PQT_OK) st = pqt_footer_read_io(io, a, m);
    pqt_io_unref(io);
    pqt_mem_free(path);
    return st;
}

/* Write "PAR1", m, its length, "PAR1" to dir/name through a temporary file renamed (flushed
 * to disk first when sync is set). */
static pqt_status write_summary_file(const char *dir, const char *name, const pqt_file_meta *m,
                                     bool sync)
{
    pqt_buf b = {0};
    pqt_status st = pqt_buf_append(&b, "PAR1", 4);
    if (st == PQT_OK) st = pqt_meta_encode_file_meta(&b, m);
    size_t flen = b.len - 4;
    if (st == PQT_OK && flen > UINT32_MAX)
        st = pqt_err(PQT_LIMIT,
                     "%s/%s: the summary's metadata is %zu bytes, more than a "
                     "footer holds (2^32 - 1)",
                     dir, name, flen);
    uint8_t tail[8] = {(uint8_t)flen,
                       (uint8_t)(flen >> 8),
                       (uint8_t)(flen >> 16),
                       (uint8_t)(flen >> 24),
                       'P',
                       'A',
                       'R',
                       '1'};
    if (st == PQT_OK) st = pqt_buf_append(&b, tail, 8);
    size_t cap = strlen(dir) + strlen(name) + 16;
    char *path = st == PQT_OK ? pqt_malloc(cap) : NULL, *tmp = path ? pqt_malloc(cap) : NULL;
    if (st == PQT_OK && !tmp) st = pqt_err(PQT_NOMEM, "out of memory");
    int fd = -1;
    if (st == PQT_OK) {
        snprintf(path, cap, "%s/%s", dir, name);
        snprintf(tmp, cap, "%s/.%s-XXXXXX", dir, name);
        fd = mkstemp(tmp);
        if (fd < 0)
            st = pqt_err(PQT_IO, "%s: creating a temporary file: %s", path, strerror(errno));
    }
    for (size_t off = 0; st == PQT_OK && off < b.len;) {
        ssize_t k = write(fd, b.data + off, b.len - off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0)
            st = pqt_err(PQT_IO, "%s: writing: %s", tmp, strerror(errno));
        else
            off += (size_t)k;
    }
    if (st == PQT_OK && ((sync && fsync(fd) != 0) || fchmod(fd, 0644) != 0))
        st = pqt_err(PQT_IO, "%s: flushing: %s", tmp, strerror(errno));
    if (fd >= 0 && close(fd) != 0 && st == PQT_OK)
        st = pqt_err(PQT_IO, "%s: closing: %s", tmp, strerror(errno));
    if (st == PQT_OK && rename(tmp, path) != 0)
        st = pqt_err(PQT_IO, "%s: renaming its temporary file: %s", path, strerror(errno));
    if (st != PQT_OK && fd >= 0) unlink(tmp);
    pqt_mem_free(tmp);
    pqt_mem_free(path);
    pqt_buf_free(&b);
    return st;
}

static pqt_status summarise(const char *dir, const char *const *files, int n, bool sync,
                            pqt_arena *a)
{
    pqt_file_meta *ms = pqt_arena_alloc_array(a, (size_t)n, sizeof *ms);
    if (!ms) return pqt_err(PQT_NOMEM, "out of memory");
    int64_t nrg = 0, nrows = 0;
    for (int f = 0; f < n; f++) {
        PQT_TRY(read_footer(dir, files[f], a, &ms[f]));
        PQT_TRY(pqt_wsummary_same_schema(&ms[0], &ms[f], files[0], files[f], a));
        nrg += ms[f].n_row_groups;
        nrows += ms[f].num_rows;
        if (nrg > INT32_MAX)
            return pqt_err(PQT_LIMIT, "%s: more than 2^31 - 1 row groups in all", files[f]);
    }
    int nleaves = 0;
    const char *const **paths = pqt_arena_alloc_array(a, (size_t)ms[0].nschema + 1, sizeof *paths);
    int *lens = pqt_arena_alloc_array(a, (size_t)ms[0].nschema + 1, sizeof *lens);
    pqt_row_group *rgs = pqt_arena_alloc_array(a, (size_t)nrg + 1, sizeof *rgs);
    if (!paths || !lens || !rgs) return pqt_err(PQT_NOMEM, "out of memory");
    PQT_TRY(walk(&ms[0], files[0], a, (const char *const **)paths, lens, &nleaves, 0, NULL, 0));
    int64_t r = 0;
    for (int f = 0; f < n; f++) {
        for (int g = 0; g < ms[f].n_row_groups; g++) {
            pqt_row_group rg = ms[f].row_groups[g];
            if (rg.ncolumns != nleaves)
                return pqt_err(PQT_CORRUPT,
                               "%s: row group %d has %d column chunks for %d "
                               "columns",
                               files[f], g, rg.ncolumns, nleaves);
            for (int k = 0; k < rg.ncolumns; k++) {
                pqt_column_chunk *cc = &rg.columns[k];
                cc->file_path = files[f];
                cc->meta.path_in_schema = paths[k];
                cc->meta.path_len = lens[k];
            }
            rg.has_ordinal = false; /* ordinals number a file's own row groups */
            rgs[r++] = rg;
        }
    }
    pqt_file_meta out = ms[0];
    out.row_groups = rgs;
    out.n_row_groups = (int)nrg;
    out.num_rows = nrows;
    out.created_by = "pqt version " PQT_VERSION_STRING;
    PQT_TRY(write_summary_file(dir, "_metadata", &out, sync));
    out.row_groups = NULL;
    out.n_row_groups = 0;
    out.num_rows = 0;
    return write_summary_file(dir, "_common_metadata", &out, sync);
}

pqt_status pqt_wsummary_write(const char *dir, const char *const *files, int n, bool sync,
                              const char *call)
{
    pqt_arena a = {0};
    pqt_status st = summarise(dir, files, n, sync, &a);
    pqt_arena_free(&a);
    if (st != PQT_OK) pqt_err_prefix("%s: %s: summary: ", call, dir);
    return st;
}

pqt_status pqt_write_metadata_summary(const char *dir, const char *const *files, int nfiles)
{
    const char *call = "pqt_write_metadata_summary";
    if (!dir || !*dir || !files || nfiles < 1)
        return pqt_err(PQT_MISUSE, "%s: needs a directory and at least one file", call);
    for (int f = 0; f < nfiles; f++)
        if (!files[f] || !*files[f] || files[f][0] == '/')
            return pqt_err(PQT_MISUSE, "%s: file %d is %s: the files are named relative to %s",
                           call, f + 1, !files[f] || !*files[f] ? "empty" : files[f], dir);
    return pqt_wsummary_write(dir, files, nfiles, true, call);
}
