/* SPDX-License-Identifier: Apache-2.0 */
/*
 * footer.h - locate, read and decode a Parquet file's footer (layer: format).
 *
 * Implements the file layout of parquet-format README.md "File Format": "PAR1" at both ends,
 * the Thrift FileMetaData just before a 4-byte little-endian length and the trailing magic.
 * Encrypted files (FileMetaData with encryption_algorithm, encrypted column chunks, or the
 * "PARE" magic of an encrypted footer) are recognised and refused.
 */
#ifndef PQT_FORMAT_FOOTER_H
#define PQT_FORMAT_FOOTER_H

#include <stdint.h>

#include "format/meta.h"
#include "pqt.h"
#include "util/buf.h"
#include "util/io.h"

/* Read and decode the footer of the open file `fd` of `file_size` bytes.
 * path: used only in messages, which always start with it.
 * arena: receives every allocation of *out (and nothing else on failure paths that matter:
 *        a failed call may leave partial allocations in the arena, freed with it).
 * I/O: one pread of the last min(file_size, 64 KiB) bytes; a second pread only when the footer
 *      is longer than that tail, and a 4-byte read of the leading magic when the tail does
 *      not reach the start of the file.
 * Errors: PQT_IO (read failure), PQT_CORRUPT (too small, bad magic, footer length outside the
 * file, malformed metadata with the byte offset), PQT_UNSUPPORTED_ENCRYPTED, PQT_NOMEM. */
pqt_status pqt_footer_read(int fd, const char *path, int64_t file_size, pqt_arena *arena,
                           pqt_file_meta *out);
/* The same over any source (util/io.h: path, descriptor or memory); io->name starts the
 * messages and io->size is the file size. */
pqt_status pqt_footer_read_io(const pqt_io *io, pqt_arena *arena, pqt_file_meta *out);
/* The same, the first read taking the last tail_guess bytes (a second one when the footer is
 * longer): a dataset's members, whose footers are about the size of the first one's, are
 * read with a guess near that size rather than 64 KiB each. */
pqt_status pqt_footer_read_io_tail(const pqt_io *io, int64_t tail_guess, pqt_arena *arena,
                                   pqt_file_meta *out);

/* The same, the footer's FileMetaData bytes (not the length and magic after them) also
 * appended to raw when it is not NULL (on failure raw->len is 0): what a metadata snapshot
 * carries to another process (api/snapshot.h). */
pqt_status pqt_footer_read_io_raw(const pqt_io *io, int64_t tail_guess, pqt_arena *arena,
                                  pqt_file_meta *out, pqt_buf *raw);
/* The footer's FileMetaData bytes appended to raw, not decoded (the frame is checked: magics,
 * length): a process that reads footers for others to decode. */
pqt_status pqt_footer_fetch_raw(const pqt_io *io, int64_t tail_guess, pqt_buf *raw);
/* Decode FileMetaData bytes (len) of the file name of file_size bytes, as the read would
 * have (offsets in messages as in the file; encryption refused). PQT_CORRUPT when len does
 * not fit in such a file. */
pqt_status pqt_footer_decode_bytes(const char *name, const uint8_t *bytes, size_t len,
                                   int64_t file_size, pqt_arena *arena, pqt_file_meta *out);

#endif
