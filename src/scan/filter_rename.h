/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_rename.h - the column names of parsed rules replaced (layer: scan). A read-in
 * MAML's extra: filter: names the file's columns and the caller's filter the table's; both
 * are compiled as one program, so the MAML's rules are renamed into the table's names first.
 */
#ifndef PQT_SCAN_FILTER_RENAME_H
#define PQT_SCAN_FILTER_RENAME_H

#include "pqt.h"

/* The new name of column name; NULL when out of memory. */
typedef const char *(*pqt_scan_rename_fn)(void *user, const char *name);

/* Rename every column named by rules first .. last of f. On failure (PQT_NOMEM) some names
 * may be renamed: the caller discards f. */
pqt_status pqt_scan_filter_rename(pqt_filter *f, int first, pqt_scan_rename_fn fn, void *user);

#endif
