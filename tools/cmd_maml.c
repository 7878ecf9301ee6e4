/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_maml.c - `pqt maml check M [FILE]`: validate a read-in MAML (docs/maml.md) alone, or
 * against the parquet file it describes, and print every problem, one line each.
 */
#include <string.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt maml check MAML [FILE]\n"
    "\n"
    "Validate a read-in MAML (docs/maml.md) and print every problem, one line each as\n"
    "'MAML: line N: what' on standard output, then their count on standard error.\n"
    "With FILE, also what needs the parquet file (a remap target it lacks).\n"
    "  -h, --help  this text\n"
    "Exit status: 0 no problem ('MAML: ok'), 1 problems or a file that cannot be read,\n"
    "2 a usage error.\n";

static const argopt opts[] = {{NULL, 0, 0}};

static int check(const char *maml, const char *file)
{
    char *report = NULL;
    int n = 0;
    pqt_status st = pqt_maml_check_alloc(maml, file, &report, &n);
    if (st == PQT_OK) {
        printf("%s: ok\n", maml);
        return EXIT_OK;
    }
    if (st != PQT_BAD_MAML || !report) { /* unreadable, or refused by size */
        pqt_free(report);
        return tool_fail(maml);
    }
    for (char *line = report, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        printf("%s: %s\n", maml, line);
    }
    pqt_free(report);
    fflush(stdout);
    fprintf(stderr, "pqt: %s: %d problem%s\n", maml, n, n == 1 ? "" : "s");
    return EXIT_FAIL;
}

int cmd_maml(int argc, char **argv)
{
    argscan s;
    const char *operands[3] = {NULL, NULL, NULL};
    int nops = 0, rc = -1;
    argscan_init(&s, argc, argv);
    for (int r; rc < 0 && (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            rc = EXIT_OK;
        } else if (r != ARG_OPERAND) {
            rc = tool_bad_option("maml", usage, r, s.opt);
        } else if (nops == 3) {
            rc = tool_usage_error("maml", usage, "unexpected argument", s.value);
        } else {
            operands[nops++] = s.value;
        }
    }
    if (rc >= 0) return rc;
    if (nops == 0) return tool_usage_error("maml", usage, "missing 'check'", NULL);
    if (strcmp(operands[0], "check") != 0)
        return tool_usage_error("maml", usage, "unknown subcommand (check)", operands[0]);
    if (nops < 2) return tool_usage_error("maml", usage, "missing MAML", NULL);
    return check(operands[1], operands[2]);
}
