/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tools.h - what the files of the `pqt` command-line tool share.
 *
 * The tool sits on top of the library and uses only pqt.h. Exit statuses: 0 success,
 * 1 an error reading a file (one line "pqt: FILE: message" on stderr), 2 a usage error.
 */
#ifndef PQT_TOOLS_TOOLS_H
#define PQT_TOOLS_TOOLS_H

#include <stdio.h>

#include "pqt.h"
#include "render.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Subcommands: argv[0] is the command name. Each returns the exit status. */
int cmd_schema(int argc, char **argv);
int cmd_meta(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_head(int argc, char **argv); /* cat --limit 10 */

/* "pqt: FILE: <pqt_errmsg()>" on stderr; returns EXIT_FAIL. */
int tool_fail(const char *path);
/* "pqt CMD: <msg>" and the usage text on stderr; returns EXIT_USAGE. */
int tool_usage_error(const char *cmd, const char *usage, const char *msg, const char *arg);
/* tool_usage_error for ARG_BAD / ARG_MISSING / ARG_NOVALUE from argscan_next. */
int tool_bad_option(const char *cmd, const char *usage, int r, const char *opt);
/* Open path or report why not. EXIT_OK or EXIT_FAIL. */
int tool_open(const char *path, pqt_file **ret);
/* pqt_file_open, where path "-" is standard input (buffered whole, named "(stdin)"); on a
 * failure for stdin the message is already printed. */
pqt_status tool_file_open(const char *path, const pqt_opts *opts, pqt_file **ret);

/* Command-line scanning shared by the subcommands: one FILE operand plus options. A long
 * option's value comes as "--opt value" or "--opt=value", a short one's as "-c value" or
 * "-cvalue". After "--" everything is an operand; "-" alone is an operand. */
typedef struct argopt {
    const char *name; /* "--columns" */
    char short_name;  /* 'c', or 0 for none */
    int takes_value;
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
void jw_bool(jw *w, int v);
void jw_null(jw *w);
/* Write what is built so far to out and empty the buffer (the document goes on). */
void jw_flush(jw *w, FILE *out);

#endif
