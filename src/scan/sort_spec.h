/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sort_spec.h - sort keys as parsed from their text form (layer: scan). One parser serves
 * the options (PQT_OPT_SORT, pqt_opts_set_sort) and the table's *_text calls, so a key
 * means the same everywhere (docs/sort.md, "Keys").
 */
#ifndef PQT_SCAN_SORT_SPEC_H
#define PQT_SCAN_SORT_SPEC_H

#include <stdbool.h>

#include "pqt.h"

typedef struct pqt_sort_spec {
    int nkeys;
    char *names[PQT_SORT_MAX_KEYS]; /* owned, NUL-terminated */
    bool desc[PQT_SORT_MAX_KEYS];
    bool nulls_first[PQT_SORT_MAX_KEYS];
} pqt_sort_spec;

/* Append the keys of text to spec. PQT_BAD_SORT (message prefixed by call) for a key the
 * grammar refuses or a limit; spec is unchanged on failure. An empty text (only blanks) is
 * "empty sort key". PQT_NOMEM. */
pqt_status pqt_sort_spec_parse(pqt_sort_spec *spec, const char *text, const char *call);
/* Append one key given in the array form: the name literally, its flags. */
pqt_status pqt_sort_spec_add(pqt_sort_spec *spec, const char *name, bool desc, bool nulls_first,
                             const char *call);
void pqt_sort_spec_free(pqt_sort_spec *spec);
pqt_status pqt_sort_spec_copy(pqt_sort_spec *dst, const pqt_sort_spec *src);
/* "name asc|desc[ nulls_first]" joined with ", " into buf (snprintf semantics). */
int pqt_sort_spec_text(const pqt_sort_spec *spec, char *buf, size_t cap);

#endif
