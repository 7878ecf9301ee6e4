/* SPDX-License-Identifier: Apache-2.0 */
/*
 * listing_remote.c - the files of a dataset below an s3:// or http(s):// prefix, by
 * ListObjectsV2 (layer: dataset). The keys become the member paths a directory walk would
 * give, under the same rules (docs/datasets.md "Which files"; docs/remote.md "S3"): so hive
 * keys, summaries, the order and everything after the listing are the disk's.
 */
#include <string.h>

#include "dataset/listing.h"
#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"

bool pqt_ds_is_remote(const char *spec)
{
    return pqt_s3_is_url(spec) || pqt_s3_is_http_url(spec);
}

/* An s3:// URL with a glob character in its key (an http(s) URL's '?' starts its query). */
static bool is_s3_pattern(const char *spec)
{
    return pqt_s3_is_url(spec) && pqt_ds_is_pattern(spec);
}

bool pqt_ds_remote_is_dataset(const char *spec)
{
    if (!pqt_ds_is_remote(spec)) return false;
    if (is_s3_pattern(spec)) return true;
    size_t n = strlen(spec);
    if (n > 0 && spec[n - 1] == '/') return true;
    /* s3://bucket alone: the whole bucket */
    return pqt_s3_is_url(spec) && !strchr(spec + 5, '/');
}

static bool hidden(const char *name)
{
    return name[0] == '.' || name[0] == '_';
}

/* *m: does rel match the pattern components pc[0..np)? By a table of "pattern from i matches
 * the components from j" (a pattern with several `**` costs np * components, never more). */
static pqt_status match_pattern(char *const *pc, int np, const char *rel, bool *m)
{
    *m = false;
    char *copy = pqt_strdup(rel);
    size_t nr = 1;
    for (const char *c = rel; *c; c++)
        nr += *c == '/';
    char **rc = pqt_malloc_array(nr, sizeof *rc);
    bool *dp = pqt_calloc(((size_t)np + 1) * (nr + 1), sizeof *dp);
    if (!copy || !rc || !dp) {
        pqt_mem_free(copy);
        pqt_mem_free(rc);
        pqt_mem_free(dp);
        return pqt_err(PQT_NOMEM, "matching '%s': out of memory", rel);
    }
    nr = 0;
    for (char *s = copy, *next; s; s = next) {
        next = strchr(s, '/');
        if (next) *next++ = '\0';
        rc[nr++] = s;
    }
    bool empty = false; /* an empty component ("a//b"): no file a walk would name */
    for (size_t j = 0; j < nr; j++)
        empty = empty || rc[j][0] == '\0';
#define DP(i, j) dp[(size_t)(i) * (nr + 1) + (j)]
    DP(np, nr) = true;
    for (int i = np - 1; i >= 0 && !empty; i--) {
        bool star2 = strcmp(pc[i], "**") == 0;
        for (size_t j = nr + 1; j-- > 0;) {
            if (star2 && i == np - 1) /* a final `**`: every file below, hidden ones left */
                DP(i, j) = j < nr && !hidden(rc[j]) && (j + 1 == nr || DP(i, j + 1));
            else if (star2) /* zero directories, or one more */
                DP(i, j) = DP(i + 1, j) || (j + 1 < nr && !hidden(rc[j]) && DP(i, j + 1));
            else
                DP(i, j) = j < nr && (!hidden(rc[j]) || pc[i][0] == rc[j][0]) &&
                           pqt_ds_glob_match(pc[i], rc[j]) && DP(i + 1, j + 1);
        }
    }
    *m = !empty && DP(0, 0);
#undef DP
    pqt_mem_free(copy);
    pqt_mem_free(rc);
    pqt_mem_free(dp);
    return PQT_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && memcmp(s + n - m, suffix, m) == 0;
}

/* A key below the prefix, as a directory walk would take it: *.parquet, no component
 * starting with '.' or '_'. */
static bool walk_takes(const char *rel)
{
    for (const char *c = rel; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
        if (*c == '.' || *c == '_' || *c == '/' || *c == '\0') return false;
    return ends_with(rel, ".parquet");
}

/* The root and pattern components of an s3:// glob: root up to the last '/' before the first
 * glob character; the components after it, split in place in *store. */
static pqt_status split_s3_pattern(const char *spec, char **root, char ***pc, int *np, char **store)
{
    size_t first = strcspn(spec, "*?[");
    size_t cut = first;
    while (cut > 5 && spec[cut - 1] != '/')
        cut--;
    if (cut <= 5 || !memchr(spec + 5, '/', cut - 5))
        return pqt_err(PQT_MISUSE, "'%s': a glob in the bucket name", spec);
    *root = pqt_strndup(spec, cut - 1);
    *store = pqt_strdup(spec + cut);
    size_t n = 1;
    for (const char *s = spec + cut; *s; s++)
        n += *s == '/';
    *pc = pqt_calloc(n, sizeof **pc);
    if (!*root || !*store || !*pc) return pqt_err(PQT_NOMEM, "pattern '%s': out of memory", spec);
    *np = 0;
    for (char *s = *store, *next; s; s = next) {
        next = strchr(s, '/');
        if (next) *next++ = '\0';
        if (*s) (*pc)[(*np)++] = s;
    }
    return PQT_OK;
}

/* The listing's keys below prefix into l->rel (relative to it) by the walk's rules or the
 * pattern; the summaries noted. */
static pqt_status take_keys(const pqt_s3_page *all, const char *prefix, char *const *pc, int np,
                            pqt_ds_list *l, const char *spec)
{
    size_t plen = strlen(prefix);
    l->rel = pqt_calloc((size_t)all->n + 1, sizeof *l->rel);
    if (!l->rel) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", spec);
    for (int64_t i = 0; i < all->n; i++) {
        const char *rel = all->obj[i].key + plen;
        if (pc) {
            bool m;
            PQT_TRY(match_pattern(pc, np, rel, &m));
            if (!m) continue;
        } else {
            l->has_metadata = l->has_metadata || strcmp(rel, "_metadata") == 0;
            l->has_common_metadata = l->has_common_metadata || strcmp(rel, "_common_metadata") == 0;
            if (!walk_takes(rel)) continue;
        }
        if (!(l->rel[l->n] = pqt_strdup(rel)))
            return pqt_err(PQT_NOMEM, "listing '%s': out of memory", spec);
        l->n++;
    }
    return PQT_OK;
}

/* ---- a bucket's listing as the file system of a HATS catalogue (hats.c) ---- */

typedef struct remote_fs {
    pqt_ds_fs fs;     /* first: hats.c hands this back */
    const char *root; /* paths are root + "/" + rel */
    size_t rlen;
    const char **rel; /* every key below root/, relative to it, sorted */
    int64_t n;
    const pqt_s3_target *t;
    const char *prefix; /* the key of root/ */
} remote_fs;

/* The key of path relative to root/ (a trailing '/' not counted) into a new string; NULL when
 * path is not below root (or out of memory). */
static char *rel_of(const remote_fs *r, const char *path)
{
    if (strncmp(path, r->root, r->rlen) != 0) return NULL;
    if (path[r->rlen] == '\0') return pqt_strdup("");
    if (path[r->rlen] != '/') return NULL;
    const char *s = path + r->rlen + 1;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '/')
        n--;
    return pqt_strndup(s, n);
}

/* The first listed key not before s in byte order. */
static int64_t lower_bound(const remote_fs *r, const char *s)
{
    int64_t lo = 0, hi = r->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (strcmp(r->rel[mid], s) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool remote_is_regular(const pqt_ds_fs *fs, const char *path)
{
    const remote_fs *r = (const remote_fs *)fs;
    char *rel = rel_of(r, path);
    int64_t i = rel && *rel ? lower_bound(r, rel) : r->n;
    bool found = i < r->n && strcmp(r->rel[i], rel) == 0;
    pqt_mem_free(rel);
    return found;
}

/* rel + "/" ("" for the root itself) into a new string. */
static char *dir_prefix(const remote_fs *r, const char *path)
{
    char *rel = rel_of(r, path);
    if (!rel || !*rel) return rel;
    size_t n = strlen(rel);
    char *d = pqt_malloc(n + 2);
    if (d) {
        memcpy(d, rel, n);
        memcpy(d + n, "/", 2);
    }
    pqt_mem_free(rel);
    return d;
}

static bool remote_is_dir(const pqt_ds_fs *fs, const char *path)
{
    const remote_fs *r = (const remote_fs *)fs;
    char *d = dir_prefix(r, path);
    if (!d) return false;
    int64_t i = lower_bound(r, d);
    bool found = i < r->n && strncmp(r->rel[i], d, strlen(d)) == 0;
    pqt_mem_free(d);
    return found;
}

static pqt_status remote_read_text(const pqt_ds_fs *fs, const char *path, size_t max, char **ret,
                                   size_t *len)
{
    const remote_fs *r = (const remote_fs *)fs;
    char *rel = rel_of(r, path);
    size_t plen = strlen(r->prefix);
    char *key = rel ? pqt_malloc(plen + strlen(rel) + 1) : NULL;
    if (!key) {
        pqt_mem_free(rel);
        return pqt_err(PQT_NOMEM, "reading '%s': out of memory", path);
    }
    memcpy(key, r->prefix, plen);
    memcpy(key + plen, rel, strlen(rel) + 1);
    pqt_status st = pqt_s3_get_text(r->t, key, max, ret, len);
    pqt_mem_free(key);
    pqt_mem_free(rel);
    return st;
}

static pqt_status remote_list_files(const pqt_ds_fs *fs, const char *dir, char ***names_ret,
                                    int64_t *n_ret)
{
    const remote_fs *r = (const remote_fs *)fs;
    char *d = dir_prefix(r, dir);
    if (!d) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", dir);
    size_t dlen = strlen(d);
    int64_t first = lower_bound(r, d), end = first;
    while (end < r->n && strncmp(r->rel[end], d, dlen) == 0)
        end++;
    char **names = pqt_calloc((size_t)(end - first) + 1, sizeof *names);
    int64_t n = 0;
    pqt_status st = names ? PQT_OK : pqt_err(PQT_NOMEM, "listing '%s': out of memory", dir);
    for (int64_t i = first; i < end && st == PQT_OK; i++) {
        const char *name = r->rel[i] + dlen;
        if (!*name || strchr(name, '/')) continue; /* a folder's marker, or deeper */
        if (!(names[n++] = pqt_strdup(name)))
            st = pqt_err(PQT_NOMEM, "listing '%s': out of memory", dir);
    }
    pqt_mem_free(d);
    if (st != PQT_OK) {
        for (int64_t i = 0; names && i < n; i++)
            pqt_mem_free(names[i]);
        pqt_mem_free(names);
        return st;
    }
    *names_ret = names;
    *n_ret = n;
    return PQT_OK;
}

/* A HATS catalogue (or collection) at root, listed by hats.c through the bucket's listing (all
 * its keys below prefix), its summaries looked up there. *found false when root is none. */
static pqt_status list_hats(const char *root, const pqt_s3_target *t, const char *prefix,
                            const pqt_s3_page *all, pqt_ds_list *l, bool *found)
{
    *found = false;
    size_t plen = strlen(prefix);
    remote_fs r = {{remote_is_regular, remote_is_dir, remote_read_text, remote_list_files, NULL},
                   root,
                   strlen(root),
                   NULL,
                   all->n,
                   t,
                   prefix};
    r.rel = pqt_malloc_array((size_t)all->n + 1, sizeof *r.rel);
    if (!r.rel) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", root);
    for (int64_t i = 0; i < all->n; i++)
        r.rel[i] = all->obj[i].key + plen;
    pqt_status st = PQT_OK;
    if (pqt_ds_hats_detect_fs(&r.fs, root)) {
        *found = true;
        st = pqt_ds_hats_list_fs(&r.fs, root, l);
        char p[4096];
        if (st == PQT_OK && snprintf(p, sizeof p, "%s/_metadata", l->root) < (int)sizeof p)
            l->has_metadata = remote_is_regular(&r.fs, p);
        if (st == PQT_OK && snprintf(p, sizeof p, "%s/_common_metadata", l->root) < (int)sizeof p)
            l->has_common_metadata = remote_is_regular(&r.fs, p);
    }
    pqt_mem_free(r.rel);
    return st;
}

pqt_status pqt_ds_list_remote(const char *spec, pqt_ds_list *l)
{
    char *root = NULL, *store = NULL, **pc = NULL, *prefix = NULL;
    int np = 0;
    pqt_status st;
    if (is_s3_pattern(spec)) {
        st = split_s3_pattern(spec, &root, &pc, &np, &store);
    } else {
        size_t n = strlen(spec);
        while (n > 0 && spec[n - 1] == '/')
            n--;
        root = pqt_strndup(spec, n);
        st = root ? PQT_OK : pqt_err(PQT_NOMEM, "listing '%s': out of memory", spec);
    }
    pqt_s3_target t = {0};
    if (st == PQT_OK) st = pqt_s3_resolve(root, &t);
    if (st == PQT_OK) {
        /* the keys below root/: its key and a '/' ("" for a whole bucket) */
        size_t klen = strlen(t.key);
        prefix = pqt_malloc(klen + 2);
        if (prefix) {
            memcpy(prefix, t.key, klen);
            if (klen > 0) prefix[klen++] = '/';
            prefix[klen] = '\0';
        }
        if (!prefix) st = pqt_err(PQT_NOMEM, "listing '%s': out of memory", spec);
    }
    pqt_s3_page all = {0};
    if (st == PQT_OK) st = pqt_s3_list(&t, prefix, 0, &all);
    bool hats = false;
    if (st == PQT_OK && !pc) st = list_hats(root, &t, prefix, &all, l, &hats);
    if (st == PQT_OK && !hats) st = take_keys(&all, prefix, pc, np, l, spec);
    if (st == PQT_OK && !hats && l->n == 0 && (pc || (!l->has_metadata && !l->has_common_metadata)))
        st = pc ? pqt_err(PQT_NOT_FOUND, "no object matches '%s'", spec)
                : pqt_err(PQT_NOT_FOUND, "no *.parquet object below '%s'", spec);
    if (st == PQT_OK && !hats) { /* a catalogue's root is its data folder, set by hats.c */
        l->root = root;
        root = NULL;
    }
    pqt_s3_page_free(&all);
    pqt_s3_target_free(&t);
    pqt_mem_free(prefix);
    pqt_mem_free(root);
    pqt_mem_free(store);
    pqt_mem_free(pc);
    return st;
}

char *pqt_ds_member_url(const char *root, const char *rel)
{
    size_t rlen = strlen(root), n = strlen(rel);
    /* an http(s) root is a URL: the key's bytes are encoded into it; an s3:// key is literal */
    size_t cap = rlen + 2 + (pqt_s3_is_http_url(root) ? 3 * n : n) + 1;
    char *p = pqt_malloc(cap);
    if (!p) return NULL;
    memcpy(p, root, rlen);
    size_t len = rlen;
    if (rlen > 0 && root[rlen - 1] != '/') p[len++] = '/';
    if (pqt_s3_is_http_url(root)) {
        pqt_s3_uri_encode(rel, n, true, p, cap, &len);
    } else {
        memcpy(p + len, rel, n + 1);
    }
    return p;
}
