/* SPDX-License-Identifier: Apache-2.0 */
/*
 * footer.c - find and decode FileMetaData at the end of a Parquet file (layer: format).
 *
 * Layout (parquet-format README.md, "File Format"):
 *     "PAR1" | column chunks ... | FileMetaData | u32le footer length | "PAR1"
 * An encrypted footer ends in "PARE" instead (Encryption.md); a plaintext-footer encrypted
 * file ends in "PAR1" but its FileMetaData names an encryption algorithm or its chunks carry
 * crypto metadata. Both are refused with PQT_UNSUPPORTED_ENCRYPTED, before any column data
 * is read. The tail read is sized so that nearly every footer arrives in a single pread.
 */
#include "format/footer.h"

#include <string.h>

#include "util/error.h"
#include "util/io.h"
#include "util/le.h"
#include "util/mem.h"

/* Most footers are a few KiB; one read of this size usually gets footer, length and magic. */
#define TAIL_NBYTES ((int64_t)64 * 1024)
#define MAGIC_NBYTES 4
/* leading magic + trailing length + trailing magic */
#define FRAME_NBYTES 12

static bool any_chunk_encrypted(const pqt_file_meta *m)
{
    for (int g = 0; g < m->n_row_groups; g++)
        for (int c = 0; c < m->row_groups[g].ncolumns; c++)
            if (m->row_groups[g].columns[c].encrypted) return true;
    return false;
}

static pqt_status check_head_magic(const pqt_io *io, const uint8_t *tail, int64_t tail_nbytes,
                                   int64_t file_size)
{
    const char *path = io->name;
    uint8_t head[MAGIC_NBYTES];
    const uint8_t *p = head;
    if (tail_nbytes == file_size) {
        p = tail; /* the tail already holds the whole file */
    } else if (io->ops) {
        /* a remote file: a request for 4 bytes would double the open's round trips; a file
         * without the leading magic but with a valid footer fails at its first page instead */
        return PQT_OK;
    } else {
        PQT_TRY(pqt_io_read(io, head, MAGIC_NBYTES, 0));
    }
    if (memcmp(p, "PAR1", MAGIC_NBYTES) != 0)
        return pqt_err(PQT_CORRUPT, "%s: not a Parquet file (no PAR1 magic at byte 0)", path);
    return PQT_OK;
}

static pqt_status decode(const char *path, const uint8_t *buf, uint32_t len, int64_t start,
                         pqt_arena *arena, pqt_file_meta *out)
{
    pqt_status st = pqt_meta_decode_file(buf, len, start, arena, out);
    if (st != PQT_OK) {
        pqt_err_prefix("%s: ", path);
        return st;
    }
    if (out->has_encryption_algorithm || any_chunk_encrypted(out))
        return pqt_err(PQT_UNSUPPORTED_ENCRYPTED,
                       "%s: encrypted files are not supported (encrypted columns)", path);
    return PQT_OK;
}

pqt_status pqt_footer_read(int fd, const char *path, int64_t file_size, pqt_arena *arena,
                           pqt_file_meta *out)
{
    pqt_io io;
    pqt_io_borrow_fd(&io, fd, path, file_size);
    return pqt_footer_read_io(&io, arena, out);
}

pqt_status pqt_footer_read_io(const pqt_io *io, pqt_arena *arena, pqt_file_meta *out)
{
    return pqt_footer_read_io_tail(io, TAIL_NBYTES, arena, out);
}

pqt_status pqt_footer_read_io_tail(const pqt_io *io, int64_t tail_guess, pqt_arena *arena,
                                   pqt_file_meta *out)
{
    return pqt_footer_read_io_raw(io, tail_guess, arena, out, NULL);
}

pqt_status pqt_footer_decode_bytes(const char *name, const uint8_t *bytes, size_t len,
                                   int64_t file_size, pqt_arena *arena, pqt_file_meta *out)
{
    memset(out, 0, sizeof *out);
    if (file_size < FRAME_NBYTES || len > (size_t)(file_size - FRAME_NBYTES))
        return pqt_err(PQT_CORRUPT, "%s: a footer of %zu bytes does not fit in a file of %lld bytes",
                       name, len, (long long)file_size);
    return decode(name, bytes, (uint32_t)len, file_size - 8 - (int64_t)len, arena, out);
}

/* Find the footer of io: its FileMetaData bytes (*len at *meta, starting at file byte *start)
 * in *hold (free it), checked as far as the frame goes: magics, length within the file. */
static pqt_status fetch(const pqt_io *io, int64_t tail_guess, uint8_t **hold, const uint8_t **meta,
                        uint32_t *len_ret, int64_t *start_ret)
{
    const char *path = io->name;
    int64_t file_size = io->size;
    *hold = NULL;
    if (file_size < FRAME_NBYTES)
        return pqt_err(PQT_CORRUPT,
                       "%s: file is %lld bytes, too small for a Parquet file (at least %d)", path,
                       (long long)file_size, FRAME_NBYTES);

    if (tail_guess < FRAME_NBYTES) tail_guess = FRAME_NBYTES;
    int64_t tail_nbytes = file_size < tail_guess ? file_size : tail_guess;
    int64_t tail_start = file_size - tail_nbytes;
    uint8_t *tail = pqt_malloc((size_t)tail_nbytes);
    if (!tail) return pqt_err(PQT_NOMEM, "%s: out of memory reading the footer", path);
    pqt_status st = pqt_io_read(io, tail, (size_t)tail_nbytes, tail_start);
    if (st != PQT_OK) goto fail;

    const uint8_t *end = tail + tail_nbytes;
    if (memcmp(end - MAGIC_NBYTES, "PARE", MAGIC_NBYTES) == 0) {
        st = pqt_err(PQT_UNSUPPORTED_ENCRYPTED,
                     "%s: encrypted files are not supported (encrypted footer)", path);
        goto fail;
    }
    if (memcmp(end - MAGIC_NBYTES, "PAR1", MAGIC_NBYTES) != 0) {
        st =
            pqt_err(PQT_CORRUPT, "%s: not a Parquet file or truncated (no PAR1 magic at byte %lld)",
                    path, (long long)(file_size - MAGIC_NBYTES));
        goto fail;
    }
    st = check_head_magic(io, tail, tail_nbytes, file_size);
    if (st != PQT_OK) goto fail;

    uint32_t len = pqt_load_le32(end - 8);
    if ((int64_t)len > file_size - FRAME_NBYTES) {
        st = pqt_err(PQT_CORRUPT,
                     "%s: footer length %u (at byte %lld) does not fit in the file of %lld bytes",
                     path, len, (long long)(file_size - 8), (long long)file_size);
        goto fail;
    }
    int64_t start = file_size - 8 - (int64_t)len;
    if (start >= tail_start) {
        *meta = tail + (start - tail_start);
    } else {
        pqt_mem_free(tail);
        tail = pqt_malloc(len);
        if (!tail) return pqt_err(PQT_NOMEM, "%s: out of memory for a footer of %u bytes", path, len);
        st = pqt_io_read(io, tail, len, start);
        if (st != PQT_OK) goto fail;
        *meta = tail;
    }
    *hold = tail;
    *len_ret = len;
    *start_ret = start;
    return PQT_OK;
fail:
    pqt_mem_free(tail);
    return st;
}

pqt_status pqt_footer_read_io_raw(const pqt_io *io, int64_t tail_guess, pqt_arena *arena,
                                  pqt_file_meta *out, pqt_buf *raw)
{
    memset(out, 0, sizeof *out);
    uint8_t *hold = NULL;
    const uint8_t *meta = NULL;
    uint32_t len = 0;
    int64_t start = 0;
    PQT_TRY(fetch(io, tail_guess, &hold, &meta, &len, &start));
    pqt_status st = decode(io->name, meta, len, start, arena, out);
    if (st == PQT_OK && raw) st = pqt_buf_append(raw, meta, len);
    if (st != PQT_OK && raw) raw->len = 0;
    pqt_mem_free(hold);
    return st;
}

pqt_status pqt_footer_fetch_raw(const pqt_io *io, int64_t tail_guess, pqt_buf *raw)
{
    uint8_t *hold = NULL;
    const uint8_t *meta = NULL;
    uint32_t len = 0;
    int64_t start = 0;
    PQT_TRY(fetch(io, tail_guess, &hold, &meta, &len, &start));
    pqt_status st = pqt_buf_append(raw, meta, len);
    pqt_mem_free(hold);
    return st;
}
