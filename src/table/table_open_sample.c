/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_open_sample.c - a sample given at open narrows the read plan (layer: table).
 *
 * The table settles its sample once, here: the fraction in effect and the seed (the caller's,
 * or one drawn now). The scan layer's sample pass (scan/sample.h, the frozen rule) then
 * narrows each row group's selection to the rows the rule keeps among those the slice and
 * the filter kept, so a row group the filter pruned is never drawn for nor read. The plan,
 * and with it the sample, is what a clone copies: it keeps the same rows without drawing.
 */
#include <stdio.h>
#include <string.h>

#include "scan/sample.h"
#include "table/table_int.h"
#include "util/mem.h"
#include "util/par.h"

/* The explain text so far (the filter's, or a line saying there is none) with the sample's
 * line after it. */
static pqt_status explain_add(pqt_table *t, const char *line)
{
    const char *before = t->explain ? t->explain : "no filter\n";
    size_t n0 = strlen(before), n1 = strlen(line);
    char *text = pqt_malloc_array(n0 + n1 + 1, 1);
    if (!text) return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    memcpy(text, before, n0);
    memcpy(text + n0, line, n1 + 1);
    pqt_mem_free(t->explain);
    t->explain = text;
    return PQT_OK;
}

pqt_status pqt_tbl_sample_at_open(pqt_table *t)
{
    /* The seed reported is the one the draw used: 0 when nothing is drawn (no sample, a
     * fraction of 0 or >= 1), as docs/sampling.md says for 0, whatever seed was given. */
    if (!t->opts.sample_set) return PQT_OK;
    double p = t->opts.sample_fraction; /* >= 0 and not NaN: the setter saw to it */
    int64_t seed = 0;
    int64_t before = t->nrows;
    char ptext[40], line[256];
    pqt_format_float64(p, ptext, sizeof ptext);
    if (p >= 1) {
        t->sample_fraction = 1.0;
        snprintf(line, sizeof line, "sample: fraction %s keeps every row (nothing drawn)\n",
                 ptext);
        return explain_add(t, line);
    }
    if (p == 0) {
        PQT_TRY(pqt_plan_limit(&t->plan, 0));
    } else { /* the pass narrows a copy of the selections, which then restricts the plan */
        seed = t->opts.sample_seed > 0 ? t->opts.sample_seed : pqt_philox_fresh_seed();
        pqt_sel *sels = NULL;
        PQT_TRY(pqt_plan_sels_copy(&t->plan, &sels));
        pqt_status st = pqt_scan_sample(sels, t->plan.nrg, t->plan.rg_start, p, seed,
                                        pqt_par_threads(t->threads));
        if (st != PQT_OK) {
            pqt_plan_sels_free(sels, t->plan.nrg);
            return st;
        }
        PQT_TRY(pqt_plan_restrict(&t->plan, sels));
    }
    pqt_tbl_plan_settled(t);
    t->sample_fraction = p;
    t->sample_seed = seed;
    if (seed > 0) t->opts.sample_seed = seed; /* what the table in effect was opened with */
    if (p == 0)
        snprintf(line, sizeof line, "sample: fraction 0 keeps no row (nothing drawn)\n");
    else
        snprintf(line, sizeof line,
                 "sample: fraction %s, seed %lld, rule %s: %lld of %lld rows kept\n", ptext,
                 (long long)seed, PQT_SAMPLE_RULE, (long long)t->nrows, (long long)before);
    return explain_add(t, line);
}
