/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ioset.h - the member files of a dataset as sources opened on first use (layer: util).
 *
 * A dataset of thousands of files cannot keep a descriptor per file (the usual limit is
 * 1024), and most opens read a few of them. A set holds each member's path; a read takes the
 * member's source (opening it when it is not open) and gives it back when its chunk is done.
 * At most PQT_IOSET_OPEN_MAX members stay open while idle: opening one more closes an idle
 * one. Every member draws its read buffers from one pool (pqt_io.pool_io), so memory is that
 * of one file, whatever the number of members. Safe from any thread.
 */
#ifndef PQT_UTIL_IOSET_H
#define PQT_UTIL_IOSET_H

#include <stddef.h>
#include <stdint.h>

#include "pqt.h"
#include "util/io.h"

#define PQT_IOSET_OPEN_MAX 64

typedef struct pqt_ioset pqt_ioset;

/* How a member's path becomes a source (ctx is the caller's, kept by the set): the layer that
 * knows URLs (remote/) hands its opener in, so that this one never depends on it. */
typedef pqt_status (*pqt_io_opener)(const char *path, void *ctx, pqt_io **ret);

/* A set of n members, paths copied, opened by open(path, ctx) (NULL: pqt_io_open_path). Opens
 * nothing now. PQT_NOMEM. */
pqt_status pqt_ioset_new(const char *const *paths, int64_t n, pqt_io_opener open, void *ctx,
                         pqt_ioset **ret);
void pqt_ioset_free(pqt_ioset *s);
int64_t pqt_ioset_n(const pqt_ioset *s);
const char *pqt_ioset_path(const pqt_ioset *s, int64_t i);
/* Member i's source, a reference the caller gives back with pqt_ioset_put. Opens it when it
 * is not open: PQT_IO naming its path (deleted since it was listed, unreadable), PQT_NOMEM.
 * expect: the size the member had when it was listed or its footer read (-1: unknown); a
 * member now of another size is PQT_IO naming it (it changed under the dataset). */
pqt_status pqt_ioset_get(pqt_ioset *s, int64_t i, int64_t expect, pqt_io **ret);
void pqt_ioset_put(pqt_ioset *s, pqt_io *io);
/* The largest chunk and page any member will read (pqt_io_expect_reads / _pages), given to
 * every member source when it opens. */
void pqt_ioset_expect(pqt_ioset *s, size_t reads, size_t pages);

#endif
