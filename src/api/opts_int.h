/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opts_int.h - layout of pqt_opts, the open options (layer: api, private): a table keeps a
 * copy of what it was opened with, so the layers above see the layout, not the file's.
 */
#ifndef PQT_API_OPTS_INT_H
#define PQT_API_OPTS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt.h"

struct pqt_opts {
    int threads;
    bool verify_crc;
    bool binary_as_string;
    int64_t row_lo, row_hi;     /* 0 = never set (the setter refuses < 1) */
    int int96_unit_plus1;       /* PQT_OPT_INT96_UNIT + 1; 0 = default (nanoseconds), so a
                                   zeroed pqt_opts keeps the default */
    unsigned pushdown_off;      /* PQT_PD_* bits of the mechanisms turned off (0 = all on) */
    pqt_filter *filter;         /* owned by the options object (NULL = none); a table copies the
                                   options by value and drops this pointer after its open */
    pqt_qc *qc;                 /* owned like filter (NULL = none); a table binds its own copy */
    bool qc_soft;               /* PQT_OPT_QC_SOFT */
    bool sample_set;            /* PQT_OPT_SAMPLE_FRACTION was set (else no sample) */
    double sample_fraction;     /* >= 0, not NaN (the setter refuses the rest) */
    int64_t sample_seed;        /* PQT_OPT_SAMPLE_SEED; <= 0: drawn at open */
    struct pqt_sort_spec *sort; /* owned like filter (NULL = no sort) */
    int64_t limit_plus1;        /* PQT_OPT_LIMIT + 1; 0 = unset (every row) */
    struct pqt_maml *maml;      /* a reference (maml/maml.h), NULL = none; a table takes its own */
    bool hive_off;              /* PQT_OPT_HIVE 0 */
    bool union_by_name;         /* PQT_OPT_UNION_BY_NAME 1 */
    bool share_by_rows;         /* PQT_OPT_SHARE_BY PQT_SHARE_ROWS */
    int64_t keep_bytes_plus1;   /* PQT_OPT_FILTER_KEEP_BYTES + 1; 0 = the default */
    int64_t remote[8];          /* PQT_OPT_REMOTE_FOOTER_HINT .. _CACHE_BYTES; 0 = the default,
                                   retries stored + 1 (0 retries is a choice, not the default) */
};

#endif
