/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_cat.c - `pqt cat FILE`: print rows. Parses the options, picks the columns, then
 * streams batches of rows (cat_read.c): each printed column is read over the batch, the
 * rows are written (cat_format.c for csv and jsonl, cat_table.c for the table) and the
 * arrays freed, so memory stays bounded by one batch and output starts at once.
 *
 * On a terminal the table shows only the first and last PREVIEW_ROWS rows (two small reads,
 * however big the file); --all, --limit or a pipe print rows as asked. PQT_ISATTY=1 or 0
 * overrides the terminal test (the tests have no terminal).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cat.h"

/* cat and head share options; their usage texts differ in the first lines only. */
#define CAT_OPTIONS                                                                                \
    "  -c, --columns a,b  only these columns (dotted paths), in this order; blanks around\n"       \
    "                     names are ignored (\"id, survey\"); repeatable (-c id -c ra: both).\n" \
    "                     parquet_row_index is each row's 1-based row in the file\n"             \
    "  --rows LO:HI       rows LO to HI, 1-based and inclusive (LO: or :HI leave a side open)\n"  \
    "  -n, --limit N      print at most N rows\n"                                                  \
    "  --all              every row on a terminal too (there the table shows the first and\n"    \
    "                     last 10 rows of a longer one; a pipe always gets every row)\n"         \
    "  -f, --format F     table (default, for people), csv, tsv, jsonl (one JSON object a\n"   \
    "                     row) or json (one array of row objects); any case (-f CSV). tsv\n"  \
    "                     writes a tab, line break or backslash in a value as \\t \\n \\r \\\\\n" \
    "  --dotted-keys      jsonl: a struct's leaves as flat keys (\"s.a\":1) instead of nested\n" \
    "                     objects ({\"s\":{\"a\":1}}, the default, a struct's members together)\n" \
    "  -w, --where RULE   only rows for which RULE is true (docs/filters.md: `mass > 1e12 and\n"  \
    "                     flag == 0`, `g - r > 0.5`, `abs(dec) < 10 and id % 2 == 0`,\n"       \
    "                     `cone(ra, dec, 150.1, 2.2, 0.5)`, `x is not null`, `x between 1\n"   \
    "                     and 9`); repeatable, the rules AND-combined; within --rows, and\n"   \
    "                     --limit counts the rows that pass (without --sort, reading stops\n"  \
    "                     once they are found: later row groups are not read). A rule that\n" \
    "                     does not parse is a usage error (status 2); a column the file\n"     \
    "                     lacks, status 1\n"                                                   \
    "  --sample P[,SEED]  keep each row with probability P (0..1; 1 or more keeps all), drawn\n"  \
    "                     by docs/sampling.md's frozen rule: the same P and SEED keep the same\n" \
    "                     rows on every run; without SEED one is drawn (--explain shows it).\n" \
    "                     Applied after --rows and --where; --limit counts the rows kept\n"    \
    "  -s, --sort KEYS    rows in the order of KEYS (docs/sort.md: `survey, -mass`, `mass desc\n"  \
    "                     nulls_first`): stable, NaN after values, nulls last; after --where\n"  \
    "                     and within --rows; with --limit N the first N of that order (a\n"      \
    "                     top-n). The printed rows are held in memory. Repeatable: a second\n" \
    "                     --sort adds keys after the first's\n"                                  \
    "  --explain          after the rows, the plan on stderr: the rules in evaluation order,\n"  \
    "                     each row group's verdict (a run of equal verdicts on one line,\n"    \
    "                     \"row groups 3-9: ...\", counts summed), a \"counters:\" line of\n"  \
    "                     choosing the rows (row groups pruned, pages, values, bytes read),\n" \
    "                     then the sample's fraction and seed, the sort keys as applied, the\n" \
    "                     limit and the qc rules; \"kept from the filter: N values\": the\n"   \
    "                     filter columns printed from what --where decoded, not decoded again\n" \
    "                     (at most 256 MiB of them; docs/pruning.md)\n"                        \
    "  --qc RULE          quality control (docs/qc.md: `ra, >=0, <=360, Null`); repeatable,\n"  \
    "                     one rule per column. Every column a rule names is checked over the\n" \
    "                     rows to print before any is printed; a violation is an error\n"       \
    "                     (status 1) naming the bounds, the data range and the count\n"         \
    "  --qc-soft          a qc violation is a warning on stderr instead, and rows print\n"      \
    "  --maml M           open the file with the read-in MAML M (docs/maml.md): its column\n"  \
    "                     names (extra: remap:) in the header and in --columns, --where,\n"    \
    "                     --sort and --qc; its units after the kinds in the table header;\n"   \
    "                     its extra: filter:, extra: sort: and fields: qc: applied with\n"     \
    "                     yours (--rows becomes a rule on the row index, as with --sort).\n"  \
    "                     The printed rows are held in memory\n"                               \
    "  --no-crc           do not verify page checksums (CRC32)\n"                                  \
    "  --binary-as-string read plain BYTE_ARRAY columns as strings (old Hive/Impala files);\n"    \
    "                     without it they are binary: hex in table and csv (\"00ff\"), base64\n" \
    "                     in jsonl (\"AP8=\")\n"                                                \
    "  --union-by-name    a dataset (a directory or glob, docs/datasets.md) whose files'\n"     \
    "                     columns differ: a column a file lacks reads as nulls there\n"        \
    "  --no-hive          a dataset's key=value folders are not columns\n"                     \
    "  -h, --help         this text\n"                                                             \
    "A MAP column m prints as two arrays, m.key and m.value (jsonl: {\"m\":{\"key\":[..],\n"    \
    "\"value\":[..]}}); a VARIANT's v.value as its JSON (next to v.metadata; docs/variant.md).\n" \
    "Columns pqt cannot read (lists of lists, shredded\n"   \
    "variants, ...) are left out with a warning\n"                                               \
    "on stderr naming each and why; the rest prints and the exit status stays 0. Naming such\n"    \
    "a column in --columns is an error (exit status 1).\n"                                         \
    "Values print exactly: decimals with their scale, unsigned integers unsigned, floats as the\n" \
    "shortest text that reads back to the same value, INT96 timestamps in nanoseconds, or in\n"    \
    "microseconds/milliseconds when a printed value lies outside the years 1677..2262.\n" \
    "Nulls: the table prints NULL (a string that reads NULL is shown as \"NULL\"; the string\n" \
    "null as it is), csv an empty field (an empty string is \"\"), jsonl null.\n"               \
    "The table never cuts a number; strings longer than 32 cells end in \"…\", and columns\n"  \
    "that do not fit the terminal (or COLUMNS) are named after it. csv and jsonl print every\n"   \
    "value in full. A reader that stops early (pqt cat F | head) ends pqt quietly, status 0;\n"  \
    "a failed write (disk full) is an error, status 1.\n"

static const char usage_cat[] =
    "usage: pqt cat FILE [-c a,b] [--rows LO:HI] [-w RULE]... [--sample P[,SEED]] [-s KEYS]\n"
    "               [-n N] [--all] [-f table|csv|tsv|jsonl|json] [--explain] [--qc RULE]... [--qc-soft]\n"
    "               [--maml M] [--no-crc] [--binary-as-string]\n"
    "\n"
    "Print the rows of a Parquet file, streaming them a batch at a time.\n" CAT_OPTIONS;

static const char usage_head[] =
    "usage: pqt head FILE [-n N] [-c a,b] [--rows LO:HI] [-w RULE]... [--sample P[,SEED]]\n"
    "                [-s KEYS] [-f table|csv|tsv|jsonl|json] [--explain] [--qc RULE]... [--qc-soft]\n"
    "                [--maml M] [--no-crc] [--binary-as-string]\n"
    "\n"
    "Print the first 10 rows of a Parquet file (of --rows when given): pqt cat --limit 10,\n"
    "with the same options; -n N prints N rows instead.\n" CAT_OPTIONS;

static const argopt opts[] = {{"--columns", 'c', 1}, {"--rows", 0, 1},
                              {"--limit", 'n', 1},   {"--format", 'f', 1},
                              {"--no-crc", 0, 0},    {"--binary-as-string", 0, 0},
                              {"--all", 0, 0},       {"--where", 'w', 1},
                              {"--explain", 0, 0},   {"--qc", 0, 1},
                              {"--qc-soft", 0, 0},   {"--sample", 0, 1},
                              {"--sort", 's', 1},    {"--maml", 0, 1},
                              {"--dotted-keys", 0, 0}, {"--union-by-name", 0, 0},
                              {"--no-hive", 0, 0},   {NULL, 0, 0}};

typedef struct cat_args {
    const char *path, *columns, *rows, *limit, *format, *sort, *maml;
    char *columns_own, *sort_own; /* a repeated -c or --sort: the values joined */
    int no_crc, binary_as_string, all, explain, dotted_keys;
    tool_where where;
} cat_args;

static void add_col(cat_out *o, const pqt_file *f, int col)
{
    cat_col *c = &o->cols[o->ncols++];
    memset(c, 0, sizeof *c);
    c->col = col;
    const char *path = pqt_file_column_path(f, col);
    size_t n = strlen(path) + 1;
    c->path = malloc(n); /* a copy outlives a reopened handle */
    if (c->path) memcpy(c->path, path, n);
    if (!c->path) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    c->unit = pqt_file_column_time_unit(f, col);
    c->utc = pqt_file_column_utc(f, col) == 1;
    c->leaf = -1;
    cat_col_exact(c, f);
}

/* The row index, parquet_row_index (PQT_ROW_INDEX): each printed row's 1-based file row, as
 * the library's table gives it; printed only when named. */
static void add_row_index_col(cat_out *o)
{
    cat_col *c = &o->cols[o->ncols++];
    memset(c, 0, sizeof *c);
    c->col = -1;
    c->row_index = 1;
    c->path = malloc(sizeof PQT_ROW_INDEX);
    if (!c->path) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    memcpy(c->path, PQT_ROW_INDEX, sizeof PQT_ROW_INDEX);
    c->unit = -1;
    c->leaf = -1;
}

/* parquet_file, a dataset's virtual column: each row's file, relative to the root. */
static void add_file_name_col(cat_out *o)
{
    add_row_index_col(o);
    cat_col *c = &o->cols[o->ncols - 1];
    c->row_index = 0;
    c->kind = PQT_STRING;
    free(c->path);
    c->path = malloc(sizeof "parquet_file");
    if (!c->path) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    memcpy(c->path, "parquet_file", sizeof "parquet_file");
    c->label = malloc(sizeof "string");
    if (c->label) memcpy(c->label, "string", sizeof "string");
}

/* The columns to print: those named by --columns, or every readable one. */
static int pick_columns(const pqt_file *f, const char *path, const char *list, cat_out *o)
{
    int ncols = pqt_file_ncols(f);
    size_t cap = (size_t)ncols + 1;
    if (list)
        for (const char *p = list; *p; p++)
            cap += *p == ',';
    o->cols = calloc(cap, sizeof *o->cols);
    if (!o->cols) {
        fputs("pqt: out of memory\n", stderr);
        return EXIT_FAIL;
    }
    if (!list) {
        for (int c = 0; c < ncols; c++) {
            if (!pqt_file_column_unsupported_reason(f, c))
                add_col(o, f, c);
            else /* picked implicitly: say it is left out, print the rest */
                cat_warn_unreadable(f, path, c);
        }
        return EXIT_OK;
    }
    const char *s = list, *item, *raw;
    size_t n, raw_n;
    while (tool_list_next(&s, &item, &n, &raw, &raw_n)) {
        /* Blanks around a name are trimmed ("id, survey"), unless the file really has a
         * column whose name carries them. */
        char *name = malloc(raw_n + 1);
        if (!name) {
            fputs("pqt: out of memory\n", stderr);
            return EXIT_FAIL;
        }
        memcpy(name, raw, raw_n);
        name[raw_n] = '\0';
        /* the name is the row index's, as in the library (which drops a file column of
         * that name) */
        if (n == sizeof PQT_ROW_INDEX - 1 && memcmp(item, PQT_ROW_INDEX, n) == 0) {
            free(name);
            add_row_index_col(o);
            continue;
        }
        if (n == sizeof "parquet_file" - 1 && memcmp(item, "parquet_file", n) == 0 &&
            tool_is_dataset(path)) {
            free(name);
            add_file_name_col(o);
            continue;
        }
        int col;
        if (raw_n == n || pqt_file_find_column(f, name, &col) != PQT_OK) {
            memcpy(name, item, n);
            name[n] = '\0';
            if (pqt_file_find_column(f, name, &col) != PQT_OK) {
                free(name);
                return tool_fail(path);
            }
        }
        if (pqt_file_column_unsupported_reason(f, col)) {
            const char *logical = pqt_file_column_logical(f, col);
            tool_msg("pqt: %s: column '%s' cannot be read: %s%s%s (%s)", path, name,
                    pqt_file_column_physical(f, col), logical && logical[0] ? " " : "",
                    logical ? logical : "", pqt_file_column_unsupported_reason(f, col));
            free(name);
            return EXIT_FAIL;
        }
        free(name);
        add_col(o, f, col);
    }
    return EXIT_OK;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    return memcpy(d, s, n);
}

/* --maml: table column `name` printed under its name, read from its file column. implicit:
 * picked as one of all (an unreadable one is left out with a warning). */
static int add_table_col(cat_out *o, const cat_reader *rd, const char *name, int implicit)
{
    const char *fpath = NULL;
    int col = -1;
    if (pqt_table_file_column(rd->t, name, &fpath) != PQT_OK ||
        pqt_file_find_column(rd->f, fpath, &col) != PQT_OK) {
        if (implicit) return EXIT_OK; /* read from no file column: nothing to print */
        return tool_fail(rd->path);
    }
    if (pqt_file_column_unsupported_reason(rd->f, col)) {
        if (implicit) {
            cat_warn_unreadable(rd->f, rd->path, col);
            return EXIT_OK;
        }
        tool_msg("pqt: %s: column '%s' (file column '%s') cannot be read (%s)",
                rd->path, name, fpath, pqt_file_column_unsupported_reason(rd->f, col));
        return EXIT_FAIL;
    }
    add_col(o, rd->f, col);
    cat_col *c = &o->cols[o->ncols - 1];
    const char *unit = NULL;
    free(c->path);
    c->path = dup_text(name);
    if (pqt_table_unit(rd->t, name, &unit) == PQT_OK && unit && *unit)
        c->phys_unit = dup_text(unit);
    return EXIT_OK;
}

/* --maml: the columns of the table (its names), those of --columns or every one. */
static int pick_table_columns(const cat_reader *rd, const char *list, cat_out *o)
{
    int n = pqt_table_ncols(rd->t);
    size_t cap = (size_t)n + 1;
    if (list)
        for (const char *p = list; *p; p++)
            cap += *p == ',';
    o->cols = calloc(cap, sizeof *o->cols);
    if (!o->cols) {
        fputs("pqt: out of memory\n", stderr);
        return EXIT_FAIL;
    }
    int rc = EXIT_OK;
    if (!list) {
        for (int i = 0; i < n && rc == EXIT_OK; i++)
            rc = add_table_col(o, rd, pqt_table_column_name(rd->t, i), 1);
        return rc;
    }
    const char *s = list, *item, *raw;
    size_t len, raw_n;
    while (rc == EXIT_OK && tool_list_next(&s, &item, &len, &raw, &raw_n)) {
        /* as for file columns: blanks around a name are trimmed unless the name has them */
        char *name = malloc(raw_n + 1);
        if (!name) {
            fputs("pqt: out of memory\n", stderr);
            return EXIT_FAIL;
        }
        memcpy(name, raw, raw_n);
        name[raw_n] = '\0';
        if (raw_n != len && !pqt_table_has_column(rd->t, name)) {
            memcpy(name, item, len);
            name[len] = '\0';
        }
        int index;
        if (strcmp(name, PQT_ROW_INDEX) == 0) {
            add_row_index_col(o);
            free(name);
            continue;
        }
        if (strcmp(name, "parquet_file") == 0 && tool_is_dataset(rd->path)) {
            add_file_name_col(o);
            free(name);
            continue;
        }
        rc = pqt_table_column_index(rd->t, name, &index) == PQT_OK
                 ? add_table_col(o, rd, name, 0)
                 : tool_fail(rd->path);
        free(name);
    }
    return rc;
}

/* tool_where_open_args.limit_plus1 of a --limit (-1: none). Saturates: a limit of INT64_MAX
 * becomes INT64_MAX - 1, which no table reaches, rather than overflowing. */
static int64_t limit_plus1(int64_t limit)
{
    return limit < 0 ? 0 : limit < INT64_MAX ? limit + 1 : INT64_MAX;
}

static int run(pqt_file *f, const cat_args *args)
{
    cat_out o = {0};
    o.format = args->format ? cat_format_parse(args->format) : FORMAT_TABLE;
    char note[1100];
    snprintf(note, sizeof note, "pqt: %s: ", args->path);
    tool_note_renamed(f, note, stderr);
    /* with a MAML the columns are the table's: picked once it is open */
    int rc = args->maml ? EXIT_OK : pick_columns(f, args->path, args->columns, &o);
    if (rc == EXIT_OK && (o.format == FORMAT_JSONL || o.format == FORMAT_JSONARR) && !args->maml &&
        !args->dotted_keys)
        cat_json_keys(&o, f);
    if (rc == EXIT_OK && !args->maml) cat_label_columns(&o, f);
    int64_t nrows = pqt_file_nrows(f), lo = 1, hi = nrows, limit = -1;
    if (rc == EXIT_OK && args->rows) {
        tool_parse_rows(args->rows, &lo, &hi); /* checked by the caller */
        if (lo < 1 || hi > nrows || lo > hi) {
            tool_msg("pqt: %s: rows %s outside the table (%lld rows)", args->path,
                    args->rows, (long long)nrows);
            rc = EXIT_FAIL;
        }
    }
    bool dataset = tool_is_dataset(args->path);
    if (rc == EXIT_OK && (args->sort || args->maml || dataset)) {
        /* the library sorts: a table opened with the filter (--rows became a rule on the row
         * index), the keys and the limit; its rows are printed (cat_sort.c). A MAML goes the
         * same way: its own filter and sort apply at the open, its names are the table's. */
        if (args->limit) tool_parse_i64(args->limit, strlen(args->limit), &limit);
        if (args->where.qc) tool_warnings_to_stderr(); /* --qc-soft's warnings */
        cat_reader rd;
        cat_open_args oa = {args->no_crc, args->binary_as_string};
        rc = cat_reader_open(&rd, args->path, &oa);
        /* with a MAML the columns are known only from the table: INT96 stays nanoseconds */
        if (rc == EXIT_OK && !args->maml)
            rc = cat_settle_int96(&rd.f, args->path, &oa, &o, lo, hi);
        int int96_unit = -1;
        for (int c = 0; c < o.ncols; c++)
            if (o.cols[c].is_int96) int96_unit = o.cols[c].unit;
        /* a dataset's rows are numbered across its files: --rows is the table's slice */
        bool slice = dataset && args->rows && !args->sort && !args->maml;
        tool_where_open_args wa = {&args->where, args->no_crc, args->binary_as_string, int96_unit,
                                   slice ? lo : TOOL_ROW_OPEN, slice ? hi : TOOL_ROW_OPEN, 0,
                                   args->sort, limit_plus1(limit), args->maml};
        if (rc == EXIT_OK && tool_where_open(args->path, &wa, &rd.t) != PQT_OK)
            rc = tool_fail(args->path);
        if (rc == EXIT_OK && args->maml) {
            rc = pick_table_columns(&rd, args->columns, &o);
            /* INT96: the printed rows are known only now, so the unit is the finest that
             * holds every value of the file; a coarser one reopens the table with it */
            if (rc == EXIT_OK && nrows > 0)
                rc = cat_settle_int96(&rd.f, args->path, &oa, &o, 1, nrows);
            for (int c = 0; c < o.ncols; c++)
                if (o.cols[c].is_int96) wa.int96_unit = o.cols[c].unit;
            if (rc == EXIT_OK && wa.int96_unit >= 0 && wa.int96_unit != PQT_UNIT_NANOS) {
                pqt_table_close(rd.t);
                rd.t = NULL;
                if (tool_where_open(args->path, &wa, &rd.t) != PQT_OK) rc = tool_fail(args->path);
            }
        }
        if (rc == EXIT_OK) rc = cat_print_sorted(&rd, &o, args->all || args->limit);
        if (rd.t && args->explain && rc == EXIT_OK) {
            fflush(stdout);
            tool_explain_text(rd.t, stderr);
        }
        cat_reader_close(&rd);
    } else if (rc == EXIT_OK) {
        if (args->limit) tool_parse_i64(args->limit, strlen(args->limit), &limit);
        /* The rows are read through a handle of their own (the INT96 unit may reopen it). */
        cat_reader rd;
        cat_open_args oa = {args->no_crc, args->binary_as_string};
        rc = cat_reader_open(&rd, args->path, &oa);
        int filtered =
            args->where.nrules > 0 || args->where.sampled || args->explain || args->where.qc;
        if (args->where.qc) tool_warnings_to_stderr(); /* --qc-soft's warnings */
        if (rc == EXIT_OK && filtered) {
            /* from here on rows are the survivors' own numbers */
            /* -n N with rules stops the filter once N rows are found; not with --qc, whose
             * rules are checked over every survivor */
            int64_t stop_at = args->where.nrules > 0 && !args->where.qc ? limit : -1;
            rc = cat_where_open(&rd, args->path, &oa, &args->where, lo, hi, nrows, stop_at);
            /* the rows print from the file, not the table: check the ruled columns first */
            if (rc == EXIT_OK && args->where.qc && pqt_table_validate_qc(rd.t) != PQT_OK)
                rc = tool_fail(args->path);
            if (rd.map || rd.nmap == 0) { /* else every row of lo..hi passes */
                lo = 1;
                hi = rd.nmap;
            }
        }
        int64_t end = limit >= 0 && limit < hi - lo + 1 ? lo + limit - 1 : hi;
        /* INT96: the unit that holds every file row from the first printed to the last */
        int64_t first = lo, last = end;
        if (rc == EXIT_OK && rd.map && end >= lo) {
            first = rd.map[lo - 1];
            last = rd.map[end - 1];
        }
        if (rc == EXIT_OK) rc = cat_settle_int96(&rd.f, args->path, &oa, &o, first, last);
        if (rc == EXIT_OK) rc = cat_print(&rd, &o, lo, hi, limit, args->all);
        if (rd.t && args->explain && rc == EXIT_OK) {
            fflush(stdout);
            tool_explain_text(rd.t, stderr);
            tool_explain_qc(&args->where, stderr);
        }
        cat_reader_close(&rd);
    }
    cat_out_free(&o);
    return rc;
}

/* Parse the options and print; a->where receives the rules (the caller frees them). */
static int parse_and_run(int argc, char **argv, const char *cmd, const char *usage,
                         const char *limit_default, cat_args *a)
{
    argscan s;
    int rc;
    argscan_init(&s, argc, argv);
    for (int r; (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (r != ARG_OPERAND && r != ARG_OPTION) return tool_bad_option(cmd, usage, r, s.opt);
        if (r == ARG_OPERAND) {
            if (a->path) return tool_usage_error(cmd, usage, "unexpected argument", s.value);
            a->path = s.value;
        } else if (strcmp(s.opt, "--columns") == 0)
            a->columns = tool_join(&a->columns_own, a->columns, s.value, ",");
        else if (strcmp(s.opt, "--rows") == 0)
            a->rows = s.value;
        else if (strcmp(s.opt, "--limit") == 0)
            a->limit = s.value;
        else if (strcmp(s.opt, "--format") == 0)
            a->format = s.value;
        else if (strcmp(s.opt, "--no-crc") == 0)
            a->no_crc = 1;
        else if (strcmp(s.opt, "--all") == 0)
            a->all = 1;
        else if (strcmp(s.opt, "--where") == 0) {
            if ((rc = tool_where_add(&a->where, cmd, usage, s.value)) >= 0) return rc;
        } else if (strcmp(s.opt, "--sample") == 0) {
            if ((rc = tool_sample_set(&a->where, cmd, usage, s.value)) >= 0) return rc;
        } else if (strcmp(s.opt, "--explain") == 0)
            a->explain = 1;
        else if (strcmp(s.opt, "--qc") == 0) {
            if ((rc = tool_qc_add(&a->where, cmd, usage, s.value)) >= 0) return rc;
        } else if (strcmp(s.opt, "--qc-soft") == 0)
            a->where.qc_soft = 1;
        else if (strcmp(s.opt, "--sort") == 0)
            a->sort = tool_join(&a->sort_own, a->sort, s.value, ", ");
        else if (strcmp(s.opt, "--maml") == 0)
            a->maml = s.value;
        else if (strcmp(s.opt, "--dotted-keys") == 0)
            a->dotted_keys = 1;
        else if (strcmp(s.opt, "--union-by-name") == 0)
            tool_ds_union_by_name = 1;
        else if (strcmp(s.opt, "--no-hive") == 0)
            tool_ds_no_hive = 1;
        else
            a->binary_as_string = 1;
    }
    if (!a->path) return tool_usage_error(cmd, usage, "missing FILE", NULL);
    if (!a->limit) a->limit = limit_default;
    if (a->columns && (rc = tool_list_check(cmd, usage, "--columns", a->columns)) >= 0)
        return rc;
    int64_t lo = 1, hi = INT64_MAX, limit;
    if (a->rows && !tool_parse_rows(a->rows, &lo, &hi))
        return tool_usage_error(cmd, usage, "bad --rows (want LO:HI)", a->rows);
    if (a->limit && (!tool_parse_i64(a->limit, strlen(a->limit), &limit) || limit < 0))
        return tool_usage_error(cmd, usage, "bad --limit (want a count >= 0)", a->limit);
    if (a->sort) {
        /* keys are parsed now: a bad key is a usage error, like a rule that does not parse */
        pqt_opts *po = NULL;
        if (pqt_opts_new(&po) != PQT_OK) return tool_fail(a->path);
        pqt_status sst = pqt_opts_set_sort(po, a->sort);
        pqt_opts_free(po);
        if (sst != PQT_OK) {
            const char *m = pqt_errmsg(), *why = strstr(m, ": ");
            char msg[600];
            snprintf(msg, sizeof msg, "--sort: %s", why ? why + 2 : m);
            return tool_usage_error(cmd, usage, msg, NULL);
        }
    }
    if (a->sort || a->maml) {
        if (a->rows) {
            /* a slice cannot be sorted (nor take a MAML's sort): --rows becomes a rule on the
             * file's row numbers */
            char rule[128];
            snprintf(rule, sizeof rule,
                     "parquet_row_index >= %lld and parquet_row_index <= %lld", (long long)lo,
                     (long long)(hi > 0 ? hi : INT64_MAX));
            if ((rc = tool_where_add(&a->where, cmd, usage, rule)) >= 0) return rc;
        }
    }
    if (a->format && cat_format_parse(a->format) < 0)
        return tool_usage_error(cmd, usage, "unknown --format (table, csv, tsv, jsonl or json)",
                                a->format);

    pqt_file *f;
    cat_open_args oa = {a->no_crc, a->binary_as_string};
    /* a dataset's files the partition values refute are not opened for the schema either
     * (without --rows: a slice numbers every file's rows) */
    if (tool_is_dataset(a->path) && !a->rows && !a->maml) tool_ds_filter = a->where.filter;
    if (cat_open(a->path, &oa, PQT_UNIT_NANOS, &f) != PQT_OK) return tool_fail(a->path);
    rc = run(f, a);
    pqt_file_close(f);
    return rc;
}

/* cat, and head (limit_default "10"). */
static int cat_main(int argc, char **argv, const char *cmd, const char *usage,
                    const char *limit_default)
{
    cat_args a = {0};
    int rc = parse_and_run(argc, argv, cmd, usage, limit_default, &a);
    tool_where_free(&a.where);
    free(a.columns_own);
    free(a.sort_own);
    return rc;
}

int cmd_cat(int argc, char **argv)
{
    return cat_main(argc, argv, "cat", usage_cat, NULL);
}

int cmd_head(int argc, char **argv)
{
    return cat_main(argc, argv, "head", usage_head, "10");
}
