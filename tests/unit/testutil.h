/* SPDX-License-Identifier: Apache-2.0 */
/*
 * testutil.h - tiny assertion helpers shared by the unit tests.
 * A failed CHECK prints file:line and the expression and makes the program exit 1 at the end.
 */
#ifndef PQT_TESTUTIL_H
#define PQT_TESTUTIL_H

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

extern int pqt_test_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                                         \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        if (va_ != vb_) {                                                                          \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", __FILE__, __LINE__,  \
                    #a, va_, #b, vb_);                                                             \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        int st_ = (int)(expr);                                                                     \
        if (st_ != 0) {                                                                            \
            fprintf(stderr, "%s:%d: %s returned %d: %s\n", __FILE__, __LINE__, #expr, st_,         \
                    pqt_errmsg());                                                                 \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* Like CHECK_OK, but a failure ends the program at once (exit 1): for steps such as opening an
 * input file that everything after them depends on, so a missing file fails with its message
 * instead of carrying on with a null handle. */
#define REQUIRE_OK(expr)                                                                           \
    do {                                                                                           \
        int st_ = (int)(expr);                                                                     \
        if (st_ != 0) {                                                                            \
            fprintf(stderr, "%s:%d: %s returned %d: %s (required; stopping)\n", __FILE__,        \
                    __LINE__, #expr, st_, pqt_errmsg());                                           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Return value for main(): 0 when no CHECK failed. Prints a summary line. */
int pqt_test_done(const char *name);

/* Deterministic PRNG for property tests (splitmix64). */
uint64_t pqt_test_rand(uint64_t *state);

/* A whole file, NUL-terminated (free with free), its bytes in *n_ret (may be NULL); NULL when
 * it cannot be read. pqt_test_read_text: the same for a text file. */
char *pqt_test_read_file(const char *path, size_t *n_ret);
char *pqt_test_read_text(const char *path);
/* Split s in place at sep into at most max fields (empty fields kept); returns the count. */
int pqt_test_split(char *s, char sep, char **out, int max);

/* A written file's key-value metadata: CHECK that key holds want (NULL: that it is absent,
 * PQT_NOT_FOUND); how many entries have key. */
struct pqt_file;
void pqt_test_meta_is(const struct pqt_file *f, const char *key, const char *want);
int pqt_test_key_count(const struct pqt_file *f, const char *key);

#endif
