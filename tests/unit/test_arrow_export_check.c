/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_check.c - the test of the test: arrow_check.c accepts hand-made valid
 * arrays and rejects each hand-made defect (bad offsets, a wrong null_count, bad UTF-8, a
 * short child, a missing release, wrong buffer counts), naming it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arrow_check.h"

static int failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void noop_schema(struct ArrowSchema *s)
{
    s->release = NULL;
}
static void noop_array(struct ArrowArray *a)
{
    a->release = NULL;
}

static struct ArrowSchema field(const char *format, const char *name, int64_t flags)
{
    struct ArrowSchema s;
    memset(&s, 0, sizeof s);
    s.format = format;
    s.name = name;
    s.flags = flags;
    s.release = noop_schema;
    return s;
}

static struct ArrowArray array(int64_t length, int64_t null_count, int64_t nbuf,
                               const void **buffers)
{
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    a.length = length;
    a.null_count = null_count;
    a.n_buffers = nbuf;
    a.buffers = buffers;
    a.release = noop_array;
    return a;
}

/* Whether check rejects with a message containing `word`. */
static int rejects(const struct ArrowSchema *s, const struct ArrowArray *a, const char *word)
{
    char why[512];
    int r = arrow_check_array(s, a, why, sizeof why);
    if (r && !strstr(why, word)) fprintf(stderr, "rejected for another reason: %s\n", why);
    return r && strstr(why, word) != NULL;
}

static int accepts(const struct ArrowSchema *s, const struct ArrowArray *a)
{
    char why[512];
    int r = arrow_check_array(s, a, why, sizeof why);
    if (r) fprintf(stderr, "rejected: %s\n", why);
    return r == 0;
}

int main(void)
{
    _Alignas(64) int64_t vals[4] = {1, 2, 3, 4};
    _Alignas(64) uint8_t valid[8] = {0x0B}; /* 1101: element 2 null */
    const void *b2[2] = {valid, vals};
    struct ArrowSchema si = field("l", "x", ARROW_FLAG_NULLABLE);
    struct ArrowArray ai = array(4, 1, 2, b2);
    CHECK(accepts(&si, &ai));
    ai.null_count = -1; /* "not computed" is allowed */
    CHECK(accepts(&si, &ai));
    ai.null_count = 0;
    CHECK(rejects(&si, &ai, "null_count 0 but the validity bitmap has 1"));
    ai.null_count = 1;
    ai.offset = 3, ai.length = 1; /* element 3: valid */
    CHECK(rejects(&si, &ai, "null_count 1 but the validity bitmap has 0"));
    ai.offset = 0, ai.length = 4;
    struct ArrowSchema si_req = field("l", "x", 0);
    CHECK(rejects(&si_req, &ai, "not flagged nullable"));
    ai.n_buffers = 3;
    CHECK(rejects(&si, &ai, "needs 2"));
    ai.n_buffers = 2;
    ai.release = NULL;
    CHECK(rejects(&si, &ai, "array released"));
    ai.release = noop_array;
    const void *b2n[2] = {NULL, vals};
    struct ArrowArray an = array(4, 2, 2, b2n);
    CHECK(rejects(&si, &an, "without a validity bitmap"));
    const void *b2u[2] = {NULL, (const char *)vals + 4};
    struct ArrowArray au = array(2, 0, 2, b2u);
    CHECK(rejects(&si, &au, "aligned"));

    /* large_utf8: "ab", "", "é" */
    _Alignas(64) int64_t offs[4] = {0, 2, 2, 4};
    _Alignas(64) char bytes[8] = "ab\xC3\xA9";
    const void *b3[3] = {NULL, offs, bytes};
    struct ArrowSchema su = field("U", "s", ARROW_FLAG_NULLABLE);
    struct ArrowArray as = array(3, 0, 3, b3);
    CHECK(accepts(&su, &as));
    bytes[3] = 'x'; /* a lone lead byte */
    CHECK(rejects(&su, &as, "invalid UTF-8"));
    struct ArrowSchema sz = field("Z", "s", ARROW_FLAG_NULLABLE); /* binary: any bytes */
    CHECK(accepts(&sz, &as));
    bytes[3] = (char)0xA9;
    offs[2] = 1; /* 0, 2, 1, 4: decreasing */
    CHECK(rejects(&su, &as, "offsets decrease at 2"));
    offs[2] = 2;
    offs[0] = -1;
    CHECK(rejects(&su, &as, "negative"));
    offs[0] = 0;
    _Alignas(64) char surrogate[8] = "\xED\xA0\x80"; /* U+D800 encoded */
    _Alignas(64) int64_t offs1[2] = {0, 3};
    const void *b3s[3] = {NULL, offs1, surrogate};
    struct ArrowArray asur = array(1, 0, 3, b3s);
    CHECK(rejects(&su, &asur, "invalid UTF-8"));

    /* large_list<int64> of [1,2], [], [3,4]; child too short when an offset passes it */
    _Alignas(64) int64_t loffs[4] = {0, 2, 2, 4};
    const void *bl[2] = {NULL, loffs};
    struct ArrowSchema se = field("l", "item", ARROW_FLAG_NULLABLE);
    struct ArrowSchema *sch[1] = {&se};
    struct ArrowSchema sl = field("+L", "list", ARROW_FLAG_NULLABLE);
    sl.n_children = 1, sl.children = sch;
    const void *bc[2] = {NULL, vals};
    struct ArrowArray ac = array(4, 0, 2, bc);
    struct ArrowArray *ach[1] = {&ac};
    struct ArrowArray al = array(3, 0, 2, bl);
    al.n_children = 1, al.children = ach;
    CHECK(accepts(&sl, &al));
    loffs[3] = 5;
    CHECK(rejects(&sl, &al, "child length 4 < 5"));
    loffs[3] = 4;
    ac.null_count = 3; /* a defect one level down is found and named by its path */
    CHECK(rejects(&sl, &al, "item: null_count 3 without a validity bitmap"));
    ac.null_count = 0;

    /* fixed_size_list<int64, 2> of 3 rows needs 6 children */
    struct ArrowSchema sw = field("+w:2", "vec", 0);
    sw.n_children = 1, sw.children = sch;
    const void *bw[1] = {NULL};
    struct ArrowArray aw = array(2, 0, 1, bw);
    aw.n_children = 1, aw.children = ach;
    CHECK(accepts(&sw, &aw));
    aw.length = 3;
    CHECK(rejects(&sw, &aw, "child length 4 < 6"));

    /* struct: a child array count that disagrees with the schema */
    struct ArrowSchema ss = field("+s", "", 0);
    ss.n_children = 1, ss.children = sch;
    struct ArrowArray ast = array(4, 0, 1, bw);
    ast.n_children = 1, ast.children = ach;
    CHECK(accepts(&ss, &ast));
    ast.n_children = 0;
    CHECK(rejects(&ss, &ast, "array has 0 children, schema 1"));

    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
