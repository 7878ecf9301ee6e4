/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_opts.c - pqt_write_opts: the writer's options, defaults and setters (layer: write).
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"
#include "util/mem.h"
#include "write/write_int.h"

static void set_defaults(pqt_write_opts *o)
{
    memset(o, 0, sizeof *o);
    o->codec = PQT_WRITE_ZSTD;
    o->dictionary = true;
    o->statistics = true;
    o->page_index = true;
    o->copy_metadata = true;
    o->background_io = true;
    o->leave_out = true;
    o->page_version = 1;
    o->threads = 1;
    o->dict_nbytes = 1 << 20;
    o->max_partitions = 10000;
    o->page_nbytes = 1 << 20;
    o->rg_rows = 1 << 20;
    o->rg_nbytes = (int64_t)256 << 20;
    o->bloom_fpp = 0.01;
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++) pqt_mem_free(v[i]);
    pqt_mem_free(v);
}

void pqt_wopts_clear(pqt_write_opts *o)
{
    if (!o) return;
    free_list(o->bloom_cols, o->nbloom);
    free_list(o->meta_keys, o->nmeta_keys);
    free_list(o->kv, o->nkv);
    pqt_mem_free(o->row_index_name);
    pqt_mem_free(o->maml_path);
    pqt_mem_free(o->maml_text);
    pqt_mem_free(o->file_date);
    set_defaults(o);
}

static pqt_status copy_list(char ***dst, char *const *src, int n)
{
    *dst = NULL;
    if (n == 0) return PQT_OK;
    char **v = pqt_calloc((size_t)n, sizeof *v);
    if (!v) return PQT_NOMEM;
    for (int i = 0; i < n; i++) {
        v[i] = pqt_strdup(src[i]);
        if (!v[i]) {
            free_list(v, i);
            return PQT_NOMEM;
        }
    }
    *dst = v;
    return PQT_OK;
}

pqt_status pqt_wopts_copy(pqt_write_opts *dst, const pqt_write_opts *src)
{
    set_defaults(dst);
    if (!src) return PQT_OK;
    pqt_write_opts o = *src;
    o.bloom_cols = o.meta_keys = o.kv = NULL;
    o.row_index_name = o.maml_path = o.maml_text = o.file_date = NULL;
    if (copy_list(&o.bloom_cols, src->bloom_cols, src->nbloom) != PQT_OK ||
        copy_list(&o.meta_keys, src->meta_keys, src->nmeta_keys) != PQT_OK ||
        copy_list(&o.kv, src->kv, src->nkv) != PQT_OK ||
        (src->row_index_name && !(o.row_index_name = pqt_strdup(src->row_index_name))) ||
        (src->maml_path && !(o.maml_path = pqt_strdup(src->maml_path))) ||
        (src->maml_text && !(o.maml_text = pqt_strdup(src->maml_text))) ||
        (src->file_date && !(o.file_date = pqt_strdup(src->file_date)))) {
        pqt_wopts_clear(&o);
        return pqt_err(PQT_NOMEM, "out of memory copying write options");
    }
    *dst = o;
    return PQT_OK;
}

pqt_status pqt_write_opts_new(pqt_write_opts **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_write_opts_new: ret is NULL");
    pqt_write_opts *o = pqt_calloc(1, sizeof *o);
    if (!o) return pqt_err(PQT_NOMEM, "pqt_write_opts_new: out of memory");
    set_defaults(o);
    *ret = o;
    return PQT_OK;
}

void pqt_write_opts_free(pqt_write_opts *o)
{
    if (!o) return;
    pqt_wopts_clear(o);
    pqt_mem_free(o);
}

static const struct {
    const char *name;
    int codec;
} codec_names[] = {
    {"none", PQT_WRITE_UNCOMPRESSED}, {"uncompressed", PQT_WRITE_UNCOMPRESSED},
    {"snappy", PQT_WRITE_SNAPPY},     {"gzip", PQT_WRITE_GZIP},
    {"brotli", PQT_WRITE_BROTLI},     {"zstd", PQT_WRITE_ZSTD},
    {"lz4_raw", PQT_WRITE_LZ4_RAW},   {"lz4", PQT_WRITE_LZ4_RAW},
};

static bool codec_valid(int64_t v)
{
    for (size_t i = 0; i < sizeof codec_names / sizeof codec_names[0]; i++)
        if (codec_names[i].codec == v) return true;
    return false;
}

static pqt_status bad(const char *call, int opt, const char *why)
{
    return pqt_err(PQT_MISUSE, "%s: write option %d: %s", call, opt, why);
}

pqt_status pqt_write_opts_set_int(pqt_write_opts *o, pqt_wopt opt, int64_t v)
{
    const char *call = "pqt_write_opts_set_int";
    if (!o) return pqt_err(PQT_MISUSE, "%s: options are NULL", call);
    bool flag = v == 0 || v == 1;
    switch (opt) {
    case PQT_WOPT_CODEC:
        if (!codec_valid(v))
            return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_CODEC: %lld is not a codec pqt writes "
                                       "(0 none, 1 snappy, 2 gzip, 4 brotli, 6 zstd, 7 lz4_raw)",
                           call, (long long)v);
        o->codec = (int)v;
        return PQT_OK;
    case PQT_WOPT_CODEC_LEVEL:
        if (v < -131072 || v > 22)
            return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_CODEC_LEVEL: %lld is out of range", call,
                           (long long)v);
        o->level = (int)v;
        o->level_set = true;
        return PQT_OK;
    case PQT_WOPT_PAGE_VERSION:
        if (v != 1 && v != 2)
            return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_PAGE_VERSION: %lld is neither 1 nor 2", call,
                           (long long)v);
        o->page_version = (int)v;
        return PQT_OK;
    case PQT_WOPT_DICTIONARY_NBYTES:
    case PQT_WOPT_PAGE_NBYTES:
    case PQT_WOPT_ROW_GROUP_ROWS:
    case PQT_WOPT_ROW_GROUP_NBYTES:
    case PQT_WOPT_BLOOM_NDV:
        if (v <= 0 || (opt != PQT_WOPT_ROW_GROUP_ROWS && opt != PQT_WOPT_BLOOM_NDV && v > INT32_MAX))
            return pqt_err(PQT_MISUSE, "%s: write option %d: %lld is out of range (1..%s)", call,
                           (int)opt, (long long)v,
                           opt == PQT_WOPT_ROW_GROUP_ROWS || opt == PQT_WOPT_BLOOM_NDV ? "2^63-1"
                                                                                       : "2^31-1");
        if (opt == PQT_WOPT_DICTIONARY_NBYTES) o->dict_nbytes = v;
        else if (opt == PQT_WOPT_PAGE_NBYTES) o->page_nbytes = v;
        else if (opt == PQT_WOPT_ROW_GROUP_ROWS) o->rg_rows = v;
        else if (opt == PQT_WOPT_ROW_GROUP_NBYTES) o->rg_nbytes = v;
        else o->bloom_ndv = v;
        if (opt == PQT_WOPT_ROW_GROUP_ROWS || opt == PQT_WOPT_ROW_GROUP_NBYTES) o->rg_limit_set = true;
        return PQT_OK;
    case PQT_WOPT_MAX_PARTITIONS:
        if (v < 1) return bad(call, opt, "the partition cap must be at least 1");
        o->max_partitions = v;
        return PQT_OK;
    case PQT_WOPT_THREADS:
        if (v < 0 || v > 4096) return bad(call, opt, "threads must be 0..4096");
        o->threads = (int)v;
        return PQT_OK;
    case PQT_WOPT_DICTIONARY:
    case PQT_WOPT_STATISTICS:
    case PQT_WOPT_PAGE_INDEX:
    case PQT_WOPT_PAGE_CRC:
    case PQT_WOPT_OVERWRITE:
    case PQT_WOPT_COPY_METADATA:
    case PQT_WOPT_WRITE_MAML:
    case PQT_WOPT_BACKGROUND_IO:
    case PQT_WOPT_LEAVE_OUT:
        if (!flag)
            return pqt_err(PQT_MISUSE, "%s: write option %d takes 0 or 1, not %lld", call,
                           (int)opt, (long long)v);
        if (opt == PQT_WOPT_DICTIONARY) o->dictionary = v;
        else if (opt == PQT_WOPT_STATISTICS) o->statistics = v;
        else if (opt == PQT_WOPT_PAGE_INDEX) o->page_index = v;
        else if (opt == PQT_WOPT_PAGE_CRC) o->page_crc = v;
        else if (opt == PQT_WOPT_OVERWRITE) o->overwrite = v;
        else if (opt == PQT_WOPT_WRITE_MAML) o->write_maml = v;
        else if (opt == PQT_WOPT_BACKGROUND_IO) o->background_io = v;
        else if (opt == PQT_WOPT_LEAVE_OUT) o->leave_out = v;
        else o->copy_metadata = v;
        return PQT_OK;
    default:
        return pqt_err(PQT_MISUSE, "%s: write option %d takes no integer", call, (int)opt);
    }
}

static pqt_status push(char ***v, int *n, const char *s)
{
    char *d = pqt_strdup(s);
    char **nv = d ? pqt_realloc(*v, ((size_t)*n + 1) * sizeof *nv) : NULL;
    if (!nv) {
        pqt_mem_free(d);
        return pqt_err(PQT_NOMEM, "pqt_write_opts_set_str: out of memory");
    }
    nv[(*n)++] = d;
    *v = nv;
    return PQT_OK;
}

pqt_status pqt_write_opts_set_str(pqt_write_opts *o, pqt_wopt opt, const char *v)
{
    const char *call = "pqt_write_opts_set_str";
    if (!o || !v) return pqt_err(PQT_MISUSE, "%s: options or value is NULL", call);
    switch (opt) {
    case PQT_WOPT_CODEC:
        for (size_t i = 0; i < sizeof codec_names / sizeof codec_names[0]; i++) {
            if (strcasecmp(codec_names[i].name, v) == 0) {
                o->codec = codec_names[i].codec;
                return PQT_OK;
            }
        }
        return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_CODEC: unknown codec '%s' (zstd, snappy, gzip, "
                                   "lz4_raw, brotli, none)",
                       call, v);
    case PQT_WOPT_BLOOM_COLUMN:
        if (!*v) return bad(call, opt, "empty column name");
        return push(&o->bloom_cols, &o->nbloom, v);
    case PQT_WOPT_METADATA_KEY:
        return push(&o->meta_keys, &o->nmeta_keys, v);
    case PQT_WOPT_METADATA:
        if (!strchr(v, '='))
            return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_METADATA: '%s' is not key=value", call, v);
        return push(&o->kv, &o->nkv, v);
    case PQT_WOPT_ROW_INDEX_NAME: {
        if (!*v) return bad(call, opt, "empty column name");
        char *d = pqt_strdup(v);
        if (!d) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        pqt_mem_free(o->row_index_name);
        o->row_index_name = d;
        return PQT_OK;
    }
    case PQT_WOPT_MAML:
    case PQT_WOPT_MAML_TEXT: {
        /* read and parsed at write open, so one option object serves several writes */
        if (opt == PQT_WOPT_MAML && !*v) return bad(call, opt, "empty MAML path");
        char *d = pqt_strdup(v);
        if (!d) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        pqt_mem_free(o->maml_path);
        pqt_mem_free(o->maml_text);
        o->maml_path = o->maml_text = NULL;
        if (opt == PQT_WOPT_MAML) o->maml_path = d;
        else o->maml_text = d;
        return PQT_OK;
    }
    case PQT_WOPT_FILE_DATE: {
        if (*v && !pqt_wmeta_date_valid(v)) /* "": no DATE entry */
            return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_FILE_DATE: '%s' is not a date and time "
                                       "YYYY-MM-DDTHH:MM:SS",
                           call, v);
        char *d = pqt_strdup(v);
        if (!d) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        pqt_mem_free(o->file_date);
        o->file_date = d;
        return PQT_OK;
    }
    default:
        return pqt_err(PQT_MISUSE, "%s: write option %d takes no text", call, (int)opt);
    }
}

pqt_status pqt_write_opts_set_double(pqt_write_opts *o, pqt_wopt opt, double v)
{
    const char *call = "pqt_write_opts_set_double";
    if (!o) return pqt_err(PQT_MISUSE, "%s: options are NULL", call);
    if (opt != PQT_WOPT_BLOOM_FPP)
        return pqt_err(PQT_MISUSE, "%s: write option %d takes no double", call, (int)opt);
    if (!(v > 0 && v < 1))
        return pqt_err(PQT_MISUSE, "%s: PQT_WOPT_BLOOM_FPP: %g is not in (0, 1)", call, v);
    o->bloom_fpp = v;
    return PQT_OK;
}
