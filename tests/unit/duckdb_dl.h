/* SPDX-License-Identifier: Apache-2.0 */
/*
 * duckdb_dl.h - DuckDB's C library loaded at run time, for tests that check pqt against a
 * consumer and producer of Arrow that is not ours. No duckdb.h is needed: duckdb_dl.c
 * declares the few calls of DuckDB's stable C API it uses.
 *
 * The library is found through the environment variable PQT_LIBDUCKDB, else at
 * bench/peers/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so under the source
 * directory (PQT_SOURCE_DIR, given by CMake), which `scripts/install-deps test` fills with
 * `npm ci`. A test whose library is absent exits 77 (skipped).
 */
#ifndef PQT_TEST_DUCKDB_DL_H
#define PQT_TEST_DUCKDB_DL_H

#include "pqt_arrow.h"

/* The exit status of a test that cannot run (ctest's SKIP_RETURN_CODE). */
#define PQT_DUCK_SKIP 77

typedef struct pqt_duck pqt_duck;

/* An in-memory DuckDB database and a connection to it. 0: *ret is open; 1: the library is
 * absent (why says where it looked); -1: it failed to load or open (why says how). */
int pqt_duck_open(pqt_duck **ret, char *why, size_t why_cap);
void pqt_duck_close(pqt_duck *d);
/* The last failure's message. */
const char *pqt_duck_error(const pqt_duck *d);

/* Run sql (any statement); the rows of its result as text, each row its columns' values
 * (DuckDB's own VARCHAR rendering, "NULL" for a null) joined by '|', rows ended by '\n'.
 * malloc'd (free it), or NULL on failure. Nested columns (lists, structs, arrays, maps)
 * must be cast to VARCHAR by sql: DuckDB's value calls do not fetch them. */
char *pqt_duck_text(pqt_duck *d, const char *sql);

/* The result of sql exported by DuckDB as an Arrow stream into *out (one batch per DuckDB
 * chunk); the caller releases it. 0 on success. */
int pqt_duck_query_arrow(pqt_duck *d, const char *sql, struct ArrowArrayStream *out);

/* Register the stream in as the view `view` (DuckDB's Arrow scan; the stream is read once,
 * by the first query of the view), run sql and give its rows as pqt_duck_text does; the view
 * is dropped after. in is released on return, whatever happens. DuckDB releases each array
 * it takes, but not the schemas it asks get_schema for (DuckDB 1.5.6): a test counting
 * releases counts arrays and the stream. A test registering its own target lists it in
 * PQT_DUCKDB_TESTS (tests/CMakeLists.txt). */
char *pqt_duck_scan_text(pqt_duck *d, struct ArrowArrayStream *in, const char *view,
                         const char *sql);

#endif
