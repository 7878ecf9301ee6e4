/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_copy.c - `pqt copy IN OUT`: subset and rewrite a Parquet file in one streaming pass
 * (docs/writing.md).
 *
 * The rows are those a table open keeps (--rows, --where, --sort); the columns are every
 * readable one or the --columns list, in the file's order. pqt_write_table reads each column
 * one source row group at a time, so the memory used is about one row group (a --sort reads
 * its columns whole, since it interleaves row groups). Columns pqt cannot read are named on
 * stderr and left out. OUT is created only when the copy succeeds.
 *
 * On a terminal a copy that takes more than a second shows a progress line on stderr (rows
 * written of the total, MB), redrawn at most four times a second and cleared at the end;
 * --progress shows it anywhere from the start, --quiet never.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt copy IN OUT [--columns LIST] [--rows LO:HI] [--where RULE]... [--sort KEYS]\n"
    "                [--codec CODEC] [--level N] [--row-group-rows N] [--page-version 1|2]\n"
    "                [--no-dictionary] [--bloom COLUMN]... [--crc] [--threads N] [--force]\n"
    "                [--progress | --quiet]\n"
    "\n"
    "Write the rows and columns of IN that the options keep to a new Parquet file OUT,\n"
    "keeping the columns' types, order and nullability and the file's key-value metadata.\n"
    "  -c, --columns LIST   a comma list of the columns to keep (file order is kept)\n"
    "  --rows LO:HI         rows LO to HI of IN (1-based, inclusive; LO: or :HI leave a side open)\n"
    "  -w, --where RULE     keep rows for which RULE is true (docs/filters.md); repeatable\n"
    "  --sort KEYS          order the rows (docs/sort.md: \"survey, -mass\")\n"
    "  --codec CODEC        zstd (default), snappy, gzip, lz4_raw, brotli or none\n"
    "  --level N            the codec's compression level\n"
    "  --row-group-rows N   rows per row group (default 1048576)\n"
    "  --page-version 1|2   data page version (default 1)\n"
    "  --no-dictionary      PLAIN values only\n"
    "  --bloom COLUMN       write bloom filters for COLUMN; repeatable\n"
    "  --crc                write a CRC32 of every page\n"
    "  --threads N          encode N columns at once (default 1; 0 = all cores; reading\n"
    "                       uses OMP_NUM_THREADS)\n"
    "  -f, --force          replace OUT if it exists (else exit status 1)\n"
    "  --progress           show the progress line on stderr even when it is not a terminal\n"
    "  -q, --quiet          no progress line (by default shown on a terminal for long copies)\n"
    "  -h, --help           this text\n";

static const argopt opts[] = {{"--columns", 'c', ARG_VALUE},     {"--rows", 0, ARG_VALUE},
                              {"--where", 'w', ARG_VALUE},       {"--sort", 0, ARG_VALUE},
                              {"--codec", 0, ARG_VALUE},         {"--level", 0, ARG_VALUE},
                              {"--row-group-rows", 0, ARG_VALUE}, {"--page-version", 0, ARG_VALUE},
                              {"--no-dictionary", 0, ARG_FLAG},  {"--bloom", 0, ARG_VALUE},
                              {"--crc", 0, ARG_FLAG},            {"--force", 'f', ARG_FLAG},
                              {"--threads", 0, ARG_VALUE},
                              {"--progress", 0, ARG_FLAG},       {"--quiet", 'q', ARG_FLAG},
                              {NULL, 0, 0}};

typedef struct copy_args {
    const char *in, *out, *columns, *rows;
    tool_where where;
    tool_where_open_args oa;
    pqt_write_opts *wo;
    int progress; /* -1 --quiet, 0 on a terminal, 1 --progress */
} copy_args;

/* The progress line's state. */
typedef struct progress_line {
    int forced;
    int64_t total;
    double start, last;
    int shown;
    int width; /* characters of the last line drawn, to blank it */
} progress_line;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress_draw(progress_line *p, int64_t rows, int64_t nbytes)
{
    double pct = p->total > 0 ? 100.0 * (double)rows / (double)p->total : 100.0;
    int n = fprintf(stderr, "\rpqt copy: %lld / %lld rows (%.0f%%), %.1f MB", (long long)rows,
                    (long long)p->total, pct, (double)nbytes / 1e6);
    for (int i = n; i < p->width; i++) fputc(' ', stderr); /* a shorter line over a longer */
    if (n > p->width) p->width = n;
    fflush(stderr);
    p->shown = 1;
}

static void progress_cb(void *user, int64_t rows, int64_t nbytes)
{
    progress_line *p = user;
    double t = now_s();
    if (!p->forced && t - p->start < 1.0) return; /* only long copies, on a terminal */
    if (p->shown && t - p->last < 0.25) return;
    p->last = t;
    progress_draw(p, rows, nbytes);
}

/* The last state, then the line blanked so what follows starts clean. */
static void progress_end(progress_line *p, int64_t rows, int64_t nbytes, int done)
{
    if (!p->shown && !p->forced) return;
    if (done) progress_draw(p, rows, nbytes);
    fputc('\r', stderr);
    for (int i = 0; i < p->width; i++) fputc(' ', stderr);
    fputc('\r', stderr);
    fflush(stderr);
}

/* pqt_write_table's steps, with the progress line between them. */
static pqt_status write_copy(pqt_table *t, const char *out, const pqt_write_opts *wo, int mode)
{
    pqt_writer *w = NULL;
    pqt_status st = pqt_writer_open(&w, out, t, wo);
    if (st != PQT_OK) return st;
    progress_line p = {0};
    p.forced = mode > 0;
    p.total = pqt_table_nrows(t);
    p.start = now_s();
    if (mode > 0 || (mode == 0 && isatty(STDERR_FILENO)))
        pqt_writer_set_progress(w, progress_cb, &p);
    st = pqt_writer_write(w, t);
    int64_t rows = pqt_writer_nrows(w);
    if (st != PQT_OK) {
        progress_end(&p, rows, 0, 0);
        pqt_writer_abort(w);
        return st;
    }
    st = pqt_writer_close(w);
    struct stat sb; /* the last line shows the file's size */
    int64_t nbytes = st == PQT_OK && stat(out, &sb) == 0 ? (int64_t)sb.st_size : 0;
    progress_end(&p, rows, nbytes, st == PQT_OK);
    return st;
}

static void oom(void)
{
    fputs("pqt: out of memory\n", stderr);
    exit(EXIT_FAIL);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d) oom();
    return memcpy(d, s, n);
}

/* Drop the columns pqt cannot read (named on stderr), then keep --columns. */
static pqt_status choose_columns(pqt_table *t, const char *list)
{
    int n = pqt_table_ncols(t);
    char **drop = calloc((size_t)n + 1, sizeof *drop);
    if (!drop) oom();
    int nd = 0;
    for (int i = 0; i < n; i++) {
        const char *name = pqt_table_column_name(t, i);
        int ok = 1;
        if (pqt_table_is_supported(t, name, &ok) == PQT_OK && !ok) {
            fprintf(stderr, "pqt copy: column '%s' is left out: pqt cannot read its type\n", name);
            drop[nd++] = dup_str(name);
        }
    }
    pqt_status st = pqt_table_drop_columns(t, (const char *const *)drop, nd, 0);
    for (int i = 0; i < nd; i++) free(drop[i]);
    free(drop);
    if (st != PQT_OK || !list) return st;
    char *copy = dup_str(list);
    const char **names = calloc(strlen(list) / 2 + 2, sizeof *names);
    if (!copy || !names) oom();
    int nk = 0;
    for (char *p = strtok(copy, ","); p; p = strtok(NULL, ",")) {
        while (*p == ' ') p++;
        if (*p) names[nk++] = p;
    }
    st = pqt_table_keep_columns(t, names, nk);
    free(copy);
    free(names);
    return st;
}

static int run_copy(copy_args *a)
{
    pqt_table *t = NULL;
    if (tool_where_open(a->in, &a->oa, &t) != PQT_OK) return tool_fail(a->in);
    int rc = EXIT_OK;
    tool_warnings_to_stderr(); /* the writer names what it leaves out (a MAP's fields) */
    if (choose_columns(t, a->columns) != PQT_OK) rc = tool_fail(a->in);
    if (rc == EXIT_OK && write_copy(t, a->out, a->wo, a->progress) != PQT_OK) rc = tool_fail(a->out);
    pqt_table_close(t);
    return rc;
}

static int set_wopt(copy_args *a, pqt_wopt opt, const char *text, int is_int)
{
    pqt_status st;
    if (is_int) {
        int64_t v;
        if (!tool_parse_i64(text, strlen(text), &v))
            return tool_usage_error("copy", usage, "not a number", text);
        st = pqt_write_opts_set_int(a->wo, opt, v);
    } else {
        st = pqt_write_opts_set_str(a->wo, opt, text);
    }
    if (st == PQT_NOMEM) oom();
    return st == PQT_OK ? -1 : tool_usage_error("copy", usage, pqt_errmsg(), NULL);
}

int cmd_copy(int argc, char **argv)
{
    copy_args a;
    memset(&a, 0, sizeof a);
    a.oa.int96_unit = -1;
    a.oa.row_lo = a.oa.row_hi = TOOL_ROW_OPEN;
    if (pqt_write_opts_new(&a.wo) != PQT_OK) oom();
    argscan s;
    argscan_init(&s, argc, argv);
    int rc = -1;
    for (int r; rc < 0 && (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            rc = EXIT_OK;
        } else if (r != ARG_OPERAND && r != ARG_OPTION) {
            rc = tool_bad_option("copy", usage, r, s.opt);
        } else if (r == ARG_OPERAND) {
            if (!a.in) a.in = s.value;
            else if (!a.out) a.out = s.value;
            else rc = tool_usage_error("copy", usage, "unexpected argument", s.value);
        } else if (strcmp(s.opt, "--columns") == 0) {
            a.columns = s.value;
        } else if (strcmp(s.opt, "--rows") == 0) {
            a.rows = s.value;
        } else if (strcmp(s.opt, "--where") == 0) {
            rc = tool_where_add(&a.where, "copy", usage, s.value);
        } else if (strcmp(s.opt, "--sort") == 0) {
            a.oa.sort = s.value;
        } else if (strcmp(s.opt, "--codec") == 0) {
            rc = set_wopt(&a, PQT_WOPT_CODEC, s.value, 0);
        } else if (strcmp(s.opt, "--level") == 0) {
            rc = set_wopt(&a, PQT_WOPT_CODEC_LEVEL, s.value, 1);
        } else if (strcmp(s.opt, "--row-group-rows") == 0) {
            rc = set_wopt(&a, PQT_WOPT_ROW_GROUP_ROWS, s.value, 1);
        } else if (strcmp(s.opt, "--page-version") == 0) {
            rc = set_wopt(&a, PQT_WOPT_PAGE_VERSION, s.value, 1);
        } else if (strcmp(s.opt, "--bloom") == 0) {
            rc = set_wopt(&a, PQT_WOPT_BLOOM_COLUMN, s.value, 0);
        } else if (strcmp(s.opt, "--no-dictionary") == 0) {
            pqt_write_opts_set_int(a.wo, PQT_WOPT_DICTIONARY, 0);
        } else if (strcmp(s.opt, "--threads") == 0) {
            rc = set_wopt(&a, PQT_WOPT_THREADS, s.value, 1);
        } else if (strcmp(s.opt, "--crc") == 0) {
            pqt_write_opts_set_int(a.wo, PQT_WOPT_PAGE_CRC, 1);
        } else if (strcmp(s.opt, "--progress") == 0) {
            a.progress = 1;
        } else if (strcmp(s.opt, "--quiet") == 0) {
            a.progress = -1;
        } else {
            pqt_write_opts_set_int(a.wo, PQT_WOPT_OVERWRITE, 1);
        }
    }
    if (rc < 0 && (!a.in || !a.out)) rc = tool_usage_error("copy", usage, "missing IN or OUT", NULL);
    if (rc < 0 && a.rows && !tool_parse_rows(a.rows, &a.oa.row_lo, &a.oa.row_hi))
        rc = tool_usage_error("copy", usage, "bad --rows (want LO:HI)", a.rows);
    if (rc < 0) {
        a.oa.where = &a.where;
        rc = run_copy(&a);
    }
    tool_where_free(&a.where);
    pqt_write_opts_free(a.wo);
    return rc;
}
