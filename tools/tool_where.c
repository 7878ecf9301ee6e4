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
    tool_apply_dataset_opts(o);
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

/* ---- --explain as text: runs of equal verdicts on one line, then the counters ---- */

#define VERDICT_NUMS 4

/* A row group's verdict line "row group N: REST" as N, REST with its counts (a number right
 * before " rows", " of " or " pages") cut out as \x01 marks, and the counts. 0 when the line
 * is no such line or holds too many counts. */
static int verdict_parse(const char *line, size_t len, int *rg, rbuf *tmpl, int64_t *nums, int *nn)
{
    static const char head[] = "row group ";
    if (len < sizeof head || strncmp(line, head, sizeof head - 1) != 0) return 0;
    const char *p = line + sizeof head - 1, *end = line + len;
    char *stop;
    long v = strtol(p, &stop, 10);
    if (stop == p || stop + 2 > end || stop[0] != ':' || stop[1] != ' ') return 0;
    *rg = (int)v;
    *nn = 0;
    tmpl->len = 0;
    for (p = stop + 2; p < end;) {
        if (*p >= '0' && *p <= '9' && (p[-1] == ' ' || p[-1] == '(')) {
            const char *q = p;
            while (q < end && *q >= '0' && *q <= '9')
                q++;
            size_t rest = (size_t)(end - q);
            int count = (rest >= 5 && strncmp(q, " rows", 5) == 0) ||
                        (rest >= 4 && strncmp(q, " of ", 4) == 0) ||
                        (rest >= 6 && strncmp(q, " pages", 6) == 0);
            if (count) {
                if (*nn == VERDICT_NUMS) return 0;
                nums[(*nn)++] = strtoll(p, NULL, 10);
                rb_putc(tmpl, '\x01');
                p = q;
                continue;
            }
            rb_put(tmpl, p, (size_t)(q - p));
            p = q;
            continue;
        }
        rb_putc(tmpl, *p++);
    }
    return 1;
}

static void verdict_flush(FILE *out, int first, int last, const rbuf *tmpl, const int64_t *nums)
{
    if (first == last)
        fprintf(out, "row group %d: ", first);
    else
        fprintf(out, "row groups %d-%d: ", first, last);
    int k = 0;
    for (size_t i = 0; i < tmpl->len; i++) {
        if (tmpl->p[i] == '\x01')
            fprintf(out, "%lld", (long long)nums[k++]);
        else
            fputc(tmpl->p[i], out);
    }
    fputc('\n', out);
}

void tool_explain_text(const pqt_table *t, FILE *out)
{
    char *text = explain_alloc(t);
    rbuf run = {0}, cur = {0};
    int64_t sum[VERDICT_NUMS] = {0}, nums[VERDICT_NUMS] = {0};
    int first = 0, last = -1, nn = 0;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        int rg;
        if (verdict_parse(line, len, &rg, &cur, nums, &nn)) {
            if (last >= 0 && rg == last + 1 && cur.len == run.len &&
                memcmp(cur.p, run.p, cur.len) == 0) {
                for (int k = 0; k < nn; k++)
                    sum[k] += nums[k];
                last = rg;
            } else {
                if (last >= 0) verdict_flush(out, first, last, &run, sum);
                run.len = 0;
                rb_put(&run, cur.p, cur.len);
                memcpy(sum, nums, sizeof sum);
                first = last = rg;
            }
        } else {
            if (last >= 0) verdict_flush(out, first, last, &run, sum);
            last = -1;
            fwrite(line, 1, len, out);
            fputc('\n', out);
        }
        line += len + (nl != NULL);
    }
    if (last >= 0) verdict_flush(out, first, last, &run, sum);
    rb_free(&run);
    rb_free(&cur);
    /* no rule and no sample: nothing was chosen, so there is nothing to count */
    int chose = strncmp(text, "no filter: every row", 20) != 0;
    free(text);
    if (!chose) return;
    pqt_scan_counts c;
    memset(&c, 0, sizeof c);
    if (pqt_table_scan_stats(t, &c) != PQT_OK) return;
    fprintf(out,
            "counters: %lld row groups (%lld pruned by statistics, %lld by the page index, %lld "
            "by dictionaries, %lld by bloom filters; %lld kept whole); %lld pages (%lld "
            "skipped, %lld decompressed, %lld dictionary pages); %lld values decoded, %lld bytes "
            "read\n",
            (long long)c.row_groups, (long long)c.row_groups_pruned_stats,
            (long long)c.row_groups_pruned_index, (long long)c.row_groups_pruned_dictionary,
            (long long)c.row_groups_pruned_bloom, (long long)c.row_groups_all, (long long)c.pages,
            (long long)c.pages_skipped, (long long)c.pages_decompressed,
            (long long)c.dictionary_pages_read, (long long)c.values_decoded,
            (long long)c.bytes_read);
    if (c.row_groups_not_read_limit > 0)
        fprintf(out, "not read after the limit: %lld row groups\n",
                (long long)c.row_groups_not_read_limit);
    if (c.filter_values_reused > 0) /* docs/pruning.md, "A filter column kept for the payload" */
        fprintf(out, "kept from the filter: %lld values read without decoding them again\n",
                (long long)c.filter_values_reused);
    if (c.requests > 0)
        fprintf(out, "remote: %lld requests (%lld retries), %lld bytes fetched\n",
                (long long)c.requests, (long long)c.retries, (long long)c.bytes_fetched);
    if (c.files > 1)
        fprintf(out,
                "files: %lld (%lld pruned by partition values, %lld by statistics); %lld "
                "footers read\n",
                (long long)c.files, (long long)c.files_pruned_partition,
                (long long)c.files_pruned_stats, (long long)c.footers_read);
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
    jw_key(&w, "row_groups_not_read_limit");
    jw_int(&w, sc.row_groups_not_read_limit);
    jw_key(&w, "files");
    jw_int(&w, sc.files);
    jw_key(&w, "files_pruned_partition");
    jw_int(&w, sc.files_pruned_partition);
    jw_key(&w, "files_pruned_stats");
    jw_int(&w, sc.files_pruned_stats);
    jw_key(&w, "footers_read");
    jw_int(&w, sc.footers_read);
    jw_key(&w, "requests"); /* a file read by URL (docs/remote.md); 0 for a local one */
    jw_int(&w, sc.requests);
    jw_key(&w, "bytes_fetched");
    jw_int(&w, sc.bytes_fetched);
    jw_key(&w, "retries");
    jw_int(&w, sc.retries);
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
