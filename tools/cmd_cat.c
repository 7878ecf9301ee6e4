/*
 * cmd_cat.c - `pqt cat FILE`: print rows. Parses the options, picks the columns, then
 * streams one row group at a time: each requested column is read over that row group's
 * part of the range, the rows are written (cat_format.c) and the arrays freed, so memory
 * stays bounded by one row group and output starts at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

/* cat and head share options; their usage texts differ in the first lines only. */
#define CAT_OPTIONS                                                                                \
    "  -c, --columns a,b  only these columns (dotted paths), in this order; blanks around\n"       \
    "                     names are ignored (\"id, survey\")\n"                                   \
    "  --rows LO:HI       rows LO to HI, 1-based and inclusive (LO: or :HI leave a side open)\n"  \
    "  -n, --limit N      print at most N rows\n"                                                  \
    "  -f, --format F     table (default, for people), csv, or jsonl (one JSON object a row)\n"   \
    "  --no-crc           do not verify page checksums (CRC32)\n"                                  \
    "  --binary-as-string read plain BYTE_ARRAY columns as strings (old Hive/Impala files)\n"     \
    "  -h, --help         this text\n"                                                             \
    "Columns pqt cannot read (maps, nested lists, plain binary...) are left out with a warning\n"  \
    "on stderr naming each and why; the rest prints and the exit status stays 0. Naming such\n"    \
    "a column in --columns is an error (exit status 1).\n"                                         \
    "Values print exactly: decimals with their scale, unsigned integers unsigned, floats as the\n" \
    "shortest text that reads back to the same value, INT96 timestamps in nanoseconds, or in\n"    \
    "microseconds/milliseconds when a printed value lies outside the years 1677..2262.\n"

static const char usage_cat[] =
    "usage: pqt cat FILE [-c a,b] [--rows LO:HI] [-n N] [-f table|csv|jsonl] [--no-crc]\n"
    "               [--binary-as-string]\n"
    "\n"
    "Print the rows of a Parquet file, one row group at a time.\n" CAT_OPTIONS;

static const char usage_head[] =
    "usage: pqt head FILE [-n N] [-c a,b] [--rows LO:HI] [-f table|csv|jsonl] [--no-crc]\n"
    "                [--binary-as-string]\n"
    "\n"
    "Print the first 10 rows of a Parquet file (of --rows when given): pqt cat --limit 10,\n"
    "with the same options; -n N prints N rows instead.\n" CAT_OPTIONS;

static const argopt opts[] = {{"--columns", 'c', 1}, {"--rows", 0, 1},
                              {"--limit", 'n', 1},   {"--format", 'f', 1},
                              {"--no-crc", 0, 0},    {"--binary-as-string", 0, 0},
                              {NULL, 0, 0}};

typedef struct cat_args {
    const char *path, *columns, *rows, *limit, *format;
    int no_crc, binary_as_string;
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
    c->path = pqt_file_column_path(f, col);
    int kind = pqt_file_column_kind(f, col);
    c->kind_name = pqt_kind_name(kind);
    c->unit = pqt_file_column_time_unit(f, col);
    c->utc = pqt_file_column_utc(f, col) == 1;
    int plain_number = kind == PQT_INT32 || kind == PQT_INT64 || kind == PQT_UINT64 ||
                       kind == PQT_FLOAT32 || kind == PQT_FLOAT64;
    c->right_align = plain_number;
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
            if (pqt_file_column_kind(f, c) != PQT_NONE)
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
        if (pqt_file_column_kind(f, col) == PQT_NONE) {
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

/* Stream rows lo..hi (1-based, inclusive) row group by row group. */
static int stream(pqt_file *f, const char *path, cat_out *o, int64_t lo, int64_t hi)
{
    pqt_array **arrays = calloc((size_t)o->ncols + 1, sizeof *arrays);
    if (!arrays) {
        fputs("pqt: out of memory\n", stderr);
        return EXIT_FAIL;
    }
    int rc = EXIT_OK, nrg = pqt_file_nrow_groups(f);
    int64_t first = 1;
    for (int rg = 0; rg < nrg && first <= hi && rc == EXIT_OK; rg++) {
        int64_t last = first + pqt_file_row_group_nrows(f, rg) - 1;
        int64_t a = lo > first ? lo : first, b = hi < last ? hi : last;
        first = last + 1;
        if (a > b) continue;
        for (int c = 0; c < o->ncols; c++) {
            if (cat_read(f, &o->cols[c], a, b, &arrays[c]) != PQT_OK) {
                fflush(stdout);
                rc = tool_fail(path);
                break;
            }
            cat_view(&o->cols[c], arrays[c]);
        }
        if (rc == EXIT_OK) cat_write_batch(o, b - a + 1);
        for (int c = 0; c < o->ncols; c++) {
            pqt_array_free(arrays[c]);
            arrays[c] = NULL;
        }
    }
    free(arrays);
    return rc;
}

static int run(pqt_file **fp, const cat_args *args)
{
    pqt_file *f = *fp;
    cat_out o = {0};
    o.format = !args->format || strcmp(args->format, "table") == 0 ? FORMAT_TABLE
               : strcmp(args->format, "csv") == 0                  ? FORMAT_CSV
                                                                   : FORMAT_JSONL;
    int rc = pick_columns(f, args->path, args->columns, &o);
    if (rc != EXIT_OK) {
        free(o.cols);
        return rc;
    }
    int64_t nrows = pqt_file_nrows(f), lo = 1, hi = nrows, limit = -1;
    if (args->rows) {
        parse_rows(args->rows, &lo, &hi); /* checked by the caller */
        if (lo < 1 || hi > nrows || lo > hi) {
            fprintf(stderr, "pqt: %s: rows %s outside the table (%lld rows)\n", args->path,
                    args->rows, (long long)nrows);
            free(o.cols);
            return EXIT_FAIL;
        }
    }
    if (args->limit) parse_i64(args->limit, strlen(args->limit), &limit);
    int64_t total = hi - lo + 1;
    int64_t end = limit >= 0 && limit < total ? lo + limit - 1 : hi;
    cat_open_args oa = {args->no_crc, args->binary_as_string};
    rc = cat_settle_int96(fp, args->path, &oa, &o, lo, end);
    f = *fp;
    if (rc == EXIT_OK) rc = stream(f, args->path, &o, lo, end);
    if (rc == EXIT_OK)
        cat_finish(&o, total);
    else {
        free(o.width);
        rb_free(&o.line);
        rb_free(&o.cell);
    }
    free(o.cols);
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
    rc = run(&f, &args);
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
