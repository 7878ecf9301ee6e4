/* SPDX-License-Identifier: Apache-2.0 */
/*
 * healpix.c - NESTED HEALPix pixels and the cone descent (layer: dataset).
 *
 * The geometry is the published one (Gorski et al. 2005; docs/pruning.md, "HEALPix"): 12 base
 * pixels, each split in nside x nside by two families of edge lines; NESTED numbers interleave
 * the bits of the two line indices below the base pixel. ang2pix repeats healpy's arithmetic
 * step for step (the same constants, the same order of operations, sin(theta) near the poles)
 * because a pixel number must match healpy's bit for bit, points on edges included.
 *
 * The cone tests compare chord lengths between unit vectors, accurate at every scale (a cosine
 * loses the small angles); every bound errs on the side of keeping a pixel.
 */
#include "dataset/healpix.h"

#include <math.h>

/* ang2pix must round exactly as healpy does: no fused multiply-adds (clang contracts a * b + c
 * by default where the target has FMA; gcc does not in ISO C mode) */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "util/error.h"
#include "util/mem.h"

static const double PI = 3.141592653589793238462643383279502884197;
static const double TWOPI = 6.283185307179586476925286766559005768394;
static const double HALFPI = 1.570796326794896619231321691639751442099;
static const double INV_HALFPI = 0.6366197723675813430755350534900574;
/* numpy's radians(): x * (pi / 180), the quotient rounded once */
static const double DEG2RAD = 3.141592653589793238462643383279502884197 / 180.0;
static const double RAD2DEG = 180.0 / 3.141592653589793238462643383279502884197;

/* Ring of the northern corner and longitude index of each base pixel, in units of the
 * order-0 grid (the paper's table). */
static const int JRLL[12] = {2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
static const int JPLL[12] = {1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7};

/* Safety on max_pixrad: the bound is attained at a corner, and no point of a pixel lies farther
 * from its centre (measured, tests/unit/test_healpix.c), but ang2pix may put a point within about
 * 1e-5 of a pixel's width of an edge into the neighbour (rounding in nside * tt near 2^31), and
 * the centre, the cone vector and the chord each carry a few 1e-16 of rounding: 0.1% and 1e-14
 * rad cover all of it many times over and cost nothing measurable in pruning. */
#define PIXRAD_FACTOR 1.001
#define SLACK_RAD 1e-14

/* Bits 0..31 of v to the even bits 0..62, and back. */
static inline uint64_t spread_bits(uint64_t v)
{
    v &= 0xffffffffu;
    v = (v | (v << 16)) & 0x0000ffff0000ffffULL;
    v = (v | (v << 8)) & 0x00ff00ff00ff00ffULL;
    v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0fULL;
    v = (v | (v << 2)) & 0x3333333333333333ULL;
    v = (v | (v << 1)) & 0x5555555555555555ULL;
    return v;
}

static inline uint64_t compress_bits(uint64_t v)
{
    v &= 0x5555555555555555ULL;
    v = (v | (v >> 1)) & 0x3333333333333333ULL;
    v = (v | (v >> 2)) & 0x0f0f0f0f0f0f0f0fULL;
    v = (v | (v >> 4)) & 0x00ff00ff00ff00ffULL;
    v = (v | (v >> 8)) & 0x0000ffff0000ffffULL;
    v = (v | (v >> 16)) & 0x00000000ffffffffULL;
    return v;
}

static inline int64_t xyf2nest(int order, int64_t ix, int64_t iy, int face)
{
    return ((int64_t)face << (2 * order)) + (int64_t)spread_bits((uint64_t)ix) +
           (int64_t)(spread_bits((uint64_t)iy) << 1);
}

/* v1 mod v2 in [0, v2), as healpy reduces phi / (pi/2) into [0, 4). */
static inline double fmodulo(double v1, double v2)
{
    if (v1 >= 0) return v1 < v2 ? v1 : fmod(v1, v2);
    double tmp = fmod(v1, v2) + v2;
    return tmp == v2 ? 0.0 : tmp;
}

/* The pixel of (z = cos theta, phi); sth = sin theta when have_sth (near the poles, where
 * 1 - |z| has lost its digits). */
static int64_t loc2pix(int order, double z, double phi, double sth, bool have_sth)
{
    const int64_t nside = (int64_t)1 << order;
    double za = fabs(z);
    double tt = fmodulo(phi * INV_HALFPI, 4.0); /* in [0, 4) */
    if (za <= 2.0 / 3.0) {                      /* equatorial belt */
        double temp1 = (double)nside * (0.5 + tt);
        double temp2 = (double)nside * (z * 0.75);
        int64_t jp = (int64_t)(temp1 - temp2); /* ascending edge line */
        int64_t jm = (int64_t)(temp1 + temp2); /* descending edge line */
        int64_t ifp = jp >> order, ifm = jm >> order;
        int face = ifp == ifm ? (int)(ifp | 4) : (ifp < ifm ? (int)ifp : (int)(ifm + 8));
        int64_t ix = jm & (nside - 1);
        int64_t iy = nside - (jp & (nside - 1)) - 1;
        return xyf2nest(order, ix, iy, face);
    }
    int ntt = (int)tt < 3 ? (int)tt : 3; /* polar caps */
    double tp = tt - ntt;
    double tmp = (za < 0.99 || !have_sth) ? (double)nside * sqrt(3 * (1 - za))
                                          : (double)nside * sth / sqrt((1. + za) / 3.);
    int64_t jp = (int64_t)(tp * tmp);
    int64_t jm = (int64_t)((1.0 - tp) * tmp);
    if (jp > nside - 1) jp = nside - 1; /* a point on the cap's outer edge */
    if (jm > nside - 1) jm = nside - 1;
    return z >= 0 ? xyf2nest(order, nside - jm - 1, nside - jp - 1, ntt)
                  : xyf2nest(order, jp, jm, ntt + 8);
}

int64_t pqt_hpx_ang2pix(int order, double ra_deg, double dec_deg)
{
    if (order < 0 || order > PQT_HPX_MAX_ORDER || !isfinite(ra_deg) || !isfinite(dec_deg))
        return -1;
    if (dec_deg > 90.0) dec_deg = 90.0;
    if (dec_deg < -90.0) dec_deg = -90.0;
    double theta = PI / 2.0 - dec_deg * DEG2RAD;
    double phi = fmodulo(ra_deg * DEG2RAD, TWOPI); /* healpy normalises the longitude first */
    if (theta < 0) theta = 0; /* never with dec <= 90; kept for the invariant */
    if (theta < 0.01 || theta > 3.14159 - 0.01)
        return loc2pix(order, cos(theta), phi, sin(theta), true);
    return loc2pix(order, cos(theta), phi, 0.0, false);
}

/* The centre of pixel pix at order k as (z, sin theta, phi); sin theta from the ring number
 * near the poles so that it keeps its digits there. */
static void pix_centre(int order, int64_t pix, double *z_ret, double *sth_ret, double *phi_ret)
{
    const int64_t nside = (int64_t)1 << order;
    const int64_t npface = nside * nside;
    const double fact2 = 4.0 / (double)(12 * npface);
    const double fact1 = (double)(nside << 1) * fact2;
    int face = (int)(pix >> (2 * order));
    uint64_t ipf = (uint64_t)(pix & (npface - 1));
    int64_t ix = (int64_t)compress_bits(ipf), iy = (int64_t)compress_bits(ipf >> 1);
    int64_t jr = ((int64_t)JRLL[face] << order) - ix - iy - 1; /* ring number, 1..4 nside - 1 */
    int64_t nr;
    double z, sth;
    if (jr < nside) { /* north cap */
        nr = jr;
        double tmp = (double)(nr * nr) * fact2;
        z = 1 - tmp;
        sth = sqrt(tmp * (2 - tmp));
    } else if (jr > 3 * nside) { /* south cap */
        nr = nside * 4 - jr;
        double tmp = (double)(nr * nr) * fact2;
        z = tmp - 1;
        sth = sqrt(tmp * (2 - tmp));
    } else {
        nr = nside;
        z = (double)(2 * nside - jr) * fact1;
        sth = sqrt((1 - z) * (1 + z));
    }
    int64_t tmp = (int64_t)JPLL[face] * nr + ix - iy;
    if (tmp < 0) tmp += 8 * nr;
    *phi_ret = nr == nside ? 0.75 * HALFPI * (double)tmp * fact1
                           : (0.5 * HALFPI * (double)tmp) / (double)nr;
    *z_ret = z;
    *sth_ret = sth;
}

static inline bool pix_ok(int order, int64_t pix)
{
    return order >= 0 && order <= PQT_HPX_MAX_ORDER && pix >= 0 && pix < (int64_t)12 << (2 * order);
}

void pqt_hpx_pix2ang(int order, int64_t pix, double *ra_deg, double *dec_deg)
{
    if (!pix_ok(order, pix)) {
        *ra_deg = NAN;
        *dec_deg = NAN;
        return;
    }
    double z, sth, phi;
    pix_centre(order, pix, &z, &sth, &phi);
    double ra = phi * RAD2DEG;
    *ra_deg = ra >= 360.0 ? ra - 360.0 : ra;
    *dec_deg = atan2(z, sth) * RAD2DEG;
}

/* Unit vector of (z, sin theta, phi) and of (ra, dec) in degrees. */
static inline void zphi_vec(double z, double sth, double phi, double v[3])
{
    v[0] = sth * cos(phi);
    v[1] = sth * sin(phi);
    v[2] = z;
}

static void radec_vec(double ra_deg, double dec_deg, double v[3])
{
    double ra = fmod(ra_deg, 360.0) * DEG2RAD, dec = dec_deg * DEG2RAD;
    double cd = cos(dec);
    v[0] = cd * cos(ra);
    v[1] = cd * sin(ra);
    v[2] = sin(dec);
}

/* Angle between unit vectors, atan2 of |a x b| and a . b: accurate for tiny and near-pi
 * angles alike. */
static double vec_angle(const double a[3], const double b[3])
{
    double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2],
           cz = a[0] * b[1] - a[1] * b[0];
    return atan2(sqrt(cx * cx + cy * cy + cz * cz), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}

/* healpy's max_pixrad: from the centre of the equatorial-edge pixel nearest the cap boundary
 * to its far corner in the cap; the largest centre-to-corner distance of the order. */
static double pixrad_exact(int order)
{
    double nside = (double)((int64_t)1 << order);
    double va[3], vb[3];
    double za = 2.0 / 3.0;
    zphi_vec(za, sqrt((1 - za) * (1 + za)), PI / (4 * nside), va);
    double t1 = 1.0 - 1.0 / nside;
    t1 *= t1;
    double zb = 1 - t1 / 3;
    double tb = t1 / 3; /* 1 - zb, kept exact for sin theta */
    zphi_vec(zb, sqrt(tb * (2 - tb)), 0.0, vb);
    return vec_angle(va, vb);
}

double pqt_hpx_max_pixrad(int order)
{
    if (order < 0 || order > PQT_HPX_MAX_ORDER) return NAN;
    return pixrad_exact(order) * PIXRAD_FACTOR;
}

/* Squared chord of an angle in radians: 4 sin^2(a / 2), monotonic on [0, pi]; -1 below 0 (no
 * chord qualifies), 5 from pi on (every chord qualifies, the longest being 2). */
static double chord2_of(double a)
{
    if (a < 0) return -1.0;
    if (a >= PI) return 5.0;
    double s = 2 * sin(a / 2);
    return s * s;
}

static inline double chord2(const double a[3], const double b[3])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

/* The squared-chord limits of a cone at one order: a pixel whose centre lies beyond `out` cannot
 * meet the cone; one within `in` lies wholly inside it. */
typedef struct order_limits {
    double out, in;
} order_limits;

static order_limits limits_at(int order, double radius_rad)
{
    double pr = pqt_hpx_max_pixrad(order);
    order_limits l;
    l.out = chord2_of(radius_rad + pr + SLACK_RAD);
    l.in = chord2_of(radius_rad - pr - SLACK_RAD);
    return l;
}

bool pqt_hpx_pixel_may_meet_cone(int order, int64_t pix, double ra0, double dec0, double radius_deg)
{
    if (!pix_ok(order, pix) || !isfinite(ra0) || !isfinite(dec0) || !isfinite(radius_deg))
        return true;
    if (radius_deg >= 180.0) return true;
    if (radius_deg < 0) return false;
    double c[3], p[3], z, sth, phi;
    radec_vec(ra0, dec0, c);
    pix_centre(order, pix, &z, &sth, &phi);
    zphi_vec(z, sth, phi, p);
    return chord2(c, p) <= limits_at(order, radius_deg * DEG2RAD).out;
}

int pqt_hpx_cone_order(double radius_deg)
{
    if (!(radius_deg > 0)) return PQT_HPX_MAX_ORDER;
    /* a pixel of order k is sqrt(pi / 3) / 2^k rad across (the square root of its area) */
    double want = 4.0 * sqrt(PI / 3.0) * RAD2DEG / radius_deg; /* 2^k */
    if (want <= 1.0) return 0;
    double k = ceil(log2(want));
    return k >= PQT_HPX_MAX_ORDER ? PQT_HPX_MAX_ORDER : (int)k;
}

/* The growing output of the descent; adjacent ranges merge as they arrive (the descent visits
 * pixels in increasing order). */
typedef struct range_out {
    int64_t *r;
    int64_t n, cap; /* in int64 slots (two per range) */
} range_out;

static pqt_status emit(range_out *o, int64_t lo, int64_t hi)
{
    if (o->n > 0 && o->r[o->n - 1] == lo) {
        o->r[o->n - 1] = hi;
        return PQT_OK;
    }
    if (o->n + 2 > o->cap) {
        int64_t cap = o->cap ? o->cap * 2 : 64;
        int64_t *r = pqt_realloc(o->r, (size_t)cap * sizeof *r);
        if (!r)
            return pqt_err(PQT_NOMEM, "HEALPix cone ranges: out of memory for %lld ranges",
                           (long long)(cap / 2));
        o->r = r;
        o->cap = cap;
    }
    o->r[o->n++] = lo;
    o->r[o->n++] = hi;
    return PQT_OK;
}

pqt_status pqt_hpx_cone_ranges(double ra0, double dec0, double radius_deg, int max_order,
                               int64_t **ranges_ret, int64_t *n_ret)
{
    if (!isfinite(ra0) || !isfinite(dec0) || !isfinite(radius_deg))
        return pqt_err(PQT_MISUSE, "HEALPix cone (%g, %g, radius %g): not finite", ra0, dec0,
                       radius_deg);
    if (dec0 < -90.0 || dec0 > 90.0)
        return pqt_err(PQT_MISUSE, "HEALPix cone: dec %g is outside [-90, 90]", dec0);
    if (max_order < 0 || max_order > PQT_HPX_MAX_ORDER)
        return pqt_err(PQT_MISUSE, "HEALPix cone: order %d is outside 0..%d", max_order,
                       PQT_HPX_MAX_ORDER);
    range_out o = {NULL, 0, 0};
    if (radius_deg < 0) {
        *ranges_ret = NULL;
        *n_ret = 0;
        return PQT_OK;
    }
    if (radius_deg >= 180.0) {
        PQT_TRY(emit(&o, 0, (int64_t)12 << (2 * PQT_HPX_MAX_ORDER)));
        *ranges_ret = o.r;
        *n_ret = 1;
        return PQT_OK;
    }
    double radius = radius_deg * DEG2RAD;
    order_limits lim[PQT_HPX_MAX_ORDER + 1];
    for (int k = 0; k <= max_order; k++)
        lim[k] = limits_at(k, radius);
    double c[3];
    radec_vec(ra0, dec0, c);

    /* Depth-first, children pushed last-first so pixels leave in increasing order: at most
     * 12 + 3 per order on the stack. */
    struct {
        int64_t pix;
        int order;
    } stack[12 + 3 * PQT_HPX_MAX_ORDER + 4];
    int top = 0;
    for (int f = 11; f >= 0; f--) {
        stack[top].pix = f;
        stack[top++].order = 0;
    }
    while (top > 0) {
        top--;
        int64_t pix = stack[top].pix;
        int k = stack[top].order;
        double p[3], z, sth, phi;
        pix_centre(k, pix, &z, &sth, &phi);
        zphi_vec(z, sth, phi, p);
        double d2 = chord2(c, p);
        if (d2 > lim[k].out) continue;
        if (k == max_order || d2 <= lim[k].in) {
            int shift = 2 * (PQT_HPX_MAX_ORDER - k);
            pqt_status st = emit(&o, pix << shift, (pix + 1) << shift);
            if (st != PQT_OK) {
                pqt_mem_free(o.r);
                return st;
            }
            continue;
        }
        for (int i = 3; i >= 0; i--) {
            stack[top].pix = pix * 4 + i;
            stack[top++].order = k + 1;
        }
    }
    *ranges_ret = o.r;
    *n_ret = o.n / 2;
    return PQT_OK;
}
