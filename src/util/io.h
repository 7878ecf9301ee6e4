/* SPDX-License-Identifier: Apache-2.0 */
/*
 * io.h - where a file's bytes come from: a path, a caller's descriptor or a caller's memory
 * (layer: util).
 *
 * A pqt_io is one source, shared (reference-counted) by every handle that reads it, e.g. a
 * table and its clones. Reads are positional (pread), so one source serves any number of
 * threads at once. Bytes read from a descriptor land in reusable page-aligned buffers that
 * the source keeps in a small lock-free pool, so steady-state reads neither allocate nor
 * fault. A memory source is read in place, without a copy.
 * A read past the end of a file that shrank after it was opened is a PQT_IO naming the
 * source and the offset, never a signal.
 * A fourth kind, a source whose bytes come from elsewhere (src/remote/: HTTP), reads through
 * a table of operations, so this layer never knows the transport.
 */
#ifndef PQT_UTIL_IO_H
#define PQT_UTIL_IO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "pqt.h"

/* A reusable read buffer (page-aligned; capacity only grows). */
typedef struct pqt_io_buf {
    uint8_t *data;
    size_t cap;
} pqt_io_buf;

/* A byte range of a source. */
typedef struct pqt_io_range {
    int64_t offset;
    int64_t n;
} pqt_io_range;

/* What a remote source cost so far: requests sent (retries included), body bytes received,
 * requests repeated after a fault. Zero for local sources. */
typedef struct pqt_io_net_counts {
    int64_t requests;
    int64_t bytes_fetched;
    int64_t retries;
} pqt_io_net_counts;

/* Network counters several sources add to as well as to their own (a dataset's members,
 * opened and closed as reads need them, counted together). */
typedef struct pqt_io_net_tally {
    atomic_llong requests, bytes_fetched, retries;
} pqt_io_net_tally;
/* The tally so far (NULL: zeros). */
void pqt_io_net_tally_get(const pqt_io_net_tally *t, pqt_io_net_counts *ret);

/* The operations of a source read through a table (pqt_io_open_ops). Every one is called from
 * any thread at once. read: exactly n bytes at offset (in bounds), a pqt_status with the
 * message set; will_read: the ranges the caller will read soon, in any order (the source may
 * fetch them ahead; a failure is not reported here: the read that needs the bytes reports it);
 * counts: the counters so far; close: the last reference is gone. */
typedef struct pqt_io_ops {
    pqt_status (*read)(void *ctx, void *buf, size_t n, int64_t offset);
    void (*will_read)(void *ctx, const pqt_io_range *ranges, int n);
    void (*counts)(void *ctx, pqt_io_net_counts *ret);
    void (*close)(void *ctx);
} pqt_io_ops;

#define PQT_IO_POOL 8 /* buffers a source keeps for reuse: one per concurrent reader */

typedef struct pqt_io {
    atomic_int refs;
    char *name;         /* messages start with it (a path, or the caller's name) */
    int fd;             /* -1 for a memory source */
    bool owns_fd;       /* closed with the source (always, except for a borrowed stack source) */
    const uint8_t *mem; /* every byte in the caller's memory, or NULL */
    bool heap;          /* allocated by pqt_io_open_* (false: pqt_io_borrow_fd) */
    int64_t size;       /* bytes when opened */
    _Atomic(uint8_t *) pool[PQT_IO_POOL]; /* idle buffers; each stores its capacity in front */
    atomic_size_t read_hint; /* the largest read expected (a column chunk): buffers grow once */
    atomic_size_t page_hint; /* the largest chunk decompressed: the bound of its pages */
    struct pqt_io *pool_io;  /* NULL, or the source whose buffer pool this one uses (a
                                dataset's members share one pool: util/ioset.h); a reference */
    const pqt_io_ops *ops;   /* a source read through operations (fd -1, mem NULL), or NULL */
    void *ops_ctx;           /* theirs, closed with the source */
    int64_t tail_hint;       /* > 0: the file's last bytes a first read should take (those a
                                remote source already holds), else the reader's own choice */
} pqt_io;

/* Open `path` read-only.
 * Errors: PQT_IO naming the path (cannot open, not a regular file), PQT_NOMEM. */
pqt_status pqt_io_open_path(const char *path, pqt_io **ret);
/* A source over the caller's descriptor fd, which is duplicated: the caller keeps fd and may
 * close it at any time. name (NULL: "fd N") is used in messages. Errors as for a path. */
pqt_status pqt_io_open_fd(int fd, const char *name, pqt_io **ret);
/* A source over nbytes of the caller's memory at data, read in place: the caller keeps it
 * alive and unchanged until the last reference is dropped. name (NULL: "(memory)"). */
pqt_status pqt_io_open_mem(const void *data, size_t nbytes, const char *name, pqt_io **ret);
/* A source of size bytes read through ops on ctx (both the caller's until this returns;
 * ctx then belongs to the source, also when this fails: ops->close is called). */
pqt_status pqt_io_open_ops(const char *name, int64_t size, const pqt_io_ops *ops, void *ctx,
                           pqt_io **ret);
/* Another reference to io (returns io). */
pqt_io *pqt_io_ref(pqt_io *io);
/* Another reference to io unless its last one is already gone (it is closing): NULL then. For
 * a registry that finds sources by name while they may be closing (remote/remote_io.c). */
pqt_io *pqt_io_ref_if_alive(pqt_io *io);
/* Drop a reference; the last one closes the source. NULL is a no-op. */
void pqt_io_unref(pqt_io *io);
/* A source on the stack over an open descriptor the caller keeps (no pool, no reference
 * counting; nothing to release). For callers that have only a descriptor and a size. */
void pqt_io_borrow_fd(pqt_io *io, int fd, const char *name, int64_t size);

/* Copy exactly n bytes at offset into buf. PQT_IO naming the source and offset on a failed
 * or short read (the file ended early: it shrank since it was opened). */
pqt_status pqt_io_read(const pqt_io *io, void *buf, size_t n, int64_t offset);
/* The bytes at offset scattered over iov[0..niov) in order (any count: IOV_MAX at a time);
 * iov is consumed (advanced) as bytes arrive. Errors as for pqt_io_read. */
pqt_status pqt_io_readv(const pqt_io *io, struct iovec *iov, int niov, int64_t offset);

/* Bytes [offset, offset + n) for reading in place: *ret points into the source when it is in
 * memory, else into buf (taken with pqt_io_buf_take), which the bytes are read into. Valid
 * until buf is reused or given back. Errors as for pqt_io_read, PQT_NOMEM. */
pqt_status pqt_io_view(const pqt_io *io, int64_t offset, size_t n, pqt_io_buf *buf,
                       const uint8_t **ret);
/* Tell io that reads of up to nbytes are coming (its largest column chunk), so a read buffer
 * that must grow takes that much address space at once and is written, and faulted in,
 * once rather than at every larger chunk. Bytes never read into are never touched. */
void pqt_io_expect_reads(pqt_io *io, size_t nbytes);
/* The same for decompressed pages: no page is larger than its column chunk decompressed
 * (the largest is given here), so a page buffer that must grow may take that at once. */
void pqt_io_expect_pages(pqt_io *io, size_t nbytes);
/* A buffer from io's pool (empty when the pool has none), and back to the pool (or freed
 * when the pool is full). Safe from any thread. */
pqt_io_buf pqt_io_buf_take(pqt_io *io);
void pqt_io_buf_give(pqt_io *io, pqt_io_buf *buf);

/* Hint that [offset, offset + n) will be read soon (posix_fadvise WILLNEED; nothing for
 * memory sources). Never fails. */
void pqt_io_willneed(const pqt_io *io, int64_t offset, int64_t n);

/* Tell io which byte ranges will be read soon (a column's chunks, or the pages of them a
 * selection needs): a remote source fetches them ahead, coalesced and several at a time; a
 * local one does nothing. Never fails. */
void pqt_io_will_read(pqt_io *io, const pqt_io_range *ranges, int n);
/* io's network counters (zeros for a local source). */
void pqt_io_net_counts_get(const pqt_io *io, pqt_io_net_counts *ret);

#endif
