/* SPDX-License-Identifier: Apache-2.0 */
/*
 * type_label.c - the one name of a column's type that `schema`, `cat` and `meta` print:
 * the file's type as a user knows it (int8, uint32, decimal(38,10), timestamp[us, UTC],
 * date32, time[ms], string, list<decimal(9,3)>), from the physical and logical type, not
 * the kind it is read as (int32, int64, float64). Where the value is read as something
 * else, "(read as KIND)" may follow (docs/output.md, "Types").
 */
#include <stdio.h>
#include <string.h>

#include "tools.h"

static const char *const units[] = {"ms", "us", "ns"};

static int unit_of(const char *s)
{
    if (strstr(s, "MILLIS")) return 0;
    if (strstr(s, "MICROS")) return 1;
    if (strstr(s, "NANOS")) return 2;
    return -1;
}

/* The element's type: the logical type when there is one, else the physical. */
static void base_label(const char *phys, const char *lg, int unit, rbuf *b)
{
    char tmp[96];
    int bits = 0, sign = 1, p = 0, s = 0;
    if (!lg) lg = "";
    if (sscanf(lg, "INTEGER(%d,%5[a-z])", &bits, tmp) == 2) {
        sign = strcmp(tmp, "true") == 0;
    } else if (sscanf(lg, "INT_%d", &bits) == 1) {
        sign = 1;
    } else if (sscanf(lg, "UINT_%d", &bits) == 1) {
        sign = 0;
    }
    if (bits) {
        snprintf(tmp, sizeof tmp, "%sint%d", sign ? "" : "u", bits);
    } else if (sscanf(lg, "DECIMAL(%d,%d)", &p, &s) == 2) {
        snprintf(tmp, sizeof tmp, "decimal(%d,%d)", p, s);
    } else if (strncmp(lg, "TIMESTAMP", 9) == 0) {
        int u = unit_of(lg);
        /* TIMESTAMP_MILLIS/_MICROS (converted types) are UTC-adjusted by definition */
        int utc = strstr(lg, ",true)") != NULL || strchr(lg, '_') != NULL;
        snprintf(tmp, sizeof tmp, "timestamp[%s%s]", u >= 0 ? units[u] : "?", utc ? ", UTC" : "");
    } else if (strncmp(lg, "TIME", 4) == 0) {
        int u = unit_of(lg);
        snprintf(tmp, sizeof tmp, "time[%s]", u >= 0 ? units[u] : "?");
    } else if (strcmp(lg, "DATE") == 0) {
        snprintf(tmp, sizeof tmp, "date32");
    } else if (strcmp(lg, "STRING") == 0 || strcmp(lg, "UTF8") == 0) {
        snprintf(tmp, sizeof tmp, "string");
    } else if (lg[0] && strcmp(lg, "LIST") != 0) {
        /* ENUM, JSON, UUID, FLOAT16, BSON, ...: the logical type's own name, lower case */
        size_t i = 0;
        for (; lg[i] && i < sizeof tmp - 1; i++)
            tmp[i] = (char)(lg[i] >= 'A' && lg[i] <= 'Z' ? lg[i] - 'A' + 'a' : lg[i]);
        tmp[i] = '\0';
    } else if (!phys) {
        snprintf(tmp, sizeof tmp, "?");
    } else if (strcmp(phys, "INT32") == 0) {
        snprintf(tmp, sizeof tmp, "int32");
    } else if (strcmp(phys, "INT64") == 0) {
        snprintf(tmp, sizeof tmp, "int64");
    } else if (strcmp(phys, "FLOAT") == 0) {
        snprintf(tmp, sizeof tmp, "float32");
    } else if (strcmp(phys, "DOUBLE") == 0) {
        snprintf(tmp, sizeof tmp, "float64");
    } else if (strcmp(phys, "BOOLEAN") == 0) {
        snprintf(tmp, sizeof tmp, "bool");
    } else if (strcmp(phys, "INT96") == 0) {
        snprintf(tmp, sizeof tmp, "timestamp[%s] (int96)",
                 units[unit >= 0 && unit <= 2 ? unit : 2]);
    } else if (strcmp(phys, "BYTE_ARRAY") == 0) {
        snprintf(tmp, sizeof tmp, "binary");
    } else if (strncmp(phys, "FIXED_LEN_BYTE_ARRAY", 20) == 0) {
        snprintf(tmp, sizeof tmp, "fixed_binary%s", phys + 20);
    } else {
        size_t i = 0;
        for (; phys[i] && i < sizeof tmp - 1; i++)
            tmp[i] = (char)(phys[i] >= 'A' && phys[i] <= 'Z' ? phys[i] - 'A' + 'a' : phys[i]);
        tmp[i] = '\0';
    }
    rb_puts(b, tmp);
}

/* Whether the read kind is just another name of the label (date32 is read as date, ...). */
static int same_family(const char *label, int elem)
{
    switch (elem) {
    case PQT_INT32:
        return strcmp(label, "int32") == 0;
    case PQT_INT64:
        return strcmp(label, "int64") == 0;
    case PQT_UINT64:
        return strcmp(label, "uint64") == 0;
    case PQT_FLOAT32:
        return strcmp(label, "float32") == 0;
    case PQT_FLOAT64:
        return strcmp(label, "float64") == 0;
    case PQT_BOOL:
        return strcmp(label, "bool") == 0;
    case PQT_STRING:
        return strcmp(label, "string") == 0;
    case PQT_BINARY:
        return strcmp(label, "binary") == 0 || strncmp(label, "fixed_binary", 12) == 0;
    case PQT_DATE:
        return strcmp(label, "date32") == 0;
    case PQT_TIME:
        return strncmp(label, "time[", 5) == 0;
    case PQT_TIMESTAMP:
        return strncmp(label, "timestamp[", 10) == 0;
    default:
        return 0;
    }
}

void tool_type_label(const pqt_file *f, int col, int kind, int read_as, rbuf *b)
{
    const char *phys = pqt_file_column_physical(f, col), *lg = pqt_file_column_logical(f, col);
    rbuf base = {0};
    base_label(phys, lg, pqt_file_column_time_unit(f, col), &base);
    const char *wrap = kind & PQT_LIST ? "list<" : kind & PQT_VECTOR ? "vector<" : NULL;
    if (wrap) rb_puts(b, wrap);
    rb_puts(b, base.p);
    if (wrap) rb_putc(b, '>');
    int elem = PQT_KIND_ELEMENT(kind);
    if (read_as && elem != PQT_NONE && !same_family(base.p, elem)) {
        rb_puts(b, " (read as ");
        rb_puts(b, pqt_kind_name(kind));
        rb_putc(b, ')');
    }
    rb_free(&base);
}

void tool_type_label_node(const pqt_file *f, int node, rbuf *b)
{
    rbuf lg = {0};
    tool_node_logical(f, node, &lg);
    base_label(pqt_file_node_physical(f, node), lg.p, -1, b);
    rb_free(&lg);
}
