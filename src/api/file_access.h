/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_access.h - what the layers above the api (the table, the writer) may know of a
 * pqt_file: accessors to its footer, schema and source, and the api's internal calls they
 * use, without the handle's layout (api/file_int.h stays the api's own). With the public
 * pqt_file_path, pqt_file_nrows, pqt_file_nrow_groups and pqt_file_ncols (pqt.h) this is the
 * whole of the file a table reaches (layer: api, private).
 */
#ifndef PQT_API_FILE_ACCESS_H
#define PQT_API_FILE_ACCESS_H

#include "api/opts_int.h"
#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "pqt_file.h"
#include "read/request.h"
#include "remote/remote.h"
#include "util/io.h"

/* The decoded footer (row groups, their chunks and statistics) and the leaf columns. */
const pqt_file_meta *pqt_file_footer(const pqt_file *f);
const pqt_schema *pqt_file_schema(const pqt_file *f);
/* Leaf column col (0 <= col < pqt_file_ncols(f): the caller checks). */
const pqt_col *pqt_file_col(const pqt_file *f, int col);
/* What the reader (read/reader.h) needs of f; borrowed from f. */
pqt_read_src pqt_file_read_src(const pqt_file *f);
/* Where a chunk reader finds f's bytes (no counters, not serial). */
pqt_chunk_src pqt_file_chunk_src(const pqt_file *f);
/* Carry the LIST widths f has settled over to g, another handle on the same source (a
 * clone's), so g does not measure them again. */
void pqt_file_list_widths_share(pqt_file *g, const pqt_file *f);

/* Settle the width of LIST column col (footer check, then a row-group scan); returns the
 * width, or -1 when rows disagree (a list kind), or -2 when the scan failed. */
int pqt_file_list_width_discover(pqt_file *f, int col);
/* The same with the scan's status: *w_ret > 0 a width, -1 rows disagree; with measure = 0
 * nothing is read and *w_ret is 0 when only a scan could settle it. */
pqt_status pqt_file_list_width(pqt_file *f, int col, int measure, int *w_ret);

/* The source of a path or URL (remote/remote.h's pqt_source_open) with opts' PQT_OPT_REMOTE_*
 * settings: the one way every open turns a name into bytes. */
pqt_status pqt_file_source_open(const char *path, const pqt_opts *opts, pqt_io **ret);
/* opts' PQT_OPT_REMOTE_* settings (NULL: the defaults). */
void pqt_opts_remote(const pqt_opts *opts, pqt_remote_opts *ret);
/* Open the footer of the source io (a reference is taken over, also on failure). */
pqt_status pqt_file_open_io(pqt_io *io, const pqt_opts *opts, pqt_file **ret);
/* The same, the footer replayed from or recorded into snap (api/snapshot.h; NULL: read). */
struct pqt_snap;
pqt_status pqt_file_open_io_snap(pqt_io *io, const pqt_opts *opts, struct pqt_snap *snap,
                                 pqt_file **ret);
/* Another handle on the same source as f (a clone's): the footer is decoded again, nothing
 * is reopened by path. */
pqt_status pqt_file_reopen(const pqt_file *f, const pqt_opts *opts, pqt_file **ret);
/* A copy of DECIMAL column col that reads the unscaled integers exactly (int64 kind up to
 * precision 18, int128 up to 38). PQT_KIND for a column that is not a decimal,
 * PQT_UNSUPPORTED_TYPE above precision 38. */
pqt_status pqt_file_decimal_col(const pqt_file *f, int col, pqt_col *out);

/* ---- datasets: many files as one (docs/datasets.md; file_dataset*.c) ---- */
/* path names a dataset: a directory, or a glob that is not an existing file's name. */
bool pqt_file_spec_is_dataset(const char *path);
/* A dataset over spec (a directory or glob) or, when paths is not NULL, over npaths paths:
 * listed, schema known, no row group yet until pqt_file_ds_finish merges the footers of the
 * members keep[i] keeps (NULL: all). Errors name the file: PQT_IO, PQT_CORRUPT,
 * PQT_NOT_FOUND (nothing matched), PQT_SCHEMA_MISMATCH (at finish), PQT_NOMEM. */
pqt_status pqt_file_open_dataset(const char *spec, const char *const *paths, int64_t npaths,
                                 const pqt_opts *opts, pqt_file **ret);
/* The same, the listing and footers replayed from or recorded into snap (NULL: read), which
 * the dataset uses until pqt_file_ds_finish returns. */
pqt_status pqt_file_open_dataset_snap(const char *spec, const char *const *paths,
                                      int64_t npaths, const pqt_opts *opts,
                                      struct pqt_snap *snap, pqt_file **ret);
pqt_status pqt_file_ds_finish(pqt_file *f, const bool *keep);
/* NULL for one file; a dataset's members once merged (what chunk sources carry). */
const pqt_chunk_members *pqt_file_members(const pqt_file *f);
bool pqt_file_is_dataset(const pqt_file *f);
/* Members listed, and member i's path relative to the dataset's root. */
int64_t pqt_file_ds_nmembers(const pqt_file *f);
const char *pqt_file_ds_member(const pqt_file *f, int64_t i);
/* Column col's hive value in member i: true for a hive column (*value NULL: a null), false
 * for a column of the files. */
bool pqt_file_ds_hive_value(const pqt_file *f, int col, int64_t i, const char **value);
/* Member i survived the pruning by partition values (and HEALPix pixels). */
bool pqt_file_ds_member_kept(const pqt_file *f, int64_t i);
/* The member of row group rg, and the row of its own file (0-based) where rg starts. */
int64_t pqt_file_ds_rg_member(const pqt_file *f, int rg);
int64_t pqt_file_rg_file_row0(const pqt_file *f, int rg);
/* HATS: the catalogue's ra and dec columns (NULL when f is not one) and member i's pixel. */
bool pqt_file_ds_hats(const pqt_file *f, const char **ra, const char **dec);
void pqt_file_ds_member_pixel(const pqt_file *f, int64_t i, int *order, int64_t *pix);
/* HATS: the column of each row's HEALPix pixel and its order (_healpix_29, 29 unless the
 * properties say otherwise); false when f is not a HATS catalogue. */
bool pqt_file_ds_healpix_col(const pqt_file *f, const char **name, int *order);
/* Files listed, pruned by partition values, footers read, _metadata used. */
typedef struct pqt_ds_counts {
    int64_t files, files_pruned_partition, footers_read;
    bool summary_used;
} pqt_ds_counts;
pqt_ds_counts pqt_file_ds_counts(const pqt_file *f);
/* What f's sources fetched over the network so far: its own source's counters, or for a
 * dataset every member's (and footer's) together. Zero for local files. */
void pqt_file_net_counts(const pqt_file *f, pqt_io_net_counts *ret);

#endif
