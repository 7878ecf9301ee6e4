/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tool_where.c - what `pqt cat`, `pqt head` and `pqt count` share for filters: the --where
 * rules (parsed as they are given, so a syntax error is a usage error before any file is
 * opened), the options of the filtered table open, and --explain as text or as one JSON
 * object whose key names are a contract scripts rely on (docs/filters.md, "The pqt tool").
 */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static void out_of_memory(void)
{
    fputs("pqt: out of memory\n", stderr);
    exit(EXIT_FAIL);
}

int tool_where_add(tool_where *w, const char *cmd, const char *usage, const char *rule)
{
    if (!w->filter && pqt_filter_new(&w->filter) != PQT_OK) out_of_memory();
    pqt_status st = pqt_filter_add(w->filter, rule);
    if (st == PQT_NOMEM) out_of_memory();
    if (st == PQT_OK) {
        w->nrules++;
        return -1;
    }
    /* The library's message quotes the rule and names the character: it is the message. */
    const char *msg = pqt_errmsg();
    size_t n = strlen(msg) + 16;
    char *text = malloc(n);
    if (!text) out_of_memory();
    snprintf(text, n, "--where: %s", msg);
    int rc = tool_usage_error(cmd, usage, text, NULL);
    free(text);
    return rc;
}

int tool_sample_set(tool_where *w, const char *cmd, const char *usage, const char *text)
{
    const char *comma = strchr(text, ',');
    size_t flen = comma ? (size_t)(comma - text) : strlen(text);
    char num[64];
    char *end = NULL;
    double fraction = 0;
    int64_t seed = 0;
    int ok = flen > 0 && flen < sizeof num;
    if (ok) {
        memcpy(num, text, flen);
        num[flen] = '\0';
        fraction = strtod(num, &end);
        ok = end == num + flen;
    }
    if (ok && comma) ok = tool_parse_i64(comma + 1, strlen(comma + 1), &seed);
    if (!ok)
        return tool_usage_error(cmd, usage, "bad --sample (want FRACTION or FRACTION,SEED)",
                                text);
    /* the library judges the fraction (negative, NaN), in its own words */
    pqt_opts *probe = NULL;
    if (pqt_opts_new(&probe) != PQT_OK) out_of_memory();
    pqt_status st = pqt_opts_set_double(probe, PQT_OPT_SAMPLE_FRACTION, fraction);
    pqt_opts_free(probe);
    if (st != PQT_OK) {
        char msg[300];
        snprintf(msg, sizeof msg, "--sample: %s", pqt_errmsg());
        return tool_usage_error(cmd, usage, msg, NULL);
    }
    w->sampled = 1;
    w->sample_fraction = fraction;
    w->sample_seed = seed;
    return -1;
}

void tool_where_free(tool_where *w)
{
    pqt_filter_free(w->filter);
    w->filter = NULL;
    w->nrules = 0;
    pqt_qc_free(w->qc);
    w->qc = NULL;
}

int tool_qc_add(tool_where *w, const char *cmd, const char *usage, const char *rule)
{
    if (!w->qc && pqt_qc_new(&w->qc) != PQT_OK) out_of_memory();
    pqt_status st = pqt_qc_add(w->qc, rule);
    if (st == PQT_NOMEM) out_of_memory();
    if (st == PQT_OK) return -1;
    const char *msg = pqt_errmsg(); /* it quotes the rule and says what is wrong */
    size_t n = strlen(msg) + 16;
    char *text = malloc(n);
    if (!text) out_of_memory();
    snprintf(text, n, "--qc: %s", msg);
    int rc = tool_usage_error(cmd, usage, text, NULL);
    free(text);
    return rc;
}

static void warn_stderr(void *user, const char *message)
{
    (void)user;
    tool_msg("pqt: warning: %s", message);
}

void tool_warnings_to_stderr(void)
{
    pqt_set_warning_callback(warn_stderr, NULL);
}

pqt_status tool_where_open(const char *path, const tool_where_open_args *a, pqt_table **ret)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st != PQT_OK) return st;
    pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, !a->no_crc);
    pqt_opts_set_int(o, PQT_OPT_BINARY_AS_STRING, a->binary_as_string);
    if (a->int96_unit >= 0) pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, a->int96_unit);
    /* bounds below 1 are refused by the library, with a message naming the option */
    if (st == PQT_OK && a->row_lo != TOOL_ROW_OPEN)
        st = pqt_opts_set_int(o, PQT_OPT_ROW_LO, a->row_lo);
    if (st == PQT_OK && a->row_hi != TOOL_ROW_OPEN)
        st = pqt_opts_set_int(o, PQT_OPT_ROW_HI, a->row_hi);
    for (int b = 0; st == PQT_OK && b <= PQT_OPT_PUSHDOWN_ADAPTIVE - PQT_OPT_PUSHDOWN_STATS; b++)
        if (a->pushdown_off >> b & 1)
            st = pqt_opts_set_int(o, (pqt_opt)(PQT_OPT_PUSHDOWN_STATS + b), 0);
    if (st == PQT_OK && a->where && a->where->filter) st = pqt_opts_set_filter(o, a->where->filter);
    if (st == PQT_OK && a->where && a->where->qc) st = pqt_opts_set_qc(o, a->where->qc);
    if (st == PQT_OK && a->where && a->where->qc_soft)
        st = pqt_opts_set_int(o, PQT_OPT_QC_SOFT, 1);
    if (st == PQT_OK && a->where && a->where->sampled)
        st = pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, a->where->sample_fraction);
    if (st == PQT_OK && a->where && a->where->sampled)
        st = pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, a->where->sample_seed);
    if (st == PQT_OK && a->sort) st = pqt_opts_set_sort(o, a->sort);
    if (st == PQT_OK && a->limit_plus1 > 0)
        st = pqt_opts_set_int(o, PQT_OPT_LIMIT, a->limit_plus1 - 1);
    if (st == PQT_OK && a->maml) st = pqt_opts_set_maml(o, a->maml);
    if (st == PQT_OK) st = tool_table_open(path, o, ret);
    pqt_opts_free(o);
    return st;
}

bool tool_parse_pushdown_off(const char *list, unsigned *bits_ret)
{
    static const char *const names[] = {"stats", "page-index", "dictionary", "bloom", "adaptive"};
    unsigned bits = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        bool known = n == 3 && strncmp(p, "all", 3) == 0;
        if (known) bits = (1u << 5) - 1;
        for (unsigned b = 0; b < 5 && !known; b++)
            if (strlen(names[b]) == n && strncmp(p, names[b], n) == 0) {
                bits |= 1u << b;
                known = true;
            }
        if (!known) return false;
        p += n + (p[n] == ',');
    }
    *bits_ret = bits;
    return true;
}

/* pqt_table_explain's text in memory the caller frees. */
static char *explain_alloc(const pqt_table *t)
{
    char probe[1];
    int64_t n = pqt_table_explain(t, probe, sizeof probe); /* snprintf semantics: length */
    if (n < 0) n = 0;
    char *buf = malloc((size_t)n + 1);
    if (!buf) out_of_memory();
    buf[0] = '\0';
    if (n > 0) pqt_table_explain(t, buf, (size_t)n + 1);
    return buf;
}

void tool_explain_text(const pqt_table *t, FILE *out)
{
    char *text = explain_alloc(t);
    size_t n = strlen(text);
    fputs(text, out);
    if (n > 0 && text[n - 1] != '\n') fputc('\n', out);
    free(text);
}

void tool_explain_qc(const tool_where *w, FILE *out)
{
    if (!w->qc || pqt_qc_nrules(w->qc) == 0) return;
    int64_t n = pqt_qc_describe(w->qc, NULL, 0);
    char *buf = malloc((size_t)n + 1);
    if (!buf) out_of_memory();
    pqt_qc_describe(w->qc, buf, (size_t)n + 1);
    fprintf(out, "qc (%s: a violation %s):\n%s", w->qc_soft ? "soft" : "hard",
            w->qc_soft ? "is a warning" : "stops the command", buf);
    free(buf);
}

int tool_explain_json(const pqt_table *t, FILE *out)
{
    pqt_scan_counts sc;
    memset(&sc, 0, sizeof sc);
    if (pqt_table_scan_stats(t, &sc) != PQT_OK) return -1;
    jw w;
    memset(&w, 0, sizeof w);
    jw_open(&w, '{');
    /* These names are the contract (issue 10): add keys, never rename them. */
    jw_key(&w, "count");
    jw_int(&w, pqt_table_nrows(t));
    jw_key(&w, "rows_unfiltered");
    jw_int(&w, pqt_table_nrows_unfiltered(t));
    jw_key(&w, "row_groups");
    jw_int(&w, sc.row_groups);
    jw_key(&w, "row_groups_pruned_stats");
    jw_int(&w, sc.row_groups_pruned_stats);
    jw_key(&w, "row_groups_all");
    jw_int(&w, sc.row_groups_all);
    jw_key(&w, "pages");
    jw_int(&w, sc.pages);
    jw_key(&w, "pages_skipped");
    jw_int(&w, sc.pages_skipped);
    jw_key(&w, "pages_decompressed");
    jw_int(&w, sc.pages_decompressed);
    jw_key(&w, "dictionary_pages_read");
    jw_int(&w, sc.dictionary_pages_read);
    jw_key(&w, "values_decoded");
    jw_int(&w, sc.values_decoded);
    jw_key(&w, "bytes_read");
    jw_int(&w, sc.bytes_read);
    jw_key(&w, "row_groups_pruned_index");
    jw_int(&w, sc.row_groups_pruned_index);
    jw_key(&w, "row_groups_pruned_dictionary");
    jw_int(&w, sc.row_groups_pruned_dictionary);
    jw_key(&w, "row_groups_pruned_bloom");
    jw_int(&w, sc.row_groups_pruned_bloom);
    jw_key(&w, "pages_pruned_index");
    jw_int(&w, sc.pages_pruned_index);
    jw_key(&w, "bloom_filters_read");
    jw_int(&w, sc.bloom_filters_read);
    jw_key(&w, "row_groups_sel_runs");
    jw_int(&w, sc.row_groups_sel_runs);
    jw_key(&w, "row_groups_sel_bitmap");
    jw_int(&w, sc.row_groups_sel_bitmap);
    jw_key(&w, "row_groups_decode_then_filter");
    jw_int(&w, sc.row_groups_decode_then_filter);
    /* the sample settled at open (docs/sampling.md): 1.0 and 0 when there is none */
    jw_key(&w, "sample_fraction");
    jw_double(&w, pqt_table_sample_fraction(t));
    jw_key(&w, "sample_seed");
    jw_int(&w, pqt_table_sample_seed(t));
    /* Per column, only those that decoded something: a count reads filter columns only. */
    jw_key(&w, "values_decoded_by_column");
    jw_open(&w, '{');
    int ncols = pqt_table_ncols(t);
    for (int i = 0; i < ncols; i++) {
        const char *name = pqt_table_column_name(t, i);
        int64_t v = name ? pqt_table_scan_values(t, name) : 0;
        if (v <= 0) continue;
        jw_key(&w, name);
        jw_int(&w, v);
    }
    jw_close(&w, '}');
    jw_key(&w, "plan");
    char *text = explain_alloc(t);
    jw_str(&w, text);
    free(text);
    jw_close(&w, '}');
    jw_flush(&w, out);
    rb_free(&w.b);
    return 0;
}
