/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_schema.c - `pqt schema FILE`: the footer's schema tree, one node per line, indented
 * by depth, with repetition, physical and logical type, and for every node that is read
 * as a table column, that column's path and kind ("unreadable (WHY)" for PQT_NONE); or the
 * same as one JSON document. Only the footer is read: a LIST column whose width only its
 * data can settle says so, unless --measure asks for the row-group scan that settles it.
 */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt schema FILE [--measure] [--maml M] [-f|--format text|json]\n"
    "\n"
    "Print the schema tree of a Parquet file: each node with its repetition, physical and\n"
    "logical type, and the table column (path and kind) it is read as. Only the footer is\n"
    "read, so a LIST column whose width the footer cannot settle shows as\n"
    "'list<T>, width unknown (use --measure)'. Top-level fields that share a name are read\n"
    "as NAME_k (the smallest k >= 1 no field has), with a note after the tree.\n"
    "  --measure        read LIST columns' data where needed to tell a fixed-width\n"
    "                   vector<T> from a variable-length list<T> (reads whole columns)\n"
    "  --maml M         also the table's columns as the read-in MAML M names them\n"
    "                   (docs/maml.md): internal name, the file column it reads, unit.\n"
    "                   The MAML is checked against the file first (an error lists every\n"
    "                   problem); its extra: filter: and extra: sort: run as at any open\n"
    "  -f, --format F   text (default) or json\n"
    "  -h, --help       this text\n"
    "\n"
    "--format json writes one JSON object with these keys, in this order:\n"
    "  file, nrows, nrow_groups, ncols, nreadable (numbers), measured (bool),\n"
    "  nodes: the schema elements in pre-order, root first, each\n"
    "    {name, path (dotted, \"\" for the root), depth (root 0), repetition (\"\" for the\n"
    "     root), physical (\"\" for a group), type_length (0 unless fixed-length),\n"
    "     logical (\"\" when none), nchildren, column (the column path it is read as, or\n"
    "     null), read_name (the name the columns use for it: name, or for a later\n"
    "     top-level field of the same name NAME_k)},\n"
    "  columns: the table columns in file order, each\n"
    "    {path, readable (bool), kind (what it is read as: \"int64\", \"vector<float32>\",\n"
    "     \"list<float32>\", ...; null when unreadable), type (the file's type as a user\n"
    "     knows it: \"uint32\", \"decimal(38,10)\", \"timestamp[us, UTC]\", \"list<date32>\";\n"
    "     null when unreadable), width (1 for scalars, N for vectors, 0 for lists, null\n"
    "     while not measured), unsupported_reason (null when readable), nullable (bool),\n"
    "     physical, logical}.\n"
    "  With --maml, one more key: table_columns, each {name, file_column, unit (\"\" when\n"
    "  none)}, in the table's column order.\n";

static const argopt opts[] = {
    {"--measure", 0, 0}, {"--format", 'f', 1}, {"--maml", 0, 1}, {NULL, 0, 0}};

/* A column's kind as this run knows it: width -1 while not measured. */
typedef struct shape {
    int kind, width;
} shape;

enum { F_NODE, F_REP, F_PHYS, F_LOGICAL, F_COLUMN, F_KIND, NFIELDS };
static const char *const headers[NFIELDS] = {"node",    "repetition", "physical",
                                             "logical", "column",     "kind"};

/* One line of output, fields as separate strings so they can be aligned. */
typedef struct line {
    rbuf field[NFIELDS];
} line;

static void describe(const pqt_file *f, const shape *shapes, int node, int depth, line *l)
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
        int kind = shapes[col].kind;
        if (kind == PQT_NONE) {
            rb_puts(&l->field[F_KIND], "unreadable (");
            rb_puts(&l->field[F_KIND], pqt_file_column_unsupported_reason(f, col));
            rb_puts(&l->field[F_KIND], ")");
        } else {
            tool_type_label(f, col, kind, 1, &l->field[F_KIND]);
            if (shapes[col].width < 0) rb_puts(&l->field[F_KIND], ", width unknown (use --measure)");
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

/* The depth of every node from one pre-order walk with a stack of children left per open
 * group: O(nodes), where pqt_file_node_depth per node would be quadratic on wide files. */
static int *node_depths(const pqt_file *f, int nnodes)
{
    int *depth = calloc(nnodes > 0 ? (size_t)nnodes : 1, sizeof *depth);
    int *left = calloc(nnodes > 0 ? (size_t)nnodes : 1, sizeof *left);
    if (!depth || !left) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    int top = 0;
    for (int i = 0; i < nnodes; i++) {
        while (top > 0 && left[top - 1] == 0)
            top--;
        depth[i] = top;
        if (top > 0) left[top - 1]--;
        int nch = pqt_file_node_nchildren(f, i);
        if (nch > 0) left[top++] = nch;
    }
    free(left);
    return depth;
}

void tool_note_renamed(const pqt_file *f, const char *prefix, FILE *out)
{
    int nnodes = pqt_file_nnodes(f), field = 0;
    for (int i = 1; i < nnodes; i++) {
        if (pqt_file_node_parent(f, i) != 0) continue;
        field++;
        const char *name = pqt_file_node_name(f, i), *as = pqt_file_node_read_name(f, i);
        if (strcmp(name, as) != 0)
            fprintf(out, "%snote: top-level field %d is a second '%s': read as '%s'\n", prefix,
                    field, name, as);
    }
}

/* --maml: the table opened with the MAML, for its column names and units. */
static pqt_status open_with_maml(const char *path, const char *maml, pqt_table **ret)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st == PQT_OK) st = pqt_opts_set_maml(o, maml);
    if (st == PQT_OK) st = tool_table_open(path, o, ret);
    pqt_opts_free(o);
    return st;
}

/* A table column's file column ("" when it reads none) and unit ("" when none). */
static void table_column_facts(const pqt_table *t, const char *name, const char **file,
                               const char **unit)
{
    *file = *unit = "";
    if (pqt_table_file_column(t, name, file) != PQT_OK) *file = "";
    if (pqt_table_unit(t, name, unit) != PQT_OK || !*unit) *unit = "";
}

/* "name  file column  unit", aligned, after a blank line. */
static void print_table_columns(const pqt_table *t, const char *maml)
{
    int n = pqt_table_ncols(t);
    size_t w0 = strlen("name"), w1 = strlen("file column");
    for (int i = 0; i < n; i++) {
        const char *name = pqt_table_column_name(t, i), *file, *unit;
        table_column_facts(t, name, &file, &unit);
        size_t a = tool_text_width(name, strlen(name)), b = tool_text_width(file, strlen(file));
        if (a > w0) w0 = a;
        if (b > w1) w1 = b;
    }
    printf("\ntable columns with MAML %s:\n", maml);
    for (int i = -1; i < n; i++) {
        const char *name = "name", *file = "file column", *unit = "unit";
        if (i >= 0) {
            name = pqt_table_column_name(t, i);
            table_column_facts(t, name, &file, &unit);
        }
        rbuf out = {0};
        rb_puts(&out, name);
        for (size_t w = tool_text_width(name, strlen(name)); w < w0 + 2; w++) rb_putc(&out, ' ');
        rb_puts(&out, file);
        if (*unit)
            for (size_t w = tool_text_width(file, strlen(file)); w < w1 + 2; w++)
                rb_putc(&out, ' ');
        rb_puts(&out, unit);
        puts(out.p ? out.p : "");
        rb_free(&out);
    }
}

static void print_text(const pqt_file *f, const char *path, const shape *shapes, int nreadable)
{
    int nnodes = pqt_file_nnodes(f), ncols = pqt_file_ncols(f), nrg = pqt_file_nrow_groups(f);
    printf("%s: %lld rows, %d row group%s, %d column%s (%d readable)\n", path,
           (long long)pqt_file_nrows(f), nrg, nrg == 1 ? "" : "s", ncols, ncols == 1 ? "" : "s",
           nreadable);
    line *lines = calloc(nnodes > 0 ? (size_t)nnodes : 1, sizeof *lines);
    if (!lines) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    int *depth = node_depths(f, nnodes);
    for (int i = 0; i < nnodes; i++)
        describe(f, shapes, i, depth[i], &lines[i]);
    print_lines(lines, nnodes);
    tool_note_renamed(f, "", stdout);
    for (int i = 0; i < nnodes; i++)
        for (int k = 0; k < NFIELDS; k++)
            rb_free(&lines[i].field[k]);
    free(lines);
    free(depth);
}

static void print_json(const pqt_file *f, const char *path, const shape *shapes, int nreadable,
                       int measured, const pqt_table *t)
{
    int nnodes = pqt_file_nnodes(f), ncols = pqt_file_ncols(f);
    jw w = {0};
    rbuf tmp = {0};
    jw_open(&w, '{');
    jw_key(&w, "file");
    jw_str(&w, path);
    jw_key(&w, "nrows");
    jw_int(&w, pqt_file_nrows(f));
    jw_key(&w, "nrow_groups");
    jw_int(&w, pqt_file_nrow_groups(f));
    jw_key(&w, "ncols");
    jw_int(&w, ncols);
    jw_key(&w, "nreadable");
    jw_int(&w, nreadable);
    jw_key(&w, "measured");
    jw_bool(&w, measured);

    int *depth = node_depths(f, nnodes);
    jw_key(&w, "nodes");
    jw_open(&w, '[');
    for (int i = 0; i < nnodes; i++) {
        jw_open(&w, '{');
        jw_key(&w, "name");
        jw_str(&w, pqt_file_node_name(f, i));
        jw_key(&w, "path");
        tmp.len = 0;
        tool_node_path(f, i, &tmp);
        jw_str(&w, tmp.p ? tmp.p : "");
        jw_key(&w, "depth");
        jw_int(&w, depth[i]);
        jw_key(&w, "repetition");
        jw_str(&w, pqt_file_node_repetition(f, i));
        jw_key(&w, "physical");
        jw_str(&w, pqt_file_node_physical(f, i));
        jw_key(&w, "type_length");
        jw_int(&w, pqt_file_node_type_length(f, i));
        jw_key(&w, "logical");
        tmp.len = 0;
        tool_node_logical(f, i, &tmp);
        jw_str(&w, tmp.p && tmp.len ? tmp.p : "");
        jw_key(&w, "nchildren");
        jw_int(&w, pqt_file_node_nchildren(f, i));
        jw_key(&w, "column");
        int col = pqt_file_node_column(f, i);
        jw_str(&w, col >= 0 ? pqt_file_column_path(f, col) : NULL);
        jw_key(&w, "read_name");
        jw_str(&w, pqt_file_node_read_name(f, i));
        jw_close(&w, '}');
        jw_flush(&w, stdout);
    }
    jw_close(&w, ']');
    free(depth);

    jw_key(&w, "columns");
    jw_open(&w, '[');
    for (int c = 0; c < ncols; c++) {
        int kind = shapes[c].kind;
        jw_open(&w, '{');
        jw_key(&w, "path");
        jw_str(&w, pqt_file_column_path(f, c));
        jw_key(&w, "readable");
        jw_bool(&w, kind != PQT_NONE);
        jw_key(&w, "kind");
        jw_str(&w, kind != PQT_NONE ? pqt_kind_name(kind) : NULL);
        jw_key(&w, "type");
        tmp.len = 0;
        if (kind != PQT_NONE) tool_type_label(f, c, kind, 0, &tmp);
        jw_str(&w, kind != PQT_NONE ? tmp.p : NULL);
        jw_key(&w, "width");
        if (kind == PQT_NONE || shapes[c].width < 0)
            jw_null(&w);
        else
            jw_int(&w, shapes[c].width);
        jw_key(&w, "unsupported_reason");
        jw_str(&w, pqt_file_column_unsupported_reason(f, c));
        jw_key(&w, "nullable");
        jw_bool(&w, pqt_file_column_nullable(f, c) > 0);
        jw_key(&w, "physical");
        jw_str(&w, pqt_file_column_physical(f, c));
        jw_key(&w, "logical");
        const char *lg = pqt_file_column_logical(f, c);
        jw_str(&w, lg ? lg : "");
        jw_close(&w, '}');
        jw_flush(&w, stdout);
    }
    jw_close(&w, ']');
    if (t) {
        jw_key(&w, "table_columns");
        jw_open(&w, '[');
        for (int i = 0; i < pqt_table_ncols(t); i++) {
            const char *name = pqt_table_column_name(t, i), *file, *unit;
            table_column_facts(t, name, &file, &unit);
            jw_open(&w, '{');
            jw_key(&w, "name");
            jw_str(&w, name);
            jw_key(&w, "file_column");
            jw_str(&w, file);
            jw_key(&w, "unit");
            jw_str(&w, unit);
            jw_close(&w, '}');
        }
        jw_close(&w, ']');
    }
    jw_close(&w, '}');
    jw_flush(&w, stdout);
    rb_free(&w.b);
    rb_free(&tmp);
}

int cmd_schema(int argc, char **argv)
{
    argscan s;
    const char *path = NULL, *maml = NULL;
    int measure = 0, format = FORMAT_TEXT;
    argscan_init(&s, argc, argv);
    for (int r; (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (r != ARG_OPERAND && r != ARG_OPTION) return tool_bad_option("schema", usage, r, s.opt);
        if (r == ARG_OPERAND) {
            if (path) return tool_usage_error("schema", usage, "unexpected argument", s.value);
            path = s.value;
        } else if (strcmp(s.opt, "--measure") == 0) {
            measure = 1;
        } else if (strcmp(s.opt, "--maml") == 0) {
            maml = s.value;
        } else if ((format = tool_doc_format(s.value)) < 0) {
            return tool_usage_error("schema", usage, "unknown --format (text or json)", s.value);
        }
    }
    if (!path) return tool_usage_error("schema", usage, "missing FILE", NULL);

    pqt_file *f;
    if (tool_open(path, &f) != EXIT_OK) return EXIT_FAIL;
    int ncols = pqt_file_ncols(f), nreadable = 0;
    shape *shapes = calloc(ncols > 0 ? (size_t)ncols : 1, sizeof *shapes);
    if (!shapes) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    /* Everything is settled before anything is printed, so a failed --measure leaves one
     * error line and no half-written output. */
    for (int c = 0; c < ncols; c++) {
        if (pqt_file_column_shape(f, c, measure, &shapes[c].kind, &shapes[c].width) != PQT_OK) {
            free(shapes);
            int rc = tool_fail(path);
            pqt_file_close(f);
            return rc;
        }
        nreadable += shapes[c].kind != PQT_NONE;
    }
    pqt_table *t = NULL;
    if (maml && open_with_maml(path, maml, &t) != PQT_OK) {
        free(shapes);
        int rc = tool_fail(path);
        pqt_file_close(f);
        return rc;
    }
    if (format == FORMAT_JSON) {
        print_json(f, path, shapes, nreadable, measure, t);
    } else {
        print_text(f, path, shapes, nreadable);
        if (t) print_table_columns(t, maml);
    }
    pqt_table_close(t);
    free(shapes);
    pqt_file_close(f);
    return EXIT_OK;
}
