/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_io.h - the writer's output bytes, written by a background thread (layer: write).
 *
 * Copying a file's bytes into the page cache (write(2)) took a sixth of a copy's time, all
 * on the thread that encodes. The bytes are gathered in staging buffers instead, and one
 * thread writes each full buffer while the encoders go on; a slow disk holds the encoders
 * back only when every buffer waits to be written. Errors are kept by the thread and
 * reported by the next put and by the final sync.
 */
#ifndef PQT_WRITE_IO_H
#define PQT_WRITE_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "pqt.h"

typedef struct pqt_wio pqt_wio;

/* Bytes for fd (path names it in messages); background false: put writes at once on the
 * caller's thread. */
pqt_status pqt_wio_open(pqt_wio **ret, int fd, const char *path, bool background);
/* Append n bytes (copied: p may be reused at once). */
pqt_status pqt_wio_put(pqt_wio *io, const void *p, size_t n);
/* Everything put so far written to fd (not fsync'd); the first error of any write. */
pqt_status pqt_wio_sync(pqt_wio *io);
/* Stop the thread (waiting for the write in progress) and free; pending bytes are dropped. */
void pqt_wio_free(pqt_wio *io);

#endif
