/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_decode_field.c - the arena helpers every struct decoder of the footer shares
 * (layer: format): out-of-memory wording, arrays and NUL-terminated copies in the arena.
 * A file of its own so the struct decoders (meta_decode.c, meta_decode_schema.c) depend on
 * it and not on each other.
 */
#include <string.h>

#include "format/meta_decode_int.h"
#include "util/error.h"

pqt_status pqt_meta_nomem(const pqt_thrift_reader *r)
{
    return pqt_err(PQT_NOMEM, "out of memory decoding the %s at byte %lld", r->what,
                   (long long)pqt_thrift_offset(r));
}

pqt_status pqt_meta_arena_array(const pqt_thrift_reader *r, pqt_arena *a, size_t n, size_t size,
                                void **out)
{
    *out = NULL;
    if (n == 0) return PQT_OK;
    *out = pqt_arena_alloc_array(a, n, size);
    return *out ? PQT_OK : pqt_meta_nomem(r);
}

pqt_status pqt_meta_copy_bytes(const pqt_thrift_reader *r, pqt_arena *a, const uint8_t *src,
                               uint32_t len, const uint8_t **out)
{
    uint8_t *p = pqt_arena_alloc(a, (size_t)len + 1);
    if (!p) return pqt_meta_nomem(r);
    if (len) memcpy(p, src, len);
    p[len] = 0;
    *out = p;
    return PQT_OK;
}

pqt_status pqt_meta_field_str(pqt_thrift_reader *r, pqt_arena *a, const pqt_thrift_field *f,
                              const char *sname, const char *fname, const uint8_t **out,
                              uint32_t *len_ret)
{
    const uint8_t *data;
    uint32_t len;
    PQT_TRY(pqt_thrift_field_binary(r, f, sname, fname, &data, &len));
    if (len_ret) *len_ret = len;
    return pqt_meta_copy_bytes(r, a, data, len, out);
}
