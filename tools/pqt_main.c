/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_main.c - entry point of the `pqt` tool: the top-level usage text (commands and exit
 * statuses), --version, `pqt help CMD`, and dispatch to the subcommands (cmd_*.c).
 */
#include <string.h>

#include "tools.h"

static const char usage_text[] =
    "usage: pqt COMMAND [OPTIONS] FILE\n"
    "\n"
    "Inspect and print Apache Parquet files.\n"
    "\n"
    "commands:\n"
    "  schema FILE   the schema tree, and the table column each leaf is read as (footer only)\n"
    "  meta FILE     row groups, column chunks (codec, encodings, sizes, statistics,\n"
    "                page index, bloom filter) and key-value metadata (footer only)\n"
    "  cat FILE      print rows (table, csv or jsonl)\n"
    "  head FILE     print the first 10 rows (cat --limit 10)\n"
    "  count FILE    the number of rows, or of rows passing --where rules (--explain: how)\n"
    "  stats FILE    per column: type, nulls, min, max, distinct values, mean, stddev\n"
    "  maml check M [FILE]  validate a read-in MAML, alone or against FILE (docs/maml.md)\n"
    "  copy IN OUT   rewrite the rows and columns of IN that --where/--rows/--columns keep\n"
    "  help COMMAND  the options of a command (the same as 'pqt COMMAND --help')\n"
    "\n"
    "options:\n"
    "  -h, --help     this text\n"
    "  --version      the version of pqt and of the library it runs with\n"
    "\n"
    "exit status:\n"
    "  0  success\n"
    "  1  a file could not be read or lacks what was asked for (a missing file, a corrupt\n"
    "     or unsupported one, no such column, rows outside the file): one line\n"
    "     'pqt: FILE: message' on stderr\n"
    "  2  a usage error (unknown command or option, missing FILE, a bad option value): the\n"
    "     message and the command's synopsis on stderr (an unknown command or option: one\n"
    "     line naming the nearest one); nothing is read\n"
    "\n"
    "Messages write control bytes and bytes that are not UTF-8 as \\xNN.\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {{"schema", cmd_schema}, {"meta", cmd_meta},
                                   {"cat", cmd_cat},       {"head", cmd_head},
                                   {"count", cmd_count},
                                   {"stats", cmd_stats},
                                   {"maml", cmd_maml},
                                   {"copy", cmd_copy},
                                   {NULL, NULL}};

static const command *find_command(const char *name)
{
    for (int i = 0; commands[i].name; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* One line: the nearest command when the name looks like a typo of one. */
static int unknown_command(const char *name)
{
    const char *cands[16];
    int n = 0;
    for (int i = 0; commands[i].name && n < 14; i++)
        cands[n++] = commands[i].name;
    cands[n++] = "help";
    const char *near = name[0] != '-' ? tool_suggest(name, cands, n) : NULL;
    tool_msg("pqt: unknown %s '%s'%s%s%s ('pqt help' lists the commands)",
             name[0] == '-' ? "option" : "command", name, near ? "; did you mean '" : "",
             near ? near : "", near ? "'?" : "");
    return EXIT_USAGE;
}

/* `pqt help [COMMAND]`: the command's --help, or this text. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (argc > 3) {
        fprintf(stderr, "pqt help: unexpected argument '%s'\nusage: pqt help COMMAND\n", argv[3]);
        return EXIT_USAGE;
    }
    if (strcmp(argv[2], "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    const command *c = find_command(argv[2]);
    if (!c) return unknown_command(argv[2]);
    char *args[] = {argv[2], "--help", NULL};
    return c->run(2, args);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) return help(argc, argv);
    if (strcmp(cmd, "--version") == 0) {
        unsigned v = pqt_version_number();
        printf("pqt %s (library %u.%u.%u)\n", PQT_VERSION_STRING, v / 10000, v / 100 % 100,
               v % 100);
        return EXIT_OK;
    }
    const command *c = find_command(cmd);
    if (!c) return unknown_command(cmd);
    return c->run(argc - 1, argv + 1);
}
