/* SPDX-License-Identifier: Apache-2.0 */
/*
 * listing.h - which files make a dataset (layer: dataset): a directory walked recursively, a
 * glob, or the caller's list of paths; the hive key=value folders of their paths; and the
 * HATS layout of a HEALPix-partitioned catalogue. docs/datasets.md ("Which files", "Hive
 * partitions", "HATS catalogues") states the rules; listing.c walks and matches, hive.c parses
 * and types the keys, hats.c reads hats.properties and partition_info.csv.
 * Nothing here opens a Parquet file: a listing only names files (and stats directories).
 */
#ifndef PQT_DATASET_LISTING_H
#define PQT_DATASET_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"

typedef struct pqt_ds_list {
    char *root; /* the directory relative paths start from, as given (no trailing '/'; "." for
                   the working directory; "" for pqt_ds_list_paths) */
    int64_t n;  /* member files */
    char **rel; /* n paths relative to root, '/'-separated, sorted bytewise (strcmp) */
    /* hive keys (directory components key=value of rel; outermost first, in order of first
     * appearance) */
    int nkeys;
    char **keys;
    char **values;    /* n * nkeys: values[i * nkeys + k], percent-decoded; NULL = absent or
                         __HIVE_DEFAULT_PARTITION__ (a null) */
    bool *key_is_int; /* nkeys: every non-null value is a decimal int64 (optional '-', digits
                         without a leading zero, fits) and there is at least one */
    bool has_metadata, has_common_metadata; /* root/_metadata, root/_common_metadata exist */
    /* HATS (hats_ prefix; set when root holds hats.properties and partition_info.csv) */
    bool is_hats;
    char *hats_ra, *hats_dec; /* hats_col_ra / hats_col_dec (NULL when absent) */
    int *hats_order;          /* n: Norder of each member */
    int64_t *hats_pix;        /* n: Npix of each member */
    char *hats_healpix;       /* hats_col_healpix, the pixel-index column (e.g. "_healpix_29");
                                 NULL when absent */
    int hats_healpix_order;   /* hats_col_healpix_order (its HEALPix order, 29 typically); -1
                                 when a HATS list has none or not an order (0..29) */
} pqt_ds_list;

/* True when spec contains a glob character (* ? [): then it is a pattern, not a path. */
bool pqt_ds_is_pattern(const char *spec);

/* List spec:
 * - a directory: every regular file named *.parquet below it, recursively; entries whose name
 *   starts with '.' or '_' are skipped, files and directories alike (_SUCCESS, _temporary,
 *   .crc, _metadata). A directory holding hats.properties and partition_info.csv is a HATS
 *   catalogue: its partitions are listed instead (is_hats, hats_*; nkeys = 0); one holding
 *   collection.properties is a HATS collection, listed as its primary catalogue.
 * - a glob: `*` and `?` within one component, `[...]` with ranges and `!`/`^` negation, `\`
 *   quotes the next character, `**` = zero or more directories (a final `**` = every file
 *   below). root = the longest directory prefix without a glob character ("." when none).
 *   Matches regular files only; a wildcard never matches a name starting with '.' or '_'
 *   unless the pattern's component starts with that character itself. A pattern matching
 *   nothing is PQT_NOT_FOUND naming the pattern.
 * - a regular file: as pqt_ds_list_paths with that one path.
 * hive: parse key=value directory components (false: nkeys = 0).
 * Symlinked directories are followed, never in a loop (a directory whose device and inode are
 * already on the way down is skipped).
 * Errors name the path: PQT_NOT_FOUND (nothing there, an empty pattern match, a HATS
 * partition whose file is missing), PQT_IO (a directory cannot be read), PQT_CORRUPT (a hive
 * key twice in one path, a malformed partition_info.csv), PQT_NOMEM.
 * On failure *out is zeroed; on success free it with pqt_ds_list_free. */
pqt_status pqt_ds_list_open(const char *spec, bool hive, pqt_ds_list *out);

/* Build a list from the caller's explicit paths: root "", rel = paths as given, in the given
 * order (NOT sorted), hive parsed from their directory components when hive is true.
 * has_metadata and has_common_metadata are false. n = 0 is PQT_MISUSE; errors as
 * pqt_ds_list_open's hive errors. On failure *out is zeroed. */
pqt_status pqt_ds_list_paths(const char *const *paths, int64_t n, bool hive, pqt_ds_list *out);

/* root + "/" + rel[i] (rel[i] alone when root is ""), NUL-terminated into buf; the length
 * without the NUL, or -1 if it does not fit in cap bytes (or i is out of range). */
int pqt_ds_member_path(const pqt_ds_list *l, int64_t i, char *buf, size_t cap);

/* listing_bytes.c: the list as bytes appended to b (another process decodes it), and back:
 * decode reads a list from the n bytes at p, *used = bytes it took. PQT_CORRUPT for bytes that
 * end early or disagree, PQT_NOMEM; on failure *out is zeroed. */
struct pqt_buf;
pqt_status pqt_ds_list_encode(const pqt_ds_list *l, struct pqt_buf *b);
pqt_status pqt_ds_list_decode(const uint8_t *p, size_t n, size_t *used, pqt_ds_list *out);

/* ---- listing_remote.c: datasets below an s3:// or http(s):// prefix (docs/remote.md "S3") ---- */

/* True for an s3://, http:// or https:// spec. */
bool pqt_ds_is_remote(const char *spec);

/* A remote spec that names a dataset, not one object: it ends with '/', is a bare
 * s3://bucket, or is an s3:// URL with a glob character in its key. */
bool pqt_ds_remote_is_dataset(const char *spec);

/* List the dataset at a remote spec (pqt_ds_remote_is_dataset) into l (zeroed) by
 * ListObjectsV2: below a prefix, every key a directory walk would list (*.parquet, no
 * component starting with '.' or '_'), relative to the prefix; an s3:// glob's keys by the
 * glob's rules, relative to its root. root = the spec without its trailing '/' (or the glob's
 * root); rel are keys as stored (not encoded), sorted bytewise; _metadata and
 * _common_metadata noted. A HATS catalogue or collection at the prefix is listed by hats.c
 * (pqt_ds_hats_list_fs over the listing; root = its data folder). Errors name the spec: those
 * of pqt_s3_resolve, pqt_s3_list and hats.c, PQT_NOT_FOUND (no key, nothing matching the
 * pattern). On failure l may hold members: free it with pqt_ds_list_free. */
pqt_status pqt_ds_list_remote(const char *spec, pqt_ds_list *l);

/* root + "/" + rel as a new string (rel alone when root is ""); for an http(s) root, rel's
 * bytes are URI-encoded (a key is not a URL path); NULL when out of memory. */
char *pqt_ds_member_url(const char *root, const char *rel);

/* Free everything the list owns and zero it (a zeroed list is fine). */
void pqt_ds_list_free(pqt_ds_list *l);

/* ---- between listing.c, hive.c and hats.c ---- */

/* Fill l->nkeys, keys, values, key_is_int from l->rel (l->n paths; the last component of each
 * is the file name and never a key). PQT_CORRUPT naming the path when a key appears twice in
 * one path; on failure l's hive fields stay empty. */
pqt_status pqt_ds_hive_parse(pqt_ds_list *l);

/* Percent-decode s[0..n) (%XX with two hex digits; anything else is kept as it is) into a new
 * string; NULL when out of memory. */
char *pqt_ds_hive_decode(const char *s, size_t n);

/* True when dir is a HATS catalogue (hats.properties and partition_info.csv, regular files) or
 * a HATS collection (collection.properties). */
bool pqt_ds_hats_detect(const char *dir);

/* List the HATS catalogue at dir, or a collection's primary catalogue (pqt_ds_hats_detect(dir)
 * is true), into l (zeroed): root is the catalogue's dataset/ when that is a directory, else
 * the catalogue. */
pqt_status pqt_ds_hats_list(const char *dir, pqt_ds_list *l);

/* The file-system calls a HATS listing makes, so that a catalogue is read from a bucket's
 * listing (listing_remote.c) by the same code as from a directory; pqt_ds_local_fs is the
 * disk. Paths are the dir given to pqt_ds_hats_list_fs joined with '/' and names. */
typedef struct pqt_ds_fs pqt_ds_fs;
struct pqt_ds_fs {
    bool (*is_regular)(const pqt_ds_fs *fs, const char *path);
    bool (*is_dir)(const pqt_ds_fs *fs, const char *path);
    /* the whole file at path (NUL-terminated, its length in *len); PQT_CORRUPT past max */
    pqt_status (*read_text)(const pqt_ds_fs *fs, const char *path, size_t max, char **ret,
                            size_t *len);
    /* the names of the regular files directly in dir (each and the array allocated) */
    pqt_status (*list_files)(const pqt_ds_fs *fs, const char *dir, char ***names, int64_t *n);
    void *ctx;
};
extern const pqt_ds_fs pqt_ds_local_fs;

/* pqt_ds_hats_detect and pqt_ds_hats_list through fs; the _fs list leaves has_metadata and
 * has_common_metadata to the caller. */
bool pqt_ds_hats_detect_fs(const pqt_ds_fs *fs, const char *dir);
pqt_status pqt_ds_hats_list_fs(const pqt_ds_fs *fs, const char *dir, pqt_ds_list *l);

/* Does name s match the one-component glob p? `*` any run of bytes, `?` one character (a
 * whole UTF-8 sequence), [...] one byte of a set (ranges, `!`/`^` negation), `\x` the byte x.
 * (Leading '.' and '_' are the walk's business, not the matcher's.) */
bool pqt_ds_glob_match(const char *p, const char *s);

/* A file name's byte-wise comparison for qsort over char * elements. */
int pqt_ds_cmp_str(const void *a, const void *b);

/* Set l->has_metadata and has_common_metadata from l->root. */
void pqt_ds_list_find_summaries(pqt_ds_list *l);

#endif
