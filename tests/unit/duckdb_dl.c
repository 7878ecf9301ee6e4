/* SPDX-License-Identifier: Apache-2.0 */
/*
 * duckdb_dl.c - DuckDB's C library through dlopen (duckdb_dl.h). The declarations below are
 * DuckDB's stable C API as the library exports it (nm -D libduckdb.so); the deprecated
 * duckdb_query_arrow family is still the simplest way to have DuckDB export a result as
 * Arrow, and duckdb_arrow_scan to have it read a stream.
 */
#include "duckdb_dl.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PQT_SOURCE_DIR
#define PQT_SOURCE_DIR "."
#endif
#define DUCK_REL_PATH "bench/peers/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so"

/* ---- the C API, as declared by DuckDB ---- */
typedef uint64_t duck_idx;
typedef int duck_state; /* DuckDBSuccess = 0 */
typedef struct {
    void *internal_ptr;
} * duck_handle; /* duckdb_database, duckdb_connection, duckdb_arrow, ... */
typedef struct {
    duck_idx column_count, row_count, rows_changed;
    void *columns;
    char *error_message;
    void *internal_data;
} duck_result;

typedef struct duck_api {
    duck_state (*open)(const char *path, duck_handle *out);
    void (*close)(duck_handle *db);
    duck_state (*connect)(duck_handle db, duck_handle *out);
    void (*disconnect)(duck_handle *conn);
    duck_state (*query)(duck_handle conn, const char *sql, duck_result *out);
    void (*destroy_result)(duck_result *r);
    const char *(*result_error)(duck_result *r);
    duck_idx (*row_count)(duck_result *r);
    duck_idx (*column_count)(duck_result *r);
    int (*column_type)(duck_result *r, duck_idx col);
    char *(*value_varchar)(duck_result *r, duck_idx col, duck_idx row);
    bool (*value_is_null)(duck_result *r, duck_idx col, duck_idx row);
    void (*free)(void *p);
    duck_state (*query_arrow)(duck_handle conn, const char *sql, duck_handle *out);
    duck_state (*query_arrow_schema)(duck_handle res, duck_handle *out_schema);
    duck_state (*query_arrow_array)(duck_handle res, duck_handle *out_array);
    const char *(*query_arrow_error)(duck_handle res);
    void (*destroy_arrow)(duck_handle *res);
    duck_state (*arrow_scan)(duck_handle conn, const char *table, duck_handle stream);
} duck_api;

struct pqt_duck {
    void *lib;
    duck_api api;
    duck_handle db, conn;
    char err[1024];
};

static void set_err(pqt_duck *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err, sizeof d->err, fmt, ap);
    va_end(ap);
}

const char *pqt_duck_error(const pqt_duck *d)
{
    return d ? d->err : "no DuckDB";
}

static int load(pqt_duck *d, char *why, size_t cap)
{
#define SYM(field, name)                                                                           \
    do {                                                                                           \
        *(void **)&d->api.field = dlsym(d->lib, name);                                             \
        if (!d->api.field) {                                                                       \
            snprintf(why, cap, "libduckdb.so has no %s", name);                                    \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)
    SYM(open, "duckdb_open");
    SYM(close, "duckdb_close");
    SYM(connect, "duckdb_connect");
    SYM(disconnect, "duckdb_disconnect");
    SYM(query, "duckdb_query");
    SYM(destroy_result, "duckdb_destroy_result");
    SYM(result_error, "duckdb_result_error");
    SYM(row_count, "duckdb_row_count");
    SYM(column_count, "duckdb_column_count");
    SYM(column_type, "duckdb_column_type");
    SYM(value_varchar, "duckdb_value_varchar");
    SYM(value_is_null, "duckdb_value_is_null");
    SYM(free, "duckdb_free");
    SYM(query_arrow, "duckdb_query_arrow");
    SYM(query_arrow_schema, "duckdb_query_arrow_schema");
    SYM(query_arrow_array, "duckdb_query_arrow_array");
    SYM(query_arrow_error, "duckdb_query_arrow_error");
    SYM(destroy_arrow, "duckdb_destroy_arrow");
    SYM(arrow_scan, "duckdb_arrow_scan");
#undef SYM
    return 0;
}

int pqt_duck_open(pqt_duck **ret, char *why, size_t cap)
{
    *ret = NULL;
    char path[4096];
    const char *env = getenv("PQT_LIBDUCKDB");
    if (env && *env)
        snprintf(path, sizeof path, "%s", env);
    else
        snprintf(path, sizeof path, "%s/%s", PQT_SOURCE_DIR, DUCK_REL_PATH);
    if (access(path, R_OK) != 0) {
        snprintf(why, cap,
                 "no DuckDB library at %s (set PQT_LIBDUCKDB, or run "
                 "scripts/install-deps test)",
                 path);
        return 1;
    }
    pqt_duck *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    d->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!d->lib) {
        snprintf(why, cap, "dlopen %s: %s", path, dlerror());
        free(d);
        return -1;
    }
    if (load(d, why, cap) != 0 || d->api.open(NULL, &d->db) != 0 ||
        d->api.connect(d->db, &d->conn) != 0) {
        if (!*why) snprintf(why, cap, "DuckDB did not open an in-memory database");
        pqt_duck_close(d);
        return -1;
    }
    *ret = d;
    return 0;
}

void pqt_duck_close(pqt_duck *d)
{
    if (!d) return;
    if (d->conn) d->api.disconnect(&d->conn);
    if (d->db) d->api.close(&d->db);
    /* the library stays loaded: DuckDB's threads and atexit hooks may still reference it */
    free(d);
}

/* Append text to a growing string. */
static int append(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        size_t c = (*cap + n + 1) * 2;
        char *b = realloc(*buf, c);
        if (!b) return -1;
        *buf = b, *cap = c;
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
    return 0;
}

char *pqt_duck_text(pqt_duck *d, const char *sql)
{
    duck_result r;
    memset(&r, 0, sizeof r);
    if (d->api.query(d->conn, sql, &r) != 0) {
        const char *e = d->api.result_error(&r);
        set_err(d, "DuckDB: %s (query: %s)", e ? e : "query failed", sql);
        d->api.destroy_result(&r);
        return NULL;
    }
    duck_idx nrows = d->api.row_count(&r), ncols = d->api.column_count(&r);
    for (duck_idx j = 0; j < ncols; j++) {
        /* DuckDB's value calls do not fetch nested values (LIST, STRUCT, MAP, UNION, ARRAY:
         * duckdb_type 24, 25, 26, 28, 33): the query casts them to VARCHAR */
        int ty = d->api.column_type(&r, j);
        if (ty == 24 || ty == 25 || ty == 26 || ty == 28 || ty == 33) {
            set_err(d,
                    "column %llu of the result is nested (DuckDB type %d): cast it to VARCHAR "
                    "(query: %s)",
                    (unsigned long long)j + 1, ty, sql);
            d->api.destroy_result(&r);
            return NULL;
        }
    }
    char *out = NULL;
    size_t len = 0, cap = 0;
    int bad = append(&out, &len, &cap, "");
    for (duck_idx i = 0; i < nrows && !bad; i++) {
        for (duck_idx j = 0; j < ncols && !bad; j++) {
            if (j) bad |= append(&out, &len, &cap, "|");
            if (d->api.value_is_null(&r, j, i)) {
                bad |= append(&out, &len, &cap, "NULL");
                continue;
            }
            char *v = d->api.value_varchar(&r, j, i);
            bad |= append(&out, &len, &cap, v ? v : "?");
            if (v) d->api.free(v);
        }
        bad |= append(&out, &len, &cap, "\n");
    }
    d->api.destroy_result(&r);
    if (bad) {
        free(out);
        set_err(d, "out of memory");
        return NULL;
    }
    return out;
}

/* ---- a DuckDB Arrow result as an ArrowArrayStream ---- */
typedef struct duck_stream {
    pqt_duck *d;
    duck_handle res;
    char err[512];
} duck_stream;

static int ds_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    duck_stream *p = s->private_data;
    memset(out, 0, sizeof *out);
    duck_handle h = (duck_handle)out; /* DuckDB writes the ArrowSchema the handle points to */
    if (p->d->api.query_arrow_schema(p->res, &h) != 0) {
        snprintf(p->err, sizeof p->err, "%s", p->d->api.query_arrow_error(p->res));
        return EIO;
    }
    return 0;
}

static int ds_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    duck_stream *p = s->private_data;
    memset(out, 0, sizeof *out); /* an untouched array (release NULL) is the end */
    duck_handle h = (duck_handle)out;
    if (p->d->api.query_arrow_array(p->res, &h) != 0) {
        snprintf(p->err, sizeof p->err, "%s", p->d->api.query_arrow_error(p->res));
        return EIO;
    }
    return 0;
}

static const char *ds_last_error(struct ArrowArrayStream *s)
{
    duck_stream *p = s->private_data;
    return p->err;
}

static void ds_release(struct ArrowArrayStream *s)
{
    duck_stream *p = s->private_data;
    p->d->api.destroy_arrow(&p->res);
    free(p);
    s->release = NULL;
}

int pqt_duck_query_arrow(pqt_duck *d, const char *sql, struct ArrowArrayStream *out)
{
    duck_stream *p = calloc(1, sizeof *p);
    if (!p) {
        set_err(d, "out of memory");
        return -1;
    }
    p->d = d;
    if (d->api.query_arrow(d->conn, sql, &p->res) != 0) {
        set_err(d, "DuckDB: %s (query: %s)",
                p->res ? d->api.query_arrow_error(p->res) : "query failed", sql);
        if (p->res) d->api.destroy_arrow(&p->res);
        free(p);
        return -1;
    }
    out->get_schema = ds_get_schema;
    out->get_next = ds_get_next;
    out->get_last_error = ds_last_error;
    out->release = ds_release;
    out->private_data = p;
    return 0;
}

char *pqt_duck_scan_text(pqt_duck *d, struct ArrowArrayStream *in, const char *view,
                         const char *sql)
{
    char *out = NULL;
    if (d->api.arrow_scan(d->conn, view, (duck_handle)in) != 0)
        set_err(d, "DuckDB: duckdb_arrow_scan refused the stream as view %s", view);
    else
        out = pqt_duck_text(d, sql);
    /* the view refers to in: drop it before in goes; DuckDB leaves the stream to its owner */
    char drop[512], keep[sizeof d->err];
    snprintf(drop, sizeof drop, "DROP VIEW IF EXISTS \"%s\"", view);
    memcpy(keep, d->err, sizeof keep);
    free(pqt_duck_text(d, drop));
    memcpy(d->err, keep, sizeof keep);
    if (in->release) in->release(in);
    return out;
}
