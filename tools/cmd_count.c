/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_count.c - `pqt count FILE [--where RULE]...`: the number of rows that pass, and with
 * --explain how the scan found them.
 *
 * It opens a table with the rules (the filter runs at open) and asks for its row count, so
 * it decodes the filter columns only, and none in row groups that statistics settle; no
 * other column is ever read. Without a rule it reads the footer alone.
 */
#include <string.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt count FILE [--where RULE]... [--rows LO:HI] [--sample P[,SEED]]\n"
    "                 [--explain [text|json]] [--no-pushdown LIST] [--no-crc]\n"
    "                 [--binary-as-string]\n"
    "\n"
    "Print the number of rows, or of rows that pass the --where rules, on one line.\n"
    "  -w, --where RULE    keep rows for which RULE is true (docs/filters.md: `mass > 1e12\n"
    "                      and flag == 0`); repeatable, the rules AND-combined. Quote the\n"
    "                      rule for the shell (-w \"name like 'NGC%'\": SQL spellings work,\n"
    "                      docs/filters.md). Only the columns the rules name are read.\n"
    "  --rows LO:HI        count within rows LO to HI of the file (1-based, inclusive; LO:\n"
    "                      or :HI leave a side open); the rules apply within them\n"
    "  --sample P[,SEED]   count the rows a sample keeps (docs/sampling.md): each with\n"
    "                      probability P, after --rows and --where; the same SEED keeps\n"
    "                      the same rows, and --explain shows a drawn one\n"
    "  --explain [text]    after the count, a blank line and the plan: the rules in the\n"
    "                      order they are evaluated, each row group's verdict (pruned by\n"
    "                      statistics, kept whole, filtered), then the counters\n"
    "  --explain json      instead of the bare count, one JSON object with the keys count,\n"
    "                      rows_unfiltered, row_groups, row_groups_pruned_stats,\n"
    "                      row_groups_all, pages, pages_skipped, pages_decompressed,\n"
    "                      dictionary_pages_read, values_decoded, bytes_read,\n"
    "                      values_decoded_by_column and plan (these names stay), and\n"
    "                      row_groups_pruned_index, row_groups_pruned_dictionary,\n"
    "                      row_groups_pruned_bloom, pages_pruned_index,\n"
    "                      bloom_filters_read, row_groups_sel_runs, row_groups_sel_bitmap,\n"
    "                      row_groups_decode_then_filter, sample_fraction, sample_seed\n"
    "  --no-pushdown LIST  turn mechanisms off (the count never changes): a comma list of\n"
    "                      stats, page-index, dictionary, bloom, adaptive, or all\n"
    "  --no-crc            do not verify page checksums (CRC32)\n"
    "  --binary-as-string  read plain BYTE_ARRAY columns as strings (old Hive/Impala files)\n"
    "  --union-by-name     a dataset whose files' columns differ: a column a file lacks\n"
    "                      reads as nulls there (docs/datasets.md)\n"
    "  --no-hive           a dataset's key=value folders are not columns\n"
    "  -h, --help          this text\n"
    "A rule that does not parse is a usage error (exit status 2, the character named); a\n"
    "column the file lacks or a value of the wrong type is exit status 1.\n";

static const argopt opts[] = {{"--where", 'w', ARG_VALUE},          {"--rows", 0, ARG_VALUE},
                              {"--explain", 0, ARG_VALUE_OPTIONAL}, {"--no-crc", 0, ARG_FLAG},
                              {"--binary-as-string", 0, ARG_FLAG},  {"--no-pushdown", 0, ARG_VALUE},
                              {"--sample", 0, ARG_VALUE},           {"--union-by-name", 0, ARG_FLAG},
                              {"--no-hive", 0, ARG_FLAG},           {NULL, 0, 0}};

enum { EXPLAIN_NONE, EXPLAIN_TEXT, EXPLAIN_JSON };

static int count(const char *path, const tool_where_open_args *oa, int explain)
{
    pqt_table *t = NULL;
    if (tool_where_open(path, oa, &t) != PQT_OK) return tool_fail(path);
    int rc = EXIT_OK;
    if (explain == EXPLAIN_JSON) {
        if (tool_explain_json(t, stdout) != 0) rc = tool_fail(path);
    } else {
        printf("%lld\n", (long long)pqt_table_nrows(t));
        if (explain == EXPLAIN_TEXT) {
            putchar('\n');
            tool_explain_text(t, stdout);
        }
    }
    pqt_table_close(t);
    if (rc == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        fputs("pqt: cannot write the output\n", stderr);
        rc = EXIT_FAIL;
    }
    return rc;
}

int cmd_count(int argc, char **argv)
{
    static const char *const explain_words[] = {"text", "json", NULL};
    argscan s;
    const char *path = NULL, *rows = NULL;
    tool_where where = {0};
    tool_where_open_args oa = {0};
    oa.int96_unit = -1;
    oa.row_lo = oa.row_hi = TOOL_ROW_OPEN;
    int explain = EXPLAIN_NONE, rc = -1;
    argscan_init(&s, argc, argv);
    for (int r; rc < 0 && (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            rc = EXIT_OK;
        } else if (r != ARG_OPERAND && r != ARG_OPTION) {
            rc = tool_bad_option("count", usage, r, s.opt);
        } else if (r == ARG_OPERAND) {
            if (path) rc = tool_usage_error("count", usage, "unexpected argument", s.value);
            path = s.value;
        } else if (strcmp(s.opt, "--where") == 0) {
            rc = tool_where_add(&where, "count", usage, s.value);
        } else if (strcmp(s.opt, "--sample") == 0) {
            rc = tool_sample_set(&where, "count", usage, s.value);
        } else if (strcmp(s.opt, "--rows") == 0) {
            rows = s.value;
        } else if (strcmp(s.opt, "--explain") == 0) {
            const char *v = argscan_take_word(&s, explain_words);
            int f = tool_doc_format(v);
            if (f < 0) rc = tool_usage_error("count", usage, "unknown --explain (text or json)", v);
            explain = f == FORMAT_JSON ? EXPLAIN_JSON : EXPLAIN_TEXT;
        } else if (strcmp(s.opt, "--no-crc") == 0) {
            oa.no_crc = 1;
        } else if (strcmp(s.opt, "--no-pushdown") == 0) {
            if (!tool_parse_pushdown_off(s.value, &oa.pushdown_off))
                rc = tool_usage_error("count", usage,
                                      "unknown --no-pushdown (stats, page-index, dictionary, "
                                      "bloom, adaptive, all)",
                                      s.value);
        } else if (strcmp(s.opt, "--union-by-name") == 0) {
            tool_ds_union_by_name = 1;
        } else if (strcmp(s.opt, "--no-hive") == 0) {
            tool_ds_no_hive = 1;
        } else {
            oa.binary_as_string = 1;
        }
    }
    if (rc < 0 && !path) rc = tool_usage_error("count", usage, "missing FILE", NULL);
    if (rc < 0 && rows && !tool_parse_rows(rows, &oa.row_lo, &oa.row_hi))
        rc = tool_usage_error("count", usage, "bad --rows (want LO:HI)", rows);
    if (rc < 0) {
        oa.where = &where;
        rc = count(path, &oa, explain);
    }
    tool_where_free(&where);
    return rc;
}
