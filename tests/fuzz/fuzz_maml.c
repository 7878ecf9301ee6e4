/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_maml.c - libFuzzer target for the MAML reader (src/maml/): libyaml into the model,
 * both validations (read-in and strict) and the verdict message, on any bytes.
 * Input: the MAML text itself.
 */
#include "fuzz.h"
#include "maml/maml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pqt_maml *m = NULL;
    if (pqt_maml_parse_text((const char *)data, size, "fuzz.maml", &m) != PQT_OK) return 0;
    pqt_maml_check(m, size & 1);
    pqt_maml_verdict(m, "fuzz");
    pqt_maml_value(m, "table");
    pqt_maml_field_find(m, "a");
    pqt_maml_unref(m);
    return 0;
}
