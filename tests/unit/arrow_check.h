/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_check.h - a full-depth validator of Arrow C Data Interface arrays, for tests: what a
 * consumer may rely on, checked independently of the code that produced the array.
 *
 * Checks, at every depth: release set on array and schema, children counts and buffer counts
 * as the format prescribes, length/offset/null_count ranges, null_count equal to the zeros of
 * the validity bitmap (a bitmap absent only when null_count is 0), buffers 8-byte aligned and
 * present where the length needs them (their last byte is read, so AddressSanitizer catches a
 * short one), offsets non-negative, monotone and within the child or data, UTF-8 of every
 * valid string ("u", "U"), child lengths (struct, list, fixed_size_list, map), map entries a
 * struct of two with non-nullable keys without nulls.
 */
#ifndef PQT_TEST_ARROW_CHECK_H
#define PQT_TEST_ARROW_CHECK_H

#include <stddef.h>

#include "pqt_arrow.h"

/* 0 when array (described by schema) is valid; else nonzero and why[0..cap) says what is
 * wrong, naming the field path. */
int arrow_check_array(const struct ArrowSchema *schema, const struct ArrowArray *array, char *why,
                      size_t cap);

#endif
