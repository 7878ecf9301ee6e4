/*
 * file_int.h - layout of pqt_file, the footer-only reader handle (layer: api, private).
 */
#ifndef PQT_API_FILE_INT_H
#define PQT_API_FILE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "format/meta.h"
#include "format/schema.h"
#include "pqt.h"
#include "util/buf.h"

struct pqt_file {
    char *path;
    int fd;
    int64_t file_size;
    pqt_arena arena;     /* owns meta and schema */
    pqt_file_meta meta;
    pqt_schema schema;
    int threads;
    bool verify_crc;
    bool binary_as_string;
};

struct pqt_opts {
    int threads;
    bool verify_crc;
    bool binary_as_string;
    int64_t row_lo, row_hi; /* 0 = unset */
};

#endif
