/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_ds.h - a dataset: many Parquet files read as one (layer: api, private).
 *
 * The files' footers merge into one footer whose row groups are theirs, in file order, so
 * everything above (plans, the filter pass, readers) sees one file with many row groups;
 * the column layer reads each row group's chunks from its own member (column.h,
 * pqt_chunk_members). Hive partition columns are extra leaves whose chunks are constant.
 * An open is in two steps (docs/datasets.md): list the files and learn the schema (from
 * _common_metadata, _metadata or one member's footer), then, once the caller's filter has
 * pruned members by their partition values, read the kept members' footers (or take their
 * row groups from _metadata) and merge them. Immutable once merged; shared by clones.
 */
#ifndef PQT_API_FILE_DS_H
#define PQT_API_FILE_DS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "dataset/listing.h"
#include "format/meta.h"
#include "format/schema.h"
#include "remote/remote.h"
#include "util/buf.h"
#include "util/ioset.h"

typedef struct pqt_file_ds {
    atomic_int refs;
    char *spec;               /* what was opened (directory or pattern), for messages */
    pqt_ds_list list;         /* the members, their hive values, HATS facts */
    pqt_ioset *set;           /* member sources, opened on first use */
    pqt_remote_opts remote;   /* how members named by URL are read (PQT_OPT_REMOTE_*) */
    pqt_io_net_tally net;     /* what every member's source fetched (remote.tally points here) */
    bool union_by_name;
    bool hive;                /* hive keys become columns */
    pqt_arena arena;          /* merged footer, schema, synthesized chunks */
    pqt_arena *member_arena;  /* n: each member footer read (the merged footer points in) */
    pqt_file_meta *member_meta; /* n: each member's footer when read, else zeroed */
    pqt_arena summary_arena;
    pqt_file_meta summary;    /* _metadata's footer, when present */
    bool has_summary;
    const char *schema_from;  /* the file the schema came from */
    pqt_file_meta meta;       /* the merged footer (row groups after merge) */
    pqt_schema schema;
    int nfile_leaves;         /* leaves of the files; hive columns follow */
    int nhive;
    int64_t *member_size;     /* n: bytes when its footer was read, -1 unknown */
    int64_t *member_rows;     /* n: rows (after merge; 0 for pruned members) */
    int64_t *member_row0;     /* n: its first row in the dataset (0-based) */
    bool *member_kept;        /* n: not pruned by partition values */
    int64_t *rg_member;
    int32_t *rg_local;
    pqt_chunk_members members;
    bool merged;
    int64_t footers_read, files_kept, files_pruned_partition;
    bool summary_read;
    struct pqt_snap *snap; /* during the open: footers replayed or recorded (api/snapshot.h) */
} pqt_file_ds;

#endif
