/* SPDX-License-Identifier: Apache-2.0 */
/* testutil.c - see testutil.h */
#include "testutil.h"

#include <string.h>

#include "pqt_file.h"

int pqt_test_failures = 0;

int pqt_test_done(const char *name)
{
    if (pqt_test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, pqt_test_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

uint64_t pqt_test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

char *pqt_test_read_file(const char *path, size_t *n_ret)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, fp) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = '\0';
    fclose(fp);
    if (s && n_ret) *n_ret = (size_t)n;
    return s;
}

char *pqt_test_read_text(const char *path) { return pqt_test_read_file(path, NULL); }

int pqt_test_split(char *s, char sep, char **out, int max)
{
    int n = 0;
    out[n++] = s;
    for (char *p = s; *p && n < max; p++)
        if (*p == sep) {
            *p = '\0';
            out[n++] = p + 1;
        }
    return n;
}

void pqt_test_meta_is(const pqt_file *f, const char *key, const char *want)
{
    const char *v = NULL;
    pqt_status st = pqt_file_meta_value(f, key, &v);
    if (!want) {
        CHECK_EQ_I64(st, PQT_NOT_FOUND);
        return;
    }
    CHECK_OK(st);
    if (st == PQT_OK && strcmp(v, want) != 0) {
        fprintf(stderr, "key %s:\n'%s'\nwant\n'%s'\n", key, v, want);
        CHECK(0);
    }
}

int pqt_test_key_count(const pqt_file *f, const char *key)
{
    int n = 0;
    for (int i = 0; i < pqt_file_nkv(f); i++) n += strcmp(pqt_file_kv_key(f, i), key) == 0;
    return n;
}
