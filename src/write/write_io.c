/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_io.c - the writer's output bytes, written by a background thread (layer: write;
 * write_io.h). A ring of NBUFS staging buffers: the caller fills one, hands it over full,
 * and takes the next once the thread has written it.
 *
 * Full buffers (4 MiB, 2 MiB-aligned, at offsets that are multiples of 4 MiB) are written
 * with O_DIRECT where the file system takes it: copying into the page cache cost more CPU
 * than the disk's own time, and the file is flushed to disk at close anyway. The last,
 * partial buffer is written through the page cache (O_DIRECT off), and any O_DIRECT write
 * the file system refuses is made again without it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/mem.h"
#include "write/write_io.h"

#define NBUFS 4
#define BUF_NBYTES ((size_t)4 << 20)
/* The thread flushes what it wrote to the disk every this many bytes: the flush at close
 * (durability before the rename) then waits only for the tail, not for the whole file the
 * disk's cache still held. */
#define FLUSH_EVERY_NBYTES ((size_t)32 << 20)

struct pqt_wio {
    int fd;
    char *path;
    bool background;
    bool direct;        /* O_DIRECT is on for fd (the thread's alone once started) */
    uint8_t *buf[NBUFS];
    size_t len[NBUFS];
    int fill;           /* the buffer the caller fills */
    int next_write;     /* the next buffer the thread writes, in order */
    int nfull;          /* buffers handed over and not yet written */
    bool stop;
    int err;            /* errno of the first failed write, 0 when none */
    size_t unflushed;   /* bytes the thread wrote since its last fdatasync */
    bool broken;        /* a put failed: every later call fails too (the caller's side) */
    pthread_mutex_t mu;
    pthread_cond_t cv;  /* a buffer became full, or written, or stop */
    pthread_t thread;
    bool started;
};

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return errno ? errno : EIO;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void direct_off(pqt_wio *io)
{
    int fl = fcntl(io->fd, F_GETFL);
    if (fl >= 0) (void)fcntl(io->fd, F_SETFL, fl & ~O_DIRECT);
    io->direct = false;
}

/* A staging buffer to the file: whole ones with O_DIRECT while it works. */
static int write_buffer(pqt_wio *io, const uint8_t *p, size_t n)
{
    if (io->direct && n != BUF_NBYTES) direct_off(io);
    if (!io->direct) return write_all(io->fd, p, n);
    off_t at = lseek(io->fd, 0, SEEK_CUR);
    int e = write_all(io->fd, p, n);
    if (e == EINVAL && at >= 0 && lseek(io->fd, at, SEEK_SET) == at) {
        direct_off(io); /* refused (alignment this device wants): the page cache then */
        e = write_all(io->fd, p, n);
    }
    return e;
}

static void *writer_main(void *arg)
{
    pqt_wio *io = arg;
    pthread_mutex_lock(&io->mu);
    for (;;) {
        while (io->nfull == 0 && !io->stop) pthread_cond_wait(&io->cv, &io->mu);
        if (io->nfull == 0) break; /* stop, nothing left */
        int i = io->next_write;
        int failed = io->err;
        pthread_mutex_unlock(&io->mu);
        /* after a failure the rest is dropped: the file is abandoned anyway */
        int e = failed ? 0 : write_buffer(io, io->buf[i], io->len[i]);
        io->unflushed += io->len[i];
        if (!e && !failed && io->unflushed >= FLUSH_EVERY_NBYTES) {
            io->unflushed = 0;
            if (fdatasync(io->fd) != 0) e = errno ? errno : EIO;
        }
        pthread_mutex_lock(&io->mu);
        if (e && !io->err) io->err = e;
        io->len[i] = 0;
        io->next_write = (i + 1) % NBUFS;
        io->nfull--;
        pthread_cond_broadcast(&io->cv);
    }
    pthread_mutex_unlock(&io->mu);
    return NULL;
}

static pqt_status io_error(const pqt_wio *io, int e)
{
    return pqt_err(PQT_IO, "%s: writing the temporary file: %s", io->path, strerror(e));
}

pqt_status pqt_wio_open(pqt_wio **ret, int fd, const char *path, bool background)
{
    *ret = NULL;
    pqt_wio *io = pqt_calloc(1, sizeof *io);
    if (!io) return pqt_err(PQT_NOMEM, "out of memory");
    io->fd = fd;
    io->path = pqt_strdup(path);
    io->background = background;
    if (!io->path) {
        pqt_mem_free(io);
        return pqt_err(PQT_NOMEM, "out of memory");
    }
    if (!background) {
        *ret = io;
        return PQT_OK;
    }
    for (int i = 0; i < NBUFS; i++) {
        io->buf[i] = pqt_malloc(BUF_NBYTES);
        if (!io->buf[i]) {
            pqt_wio_free(io);
            return pqt_err(PQT_NOMEM, "out of memory for the write buffers");
        }
    }
    pthread_mutex_init(&io->mu, NULL);
    pthread_cond_init(&io->cv, NULL);
    int fl = fcntl(fd, F_GETFL);
    io->direct = fl >= 0 && fcntl(fd, F_SETFL, fl | O_DIRECT) == 0;
    if (pthread_create(&io->thread, NULL, writer_main, io) != 0) {
        if (io->direct) direct_off(io);
        /* no thread (a process at its limit): write on the caller's thread instead */
        pthread_mutex_destroy(&io->mu);
        pthread_cond_destroy(&io->cv);
        for (int i = 0; i < NBUFS; i++) pqt_mem_free(io->buf[i]);
        memset(io->buf, 0, sizeof io->buf);
        io->background = false;
    } else {
        io->started = true;
    }
    *ret = io;
    return PQT_OK;
}

/* Hand the buffer being filled to the thread and wait for the next one to be free. */
static pqt_status hand_over(pqt_wio *io)
{
    pthread_mutex_lock(&io->mu);
    io->nfull++;
    io->fill = (io->fill + 1) % NBUFS;
    pthread_cond_broadcast(&io->cv);
    while (io->len[io->fill] != 0 && !io->err) pthread_cond_wait(&io->cv, &io->mu);
    int e = io->err;
    pthread_mutex_unlock(&io->mu);
    return e ? io_error(io, e) : PQT_OK;
}

pqt_status pqt_wio_put(pqt_wio *io, const void *p, size_t n)
{
    if (io->broken) return pqt_err(PQT_IO, "%s: an earlier write failed", io->path);
    if (!io->background) {
        int e = write_all(io->fd, p, n);
        io->broken = e != 0;
        return e ? io_error(io, e) : PQT_OK;
    }
    const uint8_t *src = p;
    while (n > 0) {
        /* len[fill] is the caller's alone while it fills: the thread touches a buffer only
         * after hand_over counted it full */
        size_t room = BUF_NBYTES - io->len[io->fill];
        size_t k = n < room ? n : room;
        memcpy(io->buf[io->fill] + io->len[io->fill], src, k);
        io->len[io->fill] += k;
        src += k;
        n -= k;
        if (io->len[io->fill] == BUF_NBYTES) {
            pqt_status st = hand_over(io);
            if (st != PQT_OK) {
                io->broken = true;
                return st;
            }
        }
    }
    return PQT_OK;
}

pqt_status pqt_wio_sync(pqt_wio *io)
{
    if (io->broken) return pqt_err(PQT_IO, "%s: an earlier write failed", io->path);
    if (!io->background) return PQT_OK;
    if (io->len[io->fill] > 0) {
        pqt_status st = hand_over(io);
        if (st != PQT_OK) {
            io->broken = true;
            return st;
        }
    }
    pthread_mutex_lock(&io->mu);
    while (io->nfull > 0) pthread_cond_wait(&io->cv, &io->mu);
    int e = io->err;
    pthread_mutex_unlock(&io->mu);
    io->broken = e != 0;
    return e ? io_error(io, e) : PQT_OK;
}

void pqt_wio_free(pqt_wio *io)
{
    if (!io) return;
    if (io->started) {
        pthread_mutex_lock(&io->mu);
        io->stop = true;
        /* pending buffers are dropped: mark them written */
        io->err = io->err ? io->err : ECANCELED;
        pthread_cond_broadcast(&io->cv);
        pthread_mutex_unlock(&io->mu);
        pthread_join(io->thread, NULL);
        pthread_mutex_destroy(&io->mu);
        pthread_cond_destroy(&io->cv);
    }
    for (int i = 0; i < NBUFS; i++) pqt_mem_free_recycled(io->buf[i]);
    pqt_mem_free(io->path);
    pqt_mem_free(io);
}
