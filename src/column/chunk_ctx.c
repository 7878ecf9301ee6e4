/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chunk_ctx.c - column readers' contexts, kept warm between calls (layer: column).
 *
 * Every parallel region (a column read, a filter pass) gives each worker a context whose
 * buffers grow to the pages it decodes. Freed at the region's end, a worker thread's buffers
 * went back to its glibc arena, which gives them to the kernel (a thread arena trims above
 * the threshold), so the next region -- the next column, the next file -- faulted fresh
 * zeroed pages in again: at 2 threads a 1% read of a zstd file took a thousand page faults a
 * call and ran slower than at one. So a context given back is kept, buffers and codec state
 * included, for the next one asked for, in a small pool bounded in count and in the bytes
 * its buffers hold; the rest is freed as before. Off under AddressSanitizer, whose
 * quarantine must see every free.
 */
#include <pthread.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/mem.h"

#define POOL_NCTX 16
/* A context holding more than this in buffers is freed, not kept: a huge page's buffer
 * should not outlive its read. */
#define POOL_CTX_MAX_NBYTES ((size_t)16 << 20)

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pqt_chunk_ctx *pool[POOL_NCTX];
static int pool_n;

static void free_buffers(pqt_chunk_ctx *cx)
{
    /* the next context (another row group's, another column's) grows the same buffers:
     * large ones go to the large-block cache rather than back to the kernel */
    pqt_buf_free_recycled(&cx->page);
    pqt_buf_free_recycled(&cx->dict_raw);
    pqt_buf_free_recycled(&cx->present);
    pqt_buf_free_recycled(&cx->defs);
    pqt_buf_free_recycled(&cx->reps);
    pqt_buf_free_recycled(&cx->scratch);
    pqt_buf_free_recycled(&cx->ends);
    pqt_buf_free_recycled(&cx->slots);
    pqt_buf_free_recycled(&cx->tmpbytes);
    pqt_buf_free_recycled(&cx->gather);
}

static size_t buffer_nbytes(const pqt_chunk_ctx *cx)
{
    return cx->page.cap + cx->dict_raw.cap + cx->present.cap + cx->defs.cap + cx->reps.cap +
           cx->scratch.cap + cx->ends.cap + cx->slots.cap + cx->tmpbytes.cap + cx->gather.cap;
}

static void destroy(pqt_chunk_ctx *cx)
{
    pqt_codec_ctx_free(cx->codec);
    pqt_vdec_free(cx->vdec);
    pqt_dict_free(&cx->dict);
    free_buffers(cx);
    pqt_mem_free(cx);
}

/* A kept context, as a new one starts: its buffers and codec state, no other state. */
static pqt_chunk_ctx *pool_take(void)
{
    pqt_chunk_ctx *cx = NULL;
    pthread_mutex_lock(&pool_mu);
    if (pool_n > 0) cx = pool[--pool_n];
    pthread_mutex_unlock(&pool_mu);
    return cx;
}

/* Keep cx (its read done, its borrowed page buffers given back); false when it must go. */
static bool pool_put(pqt_chunk_ctx *cx)
{
    if (!pqt_mem_cache_enabled() || buffer_nbytes(cx) > POOL_CTX_MAX_NBYTES) return false;
    pqt_dict_free(&cx->dict);
    cx->have_dict = cx->want_codes = cx->dict_refuted = cx->levels_only = false;
    cx->page_hint = 0;
    cx->nvalues_out = 0;
    cx->sink_reps = cx->sink_defs = NULL;
    cx->conv = (pqt_page_conv){0};
    bool kept = false;
    pthread_mutex_lock(&pool_mu);
    if (pool_n < POOL_NCTX) {
        pool[pool_n++] = cx;
        kept = true;
    }
    pthread_mutex_unlock(&pool_mu);
    return kept;
}

pqt_status pqt_chunk_ctx_new(pqt_chunk_ctx **ret)
{
    pqt_chunk_ctx *cx = pool_take();
    if (cx) {
        *ret = cx;
        return PQT_OK;
    }
    cx = pqt_calloc(1, sizeof *cx);
    if (!cx) return pqt_err(PQT_NOMEM, "out of memory creating a column reader");
    pqt_status st = pqt_codec_ctx_new(&cx->codec);
    if (st == PQT_OK) st = pqt_vdec_new(&cx->vdec);
    if (st != PQT_OK) {
        destroy(cx);
        return st;
    }
    *ret = cx;
    return PQT_OK;
}

void pqt_chunk_ctx_free(pqt_chunk_ctx *cx)
{
    if (!cx) return;
    pqt_page_buf_release(cx);
    if (!pool_put(cx)) destroy(cx);
}
