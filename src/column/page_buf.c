/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_buf.c - decompressed-page buffers and the budget that bounds the large ones
 * (layer: column).
 *
 * Each reading thread keeps its page buffers (pqt_chunk_ctx page and dict_raw) for reuse.
 * Up to RETAIN_NBYTES they are its own. A larger page borrows its bytes from one budget
 * shared by every thread of the process (1 GiB by default: the largest page accepted),
 * waiting while other threads hold it, and gives them back when its column chunk is done.
 * So N threads decompressing huge or hostile pages hold at most the budget plus N small
 * buffers, never N x 1 GiB. A thread gives back what it holds before it waits, and holds
 * budget only while it decodes its own chunk, so waiting cannot deadlock.
 */
#include <pthread.h>
#include <string.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/mem.h"

/* Typical pages are 64 KiB to 1 MiB; buffers up to this size stay with their thread. A
 * power of two, as pqt_buf grows by doubling. */
#define RETAIN_NBYTES ((size_t)8 << 20)

static pthread_mutex_t budget_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t budget_cv = PTHREAD_COND_INITIALIZER;
static size_t budget_nbytes = (size_t)1 << 30;
static size_t budget_used, budget_peak;

void pqt_page_budget_set(size_t nbytes)
{
    pthread_mutex_lock(&budget_mu);
    budget_nbytes = nbytes;
    budget_peak = budget_used;
    pthread_cond_broadcast(&budget_cv);
    pthread_mutex_unlock(&budget_mu);
}

size_t pqt_page_budget_peak(void)
{
    pthread_mutex_lock(&budget_mu);
    size_t p = budget_peak;
    pthread_mutex_unlock(&budget_mu);
    return p;
}

static void give_back(size_t n)
{
    pthread_mutex_lock(&budget_mu);
    budget_used -= n;
    pthread_cond_broadcast(&budget_cv);
    pthread_mutex_unlock(&budget_mu);
}

/* Borrow n bytes, or `more` when the budget has them free now (no wait for the extra);
 * *took says which. */
static pqt_status take(size_t n, size_t more, size_t *took)
{
    pthread_mutex_lock(&budget_mu);
    if (more > n && budget_used + more <= budget_nbytes) n = more;
    *took = n;
    if (n > budget_nbytes) {
        size_t cap = budget_nbytes;
        pthread_mutex_unlock(&budget_mu);
        return pqt_err(PQT_LIMIT, "page needs %zu bytes to decompress, more than the %zu all "
                                  "threads may hold at once",
                       n, cap);
    }
    while (budget_used + n > budget_nbytes) pthread_cond_wait(&budget_cv, &budget_mu);
    budget_used += n;
    if (budget_used > budget_peak) budget_peak = budget_used;
    pthread_mutex_unlock(&budget_mu);
    return PQT_OK;
}

static size_t *lent_of(pqt_chunk_ctx *cx, const pqt_buf *b)
{
    return b == &cx->dict_raw ? &cx->dict_lent : &cx->page_lent;
}

void pqt_page_buf_release(pqt_chunk_ctx *cx)
{
    pqt_buf *bufs[2] = {&cx->page, &cx->dict_raw};
    for (int i = 0; i < 2; i++) {
        size_t *lent = lent_of(cx, bufs[i]);
        if (*lent == 0) continue;
        pqt_mem_free_recycled(bufs[i]->data);
        memset(bufs[i], 0, sizeof *bufs[i]);
        give_back(*lent);
        *lent = 0;
    }
}

pqt_status pqt_page_buf_reserve(pqt_chunk_ctx *cx, pqt_buf *b, size_t nbytes)
{
    if (nbytes <= b->cap) return PQT_OK;
    if (nbytes <= RETAIN_NBYTES) return pqt_buf_reserve(b, nbytes);
    /* The old contents are not needed (a new page; dictionaries are copied when loaded),
     * and nothing may be held while waiting: give everything back first. */
    pqt_page_buf_release(cx);
    pqt_buf_free(b);
    /* The next pages of this source may be as large as its largest chunk: one buffer of that
     * size is faulted in once, where buffers for ever larger pages would each be fresh. */
    size_t want = b == &cx->page && cx->page_hint > nbytes ? cx->page_hint : nbytes;
    size_t took;
    PQT_TRY(take(nbytes, want, &took));
    b->data = pqt_malloc(took);
    if (!b->data) {
        give_back(took);
        return pqt_err(PQT_NOMEM, "out of memory for a page of %zu bytes", nbytes);
    }
    b->cap = took;
    *lent_of(cx, b) = took;
    return PQT_OK;
}
