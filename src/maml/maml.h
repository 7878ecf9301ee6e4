/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maml.h - the MAML document model (layer: maml): a YAML sidecar describing a parquet file,
 * read with libyaml into plain C (maml_parse.c) and validated (maml_check.c) against the
 * rules of docs/maml.md ("Format rules" to "Problems reported"). Every problem found is kept with
 * its line number, so one PQT_BAD_MAML lists them all. The model is immutable once built and
 * reference-counted: options and every table opened (or cloned) with it share one copy.
 */
#ifndef PQT_MAML_H
#define PQT_MAML_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "pqt.h"
#include "util/buf.h"

/* A MAML larger than this is refused by its size, before libyaml sees a byte of it. */
#define PQT_MAML_MAX_NBYTES ((size_t)16 << 20)
/* Longest source line (characters, without the line ending). */
#define PQT_MAML_MAX_LINE 1024
/* Nodes visited while walking the document: aliases can make a small text expand
 * exponentially ("billion laughs"), so the walk stops here. */
#define PQT_MAML_MAX_VISITS 1000000
/* Lists and blocks nested deeper than this are refused before the document is built:
 * libyaml's scanner does work proportional to the flow nesting for every token (100,000
 * nested '[' took 22 s), and no MAML needs more than a few levels. */
#define PQT_MAML_MAX_DEPTH 64
/* Nodes in a document (scalars, lists, blocks; an alias is not a node), refused before the
 * document is built: libyaml's document costs ~240 bytes a node (600,000 fields took 400 MiB
 * before the walk refused them), so this bounds a MAML's memory near 120 MiB. 50,000 fields
 * with a unit each and 50,000 remaps are 400,000 nodes. */
#define PQT_MAML_MAX_NODES 500000
/* Problems kept as text (the count goes on past it). */
#define PQT_MAML_MAX_PROBLEMS 1000

typedef struct pqt_maml_pair pqt_maml_pair;

/* One entry of a list section: a scalar (text) or a map (sub: key in .internal, value in
 * .file; non-scalar values left out). */
typedef struct pqt_maml_item {
    char *text; /* NULL for a map */
    pqt_maml_pair *sub;
    int nsub;
} pqt_maml_item;

typedef struct pqt_maml_kv {
    char *key;   /* as written (matched case-insensitively) */
    char *value; /* a scalar, or a list of scalars joined with ";"; NULL for other shapes */
    int line;
    pqt_maml_item *items; /* a list section's entries (for the key-value embedding) */
    int nitems;
} pqt_maml_kv;

typedef struct pqt_maml_field {
    char *name; /* NULL when absent */
    int line;
    char *data_type, *unit, *info, *ucd, *col_size, *array_size; /* NULL when absent */
    bool has_qc;                                                  /* a qc: key, even empty */
    char *qc_min, *qc_max, *qc_miss;                              /* NULL when absent */
} pqt_maml_field;

struct pqt_maml_pair {
    char *internal, *file;
    int line;
};

typedef struct pqt_maml_list {
    char **items;
    int *lines;
    int n;
} pqt_maml_list;

typedef struct pqt_maml {
    _Atomic int refs;
    char *source; /* file path, or "MAML text" */
    pqt_maml_kv *top;
    int ntop;
    bool has_fields;
    pqt_maml_field *fields;
    int nfields;
    pqt_maml_pair *remap;
    int nremap;
    pqt_maml_pair *col_map; /* write side: internal -> output name (in .file) */
    int ncol_map;
    pqt_maml_list filter, sort, protected_cols, nullable_cols;
    /* lookup indexes built after parsing (a MAML may hold a million entries): positions in
     * fields[] sorted by (name, position), in remap[] by (file, position) and by
     * (internal, position); entries without a name are left out */
    int *field_by_name, nfield_by_name;
    int *remap_by_file, *remap_by_internal;
    /* problems found while parsing and checking: "line N: what" joined by "\n" */
    pqt_buf problems;
    int nproblems;
} pqt_maml;

/* Parse text (nbytes long, need not be NUL-terminated) named source into *ret. Problems do
 * not fail the call: they are recorded in (*ret)->problems; only PQT_NOMEM and PQT_MISUSE
 * fail. */
pqt_status pqt_maml_parse_text(const char *text, size_t nbytes, const char *source,
                               pqt_maml **ret);
/* Read the file at path (refused by size above PQT_MAML_MAX_NBYTES: PQT_BAD_MAML; PQT_IO when
 * it cannot be read) and parse it. */
pqt_status pqt_maml_parse_file(const char *path, pqt_maml **ret);

/* Validate m (appends to m->problems). strict: the write-schema rules (table: and fields:
 * required, every field needs name: and data_type:, data_type: checked); otherwise a
 * read-in MAML's lighter rules. */
pqt_status pqt_maml_check(pqt_maml *m, bool strict);

/* Record one problem at line (0 = no line). */
pqt_status pqt_maml_problem(pqt_maml *m, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* PQT_OK when m has no problem; else PQT_BAD_MAML with a message naming the source, the
 * count and as many problems as the message holds. */
pqt_status pqt_maml_verdict(const pqt_maml *m, const char *call);

/* Parse and check (read-in rules): the model, or PQT_BAD_MAML and nothing. */
pqt_status pqt_maml_load_file(const char *path, pqt_maml **ret);
pqt_status pqt_maml_load_text(const char *text, pqt_maml **ret);

/* Table-level value of key (case-insensitive), NULL when absent or not a string. */
const char *pqt_maml_value(const pqt_maml *m, const char *key);
/* The field named name exactly (values are case-sensitive), or NULL. */
const pqt_maml_field *pqt_maml_field_find(const pqt_maml *m, const char *name);

/* The remap entries whose target is file column path: remap_by_file[*lo_ret .. *hi_ret), in
 * the MAML's order. */
void pqt_maml_remap_targets(const pqt_maml *m, const char *path, int *lo_ret, int *hi_ret);
/* true when a remap entry takes name as its internal name. */
bool pqt_maml_remap_is_internal(const pqt_maml *m, const char *name);

pqt_maml *pqt_maml_ref(pqt_maml *m);
void pqt_maml_unref(pqt_maml *m);

#endif
