/*
 * io.h - positional file reads (layer: util). Hosts may later supply callbacks; for now
 * a plain file descriptor with pread, which is safe to share between threads.
 */
#ifndef PQT_UTIL_IO_H
#define PQT_UTIL_IO_H

#include <stddef.h>
#include <stdint.h>

#include "pqt.h"

/* Read exactly n bytes at offset; PQT_IO on error or short read (message names path). */
pqt_status pqt_pread_full(int fd, const char *path, void *buf, size_t n, int64_t offset);

#endif
