/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tool_util.c - helpers every subcommand of the `pqt` tool uses: error lines and exit
 * statuses, argument scanning, schema node paths, and the display width of UTF-8 text.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

#include "tools.h"

/* Bytes of the valid UTF-8 sequence at s[0..n) (a code point not a control, a surrogate or
 * past U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > n) return 0;
    uint32_t cp = len == 1 ? c : c & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) return 0; /* controls */
    return len;
}

void tool_quote(rbuf *b, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(s + i, n - i);
        if (k) {
            rb_put(b, (const char *)s + i, k);
            i += k;
            continue;
        }
        /* a control byte, or one that is not valid UTF-8: its value, visibly */
        char esc[8];
        snprintf(esc, sizeof esc, "\\x%02X", s[i]);
        rb_puts(b, esc);
        i++;
    }
}

void tool_msg(const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char *text = small;
    if (n >= (int)sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text) {
            fputs("pqt: out of memory\n", stderr);
            exit(EXIT_FAIL);
        }
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    rbuf b = {0};
    tool_quote(&b, n < 0 ? "pqt: (unprintable message)" : text);
    rb_putc(&b, '\n');
    fwrite(b.p, 1, b.len, stderr);
    rb_free(&b);
    if (text != small) free(text);
}

/* Library messages name C calls and options ("set PQT_WOPT_OVERWRITE to replace it"); on
 * the command line the words are the tool's. Each pair: the library's words, the tool's. */
static const char *const cli_words[][2] = {
    {"set PQT_WOPT_OVERWRITE to replace it", "--force replaces it"},
    {": no set of that name is bound to the filter",
     " (the pqt tool binds no sets: list the values, as 'x in (1, 2, 3)')"},
    {"PQT_OPT_ROW_LO/PQT_OPT_ROW_HI", "--rows"},
    {"PQT_OPT_ROW_LO = ", "--rows: LO = "},
    {"PQT_OPT_ROW_HI = ", "--rows: HI = "},
    {"PQT_OPT_SAMPLE_FRACTION = ", ""}, /* after "--sample: " */
    {"; sort the whole file, or the slice afterwards with pqt_table_sort_by", ""},
    {"; open with PQT_OPT_INT96_UNIT = PQT_UNIT_MICROS", " (written as int64 nanoseconds)"},
    {"; open with PQT_OPT_INT96_UNIT = PQT_UNIT_MILLIS", " (written as int64 nanoseconds)"},
};

void tool_cli_words(rbuf *b, const char *msg)
{
    /* "write it as 'in @name' for a bound set, or as 'in (1, 2, 3)'": the tool has no bound
     * sets, so only the list form is offered */
    static const char set_hint[] = " @name' for a bound set, or as '";
    static const char set_lead[] = "write it as '";
    size_t n = strlen(msg);
    for (size_t i = 0; i < n;) {
        if (strncmp(msg + i, set_lead, sizeof set_lead - 1) == 0) {
            const char *h = strstr(msg + i, set_hint);
            if (h && (size_t)(h - (msg + i)) < 40) {
                rb_puts(b, set_lead);
                i = (size_t)(h - msg) + sizeof set_hint - 1;
                continue;
            }
        }
        size_t k = 0;
        for (size_t w = 0; w < sizeof cli_words / sizeof cli_words[0] && !k; w++) {
            size_t len = strlen(cli_words[w][0]);
            if (strncmp(msg + i, cli_words[w][0], len) == 0) {
                rb_puts(b, cli_words[w][1]);
                k = len;
            }
        }
        /* a C call's name leading a part of the message ("pqt_table_validate_qc: "): dropped */
        if (!k && strncmp(msg + i, "pqt_", 4) == 0 && (i == 0 || msg[i - 1] == ' ')) {
            size_t j = i + 4;
            while (j < n && (islower((unsigned char)msg[j]) || isdigit((unsigned char)msg[j]) ||
                             msg[j] == '_'))
                j++;
            if (msg[j] == ':' && msg[j + 1] == ' ') k = j + 2 - i;
        }
        if (k) {
            i += k;
            continue;
        }
        rb_putc(b, msg[i++]);
    }
    rb_putc(b, '\0');
    b->len--;
}

int tool_fail(const char *path)
{
    const char *msg = pqt_errmsg();
    if (!msg || !msg[0]) msg = "failed";
    if (strcmp(path, "-") == 0) path = "(stdin)"; /* the name pqt_file_open_mem was given */
    /* The library's message often starts with the call ("pqt_table_open: "), then the path
     * ("PATH: ..." or "PATH exists"): say the path once, and no call. */
    if (strncmp(msg, "pqt_", 4) == 0) {
        const char *p = msg + 4;
        while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
            p++;
        if (p[0] == ':' && p[1] == ' ') msg = p + 2;
    }
    size_t n = strlen(path);
    if (strncmp(msg, path, n) == 0 && strncmp(msg + n, ": ", 2) == 0) msg += n + 2;
    else if (strncmp(msg, path, n) == 0 && msg[n] == ' ') msg += n + 1; /* "PATH exists" */
    rbuf b = {0};
    tool_cli_words(&b, msg);
    tool_msg("pqt: %s: %s", path, b.p ? b.p : msg);
    rb_free(&b);
    return EXIT_FAIL;
}

int tool_usage_error(const char *cmd, const char *usage, const char *msg, const char *arg)
{
    rbuf b = {0};
    tool_cli_words(&b, msg);
    if (b.p) msg = b.p;
    if (arg)
        tool_msg("pqt %s: %s '%s'", cmd, msg, arg);
    else
        tool_msg("pqt %s: %s", cmd, msg);
    rb_free(&b);
    /* Only the synopsis: the full text is one --help away. */
    fprintf(stderr, "%.*s", (int)(strcspn(usage, "\n") + 1), usage);
    fprintf(stderr, "Run 'pqt %s --help' for the options.\n", cmd);
    return EXIT_USAGE;
}

/* The option table argscan_next last scanned with: the candidates of an unknown option's
 * "did you mean". */
static const argopt *scan_opts;

/* Edit distance (insertions, deletions, substitutions, swaps of neighbours), ASCII case
 * ignored, over at most the first 63 bytes of each word. */
static int edit_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAX) n = MAX - 1;
    if (m >= MAX) m = MAX - 1;
    int d[MAX][MAX];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                cb == tolower((unsigned char)a[i - 2]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *tool_suggest(const char *want, const char *const *cands, int n)
{
    const char *best = NULL;
    size_t wn = strlen(want);
    /* a typo: at most a third of the word, and at most 3 edits */
    int limit = wn < 3 ? 1 : wn / 3 > 3 ? 3 : (int)(wn / 3), best_d = limit + 1;
    for (int i = 0; i < n; i++) {
        if (!cands[i]) continue;
        int d = edit_distance(want, cands[i]);
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    return best;
}

int tool_bad_option(const char *cmd, const char *usage, int r, const char *opt)
{
    if (r != ARG_BAD) {
        const char *msg = r == ARG_MISSING ? "missing value for" : "this option takes no value:";
        return tool_usage_error(cmd, usage, msg, opt);
    }
    /* One line: the nearest option when there is one, and where the others are listed. */
    const char *cands[64];
    int n = 0;
    size_t eq = strcspn(opt, "=");
    char want[80];
    snprintf(want, sizeof want, "%.*s", (int)(eq < sizeof want ? eq : sizeof want - 1), opt);
    for (int k = 0; scan_opts && scan_opts[k].name && n < 63; k++)
        cands[n++] = scan_opts[k].name;
    cands[n++] = "--help";
    const char *near = want[0] == '-' && want[1] == '-' ? tool_suggest(want, cands, n) : NULL;
    tool_msg("pqt %s: unknown option '%s'%s%s%s ('pqt %s --help' lists the options)", cmd, opt,
             near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "", cmd);
    return EXIT_USAGE;
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

int tool_ds_union_by_name, tool_ds_no_hive;
const pqt_filter *tool_ds_filter;

void tool_apply_dataset_opts(pqt_opts *o)
{
    if (tool_ds_union_by_name) pqt_opts_set_int(o, PQT_OPT_UNION_BY_NAME, 1);
    if (tool_ds_no_hive) pqt_opts_set_int(o, PQT_OPT_HIVE, 0);
}

bool tool_is_dataset(const char *path)
{
    struct stat sb;
    if (strcmp(path, "-") == 0) return false;
    /* a URL names a dataset as the library reads it (docs/remote.md "Datasets below a
     * prefix"): ending with '/', a bare s3://bucket, or an s3:// key with a glob character;
     * an http(s) URL's '?' starts a query, not a pattern */
    size_t n = strlen(path);
    if (strncasecmp(path, "http://", 7) == 0 || strncasecmp(path, "https://", 8) == 0)
        return path[n - 1] == '/';
    if (strncasecmp(path, "s3://", 5) == 0)
        return path[n - 1] == '/' || !strchr(path + 5, '/') || strpbrk(path + 5, "*?[") != NULL;
    if (stat(path, &sb) == 0) return S_ISDIR(sb.st_mode);
    return strpbrk(path, "*?[") != NULL;
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
    scan_opts = opts;
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

const char *tool_join(char **owned, const char *old, const char *add, const char *sep)
{
    if (!old) return add;
    size_t n = strlen(old) + strlen(sep) + strlen(add) + 1;
    char *j = malloc(n);
    if (!j) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    snprintf(j, n, "%s%s%s", old, sep, add);
    free(*owned);
    *owned = j;
    return j;
}

int tool_doc_format(const char *value)
{
    if (!value || strcasecmp(value, "text") == 0) return FORMAT_TEXT;
    if (strcasecmp(value, "json") == 0) return FORMAT_JSON;
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
