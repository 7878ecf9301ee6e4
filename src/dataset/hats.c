/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hats.c - the HATS layout of a HEALPix-partitioned catalogue (layer: dataset): hats.properties
 * (the ra/dec column names), partition_info.csv (one row per partition: Norder, Npix) and each
 * partition's file Norder=k/Dir=d/Npix=n.parquet, or folder Npix=n/ of files, below the data
 * root. docs/datasets.md "HATS catalogues" is the rule.
 */
#define _DEFAULT_SOURCE /* d_type, DT_* */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset/listing.h"
#include "util/error.h"
#include "util/mem.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define HATS_MAX_ORDER 29                  /* HEALPix nside = 2^29 is the deepest order */
#define PROPS_MAX_NBYTES ((size_t)1 << 20) /* a properties file is a few dozen lines */
#define CSV_MAX_NBYTES ((size_t)256 << 20) /* millions of partitions at most */

static bool local_is_regular(const pqt_ds_fs *fs, const char *path)
{
    (void)fs;
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool local_is_dir(const pqt_ds_fs *fs, const char *path)
{
    (void)fs;
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir + "/" + name into buf; false when it does not fit. */
static bool join(char *buf, size_t cap, const char *dir, const char *name)
{
    size_t dlen = strlen(dir);
    const char *sep = dlen > 0 && dir[dlen - 1] == '/' ? "" : "/";
    int len = snprintf(buf, cap, "%s%s%s", dir, sep, name);
    return len > 0 && (size_t)len < cap;
}

/* The properties file of a HATS root: hats.properties, or properties in early hats releases. */
static bool props_path(const pqt_ds_fs *fs, const char *dir, char *buf, size_t cap)
{
    return (join(buf, cap, dir, "hats.properties") && fs->is_regular(fs, buf)) ||
           (join(buf, cap, dir, "properties") && fs->is_regular(fs, buf));
}

/* A catalogue itself: its properties and partition_info.csv. */
static bool is_catalogue(const pqt_ds_fs *fs, const char *dir)
{
    char p[PATH_MAX];
    return props_path(fs, dir, p, sizeof p) && join(p, sizeof p, dir, "partition_info.csv") &&
           fs->is_regular(fs, p);
}

/* A collection: a folder of catalogues (the primary one, its margins and indexes) described by
 * collection.properties. */
static bool is_collection(const pqt_ds_fs *fs, const char *dir, char *buf, size_t cap)
{
    return join(buf, cap, dir, "collection.properties") && fs->is_regular(fs, buf);
}

bool pqt_ds_hats_detect_fs(const pqt_ds_fs *fs, const char *dir)
{
    char p[PATH_MAX];
    return is_catalogue(fs, dir) || is_collection(fs, dir, p, sizeof p);
}

bool pqt_ds_hats_detect(const char *dir)
{
    return pqt_ds_hats_detect_fs(&pqt_ds_local_fs, dir);
}

/* The whole text file at path (at most max bytes), NUL-terminated. */
static pqt_status local_read_text(const pqt_ds_fs *fs, const char *path, size_t max, char **ret,
                                  size_t *len_ret)
{
    (void)fs;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return pqt_err(PQT_IO, "cannot read '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 0 || (size_t)st.st_size > max) {
        close(fd);
        return pqt_err(PQT_CORRUPT, "'%s': not a text file of at most %zu bytes", path, max);
    }
    size_t n = (size_t)st.st_size;
    char *buf = pqt_malloc(n + 1);
    if (!buf) {
        close(fd);
        return pqt_err(PQT_NOMEM, "reading '%s' (%zu bytes): out of memory", path, n);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break; /* a file that shrank is read as far as it goes */
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    *ret = buf;
    *len_ret = got;
    return PQT_OK;
}

/* Cut the next line off *s (handles \r\n); NULL at the end. */
static char *next_line(char **s)
{
    if (!*s || !**s) return NULL;
    char *line = *s, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *s = nl + 1;
    } else {
        *s = line + strlen(line);
    }
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\r') line[n - 1] = '\0';
    return line;
}

/* s without surrounding blanks (and, with quotes, one pair of double quotes), in place. */
static char *trim(char *s, bool quotes)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    if (quotes && n >= 2 && s[0] == '"' && s[n - 1] == '"') {
        s[n - 1] = '\0';
        s++;
    }
    return s;
}

/* A non-negative decimal integer field (blanks and quotes around it allowed). */
static bool parse_count(char *field, int64_t *v)
{
    const char *s = trim(field, true);
    if (!*s) return false;
    int64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (INT64_MAX - 9) / 10) return false;
        x = x * 10 + (*s - '0');
    }
    *v = x;
    return true;
}

/* A value's backslash escapes undone in place (the writers' Java properties escape ':' and '='
 * as "\\:" and "\\="); \\t, \\n, \\r and \\f are those characters, \\u is left as it is. */
static void unescape(char *s)
{
    char *o = s;
    for (; *s; s++) {
        if (*s != '\\' || !s[1] || s[1] == 'u') {
            *o++ = *s;
            continue;
        }
        s++;
        *o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s == 'f' ? '\f' : *s;
    }
    *o = '\0';
}

/* The values of keys in the properties file at path (vals[k] allocated, NULL when absent):
 * key=value lines; '#' and '!' start comments; blanks around key and value do not count. */
static pqt_status props_get(const pqt_ds_fs *fs, const char *path, const char *const *keys,
                            int nkeys, char **vals)
{
    char *text;
    size_t len;
    PQT_TRY(fs->read_text(fs, path, PROPS_MAX_NBYTES, &text, &len));
    char *s = text, *line;
    pqt_status st = PQT_OK;
    while (st == PQT_OK && (line = next_line(&s)) != NULL) {
        line = trim(line, false);
        if (!*line || *line == '#' || *line == '!') continue;
        char *eq = strchr(line, '=');
        if (!eq) continue; /* not a key=value line: nothing we use */
        *eq = '\0';
        const char *key = trim(line, false);
        char *val = trim(eq + 1, false);
        unescape(val);
        for (int k = 0; k < nkeys && st == PQT_OK; k++) {
            if (strcmp(key, keys[k]) != 0 || !*val) continue;
            pqt_mem_free(vals[k]);
            vals[k] = pqt_strdup(val);
            if (!vals[k]) st = pqt_err(PQT_NOMEM, "reading '%s': out of memory", path);
        }
    }
    pqt_mem_free(text);
    if (st != PQT_OK)
        for (int k = 0; k < nkeys; k++) {
            pqt_mem_free(vals[k]);
            vals[k] = NULL;
        }
    return st;
}

/* The catalogue's properties into l; *suffix (allocated, NULL for ".parquet") is how a
 * partition's name ends: a file suffix, or "/" for folders of files. */
static pqt_status read_props(const pqt_ds_fs *fs, const char *dir, pqt_ds_list *l, char **suffix)
{
    char path[PATH_MAX];
    if (!props_path(fs, dir, path, sizeof path))
        return pqt_err(PQT_NOT_FOUND, "'%s': no hats.properties", dir);
    static const char *const keys[] = {"hats_col_ra", "hats_col_dec", "hats_col_healpix",
                                       "hats_col_healpix_order", "hats_npix_suffix"};
    char *vals[5] = {NULL, NULL, NULL, NULL, NULL};
    PQT_TRY(props_get(fs, path, keys, 5, vals));
    const char *sfx = vals[4];
    if (sfx && (strlen(sfx) > 64 || (strcmp(sfx, "/") != 0 && strchr(sfx, '/')))) {
        pqt_status st = pqt_err(PQT_CORRUPT,
                                "'%s': hats_npix_suffix '%s' is neither a file "
                                "suffix nor \"/\"",
                                path, sfx);
        for (int k = 0; k < 5; k++)
            pqt_mem_free(vals[k]);
        return st;
    }
    l->hats_ra = vals[0];
    l->hats_dec = vals[1];
    l->hats_healpix = vals[2];
    int64_t order = -1;
    if (vals[3] && (!parse_count(vals[3], &order) || order > HATS_MAX_ORDER)) order = -1;
    l->hats_healpix_order = (int)order;
    pqt_mem_free(vals[3]);
    *suffix = vals[4];
    return PQT_OK;
}

/* The catalogue a collection at dir names as its primary table (hats_primary_table_url, a path
 * relative to dir or absolute), into base. */
static pqt_status collection_primary(const pqt_ds_fs *fs, const char *dir, char *base, size_t cap)
{
    char path[PATH_MAX];
    if (!is_collection(fs, dir, path, sizeof path))
        return pqt_err(PQT_NOT_FOUND, "'%s': no hats.properties and partition_info.csv", dir);
    static const char *const keys[] = {"hats_primary_table_url"};
    char *url = NULL;
    PQT_TRY(props_get(fs, path, keys, 1, &url));
    pqt_status st = PQT_OK;
    if (!url)
        st = pqt_err(PQT_NOT_FOUND, "'%s': no hats_primary_table_url", path);
    else if (strstr(url, "://"))
        st =
            pqt_err(PQT_UNSUPPORTED, "'%s': the primary table '%s' is not a local path", path, url);
    else if (url[0] == '/' ? snprintf(base, cap, "%s", url) >= (int)cap
                           : !join(base, cap, dir, url))
        st = pqt_err(PQT_IO, "'%s': path too long", path);
    else if (!is_catalogue(fs, base))
        st = pqt_err(PQT_NOT_FOUND,
                     "'%s': the primary table '%s' holds no hats.properties and "
                     "partition_info.csv",
                     path, base);
    pqt_mem_free(url);
    return st;
}

typedef struct part {
    int order;
    int64_t pix;
} part;

static int cmp_part(const void *a, const void *b)
{
    const part *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->pix < y->pix ? -1 : x->pix > y->pix;
}

/* Split line at commas in place into at most max fields; the count. */
static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    for (;;) {
        if (n < max) f[n] = line;
        n++;
        char *c = strchr(line, ',');
        if (!c) break;
        *c = '\0';
        line = c + 1;
    }
    return n;
}

static int find_column(char **f, int nf, const char *name)
{
    for (int i = 0; i < nf; i++) {
        const char *a = trim(f[i], true), *b = name;
        while (*a && *b && (*a | 0x20) == (*b | 0x20))
            a++, b++;
        if (!*a && !*b) return i;
    }
    return -1;
}

#define CSV_MAX_FIELDS 64

/* partition_info.csv: a header naming Norder and Npix (any order, other columns too), then one
 * row per partition; the partitions sorted, each checked against HEALPix (Npix < 12 * 4^k). */
static pqt_status read_partitions(const pqt_ds_fs *fs, const char *dir, part **ret, int64_t *n_ret)
{
    char path[PATH_MAX];
    if (!join(path, sizeof path, dir, "partition_info.csv"))
        return pqt_err(PQT_IO, "'%s': path too long", dir);
    char *text;
    size_t len;
    PQT_TRY(fs->read_text(fs, path, CSV_MAX_NBYTES, &text, &len));
    /* at most one partition per 4 bytes ("0,0\n") bounds the allocation by the file */
    part *p = pqt_malloc_array(len / 4 + 1, sizeof *p);
    if (!p) {
        pqt_mem_free(text);
        return pqt_err(PQT_NOMEM, "reading '%s': out of memory", path);
    }
    char *s = text, *line, *f[CSV_MAX_FIELDS];
    int io = -1, ip = -1, need = 0;
    int64_t n = 0, lineno = 0;
    pqt_status st = PQT_OK;
    while (st == PQT_OK && (line = next_line(&s)) != NULL) {
        lineno++;
        if (!*trim(line, false)) continue;
        int nf = split_csv(line, f, CSV_MAX_FIELDS);
        if (nf > CSV_MAX_FIELDS) nf = CSV_MAX_FIELDS;
        if (io < 0) {
            io = find_column(f, nf, "Norder");
            ip = find_column(f, nf, "Npix");
            if (io < 0 || ip < 0)
                st = pqt_err(PQT_CORRUPT, "'%s' line %lld: the header names no %s column", path,
                             (long long)lineno, io < 0 ? "Norder" : "Npix");
            need = (io > ip ? io : ip) + 1;
            continue;
        }
        int64_t order, pix;
        if (nf < need || !parse_count(f[io], &order) || !parse_count(f[ip], &pix)) {
            st = pqt_err(PQT_CORRUPT, "'%s' line %lld: Norder and Npix must be integers", path,
                         (long long)lineno);
        } else if (order > HATS_MAX_ORDER || pix >= (int64_t)12 << (2 * order)) {
            st = pqt_err(PQT_CORRUPT,
                         "'%s' line %lld: no HEALPix pixel Norder=%lld Npix=%lld (order 0..%d, "
                         "pixel below 12 * 4^order)",
                         path, (long long)lineno, (long long)order, (long long)pix, HATS_MAX_ORDER);
        } else {
            p[n++] = (part){(int)order, pix};
        }
    }
    if (st == PQT_OK && io < 0) st = pqt_err(PQT_CORRUPT, "'%s': no header line", path);
    pqt_mem_free(text);
    if (st == PQT_OK && n > 1) {
        qsort(p, (size_t)n, sizeof *p, cmp_part);
        for (int64_t i = 1; i < n && st == PQT_OK; i++)
            if (cmp_part(&p[i - 1], &p[i]) == 0)
                st = pqt_err(PQT_CORRUPT, "'%s': partition Norder=%d Npix=%lld listed twice", path,
                             p[i].order, (long long)p[i].pix);
    }
    if (st != PQT_OK) {
        pqt_mem_free(p);
        return st;
    }
    *ret = p;
    *n_ret = n;
    return PQT_OK;
}

/* The members being collected. */
typedef struct members {
    char **rel;
    int *order;
    int64_t *pix;
    int64_t n, cap;
} members;

static pqt_status add(members *m, const char *rel, part pt)
{
    if (m->n == m->cap) {
        int64_t cap = m->cap ? m->cap * 2 : 64;
        char **rel2 = pqt_realloc(m->rel, (size_t)cap * sizeof *rel2);
        if (rel2) m->rel = rel2;
        int *order = pqt_realloc(m->order, (size_t)cap * sizeof *order);
        if (order) m->order = order;
        int64_t *pix = pqt_realloc(m->pix, (size_t)cap * sizeof *pix);
        if (pix) m->pix = pix;
        if (!rel2 || !order || !pix) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", rel);
        m->cap = cap;
    }
    m->rel[m->n] = pqt_strdup(rel);
    if (!m->rel[m->n]) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", rel);
    m->order[m->n] = pt.order;
    m->pix[m->n++] = pt.pix;
    return PQT_OK;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return k > 0 && n > k && memcmp(s + n - k, suffix, k) == 0;
}

/* The regular files directly in dir (names allocated), from the disk. */
static pqt_status local_list_files(const pqt_ds_fs *fs, const char *dir, char ***names_ret,
                                   int64_t *n_ret)
{
    DIR *d = opendir(dir);
    if (!d) return pqt_err(PQT_IO, "cannot read directory '%s': %s", dir, strerror(errno));
    char **names = NULL;
    int64_t n = 0, cap = 0;
    pqt_status st = PQT_OK;
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(d);
        if (!e) {
            if (errno != 0)
                st = pqt_err(PQT_IO, "cannot read directory '%s': %s", dir, strerror(errno));
            break;
        }
        char full[PATH_MAX];
        if (!join(full, sizeof full, dir, e->d_name)) {
            st = pqt_err(PQT_IO, "'%s/%s': path too long", dir, e->d_name);
            break;
        }
        if (!local_is_regular(fs, full)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **more = pqt_realloc(names, (size_t)cap * sizeof *more);
            if (!more) {
                st = pqt_err(PQT_NOMEM, "listing '%s': out of memory", dir);
                break;
            }
            names = more;
        }
        if (!(names[n] = pqt_strdup(e->d_name))) {
            st = pqt_err(PQT_NOMEM, "listing '%s': out of memory", dir);
            break;
        }
        n++;
    }
    closedir(d);
    if (st != PQT_OK) {
        for (int64_t i = 0; i < n; i++)
            pqt_mem_free(names[i]);
        pqt_mem_free(names);
        return st;
    }
    *names_ret = names;
    *n_ret = n;
    return PQT_OK;
}

const pqt_ds_fs pqt_ds_local_fs = {local_is_regular, local_is_dir, local_read_text,
                                   local_list_files, NULL};

/* The *.parquet files (and *<suffix> files) of the partition folder root/rel, sorted. */
static pqt_status add_folder(const pqt_ds_fs *fs, members *m, const char *root, const char *rel,
                             part pt, const char *suffix)
{
    char dir[PATH_MAX];
    if (!join(dir, sizeof dir, root, rel)) return pqt_err(PQT_IO, "'%s': path too long", rel);
    char **names = NULL;
    int64_t nnames = 0;
    PQT_TRY(fs->list_files(fs, dir, &names, &nnames));
    int64_t first = m->n;
    pqt_status st = PQT_OK;
    for (int64_t i = 0; i < nnames && st == PQT_OK; i++) {
        const char *name = names[i];
        size_t nlen = strlen(name);
        if (name[0] == '.' || name[0] == '_' ||
            !(ends_with(name, nlen, ".parquet") || ends_with(name, nlen, suffix)))
            continue;
        char r[PATH_MAX];
        if (!join(r, sizeof r, rel, name))
            st = pqt_err(PQT_IO, "'%s/%s': path too long", dir, name);
        else
            st = add(m, r, pt);
    }
    for (int64_t i = 0; i < nnames; i++)
        pqt_mem_free(names[i]);
    pqt_mem_free(names);
    if (st == PQT_OK && m->n == first)
        st = pqt_err(PQT_NOT_FOUND, "HATS partition folder '%s' holds no *.parquet file", dir);
    if (st == PQT_OK) qsort(m->rel + first, (size_t)(m->n - first), sizeof *m->rel, pqt_ds_cmp_str);
    return st;
}

/* One partition: its file Norder=k/Dir=d/Npix=n<suffix>, else its folder Npix=n/ (only the
 * folder when suffix is "/"). */
static pqt_status add_partition(const pqt_ds_fs *fs, members *m, const char *root, part pt,
                                const char *suffix)
{
    char rel[160], full[PATH_MAX], folder[PATH_MAX];
    long long d = (long long)(pt.pix / 10000 * 10000);
    bool as_dir = strcmp(suffix, "/") == 0;
    snprintf(rel, sizeof rel, "Norder=%d/Dir=%lld/Npix=%lld", pt.order, d, (long long)pt.pix);
    if (!join(folder, sizeof folder, root, rel))
        return pqt_err(PQT_IO, "'%s': path too long", root);
    size_t rlen = strlen(rel);
    if (!as_dir) {
        snprintf(rel + rlen, sizeof rel - rlen, "%s", suffix);
        if (snprintf(full, sizeof full, "%s%s", folder, suffix) >= (int)sizeof full)
            return pqt_err(PQT_IO, "'%s': path too long", root);
        if (fs->is_regular(fs, full)) return add(m, rel, pt);
        rel[rlen] = '\0';
    }
    if (!fs->is_dir(fs, folder))
        return pqt_err(PQT_NOT_FOUND, "HATS partition Norder=%d Npix=%lld: no %s '%s'", pt.order,
                       (long long)pt.pix, as_dir ? "folder" : "file", as_dir ? folder : full);
    return add_folder(fs, m, root, rel, pt, as_dir ? "" : suffix);
}

pqt_status pqt_ds_hats_list_fs(const pqt_ds_fs *fs, const char *dir, pqt_ds_list *l)
{
    memset(l, 0, sizeof *l);
    size_t dlen = strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    char base[PATH_MAX], data[PATH_MAX];
    if (dlen + 1 > sizeof base) return pqt_err(PQT_IO, "'%.64s...': path too long", dir);
    memcpy(base, dir, dlen);
    base[dlen] = '\0';
    if (!is_catalogue(fs, base)) {
        char coll[PATH_MAX];
        memcpy(coll, base, dlen + 1);
        PQT_TRY(collection_primary(fs, coll, base, sizeof base));
    }
    if (!join(data, sizeof data, base, "dataset"))
        return pqt_err(PQT_IO, "'%s': path too long", base);
    /* older catalogues (hipscat) keep the partitions beside the properties */
    const char *root = fs->is_dir(fs, data) ? data : base;
    part *parts = NULL;
    int64_t nparts = 0;
    members m = {0};
    char *suffix = NULL;
    pqt_status st = read_props(fs, base, l, &suffix);
    if (st == PQT_OK) st = read_partitions(fs, base, &parts, &nparts);
    for (int64_t i = 0; i < nparts && st == PQT_OK; i++)
        st = add_partition(fs, &m, root, parts[i], suffix ? suffix : ".parquet");
    pqt_mem_free(parts);
    pqt_mem_free(suffix);
    if (st == PQT_OK) {
        l->root = pqt_strdup(root);
        if (!l->root) st = pqt_err(PQT_NOMEM, "listing '%s': out of memory", root);
    }
    if (st != PQT_OK) {
        for (int64_t i = 0; i < m.n; i++)
            pqt_mem_free(m.rel[i]);
        pqt_mem_free(m.rel);
        pqt_mem_free(m.order);
        pqt_mem_free(m.pix);
        pqt_ds_list_free(l);
        return st;
    }
    l->n = m.n;
    l->rel = m.rel;
    l->hats_order = m.order;
    l->hats_pix = m.pix;
    l->is_hats = true;
    return PQT_OK;
}

pqt_status pqt_ds_hats_list(const char *dir, pqt_ds_list *l)
{
    PQT_TRY(pqt_ds_hats_list_fs(&pqt_ds_local_fs, dir, l));
    pqt_ds_list_find_summaries(l);
    return PQT_OK;
}
