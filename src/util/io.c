/* SPDX-License-Identifier: Apache-2.0 */
/*
 * io.c - file, descriptor and memory sources; positional reads into pooled page-aligned
 * buffers (layer: util).
 *
 * Why pread and not a mapping: reading a mapped file takes page faults (on this project's
 * benchmark machine the copy out of the mapping ran at ~2 GB/s, and reading four columns of a
 * 580 MB file took 3x as long as with pread into huge-page buffers), and a mapped file that
 * shrinks raises SIGBUS in whatever code touches it. pread reports the short read instead,
 * which becomes a PQT_IO naming the offset. A caller who wants a mapping anyway can map the
 * file and open the memory (pqt_file_open_mem), taking the SIGBUS risk knowingly.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* posix_fadvise */
#endif
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "mem.h"

/* Read buffers grow in steps of this much, so chunks of similar sizes share one. */
#define BUF_STEP ((size_t)64 * 1024)
/* Idle buffers larger than this are freed rather than kept: a source holds at most
 * PQT_IO_POOL of them as long as it is open. */
#define POOL_MAX_NBYTES ((size_t)64 << 20)

static pqt_status io_new(const char *name, pqt_io **ret)
{
    pqt_io *io = pqt_calloc(1, sizeof *io);
    char *nm = pqt_strdup(name);
    if (!io || !nm) {
        pqt_mem_free(io);
        pqt_mem_free(nm);
        return pqt_err(PQT_NOMEM, "out of memory opening %s", name);
    }
    atomic_init(&io->refs, 1);
    for (int i = 0; i < PQT_IO_POOL; i++) atomic_init(&io->pool[i], NULL);
    atomic_init(&io->read_hint, 0);
    atomic_init(&io->page_hint, 0);
    io->name = nm;
    io->fd = -1;
    io->heap = true;
    *ret = io;
    return PQT_OK;
}

/* Finish opening a descriptor source: size and kind of file. */
static pqt_status io_attach_fd(pqt_io *io)
{
    struct stat sb;
    if (fstat(io->fd, &sb) != 0)
        return pqt_err(PQT_IO, "%s: cannot stat: %s", io->name, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return pqt_err(PQT_IO, "%s: not a regular file", io->name);
    io->size = (int64_t)sb.st_size;
    return PQT_OK;
}

pqt_status pqt_io_open_path(const char *path, pqt_io **ret)
{
    pqt_io *io;
    PQT_TRY(io_new(path, &io));
    io->owns_fd = true;
    io->fd = open(path, O_RDONLY | O_CLOEXEC);
    pqt_status st = io->fd >= 0 ? io_attach_fd(io)
                                : pqt_err(PQT_IO, "%s: cannot open: %s", path, strerror(errno));
    if (st != PQT_OK) {
        pqt_io_unref(io);
        return st;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    /* chunks are read front to back: a larger readahead window suits them */
    (void)posix_fadvise(io->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    *ret = io;
    return PQT_OK;
}

pqt_status pqt_io_open_fd(int fd, const char *name, pqt_io **ret)
{
    char dflt[32];
    if (!name) {
        snprintf(dflt, sizeof dflt, "fd %d", fd);
        name = dflt;
    }
    if (fd < 0) return pqt_err(PQT_MISUSE, "%s: not an open descriptor", name);
    pqt_io *io;
    PQT_TRY(io_new(name, &io));
    io->owns_fd = true;
    /* our own descriptor: the caller may close theirs; pread ignores the shared offset */
    io->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    pqt_status st = io->fd >= 0 ? io_attach_fd(io)
                                : pqt_err(PQT_IO, "%s: cannot use descriptor %d: %s", name, fd,
                                          strerror(errno));
    if (st != PQT_OK) {
        pqt_io_unref(io);
        return st;
    }
    *ret = io;
    return PQT_OK;
}

pqt_status pqt_io_open_mem(const void *data, size_t nbytes, const char *name, pqt_io **ret)
{
    if (!name) name = "(memory)";
    if (!data && nbytes > 0) return pqt_err(PQT_MISUSE, "%s: data is NULL", name);
    if (nbytes > (size_t)INT64_MAX) return pqt_err(PQT_MISUSE, "%s: size out of range", name);
    pqt_io *io;
    PQT_TRY(io_new(name, &io));
    io->mem = data;
    io->size = (int64_t)nbytes;
    *ret = io;
    return PQT_OK;
}

void pqt_io_borrow_fd(pqt_io *io, int fd, const char *name, int64_t size)
{
    memset(io, 0, sizeof *io);
    io->name = (char *)name;
    io->fd = fd;
    io->size = size;
}

pqt_status pqt_io_open_ops(const char *name, int64_t size, const pqt_io_ops *ops, void *ctx,
                           pqt_io **ret)
{
    pqt_io *io;
    pqt_status st = io_new(name, &io);
    if (st != PQT_OK) {
        ops->close(ctx);
        return st;
    }
    io->ops = ops;
    io->ops_ctx = ctx;
    io->size = size;
    *ret = io;
    return PQT_OK;
}

pqt_io *pqt_io_ref(pqt_io *io)
{
    atomic_fetch_add_explicit(&io->refs, 1, memory_order_relaxed);
    return io;
}

pqt_io *pqt_io_ref_if_alive(pqt_io *io)
{
    int n = atomic_load_explicit(&io->refs, memory_order_acquire);
    while (n > 0)
        if (atomic_compare_exchange_weak_explicit(&io->refs, &n, n + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            return io;
    return NULL;
}

void pqt_io_unref(pqt_io *io)
{
    if (!io || !io->heap) return;
    if (atomic_fetch_sub_explicit(&io->refs, 1, memory_order_acq_rel) != 1) return;
    for (int i = 0; i < PQT_IO_POOL; i++) pqt_mem_free_recycled(atomic_load(&io->pool[i]));
    pqt_io_unref(io->pool_io);
    if (io->owns_fd && io->fd >= 0) close(io->fd);
    if (io->ops) io->ops->close(io->ops_ctx);
    pqt_mem_free(io->name);
    pqt_mem_free(io);
}

/* The file ended inside [offset, offset + n): it shrank after it was opened. */
static pqt_status short_read(const pqt_io *io, size_t n, int64_t offset, int64_t got)
{
    struct stat sb;
    long long now = fstat(io->fd, &sb) == 0 ? (long long)sb.st_size : -1;
    return pqt_err(PQT_IO,
                   "%s: reading %zu bytes at offset %lld: the file ends at byte %lld (it had "
                   "%lld bytes when opened: it was truncated while open)",
                   io->name, n, (long long)offset, now >= 0 ? now : (long long)(offset + got),
                   (long long)io->size);
}

/* [offset, offset + n) inside the source's size at open? */
static pqt_status check_bounds(const pqt_io *io, size_t n, int64_t offset)
{
    if (offset < 0 || offset > io->size || n > (uint64_t)(io->size - offset))
        return pqt_err(PQT_IO, "%s: %zu bytes at offset %lld are past its end (%lld bytes)",
                       io->name, n, (long long)offset, (long long)io->size);
    return PQT_OK;
}

pqt_status pqt_io_read(const pqt_io *io, void *buf, size_t n, int64_t offset)
{
    PQT_TRY(check_bounds(io, n, offset));
    if (io->mem) {
        if (n) memcpy(buf, io->mem + offset, n);
        return PQT_OK;
    }
    if (io->ops) return n ? io->ops->read(io->ops_ctx, buf, n, offset) : PQT_OK;
    uint8_t *p = buf;
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(io->fd, p + done, n - done, (off_t)(offset + (int64_t)done));
        if (r < 0) {
            if (errno == EINTR) continue;
            return pqt_err(PQT_IO, "%s: read of %zu bytes at offset %lld failed: %s", io->name,
                           n, (long long)offset, strerror(errno));
        }
        if (r == 0) return short_read(io, n, offset, (int64_t)done);
        done += (size_t)r;
    }
    return PQT_OK;
}

pqt_status pqt_io_readv(const pqt_io *io, struct iovec *iov, int niov, int64_t offset)
{
    size_t n = 0;
    for (int i = 0; i < niov; i++) n += iov[i].iov_len;
    PQT_TRY(check_bounds(io, n, offset));
    int64_t at = offset;
    if (io->ops) { /* one read each, served from the span fetched once (not one per vector) */
        pqt_io_range span = {offset, (int64_t)n};
        if (io->ops->will_read && n > 0) io->ops->will_read(io->ops_ctx, &span, 1);
        for (int i = 0; i < niov; i++) {
            PQT_TRY(pqt_io_read(io, iov[i].iov_base, iov[i].iov_len, at));
            at += (int64_t)iov[i].iov_len;
            iov[i].iov_base = (uint8_t *)iov[i].iov_base + iov[i].iov_len;
            iov[i].iov_len = 0;
        }
        return PQT_OK;
    }
    while (niov > 0) {
        if (io->mem) { /* the same scatter from the caller's memory */
            for (int i = 0; i < niov; i++) {
                if (iov[i].iov_len) memcpy(iov[i].iov_base, io->mem + at, iov[i].iov_len);
                at += (int64_t)iov[i].iov_len;
            }
            return PQT_OK;
        }
        int batch = niov < IOV_MAX ? niov : IOV_MAX;
        ssize_t r = preadv(io->fd, iov, batch, (off_t)at);
        if (r < 0) {
            if (errno == EINTR) continue;
            return pqt_err(PQT_IO, "%s: read of %zu bytes at offset %lld failed: %s", io->name,
                           n, (long long)offset, strerror(errno));
        }
        if (r == 0) return short_read(io, n, offset, at - offset);
        at += r;
        /* step over what arrived: whole vectors, then part of one */
        size_t got = (size_t)r;
        while (niov > 0 && got >= iov[0].iov_len) {
            got -= iov[0].iov_len;
            iov++;
            niov--;
        }
        if (niov > 0) {
            iov[0].iov_base = (uint8_t *)iov[0].iov_base + got;
            iov[0].iov_len -= got;
        }
    }
    return PQT_OK;
}

pqt_status pqt_io_view(const pqt_io *io, int64_t offset, size_t n, pqt_io_buf *buf,
                       const uint8_t **ret)
{
    PQT_TRY(check_bounds(io, n, offset));
    if (io->mem) {
        *ret = io->mem + offset;
        return PQT_OK;
    }
    if (buf->cap < n) {
        size_t want = atomic_load_explicit(&io->read_hint, memory_order_relaxed);
        if (want < n) want = n;
        size_t cap = want > SIZE_MAX - BUF_STEP ? want : (want / BUF_STEP + 1) * BUF_STEP;
        uint8_t *d = pqt_malloc_pages(cap);
        if (!d) return pqt_err(PQT_NOMEM, "%s: out of memory for %zu bytes at offset %lld",
                               io->name, n, (long long)offset);
        /* the next large allocation (a page, another source's read) takes it back warm */
        pqt_mem_free_recycled(buf->data);
        buf->data = d;
        buf->cap = cap;
    }
    PQT_TRY(pqt_io_read(io, buf->data, n, offset));
    *ret = buf->data;
    return PQT_OK;
}

static void raise_hint(atomic_size_t *hint, size_t nbytes)
{
    if (nbytes > POOL_MAX_NBYTES) nbytes = POOL_MAX_NBYTES; /* larger ones are not kept */
    size_t cur = atomic_load_explicit(hint, memory_order_relaxed);
    while (nbytes > cur && !atomic_compare_exchange_weak_explicit(hint, &cur, nbytes,
                                                                  memory_order_relaxed,
                                                                  memory_order_relaxed)) {
    }
}

void pqt_io_expect_reads(pqt_io *io, size_t nbytes) { raise_hint(&io->read_hint, nbytes); }

void pqt_io_expect_pages(pqt_io *io, size_t nbytes) { raise_hint(&io->page_hint, nbytes); }

pqt_io_buf pqt_io_buf_take(pqt_io *io)
{
    pqt_io_buf b = {NULL, 0};
    if (io->pool_io) io = io->pool_io;
    for (int i = 0; io->heap && i < PQT_IO_POOL; i++) {
        if (!atomic_load_explicit(&io->pool[i], memory_order_relaxed)) continue;
        uint8_t *p = atomic_exchange_explicit(&io->pool[i], NULL, memory_order_acquire);
        if (!p) continue;
        memcpy(&b.cap, p, sizeof b.cap);
        b.data = p;
        break;
    }
    return b;
}

void pqt_io_buf_give(pqt_io *io, pqt_io_buf *buf)
{
    uint8_t *p = buf->data;
    if (!p) return;
    if (io->pool_io) io = io->pool_io;
    if (buf->cap > POOL_MAX_NBYTES) {
        pqt_mem_free_recycled(p);
        buf->data = NULL;
        buf->cap = 0;
        return;
    }
    /* an idle buffer's contents are scratch: its capacity rides in its first bytes */
    memcpy(p, &buf->cap, sizeof buf->cap);
    buf->data = NULL;
    buf->cap = 0;
    for (int i = 0; io->heap && i < PQT_IO_POOL; i++) {
        uint8_t *expect = NULL;
        if (atomic_compare_exchange_strong_explicit(&io->pool[i], &expect, p,
                                                    memory_order_release, memory_order_relaxed))
            return;
    }
    pqt_mem_free_recycled(p);
}

void pqt_io_willneed(const pqt_io *io, int64_t offset, int64_t n)
{
    if (offset < 0 || n <= 0 || offset > io->size || n > io->size - offset) return;
    if (!io->mem && io->fd >= 0) {
#ifdef POSIX_FADV_WILLNEED
        (void)posix_fadvise(io->fd, (off_t)offset, (off_t)n, POSIX_FADV_WILLNEED);
#endif
    }
}

void pqt_io_will_read(pqt_io *io, const pqt_io_range *ranges, int n)
{
    if (io->ops && io->ops->will_read && n > 0) io->ops->will_read(io->ops_ctx, ranges, n);
}

void pqt_io_net_counts_get(const pqt_io *io, pqt_io_net_counts *ret)
{
    *ret = (pqt_io_net_counts){0, 0, 0};
    if (io && io->ops && io->ops->counts) io->ops->counts(io->ops_ctx, ret);
}

void pqt_io_net_tally_get(const pqt_io_net_tally *t, pqt_io_net_counts *ret)
{
    *ret = (pqt_io_net_counts){0, 0, 0};
    if (!t) return;
    ret->requests = atomic_load_explicit(&t->requests, memory_order_relaxed);
    ret->bytes_fetched = atomic_load_explicit(&t->bytes_fetched, memory_order_relaxed);
    ret->retries = atomic_load_explicit(&t->retries, memory_order_relaxed);
}
