/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_healpix.c - src/dataset/healpix.c against healpy and hand-computed values.
 *
 *   test_healpix [TRUTH]    (from the repository root; TRUTH defaults to the committed
 *                            tests/data/healpix_truth.txt)
 *
 * TRUTH is written by tests/data/make_healpix_truth.py from healpy (its header lists the line
 * kinds); tests/test_healpix_healpy.sh writes a fresh, larger one with a new seed and runs this
 * program on it. Checked: ang2pix equal to healpy's at every order 0..29; pix2ang within 1e-12
 * degrees; max_pixrad at least healpy's; every pixel of healpy's inclusive disc query kept by
 * pqt_hpx_pixel_may_meet_cone and inside pqt_hpx_cone_ranges (at the query's order); the
 * order-29 pixel of every random point inside a cone (and on its rim) inside the ranges; our
 * kept count at most 2x healpy's + 16 (the worst ratio is printed).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/healpix.h"
#include "testutil.h"
#include "util/mem.h"

static const double D2R = 3.141592653589793238462643383279502884197 / 180.0;
static uint64_t rng = 0x31;

static double urand(void)
{
    return (double)(pqt_test_rand(&rng) >> 11) * 0x1p-53;
}

/* Count of failures per line kind, so a broken truth file reports a few lines, not thousands. */
static int nreport = 0;
#define REPORT(...)                                                                                \
    do {                                                                                           \
        pqt_test_failures++;                                                                       \
        if (nreport++ < 20) fprintf(stderr, __VA_ARGS__);                                          \
    } while (0)

/* The index of the range holding order-29 pixel p, or -1. */
static int64_t find_range(const int64_t *r, int64_t n, int64_t p)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (r[2 * mid + 1] <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && r[2 * lo] <= p ? lo : -1;
}

/* Sorted, disjoint, non-adjacent, non-empty, inside the sphere's order-29 pixels. */
static bool ranges_well_formed(const int64_t *r, int64_t n)
{
    const int64_t npix29 = (int64_t)12 << 58;
    for (int64_t i = 0; i < n; i++) {
        if (r[2 * i] < 0 || r[2 * i] >= r[2 * i + 1] || r[2 * i + 1] > npix29) return false;
        if (i > 0 && r[2 * i] <= r[2 * i - 1]) return false;
    }
    return true;
}

static int64_t covered_at(const int64_t *r, int64_t n, int order)
{
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++)
        total += r[2 * i + 1] - r[2 * i];
    return total >> (2 * (29 - order));
}

/* A point at angular distance d (radians) from (ra0, dec0), at bearing b. */
static void point_at(double ra0, double dec0, double d, double b, double *ra, double *dec)
{
    double c[3] = {cos(dec0 * D2R) * cos(ra0 * D2R), cos(dec0 * D2R) * sin(ra0 * D2R),
                   sin(dec0 * D2R)};
    /* e1 toward the north pole (or +x at a pole), e2 = c x e1 */
    double e1[3] = {-sin(dec0 * D2R) * cos(ra0 * D2R), -sin(dec0 * D2R) * sin(ra0 * D2R),
                    cos(dec0 * D2R)};
    if (fabs(dec0) == 90.0) {
        e1[0] = 1;
        e1[1] = 0;
        e1[2] = 0;
    }
    double e2[3] = {c[1] * e1[2] - c[2] * e1[1], c[2] * e1[0] - c[0] * e1[2],
                    c[0] * e1[1] - c[1] * e1[0]};
    double x[3];
    for (int i = 0; i < 3; i++)
        x[i] = cos(d) * c[i] + sin(d) * (cos(b) * e1[i] + sin(b) * e2[i]);
    *ra = atan2(x[1], x[0]) / D2R;
    if (*ra < 0) *ra += 360.0;
    *dec = atan2(x[2], hypot(x[0], x[1])) / D2R;
}

/* Angle in radians between two (ra, dec) in degrees: atan2 of |cross| and dot. */
static double sep(double ra1, double dec1, double ra2, double dec2)
{
    double a[3] = {cos(dec1 * D2R) * cos(ra1 * D2R), cos(dec1 * D2R) * sin(ra1 * D2R),
                   sin(dec1 * D2R)};
    double b[3] = {cos(dec2 * D2R) * cos(ra2 * D2R), cos(dec2 * D2R) * sin(ra2 * D2R),
                   sin(dec2 * D2R)};
    double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2],
           cz = a[0] * b[1] - a[1] * b[0];
    return atan2(sqrt(cx * cx + cy * cy + cz * cz), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

static struct {
    long a, p, r, c, points, imprecise, seam;
    double worst_pixrad; /* distance of a point to its pixel's centre / max_pixrad */
    double worst_ratio;  /* ours / healpy's kept pixels, over queries with >= 100 pixels */
    double worst_small;  /* ours - 2 x healpy's, over the others */
    double worst_pix2ang;
} st;

static void check_a(char *s)
{
    double ra = strtod(s, &s), dec = strtod(s, &s);
    int64_t want[30];
    long long p29 = strtoll(s, &s, 10);
    for (int k = 0; k < 30; k++)
        want[k] = p29 >> (2 * (29 - k));
    for (;;) {
        char *e;
        long k = strtol(s, &e, 10);
        if (e == s || *e != ':') break;
        want[k] = strtoll(e + 1, &s, 10);
    }
    for (int k = 0; k < 30; k++) {
        int64_t got = pqt_hpx_ang2pix(k, ra, dec);
        if (got != want[k])
            REPORT("ang2pix(%d, %.17g, %.17g) = %lld, healpy %lld\n", k, ra, dec, (long long)got,
                   (long long)want[k]);
        /* many of these points are pixel corners: none lies beyond max_pixrad of its centre,
         * but for healpy's seam quirk (docs/pruning.md, "HEALPix"): an ra within 1e-13 deg
         * below 360 that rounds to 360 in one step and not in the next lands a point near the
         * cap boundary in a pixel on the far side of base pixel 4; and an ra far outside
         * [-720, 720] moves by |ra| x 1e-19 rad or so, healpy reducing it modulo a rounded 2 pi */
        double cra, cdec, wrapped = fmod(ra, 360.0);
        if (wrapped < 0) wrapped += 360.0;
        if (wrapped > 360.0 - 1e-9 || fabs(ra) > 720) {
            st.seam++;
            continue;
        }
        pqt_hpx_pix2ang(k, want[k], &cra, &cdec);
        double q = sep(ra, dec, cra, cdec) / pqt_hpx_max_pixrad(k);
        if (q > st.worst_pixrad) st.worst_pixrad = q;
        if (!(q <= 1.0))
            REPORT("(%.17g, %.17g) is %.17g max_pixrad from the centre of its pixel %lld at "
                   "order %d\n",
                   ra, dec, q, (long long)want[k], k);
    }
    st.a++;
}

static void check_p(char *s)
{
    int k = (int)strtol(s, &s, 10);
    long long pix = strtoll(s, &s, 10);
    double ra = strtod(s, &s), dec = strtod(s, &s);
    double gra, gdec;
    pqt_hpx_pix2ang(k, pix, &gra, &gdec);
    double dra = fabs(gra - ra);
    if (dra > 180) dra = 360 - dra; /* 0 and 360 are one longitude */
    double err = fmax(dra * cos(dec * D2R), fabs(gdec - dec));
    if (err > st.worst_pix2ang) st.worst_pix2ang = err;
    if (!(err <= 1e-12) || !(gra >= 0 && gra < 360))
        REPORT("pix2ang(%d, %lld) = (%.17g, %.17g), healpy (%.17g, %.17g)\n", k, pix, gra, gdec, ra,
               dec);
    st.p++;
}

static void check_r(char *s)
{
    int k = (int)strtol(s, &s, 10);
    double want = strtod(s, &s), got = pqt_hpx_max_pixrad(k);
    if (!(got >= want && got <= want * 1.002))
        REPORT("max_pixrad(%d) = %.17g, healpy %.17g\n", k, got, want);
    st.r++;
}

static void check_points(double ra0, double dec0, double radius, int k, const int64_t *r, int64_t n,
                         const int64_t *r2, int64_t n2, int k2)
{
    for (int i = 0; i < 400; i++) {
        /* a tenth on the rim: the cone is inclusive */
        double d = (i % 10 == 0 ? 1.0 : sqrt(urand())) * radius * D2R;
        if (radius >= 180) d = urand() * 3.14159;
        double ra, dec;
        point_at(ra0, dec0, d, urand() * 6.283185307179586, &ra, &dec);
        int64_t p29 = pqt_hpx_ang2pix(29, ra, dec);
        if (find_range(r, n, p29) < 0 || find_range(r2, n2, p29) < 0)
            REPORT("cone (%.17g, %.17g, %.17g): point (%.17g, %.17g) at %.17g deg, pixel %lld "
                   "outside the ranges (order %d or %d)\n",
                   ra0, dec0, radius, ra, dec, d / D2R, (long long)p29, k, k2);
        int kk = (int)(pqt_test_rand(&rng) % 30);
        if (!pqt_hpx_pixel_may_meet_cone(kk, p29 >> (2 * (29 - kk)), ra0, dec0, radius))
            REPORT("cone (%.17g, %.17g, %.17g): the order-%d pixel of point (%.17g, %.17g) "
                   "dropped\n",
                   ra0, dec0, radius, kk, ra, dec);
        st.points++;
    }
}

static void check_c(char *s)
{
    double ra0 = strtod(s, &s), dec0 = strtod(s, &s), radius = strtod(s, &s);
    int k = (int)strtol(s, &s, 10);
    strtol(s, &s, 10); /* fact: healpy's oversampling, only part of the truth */
    long long count = strtoll(s, &s, 10);
    /* healpy decides with cosines, cos(distance) against cos(radius + max_pixrad), from z =
     * cos(theta) of the cone's centre and the pixels' centres. A cosine holds an angle a only
     * to about 1e-15 / sin(a) rad, and z near a pole holds theta only to about
     * 1e-16 / sin(theta) (1.5e-8 rad at the pole itself, where z rounds to 1); so for a tiny
     * cone at a fine order, or near a pole, healpy's answer is itself off by that much, either
     * way (it may even be empty). Where that error passes 2e-4 of max_pixrad, its pixels are
     * checked against the cone widened by four times it and our count is not compared with
     * healpy's; the random points below check such cones. */
    double dr = pqt_hpx_max_pixrad(k), a = radius * D2R + dr;
    double pole = (90 - fabs(dec0)) * D2R - a; /* the closest any pixel may come to a pole */
    double eps = 1e-15 / sin(a < 1.5 ? a : 1.5) + 2e-16 / fmax(sin(fmax(pole, 0)), 1e-8);
    bool precise = eps <= 2e-4 * dr;
    double rcheck = precise ? radius : radius + 4 * eps / D2R;
    st.imprecise += !precise;
    int64_t *r = NULL, n = 0, *r2 = NULL, n2 = 0, *rc = NULL, nc = 0;
    int k2 = pqt_hpx_cone_order(radius);
    if (pqt_hpx_cone_ranges(ra0, dec0, radius, k, &r, &n) != PQT_OK ||
        pqt_hpx_cone_ranges(ra0, dec0, radius, k2, &r2, &n2) != PQT_OK ||
        pqt_hpx_cone_ranges(ra0, dec0, rcheck, k, &rc, &nc) != PQT_OK) {
        REPORT("cone (%.17g, %.17g, %.17g): %s\n", ra0, dec0, radius, pqt_errmsg());
        pqt_mem_free(r);
        pqt_mem_free(r2);
        return;
    }
    if (!ranges_well_formed(r, n) || !ranges_well_formed(r2, n2))
        REPORT("cone (%.17g, %.17g, %.17g): ranges not sorted, disjoint and merged\n", ra0, dec0,
               radius);
    const int shift = 2 * (29 - k);
    long long seen = 0;
    for (;;) {
        char *e;
        long long lo = strtoll(s, &e, 10);
        if (e == s || *e != ':') break;
        long long len = strtoll(e + 1, &s, 10);
        seen += len;
        for (long long p = lo; p < lo + len; p++)
            if (!pqt_hpx_pixel_may_meet_cone(k, p, ra0, dec0, rcheck))
                REPORT("cone (%.17g, %.17g, %.17g): healpy keeps pixel %lld of order %d, "
                       "may_meet drops it\n",
                       ra0, dec0, radius, p, k);
        /* a run of pixels is one stretch of order-29 numbers: inside one merged range */
        int64_t at = find_range(rc, nc, (int64_t)lo << shift);
        if (at < 0 || rc[2 * at + 1] < (int64_t)(lo + len) << shift)
            REPORT("cone (%.17g, %.17g, %.17g): healpy's pixels %lld..%lld of order %d are not "
                   "all inside the ranges\n",
                   ra0, dec0, radius, lo, lo + len - 1, k);
    }
    CHECK_EQ_I64(seen, count);
    /* not too loose: what we keep at order k against healpy's inclusive answer */
    int64_t ours = covered_at(r, n, k);
    if (precise && ours > 2 * count + 16)
        REPORT("cone (%.17g, %.17g, %.17g) at order %d: %lld pixels kept, healpy %lld\n", ra0, dec0,
               radius, k, (long long)ours, count);
    if (precise && count >= 100 && (double)ours / (double)count > st.worst_ratio)
        st.worst_ratio = (double)ours / (double)count;
    if (precise && count < 100 && (double)(ours - 2 * count) > st.worst_small)
        st.worst_small = (double)(ours - 2 * count);
    /* at coarse orders, everything the ranges keep is what may_meet keeps */
    if (k <= 3)
        for (int64_t p = 0; p < (int64_t)12 << (2 * k); p++)
            if (find_range(r, n, p << shift) >= 0 &&
                !pqt_hpx_pixel_may_meet_cone(k, p, ra0, dec0, radius))
                REPORT("cone (%.17g, %.17g, %.17g): ranges keep pixel %lld of order %d that "
                       "may_meet drops\n",
                       ra0, dec0, radius, (long long)p, k);
    check_points(ra0, dec0, radius, k, r, n, r2, n2, k2);
    pqt_mem_free(r);
    pqt_mem_free(r2);
    pqt_mem_free(rc);
    st.c++;
}

static void run_truth(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "test_healpix: cannot open %s\n", path);
        exit(1);
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, fp) > 0) {
        switch (line[0]) {
        case 'A':
            check_a(line + 1);
            break;
        case 'P':
            check_p(line + 1);
            break;
        case 'R':
            check_r(line + 1);
            break;
        case 'C':
            check_c(line + 1);
            break;
        default:
            break;
        }
    }
    free(line);
    fclose(fp);
    printf("%s: %ld ang2pix points x 30 orders, %ld pix2ang (worst %.3g deg), %ld max_pixrad, "
           "%ld disc queries, %ld points in cones\n",
           path, st.a, st.p, st.worst_pix2ang, st.r, st.c, st.points);
    printf("kept / healpy inclusive: worst %.3f (queries of >= 100 pixels); worst excess over 2x "
           "in smaller ones %+.0f; %ld queries below healpy's precision; farthest point from its "
           "pixel centre %.6f max_pixrad (%ld points at the seam or far outside [-720, 720] not "
           "measured)\n",
           st.worst_ratio, st.worst_small, st.imprecise, st.worst_pixrad, st.seam / 30);
    CHECK(st.a > 0 && st.p > 0 && st.r == 30 && st.c > 0);
}

/* Values worked out by hand from the geometry (docs/pruning.md, "HEALPix"). */
static void hand_values(void)
{
    const double cap = asin(2.0 / 3.0) / D2R; /* the caps begin at z = 2/3 */
    /* order 0: base pixels 0-3 in the north cap centred on ra 45, 135, ..., 4-7 on the equator
     * at ra 0, 90, ..., 8-11 in the south */
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 45, 60), 0);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 135, 60), 1);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 315, 60), 3);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 0, 0), 4);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 90, 0), 5);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 270, 0), 7);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 45, -60), 8);
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 315, -60), 11);
    /* wrapping: 360 and 720 are ra 0, -90 is 270 */
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, 360, 0), 4);
    CHECK_EQ_I64(pqt_hpx_ang2pix(7, 720, 10), pqt_hpx_ang2pix(7, 0, 10));
    CHECK_EQ_I64(pqt_hpx_ang2pix(0, -90, 0), 7);
    /* the north pole is the corner of pixel 0..3 (face by ra), its last sub-pixel */
    CHECK_EQ_I64(pqt_hpx_ang2pix(1, 10, 90), 3);
    CHECK_EQ_I64(pqt_hpx_ang2pix(29, 10, 90), ((int64_t)1 << 58) - 1);
    CHECK_EQ_I64(pqt_hpx_ang2pix(29, 100, -90), ((int64_t)9 << 58)); /* south pole, face 9 */
    /* out of range */
    CHECK_EQ_I64(pqt_hpx_ang2pix(30, 0, 0), -1);
    CHECK_EQ_I64(pqt_hpx_ang2pix(-1, 0, 0), -1);
    CHECK_EQ_I64(pqt_hpx_ang2pix(3, NAN, 0), -1);
    CHECK_EQ_I64(pqt_hpx_ang2pix(3, 0, INFINITY), -1);
    CHECK_EQ_I64(pqt_hpx_ang2pix(3, 20, 91), pqt_hpx_ang2pix(3, 20, 90));

    double ra, dec;
    pqt_hpx_pix2ang(0, 0, &ra, &dec);
    CHECK(fabs(ra - 45) < 1e-12 && fabs(dec - cap) < 1e-12);
    pqt_hpx_pix2ang(0, 4, &ra, &dec);
    CHECK(fabs(ra) < 1e-12 && fabs(dec) < 1e-12);
    pqt_hpx_pix2ang(0, 10, &ra, &dec);
    CHECK(fabs(ra - 225) < 1e-12 && fabs(dec + cap) < 1e-12);
    pqt_hpx_pix2ang(31, 0, &ra, &dec);
    CHECK(isnan(ra) && isnan(dec));
    pqt_hpx_pix2ang(0, 12, &ra, &dec);
    CHECK(isnan(ra) && isnan(dec));

    /* order 0: from the centre of a cap pixel (z = 2/3) to its corner at the pole */
    double r0 = acos(2.0 / 3.0);
    CHECK(pqt_hpx_max_pixrad(0) >= r0 && pqt_hpx_max_pixrad(0) < r0 * 1.001);
    CHECK(isnan(pqt_hpx_max_pixrad(30)));
    for (int k = 1; k <= 29; k++) /* halves with each order */
        CHECK(pqt_hpx_max_pixrad(k) < pqt_hpx_max_pixrad(k - 1) * 0.6);

    /* cone order: pixels (sqrt(pi/3) rad / 2^k across) at most radius / 4, the next coarser
     * larger */
    CHECK_EQ_I64(pqt_hpx_cone_order(1.0), 8); /* 58.6 / 256 = 0.229 <= 0.25 < 0.458 */
    CHECK_EQ_I64(pqt_hpx_cone_order(300), 0);
    CHECK_EQ_I64(pqt_hpx_cone_order(1e-9), 29);
    CHECK_EQ_I64(pqt_hpx_cone_order(0), 29);
    CHECK_EQ_I64(pqt_hpx_cone_order(-1), 29);
    CHECK_EQ_I64(pqt_hpx_cone_order(NAN), 29);
    const double s0 = sqrt(3.141592653589793 / 3) / D2R;
    for (double r = 1e-4; r < 200; r *= 1.37) {
        int k = pqt_hpx_cone_order(r);
        CHECK(k == 0 || s0 / ldexp(1, k - 1) > r / 4);
        CHECK(k == 29 || s0 / ldexp(1, k) <= r / 4);
    }
}

/* A cone's own pixel and those far from it. */
static void hand_cones(void)
{
    /* a 1-degree cone at the equator, ra 0: pixel 4 of order 0 meets it, pixel 6 (ra 180)
     * cannot; the cap pixels 0..3 start 41.8 degrees north */
    CHECK(pqt_hpx_pixel_may_meet_cone(0, 4, 0, 0, 1));
    CHECK(pqt_hpx_pixel_may_meet_cone(0, 4, 360, 0, 1));
    CHECK(!pqt_hpx_pixel_may_meet_cone(5, pqt_hpx_ang2pix(5, 180, 0), 0, 0, 1));
    CHECK(!pqt_hpx_pixel_may_meet_cone(10, pqt_hpx_ang2pix(10, 3, 0), 0, 0, 1));
    CHECK(pqt_hpx_pixel_may_meet_cone(10, pqt_hpx_ang2pix(10, 0.99, 0), 0, 0, 1));
    CHECK(pqt_hpx_pixel_may_meet_cone(3, 100, 0, 0, 180)); /* the whole sphere */
    CHECK(!pqt_hpx_pixel_may_meet_cone(0, 4, 0, 0, -1));   /* an empty cone */
    CHECK(pqt_hpx_pixel_may_meet_cone(0, 12, 0, 0, 1));    /* unjudgeable: kept */
    CHECK(pqt_hpx_pixel_may_meet_cone(0, 4, NAN, 0, 1));

    int64_t *r = NULL, n = -1;
    CHECK_OK(pqt_hpx_cone_ranges(0, 0, 180, 5, &r, &n));
    CHECK(n == 1 && r[0] == 0 && r[1] == (int64_t)12 << 58);
    pqt_mem_free(r);
    r = (int64_t *)&n;
    CHECK_OK(pqt_hpx_cone_ranges(0, 0, -1, 5, &r, &n));
    CHECK(n == 0 && r == NULL);
    /* a cone around the north pole of radius 10 at order 0: the four cap pixels only */
    CHECK_OK(pqt_hpx_cone_ranges(0, 90, 10, 0, &r, &n));
    CHECK(n == 1 && r[0] == 0 && r[1] == (int64_t)4 << 58);
    pqt_mem_free(r);
    /* a tiny cone at order 29: a handful of pixels around the centre's (the kept disc is
     * radius + max_pixrad, some 10 pixels of 1.9e-9 rad) */
    CHECK_OK(pqt_hpx_cone_ranges(12.5, -33.25, 1e-7, 29, &r, &n));
    int64_t own = pqt_hpx_ang2pix(29, 12.5, -33.25);
    CHECK(find_range(r, n, own) >= 0 && covered_at(r, n, 29) <= 32);
    pqt_mem_free(r);

    /* misuse: nothing written */
    int64_t *keep = (int64_t *)&own, nkeep = 77;
    r = keep;
    n = nkeep;
    CHECK(pqt_hpx_cone_ranges(NAN, 0, 1, 5, &r, &n) == PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "not finite") != NULL);
    CHECK(pqt_hpx_cone_ranges(0, 0, INFINITY, 5, &r, &n) == PQT_MISUSE);
    CHECK(pqt_hpx_cone_ranges(0, 90.5, 1, 5, &r, &n) == PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "90.5") != NULL);
    CHECK(pqt_hpx_cone_ranges(0, 0, 1, 30, &r, &n) == PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "order 30") != NULL);
    CHECK(pqt_hpx_cone_ranges(0, 0, 1, -1, &r, &n) == PQT_MISUSE);
    CHECK(r == keep && n == nkeep);
    /* out of memory, first and later allocations: nothing written */
    for (long after = 0; after < 3; after++) {
        pqt_mem_fail_after(after);
        pqt_status s = pqt_hpx_cone_ranges(10, 20, 5, 12, &r, &n);
        pqt_mem_fail_after(-1);
        CHECK(s == PQT_NOMEM);
        CHECK(r == keep && n == nkeep);
    }
}

/* The cone order keeps the ranges few: a few thousand at most, any radius, anywhere. */
static void range_counts(void)
{
    int64_t worst = 0;
    double worst_r = 0;
    for (int i = 0; i < 60; i++) {
        double radius = pow(10, -4 + urand() * 6.1); /* 1e-4 .. 120 */
        double ra0 = urand() * 360, dec0 = i % 6 == 0 ? 90 : asin(2 * urand() - 1) / D2R;
        int64_t *r = NULL, n = 0;
        CHECK_OK(pqt_hpx_cone_ranges(ra0, dec0, radius, pqt_hpx_cone_order(radius), &r, &n));
        CHECK(ranges_well_formed(r, n));
        if (n > worst) {
            worst = n;
            worst_r = radius;
        }
        pqt_mem_free(r);
    }
    printf("ranges at pqt_hpx_cone_order: at most %lld (radius %.3g deg)\n", (long long)worst,
           worst_r);
    CHECK(worst <= 5000);
}

int main(int argc, char **argv)
{
    hand_values();
    hand_cones();
    range_counts();
    run_truth(argc > 1 ? argv[1] : "tests/data/healpix_truth.txt");
    return pqt_test_done("test_healpix");
}
