/* SPDX-License-Identifier: Apache-2.0 */
/*
 * listing.c - the files of a dataset: a directory walked recursively, a glob matched component
 * by component (our own matcher: fnmatch has no `**`), or the caller's paths (layer: dataset).
 * docs/datasets.md "Which files" is the rule this implements.
 */
#define _DEFAULT_SOURCE /* d_type, DT_* */
#include "dataset/listing.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* One device+inode on the way down: a directory met again below itself is a symlink loop. */
typedef struct dirid {
    dev_t dev;
    ino_t ino;
    size_t len; /* of its path: `**` then `**` enters one directory twice at the same place */
} dirid;

typedef struct walk {
    char **rel; /* collected member paths relative to the root */
    int64_t n, cap;
    size_t rel_off;      /* path + rel_off is the path relative to the root */
    dirid *way;          /* the directories being walked, outermost first */
    int depth, way_cap;  /* entries of way in use, allocated */
    char path[PATH_MAX]; /* the file-system path of the current entry */
} walk;

int pqt_ds_member_path(const pqt_ds_list *l, int64_t i, char *buf, size_t cap)
{
    if (!l || i < 0 || i >= l->n || !buf || cap == 0) return -1;
    const char *root = l->root ? l->root : "";
    if (pqt_s3_is_http_url(root)) { /* a URL: the key's bytes encoded */
        char *u = pqt_ds_member_url(root, l->rel[i]);
        size_t n = u ? strlen(u) : 0;
        if (u && n < cap) memcpy(buf, u, n + 1);
        pqt_mem_free(u);
        return u && n < cap ? (int)n : -1;
    }
    size_t rlen = strlen(root);
    const char *sep = rlen == 0 || root[rlen - 1] == '/' ? "" : "/";
    int len = snprintf(buf, cap, "%s%s%s", root, sep, l->rel[i]);
    if (len < 0 || (size_t)len >= cap) return -1;
    return len;
}

static pqt_status add_member(walk *w)
{
    if (w->n == w->cap) {
        int64_t cap = w->cap ? w->cap * 2 : 64;
        char **rel = pqt_realloc(w->rel, (size_t)cap * sizeof *rel);
        if (!rel) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", w->path);
        w->rel = rel;
        w->cap = cap;
    }
    char *s = pqt_strdup(w->path + w->rel_off);
    if (!s) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", w->path);
    w->rel[w->n++] = s;
    return PQT_OK;
}

/* Append "/name" to w->path at len; the new length, or 0 with an error set. */
static size_t path_push(walk *w, size_t len, const char *name)
{
    size_t nlen = strlen(name);
    bool sep = len > 0 && w->path[len - 1] != '/';
    if (len + sep + nlen + 1 > sizeof w->path) {
        w->path[len] = '\0';
        pqt_err(PQT_IO, "listing '%s/%s': path too long", w->path, name);
        return 0;
    }
    if (sep) w->path[len++] = '/';
    memcpy(w->path + len, name, nlen + 1);
    return len + nlen;
}

/* Record the directory at w->path (len bytes) on the way down; *loop when it is already there
 * above it. */
static pqt_status way_enter(walk *w, size_t len, int fd, bool *loop)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return pqt_err(PQT_IO, "listing '%s': %s", w->path, strerror(errno));
    for (int i = 0; i < w->depth; i++)
        if (w->way[i].dev == st.st_dev && w->way[i].ino == st.st_ino && w->way[i].len < len) {
            *loop = true;
            return PQT_OK;
        }
    if (w->depth == w->way_cap) {
        int cap = w->way_cap ? w->way_cap * 2 : 16;
        dirid *way = pqt_realloc(w->way, (size_t)cap * sizeof *way);
        if (!way) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", w->path);
        w->way = way;
        w->way_cap = cap;
    }
    w->way[w->depth++] = (dirid){st.st_dev, st.st_ino, len};
    *loop = false;
    return PQT_OK;
}

/* The kind of entry e of the directory at w->path (w->path already names e): 'd', 'f' or 0
 * (anything else, or a dangling symlink). Symlinks are followed. */
static char entry_kind(const walk *w, const struct dirent *e)
{
#ifdef DT_DIR
    if (e->d_type == DT_DIR) return 'd';
    if (e->d_type == DT_REG) return 'f';
    if (e->d_type != DT_LNK && e->d_type != DT_UNKNOWN) return 0;
#else
    (void)e;
#endif
    struct stat st;
    if (stat(w->path, &st) != 0) return 0;
    return S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : 0;
}

static bool ends_with_parquet(const char *name)
{
    size_t n = strlen(name);
    return n > 8 && memcmp(name + n - 8, ".parquet", 8) == 0;
}

/* Open the directory at w->path (len bytes) and record it on the way down; *d is NULL when it
 * is already there above (a symlink loop: nothing to list). */
static pqt_status enter_dir(walk *w, size_t len, DIR **d)
{
    *d = opendir(w->path[0] ? w->path : ".");
    if (!*d) return pqt_err(PQT_IO, "cannot read directory '%s': %s", w->path, strerror(errno));
    bool loop = false;
    pqt_status st = way_enter(w, len, dirfd(*d), &loop);
    if (st != PQT_OK || loop) {
        closedir(*d);
        *d = NULL;
    }
    return st;
}

static void leave_dir(walk *w, DIR *d)
{
    closedir(d);
    w->depth--;
}

/* The next entry of d, the directory at w->path (len bytes); *e NULL at its end. */
static pqt_status next_entry(walk *w, size_t len, DIR *d, struct dirent **e)
{
    errno = 0;
    *e = readdir(d);
    if (*e || errno == 0) return PQT_OK;
    w->path[len] = '\0';
    return pqt_err(PQT_IO, "cannot read directory '%s': %s", w->path, strerror(errno));
}

/* Every regular file below the directory at w->path (len bytes) whose name passes (all files,
 * or *.parquet); names starting with '.' or '_' are skipped. */
static pqt_status walk_dir(walk *w, size_t len, bool all)
{
    DIR *d;
    PQT_TRY(enter_dir(w, len, &d));
    if (!d) return PQT_OK;
    struct dirent *e;
    pqt_status st;
    while ((st = next_entry(w, len, d, &e)) == PQT_OK && e) {
        if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
        size_t nlen = path_push(w, len, e->d_name);
        if (nlen == 0) {
            st = PQT_IO;
            break;
        }
        char kind = entry_kind(w, e);
        if (kind == 'd')
            st = walk_dir(w, nlen, all);
        else if (kind == 'f' && (all || ends_with_parquet(e->d_name)))
            st = add_member(w);
        w->path[len] = '\0';
        if (st != PQT_OK) break;
    }
    leave_dir(w, d);
    return st;
}

/* ---- glob ---- */

/* The bracket expression at p ('['): *m whether byte c is in it, *next past its ']'. False
 * when it has no closing ']' (then '[' is an ordinary character). */
static bool match_class(const char *p, unsigned char c, const char **next, bool *m)
{
    const char *q = p + 1;
    bool neg = *q == '!' || *q == '^';
    if (neg) q++;
    bool in = false, first = true;
    for (;;) {
        if (*q == '\0') return false;
        if (*q == ']' && !first) break;
        first = false;
        if (*q == '\\' && q[1]) q++;
        unsigned char lo = (unsigned char)*q++, hi = lo;
        if (*q == '-' && q[1] && q[1] != ']') {
            q++;
            if (*q == '\\' && q[1]) q++;
            hi = (unsigned char)*q++;
        }
        if (lo <= c && c <= hi) in = true;
    }
    *next = q + 1;
    *m = in != neg;
    return true;
}

/* Backtracking to the last `*` only is enough for a pattern with no `/` (linear in practice,
 * quadratic at worst, never exponential). */
bool pqt_ds_glob_match(const char *p, const char *s)
{
    const char *star_p = NULL, *star_s = NULL;
    while (*s) {
        const char *np = p + 1;
        bool m;
        if (*p == '*') {
            while (*p == '*')
                p++;
            if (!*p) return true;
            star_p = p;
            star_s = s;
            continue;
        }
        if (*p == '?') {
            m = true;
            s++;
            while (((unsigned char)*s & 0xC0) == 0x80)
                s++;
            p = np;
            continue;
        }
        if (*p == '[' && match_class(p, (unsigned char)*s, &np, &m)) {
        } else if (*p == '\\' && p[1]) {
            m = p[1] == *s;
            np = p + 2;
        } else {
            m = *p != '\0' && *p == *s;
        }
        if (m) {
            p = np;
            s++;
            continue;
        }
        if (!star_p) return false;
        p = star_p;
        s = ++star_s;
    }
    while (*p == '*')
        p++;
    return !*p;
}

/* A pattern component without a glob character: 1 with its quoting removed into out, 2 when
 * it is longer than a name can be; 0 when it has a glob character. */
static int literal_component(const char *p, char *out, size_t cap)
{
    if (strpbrk(p, "*?[")) return 0;
    size_t j = 0;
    for (; *p; p++) {
        if (*p == '\\' && p[1]) p++;
        if (j + 1 >= cap) return 2;
        out[j++] = *p;
    }
    out[j] = '\0';
    return 1;
}

typedef struct pattern {
    char **comp; /* the components after the root, empty ones dropped */
    int n;
} pattern;

static pqt_status glob_at(walk *w, size_t len, const pattern *pt, int k);

/* `**` at component k, w->path (len bytes) a directory: zero directories, then each
 * subdirectory in turn with the same `**` (never twice around a symlink loop). */
static pqt_status glob_any_depth(walk *w, size_t len, const pattern *pt, int k)
{
    if (k == pt->n - 1) return walk_dir(w, len, true);
    DIR *d;
    PQT_TRY(enter_dir(w, len, &d));
    if (!d) return PQT_OK;
    /* zero directories first: a directory met again around a loop matches nothing */
    pqt_status st = glob_at(w, len, pt, k + 1);
    w->path[len] = '\0';
    struct dirent *e = NULL;
    while (st == PQT_OK && (st = next_entry(w, len, d, &e)) == PQT_OK && e) {
        if (e->d_name[0] == '.' || e->d_name[0] == '_') continue;
        size_t nlen = path_push(w, len, e->d_name);
        if (nlen == 0) {
            st = PQT_IO;
            break;
        }
        if (entry_kind(w, e) == 'd') st = glob_any_depth(w, nlen, pt, k);
        w->path[len] = '\0';
    }
    leave_dir(w, d);
    return st;
}

/* Match components k.. of the pattern below the directory at w->path (len bytes). */
static pqt_status glob_at(walk *w, size_t len, const pattern *pt, int k)
{
    const char *p = pt->comp[k];
    bool last = k == pt->n - 1;
    if (strcmp(p, "**") == 0) return glob_any_depth(w, len, pt, k);
    char lit[NAME_MAX + 1];
    int literal = literal_component(p, lit, sizeof lit);
    if (literal == 2) return PQT_OK; /* longer than any name: nothing there */
    if (literal == 1) {
        size_t nlen = path_push(w, len, lit);
        if (nlen == 0) return PQT_IO;
        struct stat st;
        pqt_status s = PQT_OK;
        if (stat(w->path, &st) == 0) {
            if (last && S_ISREG(st.st_mode))
                s = add_member(w);
            else if (!last && S_ISDIR(st.st_mode))
                s = glob_at(w, nlen, pt, k + 1);
        }
        w->path[len] = '\0';
        return s;
    }
    /* no loop check needed: without `**` the depth is the pattern's */
    DIR *d = opendir(w->path[0] ? w->path : ".");
    if (!d) return pqt_err(PQT_IO, "cannot read directory '%s': %s", w->path, strerror(errno));
    struct dirent *e;
    pqt_status st;
    while ((st = next_entry(w, len, d, &e)) == PQT_OK && e) {
        /* like a shell, a wildcard leaves hidden and summary names alone unless asked */
        if ((e->d_name[0] == '.' || e->d_name[0] == '_') && p[0] != e->d_name[0]) continue;
        if (!pqt_ds_glob_match(p, e->d_name)) continue;
        size_t nlen = path_push(w, len, e->d_name);
        if (nlen == 0) {
            st = PQT_IO;
            break;
        }
        char kind = entry_kind(w, e);
        if (last && kind == 'f')
            st = add_member(w);
        else if (!last && kind == 'd')
            st = glob_at(w, nlen, pt, k + 1);
        w->path[len] = '\0';
        if (st != PQT_OK) break;
    }
    closedir(d);
    return st;
}

/* Split spec into the root (the longest directory prefix without a glob character, as given)
 * and the components after it. */
static pqt_status split_pattern(const char *spec, char **root, pattern *pt, char **store)
{
    size_t n = strlen(spec);
    char *s = pqt_strdup(spec);
    int ncomp = 0;
    for (size_t i = 0; i < n; i++)
        ncomp += spec[i] == '/';
    char **comp = pqt_calloc((size_t)ncomp + 1, sizeof *comp);
    if (!s || !comp) {
        pqt_mem_free(s);
        pqt_mem_free(comp);
        return pqt_err(PQT_NOMEM, "pattern '%s': out of memory", spec);
    }
    /* root ends before the first component holding a glob character */
    size_t root_end = 0, start = 0;
    bool globbed = false;
    int nc = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '/') continue;
        size_t clen = i - start;
        if (clen > 0) {
            bool g = memchr(s + start, '*', clen) || memchr(s + start, '?', clen) ||
                     memchr(s + start, '[', clen);
            globbed = globbed || g;
            if (globbed) {
                s[i] = '\0';
                comp[nc++] = s + start;
            } else {
                root_end = i;
            }
        }
        start = i + 1;
    }
    /* the last component is the file: a pattern without a glob character in it still keeps
     * its last component as the pattern's end (never reached: pqt_ds_is_pattern) */
    char *r = root_end == 0 ? pqt_strdup(spec[0] == '/' ? "/" : ".") : pqt_strndup(spec, root_end);
    if (!r) {
        pqt_mem_free(s);
        pqt_mem_free(comp);
        return pqt_err(PQT_NOMEM, "pattern '%s': out of memory", spec);
    }
    *root = r;
    pt->comp = comp;
    pt->n = nc;
    *store = s;
    return PQT_OK;
}

static void walk_free(walk *w)
{
    for (int64_t i = 0; i < w->n; i++)
        pqt_mem_free(w->rel[i]);
    pqt_mem_free(w->rel);
    pqt_mem_free(w->way);
    pqt_mem_free(w);
}

/* Sort w's members into l (dropping duplicates a pattern can reach twice, e.g. a / ** / **). */
static void take_members(walk *w, pqt_ds_list *l)
{
    if (w->n > 1) qsort(w->rel, (size_t)w->n, sizeof *w->rel, pqt_ds_cmp_str);
    int64_t j = 0;
    for (int64_t i = 0; i < w->n; i++) {
        if (j > 0 && strcmp(w->rel[j - 1], w->rel[i]) == 0) {
            pqt_mem_free(w->rel[i]);
            continue;
        }
        w->rel[j++] = w->rel[i];
    }
    l->rel = w->rel;
    l->n = j;
    w->rel = NULL;
    w->n = w->cap = 0;
}

/* Start a walk at root: w->path = root, rel_off past it. */
static pqt_status walk_new(const char *root, walk **ret)
{
    walk *w = pqt_calloc(1, sizeof *w);
    if (!w) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", root);
    size_t rlen = strlen(root);
    if (rlen + 2 > sizeof w->path) {
        pqt_mem_free(w);
        return pqt_err(PQT_IO, "listing '%.64s...': path too long", root);
    }
    memcpy(w->path, root, rlen + 1);
    w->rel_off = rlen + (rlen > 0 && root[rlen - 1] != '/');
    *ret = w;
    return PQT_OK;
}

static pqt_status list_glob(const char *spec, pqt_ds_list *l)
{
    char *root = NULL, *store = NULL;
    pattern pt = {0};
    PQT_TRY(split_pattern(spec, &root, &pt, &store));
    walk *w = NULL;
    pqt_status st = walk_new(root, &w);
    if (st == PQT_OK) {
        struct stat sb;
        if (pt.n > 0 && stat(root, &sb) == 0 && S_ISDIR(sb.st_mode))
            st = glob_at(w, strlen(root), &pt, 0);
        if (st == PQT_OK && w->n == 0) st = pqt_err(PQT_NOT_FOUND, "no file matches '%s'", spec);
    }
    if (st == PQT_OK) {
        take_members(w, l);
        l->root = root;
    } else {
        pqt_mem_free(root);
    }
    if (w) walk_free(w);
    pqt_mem_free(store);
    pqt_mem_free(pt.comp);
    return st;
}

static pqt_status list_dir(const char *spec, pqt_ds_list *l)
{
    size_t n = strlen(spec);
    while (n > 1 && spec[n - 1] == '/')
        n--;
    char *root = pqt_strndup(spec, n);
    if (!root) return pqt_err(PQT_NOMEM, "listing '%s': out of memory", spec);
    walk *w = NULL;
    pqt_status st = walk_new(root, &w);
    if (st == PQT_OK) st = walk_dir(w, n, false);
    if (st != PQT_OK) {
        if (w) walk_free(w);
        pqt_mem_free(root);
        return st;
    }
    take_members(w, l);
    walk_free(w);
    l->root = root;
    return PQT_OK;
}

pqt_status pqt_ds_list_paths(const char *const *paths, int64_t n, bool hive, pqt_ds_list *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (!out || !paths || n <= 0)
        return pqt_err(PQT_MISUSE, "dataset: a list of paths needs at least one path");
    pqt_ds_list l = {0};
    l.root = pqt_strdup("");
    l.rel = pqt_calloc((size_t)n, sizeof *l.rel);
    if (!l.root || !l.rel) {
        pqt_ds_list_free(&l);
        return pqt_err(PQT_NOMEM, "dataset of %lld paths: out of memory", (long long)n);
    }
    for (int64_t i = 0; i < n; i++) {
        if (!paths[i] || !paths[i][0]) {
            l.n = i;
            pqt_ds_list_free(&l);
            return pqt_err(PQT_MISUSE, "dataset: path %lld of %lld is empty", (long long)i + 1,
                           (long long)n);
        }
        l.rel[i] = pqt_strdup(paths[i]);
        if (!l.rel[i]) {
            l.n = i;
            pqt_ds_list_free(&l);
            return pqt_err(PQT_NOMEM, "dataset: out of memory at '%s'", paths[i]);
        }
    }
    l.n = n;
    if (hive) {
        pqt_status st = pqt_ds_hive_parse(&l);
        if (st != PQT_OK) {
            pqt_ds_list_free(&l);
            return st;
        }
    }
    *out = l;
    return PQT_OK;
}

pqt_status pqt_ds_list_open(const char *spec, bool hive, pqt_ds_list *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (!out || !spec || !spec[0]) return pqt_err(PQT_MISUSE, "dataset: no path given");
    pqt_ds_list l = {0};
    pqt_status st;
    bool remote = pqt_ds_is_remote(spec);
    if (remote) {
        if (!pqt_ds_remote_is_dataset(spec)) return pqt_ds_list_paths(&spec, 1, hive, out);
        st = pqt_ds_list_remote(spec, &l);
    } else if (pqt_ds_is_pattern(spec)) {
        st = list_glob(spec, &l);
    } else {
        struct stat sb;
        if (stat(spec, &sb) != 0)
            return pqt_err(errno == ENOENT || errno == ENOTDIR ? PQT_NOT_FOUND : PQT_IO, "'%s': %s",
                           spec, strerror(errno));
        if (S_ISREG(sb.st_mode)) return pqt_ds_list_paths(&spec, 1, hive, out);
        if (!S_ISDIR(sb.st_mode))
            return pqt_err(PQT_NOT_FOUND, "'%s': neither a file nor a directory", spec);
        if (pqt_ds_hats_detect(spec))
            st = pqt_ds_hats_list(spec, &l);
        else
            st = list_dir(spec, &l);
        if (st == PQT_OK && !l.is_hats) {
            pqt_ds_list_find_summaries(&l);
            /* a directory of summaries only is an empty dataset that still has a schema */
            if (l.n == 0 && !l.has_metadata && !l.has_common_metadata)
                st = pqt_err(PQT_NOT_FOUND, "no *.parquet file below '%s'", spec);
        }
    }
    if (st == PQT_OK && l.root && !l.is_hats && !remote && pqt_ds_is_pattern(spec))
        pqt_ds_list_find_summaries(&l);
    if (st == PQT_OK && hive && !l.is_hats) st = pqt_ds_hive_parse(&l);
    if (st != PQT_OK) {
        pqt_ds_list_free(&l);
        return st;
    }
    *out = l;
    return PQT_OK;
}
