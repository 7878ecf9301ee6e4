/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snapshot.c - record the metadata an open reads as bytes, and replay it (layer: api).
 * docs/mpi.md, "One read of the metadata".
 *
 * Bytes, little-endian: "PQTSNAP1", a kind byte (1 a file, 2 a dataset), the sample's seed
 * (i64: a sample drawn with a fresh seed draws the same rows everywhere), then for a file
 * its footer entry; for a dataset the listing (dataset/listing_bytes.c), the entries of
 * _metadata and _common_metadata, the member count and one entry per member. An entry is a
 * presence byte, then the file's size (i64), the FileMetaData length (u32) and its bytes.
 */
#include "api/snapshot.h"

#include <string.h>

#include "api/file_int.h"
#include "format/footer.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

#define MAGIC "PQTSNAP1"
#define MAGIC_NBYTES 8

void pqt_snap_free(pqt_snap *s)
{
    if (!s) return;
    if (s->recording) {
        pqt_mem_free((void *)s->file.bytes);
        pqt_mem_free((void *)s->metadata.bytes);
        pqt_mem_free((void *)s->common.bytes);
        for (int64_t i = 0; s->member && i < s->nmembers; i++)
            pqt_mem_free((void *)s->member[i].bytes);
    }
    pqt_mem_free(s->member);
    pqt_ds_list_free(&s->list);
    pqt_mem_free(s->blob);
    memset(s, 0, sizeof *s);
}

pqt_status pqt_snap_set_list(pqt_snap *s, const pqt_ds_list *l)
{
    s->is_dataset = true;
    if (!s->recording) return PQT_OK;
    pqt_buf b = {0};
    size_t used = 0;
    pqt_status st = pqt_ds_list_encode(l, &b);
    if (st == PQT_OK) st = pqt_ds_list_decode(b.data, b.len, &used, &s->list);
    pqt_buf_free(&b);
    if (st != PQT_OK) return st;
    s->have_list = true;
    s->nmembers = l->n;
    s->member = pqt_calloc((size_t)l->n + 1, sizeof *s->member);
    if (!s->member) return pqt_err(PQT_NOMEM, "out of memory recording a listing of %lld files",
                                   (long long)l->n);
    return PQT_OK;
}

bool pqt_snap_replays(const pqt_snap *s, const pqt_snap_footer *f)
{
    return s && !s->recording && f && f->have;
}

pqt_status pqt_snap_footer_bytes(const pqt_snap_footer *f, const char *name, pqt_arena *a,
                                 pqt_file_meta *m)
{
    PQT_TRY(pqt_footer_decode_bytes(name, f->bytes, f->len, f->file_size, a, m));
    pqt_meta_pad_old_parquet_mr(m, f->file_size);
    return PQT_OK;
}

pqt_status pqt_snap_footer_io(pqt_snap *s, pqt_snap_footer *f, const pqt_io *io, int64_t tail,
                              pqt_arena *a, pqt_file_meta *m)
{
    if (pqt_snap_replays(s, f)) {
        if (f->file_size != io->size)
            return pqt_err(PQT_IO, "%s: the file is %lld bytes, but %lld when its footer was "
                                   "read for this open (it changed in between)",
                           io->name, (long long)io->size, (long long)f->file_size);
        return pqt_snap_footer_bytes(f, io->name, a, m);
    }
    bool record = s && s->recording && f;
    pqt_buf raw = {0};
    pqt_status st = pqt_footer_read_io_raw(io, tail, a, m, record ? &raw : NULL);
    if (st == PQT_OK) pqt_meta_pad_old_parquet_mr(m, io->size);
    if (st == PQT_OK && record) {
        pqt_mem_free((void *)f->bytes);
        *f = (pqt_snap_footer){true, io->size, raw.data, raw.len};
        raw.data = NULL;
    }
    pqt_buf_free(&raw);
    return st;
}

pqt_status pqt_snap_fetch(pqt_snap_footer *f, const pqt_io *io, int64_t tail)
{
    pqt_buf raw = {0};
    pqt_status st = pqt_footer_fetch_raw(io, tail, &raw);
    if (st == PQT_OK) {
        pqt_mem_free((void *)f->bytes);
        *f = (pqt_snap_footer){true, io->size, raw.data, raw.len};
        raw.data = NULL;
    }
    pqt_buf_free(&raw);
    return st;
}

pqt_status pqt_snap_send(pqt_snap *s)
{
    if (!s || !s->recording || !s->ready || s->sent) return PQT_OK;
    s->sent = true;
    void *bytes = NULL;
    size_t n = 0;
    PQT_TRY(pqt_snap_encode(s, &bytes, &n));
    pqt_status st = s->ready(s->ready_user, bytes, n);
    pqt_mem_free(bytes);
    return st;
}

/* ---- bytes ---- */

static pqt_status put_entry(pqt_buf *b, const pqt_snap_footer *f)
{
    uint8_t h[13] = {f->have};
    PQT_TRY(pqt_buf_append(b, h, 1));
    if (!f->have) return PQT_OK;
    if (f->len > UINT32_MAX) return pqt_err(PQT_UNSUPPORTED, "a footer of %zu bytes", f->len);
    for (int i = 0; i < 8; i++)
        h[i] = (uint8_t)((uint64_t)f->file_size >> (8 * i));
    for (int i = 0; i < 4; i++)
        h[8 + i] = (uint8_t)((uint32_t)f->len >> (8 * i));
    PQT_TRY(pqt_buf_append(b, h, 12));
    return pqt_buf_append(b, f->bytes, f->len);
}

pqt_status pqt_snap_encode(const pqt_snap *s, void **out, size_t *n_ret)
{
    pqt_buf b = {0};
    uint8_t kind = s->is_dataset ? 2 : 1;
    pqt_status st = pqt_buf_append(&b, MAGIC, MAGIC_NBYTES);
    if (st == PQT_OK) st = pqt_buf_append(&b, &kind, 1);
    uint8_t seed[8];
    for (int i = 0; i < 8; i++)
        seed[i] = (uint8_t)((uint64_t)s->sample_seed >> (8 * i));
    if (st == PQT_OK) st = pqt_buf_append(&b, seed, 8);
    if (st == PQT_OK && !s->is_dataset) st = put_entry(&b, &s->file);
    if (st == PQT_OK && s->is_dataset) {
        st = pqt_ds_list_encode(&s->list, &b);
        if (st == PQT_OK) st = put_entry(&b, &s->metadata);
        if (st == PQT_OK) st = put_entry(&b, &s->common);
        uint8_t n8[8];
        for (int i = 0; i < 8; i++)
            n8[i] = (uint8_t)((uint64_t)s->nmembers >> (8 * i));
        if (st == PQT_OK) st = pqt_buf_append(&b, n8, 8);
        for (int64_t i = 0; st == PQT_OK && i < s->nmembers; i++)
            st = put_entry(&b, &s->member[i]);
    }
    if (st != PQT_OK) {
        pqt_buf_free(&b);
        return st;
    }
    *out = b.data;
    *n_ret = b.len;
    return PQT_OK;
}

static pqt_status bad(size_t at, size_t n)
{
    return pqt_err(PQT_CORRUPT, "a metadata snapshot's bytes end or disagree at byte %zu of %zu",
                   at, n);
}

/* An entry at *at (advanced); false when the bytes end or disagree. */
static bool get_entry(const uint8_t *p, size_t n, size_t *at, pqt_snap_footer *f)
{
    if (*at >= n) return false;
    f->have = p[(*at)++] != 0;
    if (!f->have) return true;
    if (n - *at < 12) return false;
    f->file_size = (int64_t)pqt_load_le64(p + *at);
    f->len = pqt_load_le32(p + *at + 8);
    *at += 12;
    if (f->file_size < 0 || f->len > n - *at) return false;
    f->bytes = p + *at;
    *at += f->len;
    return true;
}

pqt_status pqt_snap_decode(const void *src, size_t n, pqt_snap *s)
{
    memset(s, 0, sizeof *s);
    if (n < MAGIC_NBYTES + 9 || memcmp(src, MAGIC, MAGIC_NBYTES) != 0)
        return pqt_err(PQT_CORRUPT, "not a metadata snapshot (%zu bytes, no %s at byte 0)", n,
                       MAGIC);
    uint8_t *p = pqt_malloc_array(n, 1);
    if (!p) return pqt_err(PQT_NOMEM, "out of memory for a metadata snapshot of %zu bytes", n);
    memcpy(p, src, n);
    s->blob = p;
    size_t at = MAGIC_NBYTES;
    uint8_t kind = p[at++];
    s->sample_seed = (int64_t)pqt_load_le64(p + at);
    at += 8;
    if (kind == 1) {
        if (!get_entry(p, n, &at, &s->file)) goto corrupt;
        return PQT_OK;
    }
    if (kind != 2) goto corrupt;
    s->is_dataset = true;
    size_t used = 0;
    pqt_status st = pqt_ds_list_decode(p + at, n - at, &used, &s->list);
    if (st != PQT_OK) {
        pqt_snap_free(s);
        pqt_err_prefix("a metadata snapshot: ");
        return st;
    }
    s->have_list = true;
    at += used;
    if (!get_entry(p, n, &at, &s->metadata) || !get_entry(p, n, &at, &s->common)) goto corrupt;
    if (n - at < 8) goto corrupt;
    s->nmembers = (int64_t)pqt_load_le64(p + at);
    at += 8;
    /* each entry takes at least its presence byte */
    if (s->nmembers != s->list.n || (uint64_t)s->nmembers > n - at) goto corrupt;
    s->member = pqt_calloc((size_t)s->nmembers + 1, sizeof *s->member);
    if (!s->member) {
        pqt_snap_free(s);
        return pqt_err(PQT_NOMEM, "out of memory for a metadata snapshot of %zu bytes", n);
    }
    for (int64_t i = 0; i < s->nmembers; i++)
        if (!get_entry(p, n, &at, &s->member[i])) goto corrupt;
    if (at != n) goto corrupt;
    return PQT_OK;
corrupt:
    pqt_snap_free(s);
    return bad(at, n);
}
