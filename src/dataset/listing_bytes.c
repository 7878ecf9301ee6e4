/* SPDX-License-Identifier: Apache-2.0 */
/*
 * listing_bytes.c - a listing as bytes and back (layer: dataset): how one process hands the
 * files of a dataset it listed to others (api/snapshot.c), so they never walk the directory.
 *
 * Little-endian: root, n, n relative paths, nkeys, keys, n * nkeys values (absent = null),
 * key_is_int, the _metadata flags, then the HATS fields. A text is a u32 length and bytes; an
 * optional text has a leading presence byte. Decoding trusts nothing: every count is checked
 * against the bytes left before anything is allocated.
 */
#include <string.h>

#include "dataset/listing.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

static pqt_status put(pqt_buf *b, const void *p, size_t n) { return pqt_buf_append(b, p, n); }

static pqt_status put_u8(pqt_buf *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    return put(b, &x, 1);
}

static pqt_status put_i64(pqt_buf *b, int64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)((uint64_t)v >> (8 * i));
    return put(b, x, 8);
}

static pqt_status put_text(pqt_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (n > UINT32_MAX) return pqt_err(PQT_UNSUPPORTED, "a path of %zu bytes", n);
    uint8_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)((uint32_t)n >> (8 * i));
    PQT_TRY(put(b, x, 4));
    return put(b, s, n);
}

static pqt_status put_opt_text(pqt_buf *b, const char *s)
{
    PQT_TRY(put_u8(b, s != NULL));
    return s ? put_text(b, s) : PQT_OK;
}

pqt_status pqt_ds_list_encode(const pqt_ds_list *l, pqt_buf *b)
{
    PQT_TRY(put_text(b, l->root ? l->root : ""));
    PQT_TRY(put_i64(b, l->n));
    for (int64_t i = 0; i < l->n; i++)
        PQT_TRY(put_text(b, l->rel[i]));
    PQT_TRY(put_i64(b, l->nkeys));
    for (int k = 0; k < l->nkeys; k++)
        PQT_TRY(put_text(b, l->keys[k]));
    for (int64_t i = 0; i < l->n * l->nkeys; i++)
        PQT_TRY(put_opt_text(b, l->values[i]));
    for (int k = 0; k < l->nkeys; k++)
        PQT_TRY(put_u8(b, l->key_is_int[k]));
    PQT_TRY(put_u8(b, l->has_metadata | (unsigned)l->has_common_metadata << 1 |
                          (unsigned)l->is_hats << 2));
    if (!l->is_hats) return PQT_OK;
    PQT_TRY(put_opt_text(b, l->hats_ra));
    PQT_TRY(put_opt_text(b, l->hats_dec));
    PQT_TRY(put_opt_text(b, l->hats_healpix));
    PQT_TRY(put_i64(b, l->hats_healpix_order));
    for (int64_t i = 0; i < l->n; i++) {
        PQT_TRY(put_i64(b, l->hats_order[i]));
        PQT_TRY(put_i64(b, l->hats_pix[i]));
    }
    return PQT_OK;
}

/* ---- decoding ---- */

typedef struct rd {
    const uint8_t *p;
    size_t left;
    bool bad;
} rd;

static bool take(rd *r, size_t n, const uint8_t **at)
{
    if (r->bad || n > r->left) {
        r->bad = true;
        return false;
    }
    *at = r->p;
    r->p += n;
    r->left -= n;
    return true;
}

static unsigned get_u8(rd *r)
{
    const uint8_t *at;
    return take(r, 1, &at) ? at[0] : 0;
}

static int64_t get_i64(rd *r)
{
    const uint8_t *at;
    return take(r, 8, &at) ? (int64_t)pqt_load_le64(at) : 0;
}

/* A text (NULL when the bytes end, r->bad; out of memory: *nomem). */
static char *get_text(rd *r, bool *nomem)
{
    const uint8_t *at;
    if (!take(r, 4, &at)) return NULL;
    uint32_t n = pqt_load_le32(at);
    if (!take(r, n, &at)) return NULL;
    char *s = pqt_malloc_array((size_t)n + 1, 1);
    if (!s) {
        *nomem = true;
        r->bad = true;
        return NULL;
    }
    memcpy(s, at, n);
    s[n] = '\0';
    return s;
}

static char *get_opt_text(rd *r, bool *nomem) { return get_u8(r) ? get_text(r, nomem) : NULL; }

pqt_status pqt_ds_list_decode(const uint8_t *p, size_t n, size_t *used, pqt_ds_list *out)
{
    memset(out, 0, sizeof *out);
    rd r = {p, n, false};
    bool nomem = false;
    pqt_ds_list l = {0};
    l.root = get_text(&r, &nomem);
    int64_t nm = get_i64(&r);
    /* every member takes at least its 4-byte length: a count beyond that is corrupt */
    if (nm < 0 || (uint64_t)nm > r.left / 4) r.bad = true;
    if (!r.bad) {
        l.rel = pqt_calloc((size_t)nm + 1, sizeof *l.rel);
        nomem = !l.rel;
        r.bad = nomem;
        if (!r.bad) l.n = nm;
    }
    for (int64_t i = 0; !r.bad && i < nm; i++)
        l.rel[i] = get_text(&r, &nomem);
    int64_t nk = get_i64(&r);
    if (nk < 0 || nk > 4096 || (nm > 0 && (uint64_t)nk > r.left / (uint64_t)nm)) r.bad = true;
    if (!r.bad) {
        l.keys = pqt_calloc((size_t)nk + 1, sizeof *l.keys);
        l.values = pqt_calloc((size_t)(nm * nk) + 1, sizeof *l.values);
        l.key_is_int = pqt_calloc((size_t)nk + 1, sizeof *l.key_is_int);
        nomem = !l.keys || !l.values || !l.key_is_int;
        r.bad = nomem;
        if (!r.bad) l.nkeys = (int)nk;
    }
    for (int k = 0; !r.bad && k < l.nkeys; k++)
        l.keys[k] = get_text(&r, &nomem);
    for (int64_t i = 0; !r.bad && i < nm * nk; i++)
        l.values[i] = get_opt_text(&r, &nomem);
    for (int k = 0; !r.bad && k < l.nkeys; k++)
        l.key_is_int[k] = get_u8(&r) != 0;
    unsigned flags = get_u8(&r);
    l.has_metadata = flags & 1;
    l.has_common_metadata = flags >> 1 & 1;
    l.is_hats = flags >> 2 & 1;
    if (!r.bad && l.is_hats) {
        l.hats_ra = get_opt_text(&r, &nomem);
        l.hats_dec = get_opt_text(&r, &nomem);
        l.hats_healpix = get_opt_text(&r, &nomem);
        l.hats_healpix_order = (int)get_i64(&r);
        if (!r.bad && (uint64_t)nm > r.left / 16) r.bad = true;
        if (!r.bad) {
            l.hats_order = pqt_malloc_array((size_t)nm + 1, sizeof *l.hats_order);
            l.hats_pix = pqt_malloc_array((size_t)nm + 1, sizeof *l.hats_pix);
            nomem = !l.hats_order || !l.hats_pix;
            r.bad = nomem;
        }
        for (int64_t i = 0; !r.bad && i < nm; i++) {
            l.hats_order[i] = (int)get_i64(&r);
            l.hats_pix[i] = get_i64(&r);
        }
    }
    if (r.bad) {
        pqt_ds_list_free(&l);
        return nomem ? pqt_err(PQT_NOMEM, "out of memory reading a listing")
                     : pqt_err(PQT_CORRUPT, "a listing's bytes end or disagree at byte %zu of %zu",
                               n - r.left, n);
    }
    *used = n - r.left;
    *out = l;
    return PQT_OK;
}
