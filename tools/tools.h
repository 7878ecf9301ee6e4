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

/* "pqt: FILE: <pqt_errmsg()>" on stderr; returns EXIT_FAIL. */
int tool_fail(const char *path);
/* "pqt CMD: <msg>" and the usage text on stderr; returns EXIT_USAGE. */
int tool_usage_error(const char *cmd, const char *usage, const char *msg, const char *arg);
/* tool_usage_error for ARG_BAD / ARG_MISSING from argscan_next. */
int tool_bad_option(const char *cmd, const char *usage, int r, const char *opt);
/* Open path or report why not. EXIT_OK or EXIT_FAIL. */
int tool_open(const char *path, pqt_file **ret);
/* Parse the arguments of a command taking one FILE and no options: -1 with *path_ret set to
 * go on, otherwise the exit status to return (help printed, or a usage error). */
int tool_file_operand(int argc, char **argv, const char *cmd, const char *usage,
                      const char **path_ret);

/* Command-line scanning shared by the subcommands: one FILE operand plus --long options
 * taking a value as "--opt value" or "--opt=value". */
typedef struct argscan {
    int argc, i;
    char **argv;
    const char *opt;   /* option name just matched, e.g. "--rows" */
    const char *value; /* its value */
    int no_more_opts;  /* after "--" */
} argscan;

enum {
    ARG_END,     /* no arguments left */
    ARG_OPERAND, /* value = the operand */
    ARG_OPTION,  /* opt/value filled */
    ARG_HELP,    /* -h or --help */
    ARG_BAD,     /* unknown option: opt names it */
    ARG_MISSING  /* an option that takes a value came last without one */
};

void argscan_init(argscan *s, int argc, char **argv);
/* Next argument; names lists the options that take a value (NULL-terminated). */
int argscan_next(argscan *s, const char *const *names);

/* Dotted path of a schema node below the root ("a.b.c"), into b. */
void tool_node_path(const pqt_file *f, int node, rbuf *b);
/* Logical type text of a node ("" when none), into b. */
void tool_node_logical(const pqt_file *f, int node, rbuf *b);
/* Display width of UTF-8 text in code points (every code point counted as one column). */
size_t tool_text_width(const char *s, size_t n);
/* Bytes of the prefix of s[0..n) holding at most `width` code points. */
size_t tool_text_prefix(const char *s, size_t n, size_t width);

#endif
