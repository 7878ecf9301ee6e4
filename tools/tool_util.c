/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tool_util.c - helpers every subcommand of the `pqt` tool uses: error lines and exit
 * statuses, argument scanning, schema node paths, and the display width of UTF-8 text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

int tool_fail(const char *path)
{
    const char *msg = pqt_errmsg();
    if (!msg || !msg[0]) msg = "failed";
    if (strcmp(path, "-") == 0) path = "(stdin)"; /* the name pqt_file_open_mem was given */
    /* The library's message often starts with the path already, or with the call and the
     * path ("pqt_table_open: PATH: ..."): say the path once. */
    size_t n = strlen(path);
    const char *after_call = strncmp(msg, "pqt_", 4) == 0 ? strstr(msg, ": ") : NULL;
    if (after_call && strncmp(after_call + 2, path, n) == 0 &&
        strncmp(after_call + 2 + n, ": ", 2) == 0)
        msg = after_call + 2;
    if (strncmp(msg, path, n) == 0 && strncmp(msg + n, ": ", 2) == 0) msg += n + 2;
    fprintf(stderr, "pqt: %s: %s\n", path, msg);
    return EXIT_FAIL;
}

int tool_usage_error(const char *cmd, const char *usage, const char *msg, const char *arg)
{
    if (arg)
        fprintf(stderr, "pqt %s: %s '%s'\n", cmd, msg, arg);
    else
        fprintf(stderr, "pqt %s: %s\n", cmd, msg);
    /* Only the synopsis: the full text is one --help away. */
    fprintf(stderr, "%.*s", (int)(strcspn(usage, "\n") + 1), usage);
    fprintf(stderr, "Run 'pqt %s --help' for the options.\n", cmd);
    return EXIT_USAGE;
}

int tool_bad_option(const char *cmd, const char *usage, int r, const char *opt)
{
    const char *msg = r == ARG_MISSING   ? "missing value for"
                      : r == ARG_NOVALUE ? "this option takes no value:"
                                         : "unknown option";
    return tool_usage_error(cmd, usage, msg, opt);
}

/* Standard input, read whole on first use and kept until the process ends: a Parquet file
 * is read from its footer backwards, so a pipe must be buffered (and reopening, as cat does
 * for INT96 units, reuses the same bytes). */
static char *stdin_bytes;
static size_t stdin_nbytes;

static pqt_status read_stdin(void)
{
    if (stdin_bytes) return PQT_OK;
    size_t cap = 1 << 20;
    char *b = malloc(cap);
    size_t n = 0;
    for (;;) {
        if (!b) return PQT_NOMEM;
        size_t got = fread(b + n, 1, cap - n, stdin);
        n += got;
        if (got == 0) break;
        if (n == cap) b = realloc(b, cap *= 2);
    }
    if (ferror(stdin)) {
        free(b);
        return PQT_IO;
    }
    stdin_bytes = b;
    stdin_nbytes = n;
    return PQT_OK;
}

/* Standard input buffered, or the process ends saying why (not a library failure). */
static void buffer_stdin(void)
{
    pqt_status st = read_stdin();
    if (st == PQT_OK) return;
    fprintf(stderr, "pqt: (stdin): %s\n",
            st == PQT_NOMEM ? "out of memory buffering the input" : strerror(errno));
    exit(EXIT_FAIL);
}

pqt_status tool_file_open(const char *path, const pqt_opts *opts, pqt_file **ret)
{
    if (strcmp(path, "-") != 0) return pqt_file_open(path, opts, ret);
    buffer_stdin();
    return pqt_file_open_mem(stdin_bytes, stdin_nbytes, "(stdin)", opts, ret);
}

pqt_status tool_table_open(const char *path, const pqt_opts *opts, pqt_table **ret)
{
    if (strcmp(path, "-") != 0) return pqt_table_open(path, opts, ret);
    buffer_stdin();
    return pqt_table_open_mem(stdin_bytes, stdin_nbytes, "(stdin)", opts, ret);
}

int tool_open(const char *path, pqt_file **ret)
{
    if (tool_file_open(path, NULL, ret) != PQT_OK) return tool_fail(path);
    return EXIT_OK;
}

void argscan_init(argscan *s, int argc, char **argv)
{
    memset(s, 0, sizeof *s);
    s->argc = argc;
    s->argv = argv;
    s->i = 1; /* argv[0] is the command */
}

/* The value of a matched option: attached (after '=' or a short letter), or the next
 * argument. */
static int take_value(argscan *s, const argopt *o, const char *attached)
{
    /* on error s->opt stays the argument as typed, so the message quotes the user */
    if (!o->takes_value && attached) return ARG_NOVALUE;
    if (o->takes_value == ARG_VALUE && !attached && s->i >= s->argc) return ARG_MISSING;
    s->opt = o->name;
    if (o->takes_value == ARG_VALUE) s->value = attached ? attached : s->argv[s->i++];
    if (o->takes_value == ARG_VALUE_OPTIONAL) s->value = attached;
    return ARG_OPTION;
}

const char *argscan_take_word(argscan *s, const char *const *words)
{
    if (s->value || s->no_more_opts || s->i >= s->argc) return s->value;
    for (int k = 0; words[k]; k++)
        if (strcmp(s->argv[s->i], words[k]) == 0) return s->value = s->argv[s->i++];
    return NULL;
}

int argscan_next(argscan *s, const argopt *opts)
{
    if (s->i >= s->argc) return ARG_END;
    const char *a = s->argv[s->i++];
    s->opt = a;
    s->value = NULL;
    if (s->no_more_opts || a[0] != '-' || a[1] == '\0') {
        s->value = a;
        return ARG_OPERAND;
    }
    if (strcmp(a, "--") == 0) {
        s->no_more_opts = 1;
        return argscan_next(s, opts);
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return ARG_HELP;
    if (a[1] != '-') {
        for (int k = 0; opts && opts[k].name; k++)
            if (opts[k].short_name == a[1]) return take_value(s, &opts[k], a[2] ? a + 2 : NULL);
        return ARG_BAD;
    }
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    for (int k = 0; opts && opts[k].name; k++)
        if (strlen(opts[k].name) == n && strncmp(a, opts[k].name, n) == 0)
            return take_value(s, &opts[k], eq ? eq + 1 : NULL);
    return ARG_BAD;
}

int tool_parse_i64(const char *s, size_t n, int64_t *out)
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

int tool_parse_rows(const char *s, int64_t *lo, int64_t *hi)
{
    const char *colon = strchr(s, ':');
    if (!colon) {
        if (!tool_parse_i64(s, strlen(s), lo)) return 0;
        *hi = *lo;
        return 1;
    }
    size_t nlo = (size_t)(colon - s), nhi = strlen(colon + 1);
    if (nlo && !tool_parse_i64(s, nlo, lo)) return 0;
    if (nhi && !tool_parse_i64(colon + 1, nhi, hi)) return 0;
    return 1;
}

int tool_doc_format(const char *value)
{
    if (!value || strcmp(value, "text") == 0) return FORMAT_TEXT;
    if (strcmp(value, "json") == 0) return FORMAT_JSON;
    return -1;
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int tool_list_next(const char **s, const char **item, size_t *n, const char **raw,
                   size_t *raw_n)
{
    const char *p = *s;
    if (!p) return 0;
    size_t len = strcspn(p, ",");
    const char *a = p, *b = p + len;
    while (a < b && blank(*a))
        a++;
    while (b > a && blank(b[-1]))
        b--;
    *item = a;
    *n = (size_t)(b - a);
    if (raw) *raw = p;
    if (raw_n) *raw_n = len;
    *s = p[len] ? p + len + 1 : NULL;
    return 1;
}

int tool_list_check(const char *cmd, const char *usage, const char *opt, const char *list)
{
    const char *s = list, *item;
    size_t n;
    for (int pos = 1; tool_list_next(&s, &item, &n, NULL, NULL); pos++) {
        if (n > 0) continue;
        char msg[96];
        snprintf(msg, sizeof msg, "empty column name (item %d) in %s", pos, opt);
        return tool_usage_error(cmd, usage, msg, list);
    }
    return -1;
}

void tool_node_path(const pqt_file *f, int node, rbuf *b)
{
    /* Collect the chain up to (not including) the root, then print it root first. */
    int chain[256], n = 0;
    for (int x = node; x > 0 && n < 256; x = pqt_file_node_parent(f, x))
        chain[n++] = x;
    for (int k = n - 1; k >= 0; k--) {
        rb_puts(b, pqt_file_node_name(f, chain[k]));
        if (k > 0) rb_putc(b, '.');
    }
}

void tool_node_logical(const pqt_file *f, int node, rbuf *b)
{
    char tmp[128];
    size_t n = 0;
    if (pqt_file_node_logical(f, node, tmp, sizeof tmp, &n) == PQT_OK) rb_puts(b, tmp);
}

size_t tool_text_width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xc0) != 0x80;
    return w;
}

size_t tool_text_prefix(const char *s, size_t n, size_t width)
{
    size_t i = 0, w = 0;
    while (i < n) {
        if (((unsigned char)s[i] & 0xc0) != 0x80) {
            if (w == width) break;
            w++;
        }
        i++;
    }
    return i;
}
