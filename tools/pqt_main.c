/*
 * pqt_main.c - entry point of the `pqt` tool: the top-level usage text, --version, and
 * dispatch to the subcommands (cmd_*.c).
 */
#include <string.h>

#include "tools.h"

static const char usage_text[] =
    "usage: pqt COMMAND [OPTIONS] FILE\n"
    "\n"
    "Inspect and print Apache Parquet files.\n"
    "\n"
    "commands:\n"
    "  schema FILE   the schema tree, and the table column each leaf is read as\n"
    "  meta FILE     row groups, column chunks (codec, encodings, sizes, statistics,\n"
    "                page index, bloom filter) and key-value metadata\n"
    "  cat FILE      print rows (table, csv or jsonl)\n"
    "\n"
    "Run 'pqt COMMAND --help' for the options of a command.\n"
    "  -h, --help     this text\n"
    "  --version      the version of pqt and of the library it runs with\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        unsigned v = pqt_version_number();
        printf("pqt %s (library %u.%u.%u)\n", PQT_VERSION_STRING, v / 10000, v / 100 % 100,
               v % 100);
        return EXIT_OK;
    }
    if (strcmp(cmd, "schema") == 0) return cmd_schema(argc - 1, argv + 1);
    if (strcmp(cmd, "meta") == 0) return cmd_meta(argc - 1, argv + 1);
    if (strcmp(cmd, "cat") == 0) return cmd_cat(argc - 1, argv + 1);
    fprintf(stderr, "pqt: unknown command '%s'\n", cmd);
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}
