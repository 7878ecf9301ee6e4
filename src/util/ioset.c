/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ioset.c - member sources opened on first use, a bounded number kept open (layer: util).
 *
 * One spin lock guards the table of open members: the work under it is a lookup or a
 * publication; a member is opened outside it.
 */
#include "util/ioset.h"

#include <stdatomic.h>
#include <string.h>

#include "util/error.h"
#include "util/mem.h"

struct pqt_ioset {
    atomic_flag lock;
    int64_t n;
    char **paths;
    pqt_io **open; /* n: the set's reference to each open member, or NULL */
    int64_t nopen; /* members open */
    int64_t hand;  /* where the search for an idle member to close resumes */
    pqt_io *pool;  /* the buffer pool every member shares (a memory-less source) */
    size_t reads, pages;
    pqt_io_opener opener;
    void *opener_ctx;
};

static void lock(pqt_ioset *s)
{
    while (atomic_flag_test_and_set_explicit(&s->lock, memory_order_acquire)) {
    }
}
static void unlock(pqt_ioset *s)
{
    atomic_flag_clear_explicit(&s->lock, memory_order_release);
}

pqt_status pqt_ioset_new(const char *const *paths, int64_t n, pqt_io_opener open, void *ctx,
                         pqt_ioset **ret)
{
    pqt_ioset *s = pqt_calloc(1, sizeof *s);
    if (!s) return pqt_err(PQT_NOMEM, "out of memory listing %lld files", (long long)n);
    s->opener = open;
    s->opener_ctx = ctx;
    atomic_flag_clear(&s->lock);
    s->n = n;
    s->paths = pqt_calloc((size_t)n + 1, sizeof *s->paths);
    s->open = pqt_calloc((size_t)n + 1, sizeof *s->open);
    pqt_status st = s->paths && s->open ? PQT_OK : PQT_NOMEM;
    for (int64_t i = 0; st == PQT_OK && i < n; i++)
        if (!(s->paths[i] = pqt_strdup(paths[i]))) st = PQT_NOMEM;
    if (st == PQT_OK) st = pqt_io_open_mem("", 0, "(dataset buffers)", &s->pool);
    if (st != PQT_OK) {
        pqt_ioset_free(s);
        return pqt_err(PQT_NOMEM, "out of memory listing %lld files", (long long)n);
    }
    *ret = s;
    return PQT_OK;
}

void pqt_ioset_free(pqt_ioset *s)
{
    if (!s) return;
    for (int64_t i = 0; i < s->n; i++) {
        if (s->open) pqt_io_unref(s->open[i]);
        if (s->paths) pqt_mem_free(s->paths[i]);
    }
    pqt_mem_free(s->paths);
    pqt_mem_free(s->open);
    pqt_io_unref(s->pool);
    pqt_mem_free(s);
}

int64_t pqt_ioset_n(const pqt_ioset *s)
{
    return s ? s->n : 0;
}
const char *pqt_ioset_path(const pqt_ioset *s, int64_t i)
{
    return s->paths[i];
}

void pqt_ioset_expect(pqt_ioset *s, size_t reads, size_t pages)
{
    lock(s);
    s->reads = reads;
    s->pages = pages;
    for (int64_t i = 0; i < s->n; i++)
        if (s->open[i]) {
            pqt_io_expect_reads(s->open[i], reads);
            pqt_io_expect_pages(s->open[i], pages);
        }
    unlock(s);
}

/* Close idle members (only the set holds them) until fewer than the cap are open, searching
 * from where the last search stopped. Under the lock. */
static void close_idle(pqt_ioset *s)
{
    for (int64_t seen = 0; s->nopen >= PQT_IOSET_OPEN_MAX && seen < s->n; seen++) {
        int64_t i = s->hand;
        s->hand = (s->hand + 1) % s->n;
        pqt_io *io = s->open[i];
        if (!io || atomic_load_explicit(&io->refs, memory_order_acquire) != 1) continue;
        s->open[i] = NULL;
        s->nopen--;
        pqt_io_unref(io);
    }
}

pqt_status pqt_ioset_get(pqt_ioset *s, int64_t i, int64_t expect, pqt_io **ret)
{
    lock(s);
    pqt_io *io = s->open[i];
    if (io) {
        *ret = pqt_io_ref(io);
        unlock(s);
        return PQT_OK;
    }
    unlock(s);
    /* open(2) and fstat(2) outside the lock: other threads open other members meanwhile */
    pqt_status st = s->opener ? s->opener(s->paths[i], s->opener_ctx, &io)
                              : pqt_io_open_path(s->paths[i], &io);
    if (st == PQT_OK && expect >= 0 && io->size != expect) {
        st = pqt_err(PQT_IO, "%s: the file is %lld bytes, %lld when the dataset was opened: it "
                             "changed since (reopen the dataset)",
                     s->paths[i], (long long)io->size, (long long)expect);
        pqt_io_unref(io);
    }
    if (st != PQT_OK) return st;
    lock(s);
    if (s->open[i]) { /* another thread opened it first: use that one */
        pqt_io_unref(io);
        *ret = pqt_io_ref(s->open[i]);
        unlock(s);
        return PQT_OK;
    }
    close_idle(s);
    io->pool_io = pqt_io_ref(s->pool);
    if (s->reads) pqt_io_expect_reads(io, s->reads);
    if (s->pages) pqt_io_expect_pages(io, s->pages);
    s->open[i] = io;
    s->nopen++;
    *ret = pqt_io_ref(io);
    unlock(s);
    return PQT_OK;
}

void pqt_ioset_put(pqt_ioset *s, pqt_io *io)
{
    (void)s;
    pqt_io_unref(io);
}
