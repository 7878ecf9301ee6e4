/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_copy.c - `pqt copy IN OUT`: subset and rewrite a Parquet file in one streaming pass
 * (docs/writing.md).
 *
 * The rows are those a table open keeps (--rows, --where, --sort); the columns are every
 * readable one or the --columns list, in the file's order. pqt_write_table reads each column
 * one source row group at a time, so the memory used is about one row group (a --sort reads
 * its columns whole, since it interleaves row groups). A column pqt cannot read is an error
 * naming it (a copy that loses data is not a success) unless --skip-unreadable leaves such
 * columns out, named on stderr. OUT is created only when the copy succeeds, replaces only a
 * regular file (never a FIFO, device, directory or symbolic link), and the temporary file
 * beside it is removed when SIGINT, SIGTERM or SIGHUP ends the copy.
 *
 * On a terminal a copy that takes more than a second shows a progress line on stderr (rows
 * written of the total, MB), redrawn at most four times a second and cleared at the end;
 * --progress shows it anywhere from the start, --quiet never.
 *
 * --partition-by writes OUT as a hive-partitioned dataset directory instead
 * (pqt_write_dataset: one folder level per key, _metadata and _common_metadata); the rows
 * and columns are chosen as for a file.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, sigaction, lstat */
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt copy IN OUT [--columns LIST] [--rows LO:HI] [--where RULE]... [--sort KEYS]\n"
    "                [--codec CODEC] [--level N] [--row-group-rows N] [--page-version 1|2]\n"
    "                [--no-dictionary] [--bloom COLUMN]... [--crc] [--threads N] [--force]\n"
    "                [--row-index NAME] [--skip-unreadable] [--no-date]\n"
    "                [--progress | --quiet] [--partition-by KEYS [--max-partitions N]]\n"
    "\n"
    "Write the rows and columns of IN that the options keep to a new Parquet file OUT,\n"
    "keeping the columns' types, order and nullability and the file's key-value metadata.\n"
    "  -c, --columns LIST   a comma list of the columns to keep (file order is kept);\n"
    "                       repeatable (-c id -c ra: both)\n"
    "  --rows LO:HI         rows LO to HI of IN (1-based, inclusive; LO: or :HI leave a side "
    "open)\n"
    "  --row-index NAME     add each row's 1-based row of IN (parquet_row_index, which --where\n"
    "                       and --sort also name) as the last column, int64, named NAME\n"
    "  -w, --where RULE     keep rows for which RULE is true (docs/filters.md); repeatable\n"
    "  --sort KEYS          order the rows (docs/sort.md: \"survey, -mass\"); repeatable:\n"
    "                       a second --sort adds keys after the first's\n"
    "  --codec CODEC        zstd (default), snappy, gzip, lz4_raw, brotli or none\n"
    "  --level N            the codec's compression level (zstd -131072..22, gzip 0..9,\n"
    "                       brotli 0..11, lz4_raw 0..12; snappy and none take none; 0 is\n"
    "                       the codec's default)\n"
    "  --row-group-rows N   rows per row group (default 1048576)\n"
    "  --page-version 1|2   data page version (default 1)\n"
    "  --no-dictionary      PLAIN values only\n"
    "  --bloom COLUMN       write bloom filters for COLUMN; repeatable\n"
    "  --crc                write a CRC32 of every page\n"
    "  --threads N          encode N columns at once (default 1; 0 = all cores; reading\n"
    "                       uses OMP_NUM_THREADS)\n"
    "  -f, --force          replace OUT if it exists (else exit status 1); only a regular\n"
    "                       file is ever replaced: a FIFO, device, directory or symbolic\n"
    "                       link is refused, --force or not\n"
    "  --no-date            no DATE key-value entry (by default the time of writing, or\n"
    "                       SOURCE_DATE_EPOCH's when set: copies are then byte-identical)\n"
    "  --skip-unreadable    leave out the columns pqt cannot read or write (a MAP's key\n"
    "                       and value), with a warning naming them (else such a column\n"
    "                       is an error: status 1, nothing written)\n"
    "  --progress           show the progress line on stderr even when it is not a terminal\n"
    "  -q, --quiet          no progress line (by default shown on a terminal for long copies)\n"
    "  --partition-by KEYS  write OUT as a hive-partitioned dataset directory: one folder\n"
    "                       level per column of the comma list, in its order\n"
    "                       (OUT/survey=A/year=2020/part-0.parquet; a null is\n"
    "                       __HIVE_DEFAULT_PARTITION__, '/', '=', '%' and the like\n"
    "                       percent-encoded), the key columns in the folder names and not\n"
    "                       in the files, plus OUT/_metadata (every file's row groups) and\n"
    "                       OUT/_common_metadata (the schema); keys are integer, bool,\n"
    "                       date or string columns; OUT must not exist or be an empty\n"
    "                       directory (--force does not apply); repeatable\n"
    "  --max-partitions N   refuse a dataset of more than N partitions (default 10000)\n"
    "  -h, --help           this text\n";

static const argopt opts[] = {{"--columns", 'c', ARG_VALUE},
                              {"--rows", 0, ARG_VALUE},
                              {"--where", 'w', ARG_VALUE},
                              {"--sort", 0, ARG_VALUE},
                              {"--codec", 0, ARG_VALUE},
                              {"--level", 0, ARG_VALUE},
                              {"--row-group-rows", 0, ARG_VALUE},
                              {"--page-version", 0, ARG_VALUE},
                              {"--no-dictionary", 0, ARG_FLAG},
                              {"--bloom", 0, ARG_VALUE},
                              {"--crc", 0, ARG_FLAG},
                              {"--force", 'f', ARG_FLAG},
                              {"--threads", 0, ARG_VALUE},
                              {"--progress", 0, ARG_FLAG},
                              {"--quiet", 'q', ARG_FLAG},
                              {"--skip-unreadable", 0, ARG_FLAG},
                              {"--row-index", 0, ARG_VALUE},
                              {"--no-date", 0, ARG_FLAG},
                              {"--partition-by", 0, ARG_VALUE},
                              {"--max-partitions", 0, ARG_VALUE},
                              {NULL, 0, 0}};

typedef struct copy_args {
    const char *in, *out, *columns, *rows;
    tool_where where;
    tool_where_open_args oa;
    pqt_write_opts *wo;
    int progress; /* -1 --quiet, 0 on a terminal, 1 --progress */
    int skip_unreadable;
    char *columns_own, *sort_own; /* a repeated -c or --sort: the values joined */
    const char *codec;            /* --codec as given (NULL: zstd) */
    int64_t level;                /* --level (INT64_MIN: none) */
    const char *partition_by;     /* --partition-by (repeated: joined with ',') */
    char *partition_own;
    int force, max_partitions_set;
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
    for (int i = n; i < p->width; i++)
        fputc(' ', stderr); /* a shorter line over a longer */
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
    for (int i = 0; i < p->width; i++)
        fputc(' ', stderr);
    fputc('\r', stderr);
    fflush(stderr);
}

/* OUT may be a regular file or nothing: renaming over a FIFO, a device node or a directory
 * would replace something that is not a Parquet file, and over a symbolic link would
 * replace the link, not what it points to (which may be anywhere). Either is refused,
 * --force or not. EXIT_OK, or EXIT_FAIL after the message. */
static int check_target(const char *out)
{
    struct stat sb;
    if (lstat(out, &sb) != 0 || S_ISREG(sb.st_mode)) return EXIT_OK;
    const char *what = S_ISLNK(sb.st_mode)                          ? "a symbolic link"
                       : S_ISFIFO(sb.st_mode)                       ? "a FIFO"
                       : S_ISDIR(sb.st_mode)                        ? "a directory"
                       : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
                       : S_ISSOCK(sb.st_mode)                       ? "a socket"
                                                                    : "not a regular file";
    tool_msg("pqt: %s: is %s: pqt copy replaces only regular files (%s)", out, what,
             S_ISLNK(sb.st_mode) ? "name the link's target to replace that" : "--force or not");
    return EXIT_FAIL;
}

/* The temporary file of the copy under way, removed when SIGINT, SIGTERM or SIGHUP ends
 * the process: the path is copied before the handlers are armed, and the handler only
 * unlinks it and raises the signal again with its default action (async-signal-safe). */
static char tmp_path[4096];
static volatile sig_atomic_t tmp_armed;
static const int tmp_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction tmp_old[3];

static void on_signal(int sig)
{
    if (tmp_armed) unlink(tmp_path);
    /* SA_RESETHAND restored the default action; the signal is blocked until we return */
    raise(sig);
}

static void tmp_arm(const char *path)
{
    if (!path || strlen(path) >= sizeof tmp_path) return; /* unusual: left as before */
    memcpy(tmp_path, path, strlen(path) + 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    tmp_armed = 1;
    for (int i = 0; i < 3; i++) {
        sigaction(tmp_signals[i], NULL, &tmp_old[i]);
        if (tmp_old[i].sa_handler != SIG_IGN) /* nohup and the like: stay ignored */
            sigaction(tmp_signals[i], &sa, NULL);
    }
}

static void tmp_disarm(void)
{
    if (!tmp_armed) return;
    for (int i = 0; i < 3; i++)
        sigaction(tmp_signals[i], &tmp_old[i], NULL);
    tmp_armed = 0;
}

/* pqt_write_table's steps, with the progress line between them. EXIT_OK or EXIT_FAIL after
 * the message. */
static int write_copy(pqt_table *t, const char *out, const pqt_write_opts *wo, int mode)
{
    if (check_target(out) != EXIT_OK) return EXIT_FAIL;
    pqt_writer *w = NULL;
    /* The temporary file exists from inside pqt_writer_open on: the signals wait (blocked)
     * until its path is known and the handlers are set, then come through. Threads the
     * writer starts inherit the mask, so the signals reach this thread. */
    sigset_t block, old;
    sigemptyset(&block);
    for (int i = 0; i < 3; i++)
        sigaddset(&block, tmp_signals[i]);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    pqt_status st = pqt_writer_open(&w, out, t, wo);
    if (st == PQT_OK) tmp_arm(pqt_writer_temp_path(w));
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st != PQT_OK) return tool_fail(out);
    progress_line p = {0};
    p.forced = mode > 0;
    p.total = pqt_table_nrows(t);
    p.start = now_s();
    if (mode > 0 || (mode == 0 && isatty(STDERR_FILENO)))
        pqt_writer_set_progress(w, progress_cb, &p);
    st = pqt_writer_write(w, t);
    int64_t rows = pqt_writer_nrows(w);
    /* OUT may have become something else while the rows were written */
    if (st != PQT_OK || check_target(out) != EXIT_OK) {
        progress_end(&p, rows, 0, 0);
        pqt_writer_abort(w); /* keeps the message */
        tmp_disarm();
        return st != PQT_OK ? tool_fail(out) : EXIT_FAIL;
    }
    st = pqt_writer_close(w);
    tmp_disarm();
    struct stat sb; /* the last line shows the file's size */
    int64_t nbytes = st == PQT_OK && stat(out, &sb) == 0 ? (int64_t)sb.st_size : 0;
    progress_end(&p, rows, nbytes, st == PQT_OK);
    return st == PQT_OK ? EXIT_OK : tool_fail(out);
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

/* Append "'name'" to the list of unreadable columns in b (", " between them). */
static void add_name(rbuf *b, const char *name)
{
    if (b->len) rb_puts(b, ", ");
    rb_putc(b, '\'');
    rb_puts(b, name);
    rb_putc(b, '\'');
}

/* The columns to copy: the --columns list, or every column. A column pqt cannot read loses
 * data, so it is an error naming every such column (EXIT_FAIL), unless the list leaves it
 * out or --skip-unreadable drops it with a warning. EXIT_OK, or the status after the
 * message. */
static int choose_columns(pqt_table *t, const copy_args *a)
{
    int n = pqt_table_ncols(t), rc = EXIT_OK;
    rbuf bad = {0};
    int nbad = 0;
    if (a->columns) {
        char *copy = dup_str(a->columns);
        const char **names = calloc(strlen(a->columns) / 2 + 2, sizeof *names);
        if (!names) oom();
        int nk = 0;
        for (char *p = strtok(copy, ","); p; p = strtok(NULL, ",")) {
            while (*p == ' ')
                p++;
            if (!*p) continue;
            int ok = 1;
            /* named on purpose: never skipped */
            if (pqt_table_is_supported(t, p, &ok) == PQT_OK && !ok) {
                add_name(&bad, p);
                nbad++;
            }
            names[nk++] = p;
        }
        if (nbad)
            tool_msg("pqt: %s: pqt cannot read column%s %.*s: leave %s out of --columns", a->in,
                     nbad > 1 ? "s" : "", (int)bad.len, bad.p, nbad > 1 ? "them" : "it");
        else if (pqt_table_keep_columns(t, names, nk) != PQT_OK)
            rc = tool_fail(a->in);
        rc = nbad ? EXIT_FAIL : rc;
        free(copy);
        free(names);
        rb_free(&bad);
        return rc;
    }
    char **drop = calloc((size_t)n + 1, sizeof *drop);
    if (!drop) oom();
    for (int i = 0; i < n; i++) {
        const char *name = pqt_table_column_name(t, i);
        int ok = 1;
        if (pqt_table_is_supported(t, name, &ok) == PQT_OK && !ok) {
            add_name(&bad, name);
            drop[nbad++] = dup_str(name);
        }
    }
    if (nbad && !a->skip_unreadable) {
        tool_msg("pqt: %s: pqt cannot read column%s %.*s: a copy would lose %s "
                 "(--skip-unreadable copies the rest)",
                 a->in, nbad > 1 ? "s" : "", (int)bad.len, bad.p, nbad > 1 ? "them" : "it");
        rc = EXIT_FAIL;
    } else if (nbad) {
        tool_msg("pqt: %s: warning: column%s %.*s left out: pqt cannot read %s", a->in,
                 nbad > 1 ? "s" : "", (int)bad.len, bad.p, nbad > 1 ? "their types" : "its type");
        if (pqt_table_drop_columns(t, (const char *const *)drop, nbad, 0) != PQT_OK)
            rc = tool_fail(a->in);
    }
    for (int i = 0; i < nbad; i++)
        free(drop[i]);
    free(drop);
    rb_free(&bad);
    return rc;
}

/* --partition-by: the keys (blanks trimmed) into a new array of *n_ret strings (free each
 * and it); --columns gets every key it lacks (the keys must be read to name the folders). */
static char **partition_keys(copy_args *a, int *n_ret)
{
    size_t cap = strlen(a->partition_by) / 2 + 2;
    char **keys = calloc(cap, sizeof *keys);
    if (!keys) oom();
    int n = 0;
    const char *s = a->partition_by, *item;
    size_t len;
    while (tool_list_next(&s, &item, &len, NULL, NULL)) {
        keys[n] = malloc(len + 1);
        if (!keys[n]) oom();
        memcpy(keys[n], item, len);
        keys[n][len] = '\0';
        if (a->columns) {
            int listed = 0;
            const char *c = a->columns, *ci;
            size_t cn;
            while (!listed && tool_list_next(&c, &ci, &cn, NULL, NULL))
                listed = cn == len && memcmp(ci, item, len) == 0;
            if (!listed) a->columns = tool_join(&a->columns_own, a->columns, keys[n], ",");
        }
        n++;
    }
    *n_ret = n;
    return keys;
}

static int write_dataset(pqt_table *t, const copy_args *a, char **keys, int nkeys)
{
    pqt_status st = pqt_write_dataset(t, a->out, (const char *const *)keys, nkeys, a->wo);
    return st == PQT_OK ? EXIT_OK : tool_fail(a->out);
}

static int run_copy(copy_args *a)
{
    pqt_table *t = NULL;
    if (tool_where_open(a->in, &a->oa, &t) != PQT_OK) return tool_fail(a->in);
    tool_warnings_to_stderr(); /* the writer names what --skip-unreadable leaves out */
    /* a column the writer cannot write (a MAP's key or value) is an error unless asked */
    if (!a->skip_unreadable) pqt_write_opts_set_int(a->wo, PQT_WOPT_LEAVE_OUT, 0);
    int nkeys = 0;
    char **keys = a->partition_by ? partition_keys(a, &nkeys) : NULL;
    int rc = choose_columns(t, a);
    if (rc == EXIT_OK && keys)
        rc = write_dataset(t, a, keys, nkeys);
    else if (rc == EXIT_OK)
        rc = write_copy(t, a->out, a->wo, a->progress);
    for (int i = 0; i < nkeys; i++)
        free(keys[i]);
    free(keys);
    pqt_table_close(t);
    return rc;
}

/* --level against the codec's range, before anything is read: the library checks it only
 * when the first page is compressed, which makes a bad level a write error (status 1). The
 * ranges are the codecs' own (0 is every codec's default). -1, or EXIT_USAGE after the
 * message. */
static int check_level(const char *codec, int64_t level)
{
    static const struct {
        const char *name;
        int64_t lo, hi;
    } range[] = {{"zstd", -131072, 22}, {"gzip", 0, 9},        {"brotli", 0, 11},
                 {"lz4_raw", 0, 12},    {"lz4", 0, 12},        {"snappy", 0, 0},
                 {"none", 0, 0},        {"uncompressed", 0, 0}};
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++) {
        if (strcasecmp(codec, range[i].name) != 0) continue;
        if (level >= range[i].lo && level <= range[i].hi) return -1;
        char msg[160];
        if (range[i].hi == 0)
            snprintf(msg, sizeof msg, "--level: %s takes no level", range[i].name);
        else
            snprintf(msg, sizeof msg, "--level: %s takes levels %lld to %lld (0: its default)",
                     range[i].name, (long long)range[i].lo, (long long)range[i].hi);
        return tool_usage_error("copy", usage, msg, NULL);
    }
    return -1; /* a codec named otherwise: the library judges it */
}

/* Does the comma list name the row index? */
static int names_row_index(const char *list)
{
    const char *s = list, *item;
    size_t n;
    while (tool_list_next(&s, &item, &n, NULL, NULL))
        if (n == sizeof PQT_ROW_INDEX - 1 && memcmp(item, PQT_ROW_INDEX, n) == 0) return 1;
    return 0;
}

/* Set a write option from the command line's text; a value the library refuses is a usage
 * error in the option's own name ("--row-group-rows: ..."), not the C option's. */
static int set_wopt(copy_args *a, const char *name, pqt_wopt opt, const char *text, int is_int)
{
    pqt_status st;
    if (is_int) {
        int64_t v;
        if (!tool_parse_i64(text, strlen(text), &v)) {
            char msg[64];
            snprintf(msg, sizeof msg, "%s: not a number", name);
            return tool_usage_error("copy", usage, msg, text);
        }
        st = pqt_write_opts_set_int(a->wo, opt, v);
    } else {
        st = pqt_write_opts_set_str(a->wo, opt, text);
    }
    if (st == PQT_NOMEM) oom();
    if (st == PQT_OK) return -1;
    const char *m = pqt_errmsg(), *p = strstr(m, "write option ");
    if (!p) p = strstr(m, "PQT_WOPT_");
    const char *why = p ? strstr(p, ": ") : NULL;
    char msg[400];
    snprintf(msg, sizeof msg, "%s: %s", name, why ? why + 2 : m);
    return tool_usage_error("copy", usage, msg, NULL);
}

int cmd_copy(int argc, char **argv)
{
    copy_args a;
    memset(&a, 0, sizeof a);
    a.oa.int96_unit = -1;
    a.oa.row_lo = a.oa.row_hi = TOOL_ROW_OPEN;
    a.level = INT64_MIN;
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
            if (!a.in)
                a.in = s.value;
            else if (!a.out)
                a.out = s.value;
            else
                rc = tool_usage_error("copy", usage, "unexpected argument", s.value);
        } else if (strcmp(s.opt, "--columns") == 0) {
            a.columns = tool_join(&a.columns_own, a.columns, s.value, ",");
        } else if (strcmp(s.opt, "--rows") == 0) {
            a.rows = s.value;
        } else if (strcmp(s.opt, "--where") == 0) {
            rc = tool_where_add(&a.where, "copy", usage, s.value);
        } else if (strcmp(s.opt, "--sort") == 0) {
            a.oa.sort = tool_join(&a.sort_own, a.oa.sort, s.value, ", ");
        } else if (strcmp(s.opt, "--codec") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_CODEC, s.value, 0);
            a.codec = s.value;
        } else if (strcmp(s.opt, "--level") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_CODEC_LEVEL, s.value, 1);
            if (rc < 0) tool_parse_i64(s.value, strlen(s.value), &a.level);
        } else if (strcmp(s.opt, "--row-group-rows") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_ROW_GROUP_ROWS, s.value, 1);
        } else if (strcmp(s.opt, "--page-version") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_PAGE_VERSION, s.value, 1);
        } else if (strcmp(s.opt, "--bloom") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_BLOOM_COLUMN, s.value, 0);
        } else if (strcmp(s.opt, "--no-dictionary") == 0) {
            pqt_write_opts_set_int(a.wo, PQT_WOPT_DICTIONARY, 0);
        } else if (strcmp(s.opt, "--threads") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_THREADS, s.value, 1);
        } else if (strcmp(s.opt, "--crc") == 0) {
            pqt_write_opts_set_int(a.wo, PQT_WOPT_PAGE_CRC, 1);
        } else if (strcmp(s.opt, "--progress") == 0) {
            a.progress = 1;
        } else if (strcmp(s.opt, "--quiet") == 0) {
            a.progress = -1;
        } else if (strcmp(s.opt, "--row-index") == 0) {
            if (strcmp(s.value, PQT_ROW_INDEX) == 0)
                rc = tool_usage_error("copy", usage,
                                      "--row-index: name it otherwise: a file column named "
                                      "parquet_row_index is dropped when read",
                                      NULL);
            else
                rc = set_wopt(&a, s.opt, PQT_WOPT_ROW_INDEX_NAME, s.value, 0);
        } else if (strcmp(s.opt, "--no-date") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_FILE_DATE, "", 0);
        } else if (strcmp(s.opt, "--skip-unreadable") == 0) {
            a.skip_unreadable = 1;
        } else if (strcmp(s.opt, "--partition-by") == 0) {
            a.partition_by = tool_join(&a.partition_own, a.partition_by, s.value, ",");
        } else if (strcmp(s.opt, "--max-partitions") == 0) {
            rc = set_wopt(&a, s.opt, PQT_WOPT_MAX_PARTITIONS, s.value, 1);
            a.max_partitions_set = 1;
        } else {
            pqt_write_opts_set_int(a.wo, PQT_WOPT_OVERWRITE, 1);
            a.force = 1;
        }
    }
    if (rc < 0 && (!a.in || !a.out))
        rc = tool_usage_error("copy", usage, "missing IN or OUT", NULL);
    if (rc < 0 && a.rows && !tool_parse_rows(a.rows, &a.oa.row_lo, &a.oa.row_hi))
        rc = tool_usage_error("copy", usage, "bad --rows (want LO:HI)", a.rows);
    if (rc < 0 && a.level != INT64_MIN) rc = check_level(a.codec ? a.codec : "zstd", a.level);
    if (rc < 0 && a.columns && names_row_index(a.columns))
        rc = tool_usage_error("copy", usage,
                              "--columns: parquet_row_index is not a column of IN: --row-index "
                              "NAME writes it",
                              NULL);
    if (rc < 0 && a.partition_by)
        rc = tool_list_check("copy", usage, "--partition-by", a.partition_by);
    if (rc < 0 && a.partition_by && a.force)
        rc = tool_usage_error("copy", usage,
                              "--force: a dataset (--partition-by) is written only into a new or "
                              "empty directory",
                              NULL);
    if (rc < 0 && !a.partition_by && a.max_partitions_set)
        rc = tool_usage_error("copy", usage, "--max-partitions goes with --partition-by", NULL);
    if (rc < 0 && a.rows && a.oa.sort) {
        /* a slice cannot be sorted: --rows becomes a rule on the row index, as in cat */
        char rule[128];
        snprintf(rule, sizeof rule, "%s >= %lld and %s <= %lld", PQT_ROW_INDEX,
                 (long long)(a.oa.row_lo == TOOL_ROW_OPEN ? 1 : a.oa.row_lo), PQT_ROW_INDEX,
                 (long long)(a.oa.row_hi == TOOL_ROW_OPEN ? INT64_MAX : a.oa.row_hi));
        a.oa.row_lo = a.oa.row_hi = TOOL_ROW_OPEN;
        rc = tool_where_add(&a.where, "copy", usage, rule);
    }
    if (rc < 0) {
        a.oa.where = &a.where;
        rc = run_copy(&a);
    }
    tool_where_free(&a.where);
    pqt_write_opts_free(a.wo);
    free(a.columns_own);
    free(a.sort_own);
    free(a.partition_own);
    return rc;
}
