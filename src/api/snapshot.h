/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snapshot.h - the metadata an open reads, recorded as bytes for other processes and
 * replayed there instead of reading it again (layer: api, private). docs/mpi.md.
 *
 * An open records the footers it reads (the file's; a dataset's listing, _metadata,
 * _common_metadata and each member footer read) as their raw FileMetaData bytes. Another
 * open of the same path with the same options replays them: it parses the bytes and reads
 * no footer and walks no directory, only opening the files whose data it reads. A footer the
 * snapshot lacks is read as usual. Replayed sizes are checked against the file when it is
 * opened for data (a file changed since the recording is an error, never mixed metadata).
 */
#ifndef PQT_API_SNAPSHOT_H
#define PQT_API_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "dataset/listing.h"
#include "format/meta.h"
#include "pqt.h"
#include "pqt_file.h"
#include "util/buf.h"
#include "util/io.h"

typedef struct pqt_snap_footer {
    bool have;
    int64_t file_size;
    const uint8_t *bytes; /* FileMetaData (len bytes): owned when recording, else in the blob */
    size_t len;
} pqt_snap_footer;

typedef struct pqt_snap {
    bool recording;        /* else replaying */
    bool is_dataset;
    int64_t sample_seed;   /* the seed the recording open's sample drew with (0: none) */
    pqt_snap_footer file;  /* a single file's footer */
    bool have_list;
    pqt_ds_list list;      /* a dataset's listing (replay: decoded, owned) */
    pqt_snap_footer metadata, common; /* _metadata, _common_metadata */
    int64_t nmembers;
    pqt_snap_footer *member; /* nmembers */
    uint8_t *blob;           /* replay: a copy of the bytes the footers point into */
    pqt_snapshot_fn ready;   /* recording: given the bytes once they are complete */
    void *ready_user;
    bool sent;
} pqt_snap;

/* Recording: hand the bytes to s->ready, once (later calls, and calls without a callback,
 * do nothing); the callback's failure is the open's. */
pqt_status pqt_snap_send(pqt_snap *s);
/* Entry f holds a footer's bytes (replayed, or fetched by a recording open). */
static inline bool pqt_snap_has(const pqt_snap_footer *f) { return f && f->have; }
/* Recording: fetch the FileMetaData bytes of io into f, not decoded (pqt_footer_fetch_raw). */
pqt_status pqt_snap_fetch(pqt_snap_footer *f, const pqt_io *io, int64_t tail);

/* A replay of the n bytes at p (copied). PQT_CORRUPT for bytes that are not a snapshot (with
 * the offset), PQT_NOMEM. On failure *s is zeroed. */
pqt_status pqt_snap_decode(const void *p, size_t n, pqt_snap *s);
/* The recording as bytes (*out allocated with pqt_malloc, for pqt_free). */
pqt_status pqt_snap_encode(const pqt_snap *s, void **out, size_t *n_ret);
void pqt_snap_free(pqt_snap *s);

/* Record the dataset's listing (copied) and its member count (recording only). */
pqt_status pqt_snap_set_list(pqt_snap *s, const pqt_ds_list *l);

/* The footer of io (a file of io->size bytes) into a, m: from f when it was replayed (its
 * size must be io's), else read (first read: the last tail bytes), and kept in f when s
 * records. s may be NULL (a plain read). */
pqt_status pqt_snap_footer_io(pqt_snap *s, pqt_snap_footer *f, const pqt_io *io, int64_t tail,
                              pqt_arena *a, pqt_file_meta *m);
/* The footer of the file named name from f alone (replayed): false when f has none. */
bool pqt_snap_replays(const pqt_snap *s, const pqt_snap_footer *f);
pqt_status pqt_snap_footer_bytes(const pqt_snap_footer *f, const char *name, pqt_arena *a,
                                 pqt_file_meta *m);

#endif
