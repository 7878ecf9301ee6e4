/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_meta.c - the key-value entries every written file gets (layer: write;
 * docs/writing.md, "Units and metadata"; the IVOA VOParquet Note 1.0): DATE (the close time, UTC,
 * or SOURCE_DATE_EPOCH's, or PQT_WOPT_FILE_DATE, whose "" leaves DATE out), name (the MAML's
 * table: or the file's stem), IVOA.VOTable-Parquet.version = 1.0 and .content (a data-less
 * VOTable with one FIELD per column, in column order), and column.<name>.col_size (a vector's
 * width) / .array_size (a string column's MAML array_size:, `auto` resolved to the longest value).
 *
 * The entries are reserved at open between the ones copied from the source file and the
 * user's (MAML, PQT_WOPT_METADATA): a copied entry of the same key is replaced, a user's one
 * wins (except DATE under PQT_WOPT_FILE_DATE). Their values are known only at close.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "maml/maml.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"

enum { SLOT_DATE, SLOT_NAME, SLOT_VERSION, SLOT_CONTENT, SLOT_COL_SIZE, SLOT_ARRAY_SIZE };

typedef struct pqt_wmeta_slot {
    int what, col;
    int kv;               /* index of the entry in w->kv */
    const char *reserved; /* its value when reserved: another value means a user set it */
} pqt_wmeta_slot;

bool pqt_wmeta_date_valid(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    if (strlen(s) != sizeof shape - 1) return false;
    for (size_t i = 0; shape[i]; i++) {
        if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i]) return false;
    }
    int y, mo, d, h, mi, se;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) != 6) return false;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap))
        return false;
    return h <= 23 && mi <= 59 && se <= 59;
}

/* The MAML field of output column c, or NULL. */
static const pqt_maml_field *field_of(const pqt_writer *w, const pqt_wcol *c)
{
    return w->maml ? pqt_maml_field_find(w->maml, c->name) : NULL;
}

static bool is_auto(const char *v)
{
    return v && strcasecmp(v, "auto") == 0;
}

static bool positive_int(const char *v)
{
    if (!v || !*v) return false;
    for (const char *p = v; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return strspn(v, "0") < strlen(v);
}

static const char *const fixed_keys[4] = {"DATE", "name", "IVOA.VOTable-Parquet.version",
                                          "IVOA.VOTable-Parquet.content"};

/* Which size entries column k gets: bit 1 col_size (a list that may be a vector), bit 2
 * array_size (a string with a MAML array_size:). */
static int size_keys(const pqt_writer *w, int k)
{
    const pqt_wcol *c = &w->cols[k];
    const pqt_maml_field *f = field_of(w, c);
    return (c->is_list ? 1 : 0) |
           (c->elem_kind == PQT_STRING && !c->is_list && f &&
                    (positive_int(f->array_size) || is_auto(f->array_size))
                ? 2
                : 0);
}

/* A key this file regenerates: a copied entry of it is dropped. */
static bool regenerated(const pqt_writer *w, const char *key, size_t kn)
{
    for (int i = 0; i < 4; i++)
        if (strlen(fixed_keys[i]) == kn && memcmp(fixed_keys[i], key, kn) == 0) return true;
    if (kn < 7 || memcmp(key, "column.", 7) != 0) return false;
    for (int b = 1; b <= 2; b++) {
        const char *suffix = b == 1 ? ".col_size" : ".array_size";
        size_t sn = strlen(suffix);
        if (kn < 7 + sn || memcmp(key + kn - sn, suffix, sn) != 0) continue;
        size_t nn = kn - 7 - sn;
        for (int k = 0; k < w->ncols; k++)
            if (strlen(w->cols[k].name) == nn && memcmp(w->cols[k].name, key + 7, nn) == 0)
                return (size_keys(w, k) & b) != 0;
    }
    return false;
}

static pqt_status reserve(pqt_writer *w, int what, int col, const char *key)
{
    PQT_TRY(pqt_writer_add_kv(w, key, strlen(key), "", 0, false));
    pqt_wmeta_slot *s = &w->slots[w->nslots++];
    s->what = what;
    s->col = col;
    s->kv = w->nkv - 1;
    s->reserved = w->kv[s->kv].value;
    return PQT_OK;
}

pqt_status pqt_wmeta_reserve(pqt_writer *w)
{
    int n = w->ncols;
    w->slots = pqt_calloc((size_t)(4 + 2 * n), sizeof *w->slots);
    w->obs_width = pqt_calloc((size_t)n + 1, sizeof *w->obs_width);
    w->obs_strlen = pqt_calloc((size_t)n + 1, sizeof *w->obs_strlen);
    if (!w->slots || !w->obs_width || !w->obs_strlen) return pqt_err(PQT_NOMEM, "out of memory");
    int m = 0; /* entries copied from the source under a regenerated key (even repeated): gone */
    for (int i = 0; i < w->nkv; i++)
        if (!regenerated(w, w->kv[i].key, w->kv[i].key_len)) w->kv[m++] = w->kv[i];
    w->nkv = m;
    for (int i = 0; i < 4; i++) PQT_TRY(reserve(w, SLOT_DATE + i, -1, fixed_keys[i]));
    char key[600];
    for (int k = 0; k < n; k++) {
        const pqt_wcol *c = &w->cols[k];
        int want = size_keys(w, k);
        w->obs_width[k] = -2;
        w->obs_strlen[k] = -1;
        if (want & 1) {
            int kn = snprintf(key, sizeof key, "column.%s.col_size", c->name);
            if (kn > 0 && (size_t)kn < sizeof key) PQT_TRY(reserve(w, SLOT_COL_SIZE, k, key));
        }
        if (want & 2) {
            int kn = snprintf(key, sizeof key, "column.%s.array_size", c->name);
            if (kn > 0 && (size_t)kn < sizeof key) PQT_TRY(reserve(w, SLOT_ARRAY_SIZE, k, key));
            if (is_auto(field_of(w, c)->array_size)) w->obs_strlen[k] = 0;
        }
    }
    return PQT_OK;
}

static bool row_valid(const uint8_t *bits, int64_t r)
{
    return !bits || (bits[r >> 3] >> (r & 7)) & 1;
}

void pqt_wmeta_observe_col(pqt_writer *w, int k, const pqt_colbuf *b, int64_t r0, int64_t n)
{
    if (!b) return;
    if (w->cols[k].is_list && w->obs_width[k] != -1 && b->list_offsets) {
        int64_t wd = w->obs_width[k];
        for (int64_t r = r0; r < r0 + n && wd != -1; r++) {
            int64_t len = b->list_offsets[r + 1] - b->list_offsets[r];
            /* a vector has no null rows and at least one element (as a read measures) */
            if (!row_valid(b->row_validity, r) || len < 1 || (wd >= 0 && len != wd)) wd = -1;
            else wd = len;
        }
        w->obs_width[k] = wd;
    }
    if (w->obs_strlen[k] >= 0 && !b->is_list && b->str_offsets) {
        int64_t m = w->obs_strlen[k];
        for (int64_t r = r0; r < r0 + n; r++) {
            int64_t len = b->str_offsets[r + 1] - b->str_offsets[r];
            if (len > m) m = len;
        }
        w->obs_strlen[k] = m;
    }
}

/* ---- the VOTable ---- */

/* Text for XML: markup characters as entities; in an attribute also tab and line ends, which
 * attribute normalisation would otherwise turn into spaces; control characters XML 1.0
 * cannot hold become '?'. */
static pqt_status put_xml(pqt_buf *b, const char *s, bool attr)
{
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        const char *e = NULL;
        char num[8];
        switch (ch) {
        case '&': e = "&amp;"; break;
        case '<': e = "&lt;"; break;
        case '>': e = "&gt;"; break;
        case '"': e = attr ? "&quot;" : NULL; break;
        case '\t':
        case '\n':
        case '\r':
            if (attr) {
                snprintf(num, sizeof num, "&#%d;", ch);
                e = num;
            }
            break;
        default:
            if (ch < 0x20) e = "?";
        }
        PQT_TRY(e ? pqt_buf_append(b, e, strlen(e)) : pqt_buf_append(b, p, 1));
    }
    return PQT_OK;
}

static pqt_status put_s(pqt_buf *b, const char *s)
{
    return pqt_buf_append(b, s, strlen(s));
}

static pqt_status put_attr(pqt_buf *b, const char *name, const char *v)
{
    if (!v || !*v) return PQT_OK;
    PQT_TRY(put_s(b, " "));
    PQT_TRY(put_s(b, name));
    PQT_TRY(put_s(b, "=\""));
    PQT_TRY(put_xml(b, v, true));
    return put_s(b, "\"");
}

/* The value of entry key in the entries written so far (the last one), or NULL. */
static const char *kv_value(const pqt_writer *w, const char *key)
{
    size_t kn = strlen(key);
    for (int i = w->nkv - 1; i >= 0; i--)
        if (w->kv[i].key_len == kn && memcmp(w->kv[i].key, key, kn) == 0) return w->kv[i].value;
    return NULL;
}

static const char *column_value(const pqt_writer *w, const pqt_wcol *c, const char *what)
{
    char key[600];
    int kn = snprintf(key, sizeof key, "column.%s.%s", c->name, what);
    if (kn < 0 || (size_t)kn >= sizeof key) return NULL;
    return kv_value(w, key);
}

/* VOTable datatype of a column's values (best effort where VOTable has no such type, as the
 * Note asks: 64-bit unsigned as long, dates and times as text). */
static const char *vot_type(const pqt_wcol *c, const char **xtype)
{
    *xtype = NULL;
    bool narrow_int = c->logical.id == PQT_LT_INTEGER;
    switch (c->elem_kind) {
    case PQT_BOOL: return "boolean";
    case PQT_INT32:
        if (narrow_int && c->logical.bit_width == 8) return c->logical.is_signed ? "short" : "unsignedByte";
        if (narrow_int && c->logical.bit_width == 16) return c->logical.is_signed ? "short" : "int";
        return "int";
    case PQT_INT64:
    case PQT_UINT64: return "long";
    case PQT_FLOAT32: return "float";
    case PQT_FLOAT64: return "double";
    case PQT_DATE:
    case PQT_TIMESTAMP: *xtype = "timestamp"; return "char";
    default: return "char"; /* strings, times of day */
    }
}

static pqt_status votable(const pqt_writer *w, const char *name, pqt_buf *b)
{
    char num[40];
    PQT_TRY(put_s(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<VOTABLE version=\"1.4\" xmlns=\"http://www.ivoa.net/xml/VOTable/v1.3\">\n"
                     "<RESOURCE type=\"results\">\n<TABLE"));
    PQT_TRY(put_attr(b, "name", name));
    snprintf(num, sizeof num, "%lld", (long long)w->nrows);
    PQT_TRY(put_attr(b, "nrows", num));
    PQT_TRY(put_s(b, ">\n"));
    const char *desc = w->maml ? pqt_maml_value(w->maml, "description") : NULL;
    if (desc && *desc) {
        PQT_TRY(put_s(b, "<DESCRIPTION>"));
        PQT_TRY(put_xml(b, desc, false));
        PQT_TRY(put_s(b, "</DESCRIPTION>\n"));
    }
    for (int k = 0; k < w->ncols; k++) {
        const pqt_wcol *c = &w->cols[k];
        const char *xtype;
        const char *type = vot_type(c, &xtype);
        const char *size = NULL;
        if (strcmp(type, "char") == 0) { /* text: variable length, or up to array_size */
            const char *as = column_value(w, c, "array_size");
            if (!c->is_list && positive_int(as)) snprintf(num, sizeof num, "%s*", as);
            size = !c->is_list && positive_int(as) ? num : "*";
        } else if (c->is_list) {
            const char *cs = column_value(w, c, "col_size");
            size = positive_int(cs) ? cs : "*";
        }
        PQT_TRY(put_s(b, "<FIELD"));
        PQT_TRY(put_attr(b, "name", c->name));
        PQT_TRY(put_attr(b, "datatype", type));
        PQT_TRY(put_attr(b, "arraysize", size));
        PQT_TRY(put_attr(b, "xtype", xtype));
        PQT_TRY(put_attr(b, "unit", column_value(w, c, "unit")));
        PQT_TRY(put_attr(b, "ucd", column_value(w, c, "ucd")));
        const char *d = column_value(w, c, "description");
        if (d && *d) {
            PQT_TRY(put_s(b, ">\n<DESCRIPTION>"));
            PQT_TRY(put_xml(b, d, false));
            PQT_TRY(put_s(b, "</DESCRIPTION>\n</FIELD>\n"));
        } else {
            PQT_TRY(put_s(b, "/>\n"));
        }
    }
    return put_s(b, "</TABLE>\n</RESOURCE>\n</VOTABLE>\n");
}

/* ---- close ---- */

/* Reproducible builds' SOURCE_DATE_EPOCH (docs/writing.md): when set to a decimal count of
 * seconds since 1970-01-01 UTC (0 up to year 9999), it is the DATE written instead of the
 * clock's, so two writes of the same rows are the same bytes. Any other value is ignored. */
static void source_date_epoch(time_t *t)
{
    const char *e = getenv("SOURCE_DATE_EPOCH");
    if (!e || !*e || strlen(e) > 12) return;
    long long v = 0;
    for (const char *p = e; *p; p++) {
        if (*p < '0' || *p > '9') return;
        v = v * 10 + (*p - '0');
    }
    if (v > 253402300799LL) return; /* 9999-12-31T23:59:59: DATE has four year digits */
    *t = (time_t)v;
}

static pqt_status set_value(pqt_writer *w, int at, const char *v, size_t n)
{
    char *d = pqt_arena_alloc(&w->arena, n + 1);
    if (!d) return pqt_err(PQT_NOMEM, "out of memory");
    memcpy(d, v, n);
    w->kv[at].value = d;
    w->kv[at].value_len = (uint32_t)n;
    return PQT_OK;
}

pqt_status pqt_wmeta_fill(pqt_writer *w)
{
    bool *drop = pqt_calloc((size_t)w->nkv + 1, sizeof *drop);
    if (!drop) return pqt_err(PQT_NOMEM, "out of memory");
    pqt_status st = PQT_OK;
    char v[64];
    /* name first: the VOTable's TABLE takes it */
    const char *name = NULL;
    char *stem = NULL;
    for (int i = 0; i < w->nslots; i++) {
        if (w->slots[i].what != SLOT_NAME) continue;
        if (w->kv[w->slots[i].kv].value != w->slots[i].reserved) {
            name = w->kv[w->slots[i].kv].value; /* the user's */
            break;
        }
        name = w->maml ? pqt_maml_value(w->maml, "table") : NULL;
        if (!name || !*name) {
            const char *base = strrchr(w->path, '/');
            stem = pqt_sidecar_path(base ? base + 1 : w->path);
            if (!stem) {
                pqt_mem_free(drop);
                return pqt_err(PQT_NOMEM, "out of memory");
            }
            stem[strlen(stem) - 5] = '\0'; /* the sidecar's table: stem, without .maml */
            name = stem;
        }
        st = set_value(w, w->slots[i].kv, name, strlen(name));
    }
    for (int i = 0; i < w->nslots && st == PQT_OK; i++) {
        const pqt_wmeta_slot *s = &w->slots[i];
        bool user = w->kv[s->kv].value != s->reserved;
        if (s->what == SLOT_DATE && w->o.file_date) {
            if (!w->o.file_date[0]) /* "": no DATE entry at all (a user's one goes too) */
                drop[s->kv] = true;
            else
                st = set_value(w, s->kv, w->o.file_date, strlen(w->o.file_date));
            continue;
        }
        if (user || s->what == SLOT_NAME || s->what == SLOT_CONTENT) continue;
        if (s->what == SLOT_DATE) {
            time_t now = time(NULL);
            source_date_epoch(&now);
            struct tm tm;
            if (!gmtime_r(&now, &tm) || strftime(v, sizeof v, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
                snprintf(v, sizeof v, "1970-01-01T00:00:00");
            st = set_value(w, s->kv, v, strlen(v));
        } else if (s->what == SLOT_VERSION) {
            st = set_value(w, s->kv, "1.0", 3);
        } else if (s->what == SLOT_COL_SIZE) {
            int64_t wd = w->obs_width[s->col];
            if (wd == -2 && w->cols[s->col].tmpl_width > 0)
                wd = w->cols[s->col].tmpl_width; /* no rows: the template's width */
            if (wd > 0) {
                snprintf(v, sizeof v, "%lld", (long long)wd);
                st = set_value(w, s->kv, v, strlen(v));
            } else {
                drop[s->kv] = true; /* a list: no size (a copied entry goes too) */
            }
        } else if (s->what == SLOT_ARRAY_SIZE) {
            const pqt_maml_field *f = field_of(w, &w->cols[s->col]);
            int64_t m = w->obs_strlen[s->col];
            if (m >= 0) snprintf(v, sizeof v, "%lld", (long long)(m > 0 ? m : 1));
            else snprintf(v, sizeof v, "%s", f && f->array_size ? f->array_size : "1");
            st = set_value(w, s->kv, v, strlen(v));
        }
    }
    /* the VOTable last: it describes the entries above */
    for (int i = 0; i < w->nslots && st == PQT_OK; i++) {
        const pqt_wmeta_slot *s = &w->slots[i];
        if (s->what != SLOT_CONTENT || w->kv[s->kv].value != s->reserved) continue;
        pqt_buf b = {0};
        st = votable(w, name, &b);
        if (st == PQT_OK) st = set_value(w, s->kv, (const char *)b.data, b.len);
        pqt_buf_free(&b);
    }
    pqt_mem_free(stem);
    int m = 0;
    for (int i = 0; i < w->nkv; i++)
        if (!drop[i]) w->kv[m++] = w->kv[i];
    w->nkv = m;
    pqt_mem_free(drop);
    pqt_wmeta_free(w); /* the slots' indexes are stale now */
    return st;
}

void pqt_wmeta_free(pqt_writer *w)
{
    pqt_mem_free(w->slots);
    pqt_mem_free(w->obs_width);
    pqt_mem_free(w->obs_strlen);
    w->slots = NULL;
    w->obs_width = w->obs_strlen = NULL;
    w->nslots = 0;
}
