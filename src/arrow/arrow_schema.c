/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_schema.c - a table's columns as Arrow fields (layer: arrow; docs/arrow.md
 * "Mapping"): which format each kind takes and how its values convert (pqt_ax_describe),
 * and the ArrowSchema trees of the C Data Interface with their release callbacks.
 */
#include <stdio.h>
#include <string.h>

#include "arrow/arrow_int.h"
#include "util/error.h"
#include "util/mem.h"

/* ---- describing columns ---- */

/* The Arrow element of slot's values (v described), and whether a DECIMAL is read unscaled. */
static pqt_status describe_elem(pqt_table *t, const pqt_tview_col *v, const char *call,
                                pqt_ax_elem *e, bool *unscaled)
{
    const pqt_col *fc = v->fcol;
    int conv = v->as_read && fc ? (int)fc->conv : PQT_CONV_NONE;
    static const char unit_ch[3] = {'m', 'u', 'n'};
    int u = v->time_unit >= 0 && v->time_unit <= 2 ? v->time_unit : 1;
    memset(e, 0, sizeof *e);
    e->how = PQT_AX_PLAIN;
    /* values the caller wrote may hold nulls the file column cannot */
    e->nullable = fc && v->as_read ? fc->nullable : true;
    *unscaled = false;
    switch (v->elem_kind) {
    case PQT_INT32:
        strcpy(e->format, "i");
        break;
    case PQT_INT64:
        strcpy(e->format, "l");
        break;
    case PQT_UINT64:
        strcpy(e->format, "L");
        break;
    case PQT_DATE:
        strcpy(e->format, "tdD");
        break;
    case PQT_BOOL:
        e->how = PQT_AX_BOOL, strcpy(e->format, "b");
        break;
    case PQT_BINARY:
        e->how = PQT_AX_BYTES, strcpy(e->format, "Z");
        break;
    case PQT_FLOAT32:
        if (conv == PQT_CONV_FLOAT16)
            e->how = PQT_AX_HALF, strcpy(e->format, "e");
        else
            strcpy(e->format, "f");
        break;
    case PQT_FLOAT64:
        /* a decimal still as read and still reachable in its file: its exact integers (pqt
         * reads them up to precision 38, int128; a wider one stays its doubles) */
        if (conv == PQT_CONV_DECIMAL && pqt_tview_attached(t) && !v->is_list &&
            fc->decimal_precision <= 38) {
            e->how = PQT_AX_DECIMAL;
            e->decimal_nbytes = 16;
            snprintf(e->format, sizeof e->format, "d:%d,%d", (int)fc->decimal_precision,
                     (int)fc->decimal_scale);
            *unscaled = true;
        } else {
            strcpy(e->format, "g");
        }
        break;
    case PQT_STRING:
        if (conv == PQT_CONV_UUID)
            e->how = PQT_AX_UUID, strcpy(e->format, "w:16");
        else
            e->how = PQT_AX_BYTES, strcpy(e->format, "U");
        break;
    case PQT_TIME:
        if (u == PQT_UNIT_MILLIS)
            e->how = PQT_AX_TIME32, strcpy(e->format, "ttm");
        else
            snprintf(e->format, sizeof e->format, "tt%c", unit_ch[u]);
        break;
    case PQT_TIMESTAMP:
        snprintf(e->format, sizeof e->format, "ts%c:%s", unit_ch[u],
                 fc && v->as_read && fc->utc ? "UTC" : "");
        break;
    default:
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' (%s) has no Arrow type", call,
                       v->name, pqt_kind_name(v->elem_kind));
    }
    return PQT_OK;
}

/* Describe slot into *c; vslot >= 0 pairs a map's values with its keys (slot). */
static pqt_status describe_col(pqt_table *t, int slot, int vslot, const char *call, pqt_ax_col *c)
{
    pqt_tview_col v;
    pqt_tview_describe(t, slot, &v);
    if (v.kind == PQT_NONE)
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' cannot be read", call, v.name);
    if (!v.kind_known) { /* a LIST: its width decides between fixed_size_list and list */
        int w;
        PQT_TRY(pqt_table_width(t, v.name, &w));
        pqt_tview_describe(t, slot, &v);
    }
    memset(c, 0, sizeof *c);
    c->slot = slot;
    c->vslot = vslot;
    c->name = v.name;
    PQT_TRY(describe_elem(t, &v, call, &c->elem, &c->unscaled));
    if (v.kind & PQT_VECTOR) {
        c->shape = PQT_AX_VECTOR;
        c->width = v.width;
    } else if (v.kind & PQT_LIST) {
        c->shape = PQT_AX_LIST;
        c->rows_nullable = v.fcol && v.as_read ? v.fcol->list_def > 0 : true;
        if (v.fcol && v.as_read) c->elem.nullable = v.fcol->max_def > v.fcol->elem_def;
    }
    if (c->shape != PQT_AX_SCALAR && c->elem.how == PQT_AX_DECIMAL) {
        /* lists of decimals keep their doubles: the unscaled read is for scalars */
        c->elem.how = PQT_AX_PLAIN;
        strcpy(c->elem.format, "g");
        c->unscaled = false;
    }
    /* a list inside a struct is a field of its struct, as a scalar is (a map's keys and
     * values are not: they make a map of their own) */
    bool in_map = v.fcol && v.fcol->in_map;
    bool nests = c->shape == PQT_AX_SCALAR || (c->shape == PQT_AX_LIST && !in_map && vslot < 0);
    c->depth = nests ? pqt_tview_struct_depth(t, slot) : 0;
    bool opt;
    if (c->depth > 0) pqt_tview_struct_node(t, slot, c->depth, &c->name, &opt);
    if (vslot >= 0) {
        pqt_tview_col vv;
        bool vu;
        pqt_tview_describe(t, vslot, &vv);
        PQT_TRY(describe_elem(t, &vv, call, &c->velem, &vu));
        if (c->velem.how == PQT_AX_DECIMAL)
            c->velem.how = PQT_AX_PLAIN, strcpy(c->velem.format, "g");
        c->velem.nullable = vv.fcol && vv.as_read ? vv.fcol->max_def > vv.fcol->elem_def : true;
        c->elem.nullable = false; /* Arrow map keys are never null, nor are Parquet's */
        c->shape = PQT_AX_MAP;
    }
    return PQT_OK;
}

/* The values slot pairing a map key slot ("m.key" then "m.value", both read from one MAP),
 * or -1. */
static int map_value_slot(const pqt_table *t, int slot)
{
    pqt_tview_col k, v;
    pqt_tview_describe(t, slot, &k);
    if (!k.fcol || !k.fcol->in_map || slot + 1 >= pqt_tview_ncols(t)) return -1;
    pqt_tview_describe(t, slot + 1, &v);
    size_t n = strlen(k.name);
    if (!v.fcol || !v.fcol->in_map || n < 4 || strcmp(k.name + n - 4, ".key") ||
        strncmp(k.name, v.name, n - 3) || strcmp(v.name + n - 3, "value") || v.kind == PQT_NONE)
        return -1;
    return slot + 1;
}

pqt_status pqt_ax_describe(pqt_table *t, const char *const *names, int n, const char *call,
                           pqt_ax_col **cols_ret, int *n_ret)
{
    int ns = pqt_tview_ncols(t), cap = names ? n : ns;
    pqt_ax_col *cols = pqt_calloc((size_t)cap + 1, sizeof *cols);
    if (!cols) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    int k = 0;
    pqt_status st = PQT_OK;
    for (int i = 0; i < cap && st == PQT_OK; i++) {
        int slot = names ? pqt_tview_find(t, names[i]) : i;
        if (slot < 0) {
            st = pqt_err(PQT_NOT_FOUND, "%s: no column '%s' in %s", call,
                         names[i] ? names[i] : "(null)", pqt_tview_where(t));
            break;
        }
        pqt_tview_col v;
        pqt_tview_describe(t, slot, &v);
        /* every readable column: not an unread one of a table detached from its file */
        if (!names && (v.kind == PQT_NONE || (!v.buf && v.fcol && !pqt_tview_attached(t))))
            continue;
        int vslot = names ? -1 : map_value_slot(t, slot);
        st = describe_col(t, slot, vslot, call, &cols[k]);
        if (st == PQT_OK) k++;
        if (vslot >= 0) i++;
    }
    if (st != PQT_OK) {
        pqt_mem_free(cols);
        return st;
    }
    *cols_ret = cols;
    *n_ret = k;
    return PQT_OK;
}

int pqt_ax_group_end(pqt_table *t, const pqt_ax_col *cols, int i, int end, int g)
{
    const char *name;
    bool opt;
    pqt_tview_struct_node(t, cols[i].slot, g, &name, &opt);
    int j = i + 1;
    for (; j < end && cols[j].depth > g; j++) {
        const char *other;
        pqt_tview_struct_node(t, cols[j].slot, g, &other, &opt);
        if (strcmp(name, other)) break;
    }
    return j;
}

/* ---- ArrowSchema trees ---- */

typedef struct ax_sch {
    char *format, *name, *metadata;
    struct ArrowSchema **kids;
} ax_sch;

static void sch_release(struct ArrowSchema *s)
{
    if (!s || !s->release) return;
    ax_sch *p = s->private_data;
    for (int64_t i = 0; p->kids && p->kids[i]; i++) { /* every kid made: released or still empty */
        if (p->kids[i]->release) p->kids[i]->release(p->kids[i]);
        pqt_mem_free(p->kids[i]);
    }
    pqt_mem_free(p->kids);
    pqt_mem_free(p->format);
    pqt_mem_free(p->name);
    pqt_mem_free(p->metadata);
    pqt_mem_free(p);
    s->release = NULL;
    pqt_ax_live_add(-1);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pqt_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Arrow's metadata encoding of kv[0..2n): int32 count, then per pair int32 length + bytes. */
static char *encode_meta(const char *const *kv, int n)
{
    if (n == 0) return NULL;
    size_t len = 4;
    for (int i = 0; i < 2 * n; i++)
        len += 4 + strlen(kv[i]);
    char *m = pqt_malloc(len), *p = m;
    if (!m) return NULL;
    int32_t c = n;
    memcpy(p, &c, 4), p += 4;
    for (int i = 0; i < 2 * n; i++) {
        int32_t l = (int32_t)strlen(kv[i]);
        memcpy(p, &l, 4), p += 4;
        memcpy(p, kv[i], (size_t)l), p += l;
    }
    return m;
}

/* A schema node with format, name, metadata pairs kv[0..2nkv) and nkids empty children. */
static pqt_status sch_new(const char *format, const char *name, const char *const *kv, int nkv,
                          int64_t flags, int nkids, struct ArrowSchema *out)
{
    ax_sch *p = pqt_calloc(1, sizeof *p);
    if (!p) return pqt_err(PQT_NOMEM, "out of memory exporting an Arrow schema");
    p->format = dup_str(format);
    p->name = dup_str(name);
    p->metadata = encode_meta(kv, nkv);
    p->kids = pqt_calloc((size_t)nkids + 1, sizeof *p->kids);
    bool ok = p->format && p->name && (nkv == 0 || p->metadata) && p->kids;
    for (int i = 0; ok && i < nkids; i++)
        ok = (p->kids[i] = pqt_calloc(1, sizeof **p->kids));
    memset(out, 0, sizeof *out);
    out->format = p->format;
    out->name = p->name;
    out->metadata = p->metadata;
    out->flags = flags;
    out->n_children = nkids;
    out->children = p->kids;
    out->private_data = p;
    out->release = sch_release;
    pqt_ax_live_add(1);
    if (!ok) {
        sch_release(out);
        return pqt_err(PQT_NOMEM, "out of memory exporting an Arrow schema");
    }
    return PQT_OK;
}

static pqt_status elem_schema(const pqt_ax_elem *e, const char *name, const char *const *kv,
                              int nkv, struct ArrowSchema *out)
{
    const char *all[16];
    int n = 0;
    if (e->how == PQT_AX_UUID) {
        all[0] = "ARROW:extension:name", all[1] = "arrow.uuid";
        all[2] = "ARROW:extension:metadata", all[3] = "";
        n = 2;
    }
    for (int i = 0; i < 2 * nkv && n < 8; i += 2, n++)
        all[2 * n] = kv[i], all[2 * n + 1] = kv[i + 1];
    return sch_new(e->format, name, all, n, e->nullable ? ARROW_FLAG_NULLABLE : 0, 0, out);
}

/* The unit and MAML description and ucd of slot, as metadata pairs into kv; their count. */
static int field_meta(pqt_table *t, int slot, const char **kv)
{
    pqt_tview_col v;
    pqt_tview_describe(t, slot, &v);
    int n = 0;
    if (v.unit && v.unit[0]) kv[0] = "unit", kv[1] = v.unit, n = 1;
    const char *val;
    pqt_err_mute();
    if (pqt_table_maml_field_value(t, v.name, "info", &val) == PQT_OK && val)
        kv[2 * n] = "description", kv[2 * n + 1] = val, n++;
    if (pqt_table_maml_field_value(t, v.name, "ucd", &val) == PQT_OK && val)
        kv[2 * n] = "ucd", kv[2 * n + 1] = val, n++;
    pqt_err_unmute();
    return n;
}

pqt_status pqt_ax_schema_col(pqt_table *t, const pqt_ax_col *c, struct ArrowSchema *out)
{
    const char *kv[6];
    int nkv = field_meta(t, c->slot, kv);
    char fmt[32];
    char name[512];
    snprintf(name, sizeof name, "%s", c->name);
    switch (c->shape) {
    case PQT_AX_SCALAR:
        return elem_schema(&c->elem, c->name, kv, nkv, out);
    case PQT_AX_VECTOR:
        snprintf(fmt, sizeof fmt, "+w:%d", c->width);
        PQT_TRY(sch_new(fmt, c->name, kv, nkv, 0, 1, out));
        break;
    case PQT_AX_LIST:
        PQT_TRY(
            sch_new("+L", c->name, kv, nkv, c->rows_nullable ? ARROW_FLAG_NULLABLE : 0, 1, out));
        break;
    case PQT_AX_MAP: {
        size_t n = strlen(name);
        if (n > 4 && !strcmp(name + n - 4, ".key")) name[n - 4] = 0;
        PQT_TRY(sch_new("+m", name, kv, nkv, c->rows_nullable ? ARROW_FLAG_NULLABLE : 0, 1, out));
        struct ArrowSchema *ent = out->children[0];
        pqt_status st = sch_new("+s", "entries", NULL, 0, 0, 2, ent);
        if (st == PQT_OK) st = elem_schema(&c->elem, "key", NULL, 0, ent->children[0]);
        if (st == PQT_OK) st = elem_schema(&c->velem, "value", NULL, 0, ent->children[1]);
        if (st != PQT_OK) out->release(out);
        return st;
    }
    }
    pqt_status st = elem_schema(&c->elem, "item", NULL, 0, out->children[0]);
    if (st != PQT_OK) out->release(out);
    return st;
}

/* Fields of cols[i..end) at struct level g into kids (consecutive), *nkids_ret of them. */
static pqt_status fields(pqt_table *t, const pqt_ax_col *cols, int i, int end, int g,
                         struct ArrowSchema **kids, int *nkids_ret)
{
    int k = 0;
    pqt_status st = PQT_OK;
    while (i < end && st == PQT_OK) {
        if (cols[i].depth <= g) {
            st = pqt_ax_schema_col(t, &cols[i], kids[k]);
            if (st == PQT_OK) k++;
            i++;
            continue;
        }
        int j = pqt_ax_group_end(t, cols, i, end, g), n = 0;
        for (int m = i;
             m<j; m = cols[m].depth> g + 1 ? pqt_ax_group_end(t, cols, m, j, g + 1) : m + 1)
            n++;
        const char *name;
        bool opt = true;
        pqt_tview_struct_node(t, cols[i].slot, g, &name, &opt);
        st = sch_new("+s", name, NULL, 0, opt ? ARROW_FLAG_NULLABLE : 0, n, kids[k]);
        if (st == PQT_OK) {
            int got = 0;
            st = fields(t, cols, i, j, g + 1, kids[k]->children, &got);
            if (st != PQT_OK)
                kids[k]->release(kids[k]);
            else
                k++;
        }
        i = j;
    }
    *nkids_ret = k;
    return st;
}

pqt_status pqt_ax_schema(pqt_table *t, const pqt_ax_col *cols, int ncols, struct ArrowSchema *out)
{
    int n = 0;
    for (int m = 0; m<ncols; m = cols[m].depth> 0 ? pqt_ax_group_end(t, cols, m, ncols, 0) : m + 1)
        n++;
    PQT_TRY(sch_new("+s", "", NULL, 0, 0, n, out));
    int got = 0;
    pqt_status st = fields(t, cols, 0, ncols, 0, out->children, &got);
    if (st != PQT_OK) out->release(out);
    return st;
}
