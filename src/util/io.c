/*
 * io.c - positional file reads (layer: util).
 */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "io.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

pqt_status pqt_pread_full(int fd, const char *path, void *buf, size_t n, int64_t offset)
{
    uint8_t *p = buf;
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(fd, p + done, n - done, (off_t)(offset + (int64_t)done));
        if (r < 0) {
            if (errno == EINTR) continue;
            return pqt_err(PQT_IO, "%s: read of %zu bytes at offset %lld failed: %s", path, n,
                           (long long)offset, strerror(errno));
        }
        if (r == 0)
            return pqt_err(PQT_IO, "%s: unexpected end of file reading %zu bytes at offset %lld",
                           path, n, (long long)offset);
        done += (size_t)r;
    }
    return PQT_OK;
}
