/* SPDX-License-Identifier: Apache-2.0 */
/*
 * healpix.h - HEALPix pixels in the NESTED scheme, and which pixels a cone may meet
 * (layer: dataset).
 *
 * HATS catalogues partition the sky by HEALPix pixel (Gorski et al. 2005) and sort each file
 * by the order-29 pixel (`_healpix_29`); a cone search prunes whole partitions with
 * pqt_hpx_pixel_may_meet_cone and row groups or pages with the ranges of pqt_hpx_cone_ranges.
 * Pixel numbers match healpy's (nest=True, lonlat=True) bit for bit; the cone functions are
 * conservative: they never drop a pixel that shares a point with the cone. docs/pruning.md,
 * "HEALPix", states the rules.
 */
#ifndef PQT_DATASET_HEALPIX_H
#define PQT_DATASET_HEALPIX_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt.h"

#define PQT_HPX_MAX_ORDER 29

/* NESTED pixel of (ra, dec) in degrees at order k (nside 2^k), 0 <= k <= 29. ra any finite value
 * (wrapped), dec in [-90, 90] (a dec beyond is clamped to the pole). -1 for an order out of
 * range or a non-finite angle. */
int64_t pqt_hpx_ang2pix(int order, double ra_deg, double dec_deg);

/* Centre of NESTED pixel pix at order k, in degrees (ra in [0, 360)). An order or pixel out of
 * range gives NaN for both. */
void pqt_hpx_pix2ang(int order, int64_t pix, double *ra_deg, double *dec_deg);

/* An upper bound, in radians, of the angular distance from any pixel centre at order k to any
 * point of that pixel (as healpy.max_pixrad, made safely conservative). NaN for an order out of
 * range. */
double pqt_hpx_max_pixrad(int order);

/* False only when pixel pix at order k provably shares no point with the cone of radius_deg
 * (inclusive) around (ra0, dec0): never drops a pixel that touches the cone. radius >= 180: true;
 * radius < 0 (an empty cone): false. Anything it cannot judge (order or pixel out of range,
 * non-finite input) is true. */
bool pqt_hpx_pixel_may_meet_cone(int order, int64_t pix, double ra0, double dec0,
                                 double radius_deg);

/* The order-29 NESTED pixel numbers of every pixel that may meet the cone, as sorted, disjoint,
 * non-adjacent (merged) half-open ranges [r[2i], r[2i+1]), i < *n_ret: a hierarchical descent
 * from the 12 base pixels that stops at a pixel fully inside the cone (its whole range is kept)
 * or at max_order (0..29), where a pixel is kept when pqt_hpx_pixel_may_meet_cone keeps it.
 * *ranges_ret is allocated with util/mem.h (pqt_mem_free); NULL when *n_ret is 0 (a negative
 * radius). No cap on the number of ranges. PQT_NOMEM; PQT_MISUSE for non-finite input, dec0
 * outside [-90, 90] or max_order out of 0..29. On failure *ranges_ret and *n_ret are left as
 * they were. */
pqt_status pqt_hpx_cone_ranges(double ra0, double dec0, double radius_deg, int max_order,
                               int64_t **ranges_ret, int64_t *n_ret);

/* A max_order for pqt_hpx_cone_ranges: the order whose pixels are about radius / 4 across,
 * clamped to [0, 29] (so a cone yields at most a few thousand ranges). 29 for radius <= 0 or
 * NaN. */
int pqt_hpx_cone_order(double radius_deg);

#endif
