/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opts_maml.c - pqt_opts_set_maml / pqt_opts_set_maml_text: a read-in MAML for table open
 * (layer: api). The MAML is parsed and validated when set, so a bad one fails at the line
 * that gave it; what needs the file is checked at open (src/table/table_maml.c).
 */
#include "api/file_int.h"
#include "maml/maml.h"
#include "util/error.h"

static pqt_status set(pqt_opts *o, const char *src, bool is_path, const char *call)
{
    if (!o) return pqt_err(PQT_MISUSE, "%s: options handle is NULL", call);
    pqt_maml *m = NULL;
    if (src) {
        pqt_status st = is_path ? pqt_maml_load_file(src, &m) : pqt_maml_load_text(src, &m);
        if (st != PQT_OK) {
            pqt_err_prefix("%s: ", call);
            return st;
        }
    }
    pqt_maml_unref(o->maml);
    o->maml = m;
    return PQT_OK;
}

pqt_status pqt_opts_set_maml(pqt_opts *o, const char *path)
{
    return set(o, path, true, "pqt_opts_set_maml");
}

pqt_status pqt_opts_set_maml_text(pqt_opts *o, const char *text)
{
    return set(o, text, false, "pqt_opts_set_maml_text");
}
