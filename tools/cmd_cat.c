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

static const char usage[] =
    "usage: pqt cat FILE [--columns a,b] [--rows LO:HI] [--limit N] [--all]\n"
    "               [--format table|csv|jsonl] [--no-crc] [--binary-as-string]\n"
    "\n"
    "Print the rows of a Parquet file, streaming them a batch at a time.\n"
    "  --columns a,b   only these columns (dotted paths), in this order\n"
    "  --rows LO:HI    rows LO to HI, 1-based and inclusive (LO: or :HI leave a side open)\n"
    "  --limit N       print at most N rows\n"
    "  --all           every row on a terminal too (there the table shows the first and\n"
    "                  last 10 rows of a longer one; a pipe always gets every row)\n"
    "  --format F      table (default, for people), csv, or jsonl (one JSON object per row)\n"
    "  --no-crc        do not verify page checksums (CRC32)\n"
    "  --binary-as-string  read plain BYTE_ARRAY columns as strings (old Hive/Impala files)\n"
    "  -h, --help      this text\n"
    "Columns pqt cannot read (maps, nested lists) are left out unless named.\n"
    "The table never cuts a number; strings longer than 32 cells end in \"…\", and columns\n"
    "that do not fit the terminal (or COLUMNS) are named after it. csv and jsonl print every\n"
    "value in full. A reader that stops early (pqt cat F | head) ends pqt quietly, status 0;\n"
    "a failed write (disk full) is an error, status 1.\n";

static const char *const value_opts[] = {"--columns", "--rows", "--limit", "--format", NULL};

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
        for (int c = 0; c < ncols; c++)
            if (!pqt_file_column_unsupported_reason(f, c)) add_col(o, f, c);
        return EXIT_OK;
    }
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        char name[1024];
        if (n == 0 || n >= sizeof name) {
            fprintf(stderr, "pqt cat: bad column name in --columns '%s'\n", list);
            return EXIT_USAGE;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        int col;
        if (pqt_file_find_column(f, name, &col) != PQT_OK) {
            fprintf(stderr, "pqt: no column '%s' in %s\n", name, path);
            return EXIT_FAIL;
        }
        if (pqt_file_column_unsupported_reason(f, col)) {
            const char *logical = pqt_file_column_logical(f, col);
            fprintf(stderr, "pqt: %s: column '%s' cannot be read: %s%s%s (%s)\n", path, name,
                    pqt_file_column_physical(f, col), logical && logical[0] ? " " : "",
                    logical ? logical : "", pqt_file_column_unsupported_reason(f, col));
            return EXIT_FAIL;
        }
        add_col(o, f, col);
        if (!p[n]) break;
        p += n + 1;
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
        /* The rows are read through a handle of their own (cat_read.c reopens it). */
        cat_reader rd;
        rc = cat_reader_open(&rd, args->path, !args->no_crc, args->binary_as_string);
        if (rc == EXIT_OK) rc = cat_print(&rd, &o, lo, hi, limit, args->all);
        cat_reader_close(&rd);
    }
    cat_out_free(&o);
    return rc;
}

int cmd_cat(int argc, char **argv)
{
    argscan s;
    cat_args args = {0};
    argscan_init(&s, argc, argv);
    for (int r; (r = argscan_next(&s, value_opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (r == ARG_BAD && strcmp(s.opt, "--no-crc") == 0) {
            args.no_crc = 1;
            continue;
        }
        if (r == ARG_BAD && strcmp(s.opt, "--binary-as-string") == 0) {
            args.binary_as_string = 1;
            continue;
        }
        if (r == ARG_BAD && strcmp(s.opt, "--all") == 0) {
            args.all = 1;
            continue;
        }
        if (r == ARG_BAD || r == ARG_MISSING) return tool_bad_option("cat", usage, r, s.opt);
        if (r == ARG_OPERAND) {
            if (args.path) return tool_usage_error("cat", usage, "unexpected argument", s.value);
            args.path = s.value;
        } else if (strcmp(s.opt, "--columns") == 0)
            args.columns = s.value;
        else if (strcmp(s.opt, "--rows") == 0)
            args.rows = s.value;
        else if (strcmp(s.opt, "--limit") == 0)
            args.limit = s.value;
        else
            args.format = s.value;
    }
    if (!args.path) return tool_usage_error("cat", usage, "missing FILE", NULL);
    int64_t lo = 1, hi = 1, limit;
    if (args.rows && !parse_rows(args.rows, &lo, &hi))
        return tool_usage_error("cat", usage, "bad --rows (want LO:HI)", args.rows);
    if (args.limit && (!parse_i64(args.limit, strlen(args.limit), &limit) || limit < 0))
        return tool_usage_error("cat", usage, "bad --limit (want a count >= 0)", args.limit);
    if (args.format && strcmp(args.format, "table") != 0 && strcmp(args.format, "csv") != 0 &&
        strcmp(args.format, "jsonl") != 0)
        return tool_usage_error("cat", usage, "unknown --format (table, csv or jsonl)",
                                args.format);

    pqt_file *f;
    pqt_opts *o = NULL;
    if (pqt_opts_new(&o) != PQT_OK) return tool_fail(args.path);
    pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, !args.no_crc);
    pqt_opts_set_int(o, PQT_OPT_BINARY_AS_STRING, args.binary_as_string);
    int opened = pqt_file_open(args.path, o, &f);
    pqt_opts_free(o);
    if (opened != PQT_OK) return tool_fail(args.path);
    int rc = run(f, &args);
    pqt_file_close(f);
    return rc;
}
