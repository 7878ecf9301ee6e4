/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_access.c - the accessors the layers above reach a pqt_file through (layer: api; see
 * file_access.h), so the handle's layout is the api's own to change.
 */
#include <string.h>

#include "api/file_int.h"

const pqt_file_meta *pqt_file_footer(const pqt_file *f)
{
    return &f->meta;
}

const pqt_schema *pqt_file_schema(const pqt_file *f)
{
    return &f->schema;
}

const pqt_col *pqt_file_col(const pqt_file *f, int col)
{
    return &f->schema.cols[col];
}

pqt_chunk_src pqt_file_chunk_src(const pqt_file *f)
{
    return (pqt_chunk_src){f->io,         f->path, f->file_size, &f->meta,
                           f->verify_crc, false,   NULL,         f->oindex,
                           pqt_file_members(f), -1};
}

void pqt_file_list_widths_share(pqt_file *g, const pqt_file *f)
{
    memcpy(g->list_width, f->list_width, ((size_t)f->schema.ncols + 1) * sizeof *f->list_width);
}
