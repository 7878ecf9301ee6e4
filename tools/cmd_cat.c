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
    "                     names are ignored (\"id, survey\")\n"                                   \
    "  --rows LO:HI       rows LO to HI, 1-based and inclusive (LO: or :HI leave a side open)\n"  \
    "  -n, --limit N      print at most N rows\n"                                                  \
    "  --all              every row on a terminal too (there the table shows the first and\n"    \
    "                     last 10 rows of a longer one; a pipe always gets every row)\n"         \
    "  -f, --format F     table (default, for people), csv, or jsonl (one JSON object a row)\n"   \
    "  --no-crc           do not verify page checksums (CRC32)\n"                                  \
    "  --binary-as-string read plain BYTE_ARRAY columns as strings (old Hive/Impala files)\n"     \
    "  -h, --help         this text\n"                                                             \
    "Columns pqt cannot read (maps, nested lists, plain binary...) are left out with a warning\n"  \
    "on stderr naming each and why; the rest prints and the exit status stays 0. Naming such\n"    \
    "a column in --columns is an error (exit status 1).\n"                                         \
    "Values print exactly: decimals with their scale, unsigned integers unsigned, floats as the\n" \
    "shortest text that reads back to the same value, INT96 timestamps in nanoseconds, or in\n"    \
    "microseconds/milliseconds when a printed value lies outside the years 1677..2262.\n" \
    "The table never cuts a number; strings longer than 32 cells end in \"…\", and columns\n"  \
    "that do not fit the terminal (or COLUMNS) are named after it. csv and jsonl print every\n"   \
    "value in full. A reader that stops early (pqt cat F | head) ends pqt quietly, status 0;\n"  \
    "a failed write (disk full) is an error, status 1.\n"

static const char usage_cat[] =
    "usage: pqt cat FILE [-c a,b] [--rows LO:HI] [-n N] [--all] [-f table|csv|jsonl]\n"
    "               [--no-crc] [--binary-as-string]\n"
    "\n"
    "Print the rows of a Parquet file, streaming them a batch at a time.\n" CAT_OPTIONS;

static const char usage_head[] =
    "usage: pqt head FILE [-n N] [-c a,b] [--rows LO:HI] [-f table|csv|jsonl] [--no-crc]\n"
    "                [--binary-as-string]\n"
    "\n"
    "Print the first 10 rows of a Parquet file (of --rows when given): pqt cat --limit 10,\n"
    "with the same options; -n N prints N rows instead.\n" CAT_OPTIONS;

static const argopt opts[] = {{"--columns", 'c', 1}, {"--rows", 0, 1},
                              {"--limit", 'n', 1},   {"--format", 'f', 1},
                              {"--no-crc", 0, 0},    {"--binary-as-string", 0, 0},
                              {"--all", 0, 0},       {NULL, 0, 0}};

typedef struct cat_args {
    const char *path, *columns, *rows, *limit, *format;
    int no_crc, binary_as_string, all;
} cat_args;

/* A decimal int64 filling all of s (empty is not a number). */
static int parse_i64(const char *s, size_t n, int64_t *out)
{
    char tmp[32];
    if (n == 0 || n >= sizeof tmp) return 0;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(tmp, &end, 10);
    if (errno || *end || end == tmp) return 0;
    *out = v;
    return 1;
}

/* "LO:HI", "LO:", ":HI" or "N" (that one row). Open sides stay as given in lo/hi. */
static int parse_rows(const char *s, int64_t *lo, int64_t *hi)
{
    const char *colon = strchr(s, ':');
    if (!colon) {
        if (!parse_i64(s, strlen(s), lo)) return 0;
        *hi = *lo;
        return 1;
    }
    size_t nlo = (size_t)(colon - s), nhi = strlen(colon + 1);
    if (nlo && !parse_i64(s, nlo, lo)) return 0;
    if (nhi && !parse_i64(colon + 1, nhi, hi)) return 0;
    return 1;
}

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
            fprintf(stderr, "pqt: %s: column '%s' cannot be read: %s%s%s (%s)\n", path, name,
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

static int run(pqt_file *f, const cat_args *args)
{
    cat_out o = {0};
    o.format = !args->format || strcmp(args->format, "table") == 0 ? FORMAT_TABLE
               : strcmp(args->format, "csv") == 0                  ? FORMAT_CSV
                                                                   : FORMAT_JSONL;
    int rc = pick_columns(f, args->path, args->columns, &o);
    int64_t nrows = pqt_file_nrows(f), lo = 1, hi = nrows, limit = -1;
    if (rc == EXIT_OK && args->rows) {
        parse_rows(args->rows, &lo, &hi); /* checked by the caller */
        if (lo < 1 || hi > nrows || lo > hi) {
            fprintf(stderr, "pqt: %s: rows %s outside the table (%lld rows)\n", args->path,
                    args->rows, (long long)nrows);
            rc = EXIT_FAIL;
        }
    }
    if (rc == EXIT_OK) {
        if (args->limit) parse_i64(args->limit, strlen(args->limit), &limit);
        /* The rows are read through a handle of their own (the INT96 unit may reopen it). */
        cat_reader rd;
        cat_open_args oa = {args->no_crc, args->binary_as_string};
        int64_t end = limit >= 0 && limit < hi - lo + 1 ? lo + limit - 1 : hi;
        rc = cat_reader_open(&rd, args->path, &oa);
        if (rc == EXIT_OK) rc = cat_settle_int96(&rd.f, args->path, &oa, &o, lo, end);
        if (rc == EXIT_OK) rc = cat_print(&rd, &o, lo, hi, limit, args->all);
        cat_reader_close(&rd);
    }
    cat_out_free(&o);
    return rc;
}

/* cat, and head (limit_default "10"). */
static int cat_main(int argc, char **argv, const char *cmd, const char *usage,
                    const char *limit_default)
{
    argscan s;
    cat_args args = {0};
    int rc;
    argscan_init(&s, argc, argv);
    for (int r; (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (r != ARG_OPERAND && r != ARG_OPTION) return tool_bad_option(cmd, usage, r, s.opt);
        if (r == ARG_OPERAND) {
            if (args.path) return tool_usage_error(cmd, usage, "unexpected argument", s.value);
            args.path = s.value;
        } else if (strcmp(s.opt, "--columns") == 0)
            args.columns = s.value;
        else if (strcmp(s.opt, "--rows") == 0)
            args.rows = s.value;
        else if (strcmp(s.opt, "--limit") == 0)
            args.limit = s.value;
        else if (strcmp(s.opt, "--format") == 0)
            args.format = s.value;
        else if (strcmp(s.opt, "--no-crc") == 0)
            args.no_crc = 1;
        else if (strcmp(s.opt, "--all") == 0)
            args.all = 1;
        else
            args.binary_as_string = 1;
    }
    if (!args.path) return tool_usage_error(cmd, usage, "missing FILE", NULL);
    if (!args.limit) args.limit = limit_default;
    if (args.columns && (rc = tool_list_check(cmd, usage, "--columns", args.columns)) >= 0)
        return rc;
    int64_t lo = 1, hi = 1, limit;
    if (args.rows && !parse_rows(args.rows, &lo, &hi))
        return tool_usage_error(cmd, usage, "bad --rows (want LO:HI)", args.rows);
    if (args.limit && (!parse_i64(args.limit, strlen(args.limit), &limit) || limit < 0))
        return tool_usage_error(cmd, usage, "bad --limit (want a count >= 0)", args.limit);
    if (args.format && strcmp(args.format, "table") != 0 && strcmp(args.format, "csv") != 0 &&
        strcmp(args.format, "jsonl") != 0)
        return tool_usage_error(cmd, usage, "unknown --format (table, csv or jsonl)", args.format);

    pqt_file *f;
    cat_open_args oa = {args.no_crc, args.binary_as_string};
    if (cat_open(args.path, &oa, PQT_UNIT_NANOS, &f) != PQT_OK) return tool_fail(args.path);
    rc = run(f, &args);
    pqt_file_close(f);
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
