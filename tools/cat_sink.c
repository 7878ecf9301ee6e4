/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_sink.c - where `pqt cat` output goes: one growing buffer, written to the output file
 * descriptor with write(2) in large blocks, every write checked.
 *
 * Why not stdio: a failed fwrite is easy to miss and fflush at exit is too late to say
 * which output failed. Here the first failure stops the command: a full disk or a closed
 * descriptor is one line on stderr and exit status 1; a reader that went away (EPIPE, with
 * SIGPIPE ignored, which cmd_cat does) ends the output quietly.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cat.h"

void sink_init(cat_sink *s, int fd)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
}

void sink_free(cat_sink *s)
{
    free(s->p);
    s->p = NULL;
    s->len = s->cap = 0;
}

void sink_grow(cat_sink *s, size_t n)
{
    size_t cap = s->cap ? s->cap : SINK_BLOCK + 4096;
    while (cap - s->len < n) {
        if (cap > SIZE_MAX / 2) cap = SIZE_MAX;
        else cap *= 2;
    }
    char *p = realloc(s->p, cap);
    if (!p) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    s->p = p;
    s->cap = cap;
}

int sink_flush(cat_sink *s)
{
    if (s->status != SINK_OK) {
        s->len = 0;
        return -1;
    }
    size_t off = 0;
    while (off < s->len) {
        ssize_t w = write(s->fd, s->p + off, s->len - off);
        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EPIPE) {
            s->status = SINK_CLOSED;
        } else {
            fprintf(stderr, "pqt: cannot write the output: %s\n",
                    w < 0 ? strerror(errno) : "nothing written");
            s->status = SINK_ERROR;
        }
        s->len = 0;
        return -1;
    }
    s->len = 0;
    /* A buffer grown for one huge row goes back to the block size. */
    if (s->cap > 4 * SINK_BLOCK) {
        free(s->p);
        s->p = NULL;
        s->cap = 0;
    }
    return 0;
}
