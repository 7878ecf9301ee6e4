/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_sidecar.c - the `.maml` sidecar of a written file (layer: write; anchor spec 5.4,
 * PQT_WOPT_WRITE_MAML): a read-in MAML derived from the output columns (name, data_type,
 * unit; table: = the file's stem), so opening the file with it gives the units back.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"

char *pqt_sidecar_path(const char *path)
{
    size_t n = strlen(path);
    const char *ext = ".parquet";
    size_t en = strlen(ext);
    if (n > en && strcmp(path + n - en, ext) == 0) n -= en; /* replace .parquet, else append */
    char *s = pqt_malloc(n + 6);
    if (!s) return NULL;
    memcpy(s, path, n);
    memcpy(s + n, ".maml", 6);
    return s;
}

static const char *elem_type(const pqt_wcol *c, char *buf, size_t cap)
{
    static const char *units[3] = {"ms", "us", "ns"};
    const char *u = c->time_unit >= 0 && c->time_unit <= 2 ? units[c->time_unit] : "us";
    switch (c->elem_kind) {
    case PQT_INT32: return "int32";
    case PQT_FLOAT32: return "float32";
    case PQT_FLOAT64: return "float64";
    case PQT_BOOL: return "boolean";
    case PQT_STRING: return "string";
    case PQT_DATE: return "date";
    case PQT_TIME: snprintf(buf, cap, "time[%s]", u); return buf;
    case PQT_TIMESTAMP:
        snprintf(buf, cap, c->utc ? "timestamp[%s,utc]" : "timestamp[%s]", u);
        return buf;
    default: return "int64"; /* int64, uint64 (no unsigned type in MAML) */
    }
}

/* A YAML single-quoted scalar: quotes doubled, so any name or unit survives. */
static pqt_status put_quoted(pqt_buf *b, const char *s)
{
    PQT_TRY(pqt_buf_append(b, "'", 1));
    for (const char *p = s; *p; p++) {
        if (*p == '\'') PQT_TRY(pqt_buf_append(b, "'", 1));
        PQT_TRY(pqt_buf_append(b, p, 1));
    }
    return pqt_buf_append(b, "'", 1);
}

pqt_status pqt_sidecar_text(const pqt_wcol *cols, int n, const char *path, pqt_buf *out)
{
    if (n == 0) return pqt_err(PQT_MISUSE, "a table without columns gets no MAML sidecar");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *side = pqt_sidecar_path(base);
    if (!side) return pqt_err(PQT_NOMEM, "out of memory");
    side[strlen(side) - 5] = '\0'; /* the stem */
    pqt_status st = pqt_buf_append(out, "table: ", 7);
    if (st == PQT_OK) st = put_quoted(out, side);
    pqt_mem_free(side);
    PQT_TRY(st);
    PQT_TRY(pqt_buf_append(out, "\nfields:\n", 9));
    for (int i = 0; i < n; i++) {
        char tb[40], lb[60];
        const char *ty = elem_type(&cols[i], tb, sizeof tb);
        if (cols[i].is_list) {
            snprintf(lb, sizeof lb, "list[%s]", ty);
            ty = lb;
        }
        PQT_TRY(pqt_buf_append(out, "  - name: ", 10));
        PQT_TRY(put_quoted(out, cols[i].name));
        PQT_TRY(pqt_buf_append(out, "\n    data_type: ", 16));
        PQT_TRY(pqt_buf_append(out, ty, strlen(ty)));
        if (cols[i].unit && cols[i].unit[0]) {
            PQT_TRY(pqt_buf_append(out, "\n    unit: ", 11));
            PQT_TRY(put_quoted(out, cols[i].unit));
        }
        PQT_TRY(pqt_buf_append(out, "\n", 1));
    }
    return PQT_OK;
}
