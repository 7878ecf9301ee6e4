/*
 * cmd_schema.c - `pqt schema FILE`: the footer's schema tree, one node per line, indented
 * by depth, with repetition, physical and logical type, and for every node that is read
 * as a table column, that column's path and kind ("unreadable (WHY)" for PQT_NONE).
 */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static const char usage[] = "usage: pqt schema FILE\n"
                            "\n"
                            "Print the schema tree of a Parquet file: each node with its\n"
                            "repetition, physical and logical type, and the table column\n"
                            "(path and kind) it is read as.\n"
                            "  -h, --help   this text\n";

enum { F_NODE, F_REP, F_PHYS, F_LOGICAL, F_COLUMN, F_KIND, NFIELDS };
static const char *const headers[NFIELDS] = {"node",    "repetition", "physical",
                                             "logical", "column",     "kind"};

/* One line of output, fields as separate strings so they can be aligned. */
typedef struct line {
    rbuf field[NFIELDS];
} line;

static void describe(const pqt_file *f, int node, int depth, line *l)
{
    for (int d = 0; d < depth; d++)
        rb_puts(&l->field[F_NODE], "  ");
    rb_puts(&l->field[F_NODE], pqt_file_node_name(f, node));
    rb_puts(&l->field[F_REP], pqt_file_node_repetition(f, node));
    rb_puts(&l->field[F_PHYS], pqt_file_node_physical(f, node));
    int32_t len = pqt_file_node_type_length(f, node);
    if (len > 0) {
        char tmp[24];
        snprintf(tmp, sizeof tmp, "(%d)", (int)len);
        rb_puts(&l->field[F_PHYS], tmp);
    }
    tool_node_logical(f, node, &l->field[F_LOGICAL]);
    int col = pqt_file_node_column(f, node);
    if (col >= 0) {
        rb_puts(&l->field[F_COLUMN], pqt_file_column_path(f, col));
        int kind = pqt_file_column_kind(f, col);
        if (kind == PQT_NONE) {
            rb_puts(&l->field[F_KIND], "unreadable (");
            rb_puts(&l->field[F_KIND], pqt_file_column_unsupported_reason(f, col));
            rb_puts(&l->field[F_KIND], ")");
        } else {
            rb_puts(&l->field[F_KIND], pqt_kind_name(kind));
        }
    }
}

static void print_lines(line *lines, int n)
{
    size_t width[NFIELDS];
    for (int k = 0; k < NFIELDS; k++)
        width[k] = strlen(headers[k]);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < NFIELDS; k++) {
            size_t w = tool_text_width(lines[i].field[k].p ? lines[i].field[k].p : "",
                                       lines[i].field[k].len);
            if (w > width[k]) width[k] = w;
        }
    for (int i = -1; i < n; i++) {
        rbuf out = {0};
        int last = NFIELDS - 1;
        /* Drop trailing empty fields so lines carry no trailing blanks. */
        while (i >= 0 && last > 0 && lines[i].field[last].len == 0)
            last--;
        for (int k = 0; k <= last; k++) {
            const char *s = i < 0 ? headers[k] : lines[i].field[k].p ? lines[i].field[k].p : "";
            rb_puts(&out, s);
            if (k < last)
                for (size_t w = tool_text_width(s, strlen(s)); w < width[k] + 2; w++)
                    rb_putc(&out, ' ');
        }
        puts(out.p ? out.p : "");
        rb_free(&out);
    }
}

int cmd_schema(int argc, char **argv)
{
    const char *path = NULL;
    int rc = tool_file_operand(argc, argv, "schema", usage, &path);
    if (rc >= 0) return rc;

    pqt_file *f;
    if (tool_open(path, &f) != EXIT_OK) return EXIT_FAIL;
    int nnodes = pqt_file_nnodes(f), ncols = pqt_file_ncols(f), nreadable = 0;
    for (int c = 0; c < ncols; c++)
        nreadable += pqt_file_column_kind(f, c) != PQT_NONE;
    int nrg = pqt_file_nrow_groups(f);
    printf("%s: %lld rows, %d row group%s, %d column%s (%d readable)\n", path,
           (long long)pqt_file_nrows(f), nrg, nrg == 1 ? "" : "s", ncols, ncols == 1 ? "" : "s",
           nreadable);

    line *lines = calloc(nnodes > 0 ? (size_t)nnodes : 1, sizeof *lines);
    int *left = calloc(nnodes > 0 ? (size_t)nnodes : 1, sizeof *left);
    if (!lines || !left) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    /* Depth from a pre-order walk with a stack of children left per open group: O(nodes),
     * where asking pqt_file_node_depth per node would be quadratic on wide files. */
    int top = 0;
    for (int i = 0; i < nnodes; i++) {
        while (top > 0 && left[top - 1] == 0)
            top--;
        describe(f, i, top, &lines[i]);
        if (top > 0) left[top - 1]--;
        int nch = pqt_file_node_nchildren(f, i);
        if (nch > 0) left[top++] = nch;
    }
    print_lines(lines, nnodes);
    for (int i = 0; i < nnodes; i++)
        for (int k = 0; k < NFIELDS; k++)
            rb_free(&lines[i].field[k]);
    free(lines);
    free(left);
    pqt_file_close(f);
    return EXIT_OK;
}
