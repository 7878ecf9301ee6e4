/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tools.h - what the files of the `pqt` command-line tool share.
 *
 * The tool sits on top of the library and uses only pqt.h. Exit statuses: 0 success,
 * 1 an error reading a file (one line "pqt: FILE: message" on stderr), 2 a usage error.
 */
#ifndef PQT_TOOLS_TOOLS_H
#define PQT_TOOLS_TOOLS_H

#include <stdbool.h>
#include <stdio.h>

#include "pqt_file.h"
#include "render.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Subcommands: argv[0] is the command name. Each returns the exit status. */
int cmd_schema(int argc, char **argv);
int cmd_meta(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_head(int argc, char **argv); /* cat --limit 10 */
int cmd_count(int argc, char **argv);
int cmd_stats(int argc, char **argv); /* cmd_stats.c */
int cmd_maml(int argc, char **argv); /* maml check */
int cmd_copy(int argc, char **argv);
/* "PREFIXnote: top-level field N is a second 'a': read as 'a_2'" on out, a line for every
 * top-level field the library renamed (cmd_schema.c). */
void tool_note_renamed(const pqt_file *f, const char *prefix, FILE *out);
/* The type of column col as the file declares it ("uint32", "decimal(38,10)",
 * "timestamp[us, UTC]", "list<date32>"), wrapped by the list/vector bits of kind (the kind it
 * is read as); read_as: " (read as int64)" after it where the read kind is another type
 * (type_label.c). tool_type_label_node: a schema leaf's type, no wrapping. */
void tool_type_label(const pqt_file *f, int col, int kind, int read_as, rbuf *b);
void tool_type_label_node(const pqt_file *f, int node, rbuf *b);

/* "pqt: FILE: <pqt_errmsg()>" on stderr, in the tool's words (tool_cli_words) and escaped
 * (tool_msg); returns EXIT_FAIL. */
int tool_fail(const char *path);
/* One line on stderr, printf-style; every control byte and every byte that is not part of
 * valid UTF-8 is written as \xNN, so a file's hostile names cannot garble the terminal. */
void tool_msg(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Append text to b with tool_msg's escapes. */
void tool_quote(rbuf *b, const char *text);
/* A library message in the tool's words into b (NUL-terminated): the C option and call
 * names it may hold become the options of the command line ("--force replaces it"). */
void tool_cli_words(rbuf *b, const char *msg);
/* The candidate nearest want by edit distance when it is close enough to be a typo, or
 * NULL ("did you mean"). */
const char *tool_suggest(const char *want, const char *const *cands, int n);
/* "pqt CMD: <msg>" and the synopsis on stderr; returns EXIT_USAGE. An unknown option is one
 * line naming the nearest known one. */
int tool_usage_error(const char *cmd, const char *usage, const char *msg, const char *arg);
/* tool_usage_error for ARG_BAD / ARG_MISSING / ARG_NOVALUE from argscan_next. */
int tool_bad_option(const char *cmd, const char *usage, int r, const char *opt);
/* pqt_table_open with the same "-" rule (standard input, named "(stdin)"). */
pqt_status tool_table_open(const char *path, const pqt_opts *opts, pqt_table **ret);
/* Open path or report why not. EXIT_OK or EXIT_FAIL. */
int tool_open(const char *path, pqt_file **ret);
/* pqt_file_open, where path "-" is standard input (buffered whole, named "(stdin)"); on a
 * failure for stdin the message is already printed. */
pqt_status tool_file_open(const char *path, const pqt_opts *opts, pqt_file **ret);

/* Command-line scanning shared by the subcommands: one FILE operand plus options. A long
 * option's value comes as "--opt value" or "--opt=value", a short one's as "-c value" or
 * "-cvalue". After "--" everything is an operand; "-" alone is an operand. */
enum { ARG_FLAG = 0, ARG_VALUE = 1, ARG_VALUE_OPTIONAL = 2 };
typedef struct argopt {
    const char *name; /* "--columns" */
    char short_name;  /* 'c', or 0 for none */
    int takes_value;  /* ARG_FLAG, ARG_VALUE, or ARG_VALUE_OPTIONAL: only "--opt=value" is
                       * taken here; argscan_take_word takes "--opt value" */
} argopt;

typedef struct argscan {
    int argc, i;
    char **argv;
    const char *opt;   /* the long name of the option matched, or the argument as typed when
                        * it is not a known option or lacks its value */
    const char *value; /* its value (NULL for a flag) */
    int no_more_opts;  /* after "--" */
} argscan;

enum {
    ARG_END,     /* no arguments left */
    ARG_OPERAND, /* value = the operand */
    ARG_OPTION,  /* opt/value filled */
    ARG_HELP,    /* -h or --help */
    ARG_BAD,     /* unknown option: opt names it */
    ARG_MISSING, /* an option that takes a value came last without one */
    ARG_NOVALUE  /* a flag was given a value ("--no-crc=1") */
};

void argscan_init(argscan *s, int argc, char **argv);
/* Next argument; opts lists the options the command knows, ending with {NULL}. */
int argscan_next(argscan *s, const argopt *opts);
/* After an ARG_VALUE_OPTIONAL option without "=value": take the next argument as its value
 * when it is one of words (NULL-terminated), so "--explain json FILE" and "--explain FILE"
 * both read. Returns s->value (NULL: none given). */
const char *argscan_take_word(argscan *s, const char *const *words);

/* A decimal int64 filling all of s[0..n) (empty is not a number). 1 when it is one. */
int tool_parse_i64(const char *s, size_t n, int64_t *out);
/* --rows: "LO:HI", "LO:", ":HI" or "N" (that one row). Open sides stay as given in lo/hi.
 * 1 when well formed. */
int tool_parse_rows(const char *s, int64_t *lo, int64_t *hi);

/* A repeated option's values joined: old (NULL: none yet) sep add, in memory *owned holds
 * (freed and replaced; the caller frees the last). Returns the joined text, or add alone. */
const char *tool_join(char **owned, const char *old, const char *add, const char *sep);

/* --format of schema and meta: text (the default) or json. FORMAT_TEXT / FORMAT_JSON, or -1
 * for anything else. */
enum { FORMAT_TEXT = 0, FORMAT_JSON = 1 };
int tool_doc_format(const char *value);

/* Next item of a comma-separated list such as --columns' value. *s walks the list (start it
 * at the value; it becomes NULL after the last item); the item with blanks around it trimmed
 * is item[0..n), untrimmed raw[0..raw_n). Returns 0 when the list is done. "a,,b" has an
 * empty second item, "" one empty item. */
int tool_list_next(const char **s, const char **item, size_t *n, const char **raw,
                   size_t *raw_n);
/* A usage error (EXIT_USAGE) naming the 1-based position of the first empty item of the
 * list given to option opt, or -1 when no item is empty. */
int tool_list_check(const char *cmd, const char *usage, const char *opt, const char *list);

/* Dotted path of a schema node below the root ("a.b.c"), into b. */
void tool_node_path(const pqt_file *f, int node, rbuf *b);
/* Logical type text of a node ("" when none), into b. */
void tool_node_logical(const pqt_file *f, int node, rbuf *b);
/* Display width of UTF-8 text in code points (every code point counted as one column). */
size_t tool_text_width(const char *s, size_t n);
/* Bytes of the prefix of s[0..n) holding at most `width` code points. */
size_t tool_text_prefix(const char *s, size_t n, size_t width);

/* ---- filters (tool_where.c): --where and --explain of cat, head and count ---- */

/* The --where rules given so far, AND-combined, and --sample. Start zeroed. */
typedef struct tool_where {
    pqt_filter *filter; /* NULL until the first rule */
    int nrules;
    pqt_qc *qc;         /* --qc rules (NULL until the first), checked by the table */
    int qc_soft;        /* --qc-soft */
    int sampled;            /* --sample given */
    double sample_fraction; /* >= 0 */
    int64_t sample_seed;    /* 0: drawn by the open */
} tool_where;
/* Add one rule, parsed now: -1 when it is fine, else EXIT_USAGE after "pqt CMD: --where:
 * <the library's message, which names the character>" and the synopsis on stderr. */
int tool_where_add(tool_where *w, const char *cmd, const char *usage, const char *rule);
void tool_where_free(tool_where *w);
/* Add one --qc rule (docs/qc.md), parsed now: -1 when fine, else EXIT_USAGE after
 * "pqt CMD: --qc: <the library's message>". */
int tool_qc_add(tool_where *w, const char *cmd, const char *usage, const char *rule);
/* Soft qc warnings (and the library's other warnings) go to stderr as "pqt: warning: ...". */
void tool_warnings_to_stderr(void);
/* --sample FRACTION[,SEED] into w: -1 when it is fine, else EXIT_USAGE after the message
 * (the library's, naming the value, for a negative or NaN fraction) and the synopsis. */
int tool_sample_set(tool_where *w, const char *cmd, const char *usage, const char *text);

/* How a filtered table is opened. row_lo/row_hi: the slice (TOOL_ROW_OPEN: that side open);
 * int96_unit: PQT_OPT_INT96_UNIT, or -1 for the library's default. */
#define TOOL_ROW_OPEN INT64_MIN
typedef struct tool_where_open_args {
    const tool_where *where; /* may be NULL: no filter */
    int no_crc, binary_as_string, int96_unit;
    int64_t row_lo, row_hi;
    unsigned pushdown_off; /* bit n: PQT_OPT_PUSHDOWN_STATS + n set to 0 */
    const char *sort;      /* PQT_OPT_SORT keys (NULL: none) */
    int64_t limit_plus1;   /* PQT_OPT_LIMIT + 1 (0: none) */
    const char *maml;      /* a read-in MAML's path (pqt_opts_set_maml; NULL: none) */
} tool_where_open_args;
/* "stats,page-index,dictionary,bloom,adaptive" (any of them, or "all") as bits of
 * tool_where_open_args.pushdown_off; false for an unknown word. */
bool tool_parse_pushdown_off(const char *list, unsigned *bits_ret);
/* pqt_table_open (tool_table_open: "-" is standard input) with those options; the filter's
 * columns are checked and evaluated here (PQT_BAD_FILTER for a name or type). */
pqt_status tool_where_open(const char *path, const tool_where_open_args *a, pqt_table **ret);
/* path names a dataset (a directory or a glob, docs/datasets.md): read through a table. */
bool tool_is_dataset(const char *path);
/* --union-by-name and --no-hive (datasets), for every open the command makes. */
extern int tool_ds_union_by_name, tool_ds_no_hive;
/* A filter a dataset's footer-level open prunes its files with (cat: the footers of files
 * the filter's partition conjuncts refute are never read); NULL: none. */
extern const pqt_filter *tool_ds_filter;
void tool_apply_dataset_opts(pqt_opts *o);
/* pqt_table_explain's text, ending in a newline. */
void tool_explain_text(const pqt_table *t, FILE *out);
/* The --qc rules as applied (pqt_qc_describe) and the mode; nothing without rules. */
void tool_explain_qc(const tool_where *w, FILE *out);
/* One JSON object: count, rows_unfiltered, the pqt_scan_counts under their own names,
 * values_decoded_by_column (columns that decoded any value) and plan (the text). 0, or -1
 * when the counters cannot be had (pqt_errmsg says why). */
int tool_explain_json(const pqt_table *t, FILE *out);

/* ---- JSON documents (json_out.c): schema and meta --format json ---- */

/* An indented JSON document built in b. Start zeroed; jw_open the top object, then
 * alternate jw_key and one value (a scalar, or jw_open ... jw_close) inside objects, values
 * alone inside arrays. The top-level jw_close ends the document with a newline. */
typedef struct jw {
    rbuf b;
    int depth, first, after_key;
} jw;

void jw_open(jw *w, char bracket); /* '{' or '[' */
void jw_close(jw *w, char bracket); /* '}' or ']' */
void jw_key(jw *w, const char *key);
void jw_str(jw *w, const char *s); /* NULL writes null */
void jw_int(jw *w, int64_t v);
void jw_double(jw *w, double v); /* finite; shortest round-trip text */
void jw_bool(jw *w, int v);
void jw_null(jw *w);
void jw_raw(jw *w, const char *text, size_t n); /* text already JSON (a number, ...) */
/* Write what is built so far to out and empty the buffer (the document goes on). */
void jw_flush(jw *w, FILE *out);

#endif
