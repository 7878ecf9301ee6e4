/* SPDX-License-Identifier: Apache-2.0 */
/*
 * render.h - value rendering shared by every output format of the pqt tool.
 *
 * One place decides how a Parquet value looks as text: dates, times and timestamps in
 * ISO 8601 from a civil-from-days conversion, floats as the shortest text that reads back to
 * the same value of their own type (pqt_format_float64/32: one rule in every format), strings
 * as JSON or as sanitized UTF-8, vectors and lists as JSON arrays. `pqt cat --format jsonl`
 * is a contract other tools parse, so these renderings are stable. Uses only pqt.h.
 */
#ifndef PQT_TOOLS_RENDER_H
#define PQT_TOOLS_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "pqt_file.h"

/* Growable output text. Allocation failure is fatal (the tool prints and exits). */
typedef struct rbuf {
    char *p;
    size_t len, cap;
} rbuf;

void rb_put(rbuf *b, const char *s, size_t n);
void rb_puts(rbuf *b, const char *s);
void rb_putc(rbuf *b, char c);
void rb_free(rbuf *b);

/* Days since 1970-01-01 to a proleptic Gregorian date; valid for any int64 day count whose
 * year fits int64. */
void civil_from_days(int64_t days, int64_t *year, int *month, int *day);

/* "YYYY-MM-DD" (a year below 0 gets a leading '-', above 9999 more digits). */
void render_date(rbuf *b, int64_t days);
/* "HH:MM:SS" plus "." and exactly 3, 6 or 9 fraction digits for pqt_time_unit `unit`. */
void render_time(rbuf *b, int64_t ticks, int unit);
/* "YYYY-MM-DDTHH:MM:SS.ffffff" (fraction digits of the unit), "Z" appended when utc;
 * instants before 1970 floor to the previous day. */
void render_timestamp(rbuf *b, int64_t ticks, int unit, int utc);
/* pqt_format_float64 / pqt_format_float32 text ("0.1", "3.0", "1e+21"); NaN, Infinity,
 * -Infinity as words, quoted when json is nonzero. */
void render_double(rbuf *b, double d, int json);
void render_float(rbuf *b, float f, int json);
/* A JSON string literal with quotes: escapes ", \, control characters; passes valid UTF-8
 * through; every byte that is not part of valid UTF-8 becomes \ufffd. */
void render_json_string(rbuf *b, const char *s, size_t n);
/* The string as valid UTF-8 text (invalid bytes become U+FFFD); with escape_controls,
 * control characters are written as JSON escapes so a value stays on one line. */
void render_text_string(rbuf *b, const char *s, size_t n, int escape_controls);

/* Bytes as lowercase hex ("00ff", nothing for no bytes) and as standard base64 with '='
 * padding (RFC 4648 section 4), without quotes. */
void render_hex(rbuf *b, const uint8_t *s, size_t n);
void render_base64(rbuf *b, const uint8_t *s, size_t n);

/* How a cell is written. */
enum render_style {
    STYLE_JSON, /* jsonl: a JSON value, null as null */
    STYLE_CSV,  /* csv: plain text, null as nothing, arrays as JSON (the writer quotes) */
    STYLE_TABLE /* table: plain text on one line, null as "null", arrays as JSON */
};

/* One column of one batch, with its array pointers looked up once. */
typedef struct colview {
    int kind, elem, width, unit, utc;
    int dec, scale; /* dec: the values are unscaled decimals (int64 or int128) of this scale */
    int64_t nrows;
    const void *data;
    const uint8_t *valid, *row_valid;
    const int64_t *str_off, *list_off;
    const char *bytes;
    const struct colview *meta; /* a VARIANT's value: its metadata column's view (else NULL) */
} colview;

/* unit: pqt_time_unit of the column (or -1); utc: 1 if UTC-adjusted. Not a decimal view
 * (dec 0) until the caller says so. */
void colview_init(colview *v, const pqt_array *a, int unit, int utc);
/* Append the value of row `row` (0-based within the array) in `style`. Returns 0 when the
 * value is null, 1 otherwise. A VARIANT value (meta set) is its JSON text (a JSON value in
 * jsonl, text elsewhere); bytes that break the encoding end the program with the message. */
int render_cell(rbuf *b, const colview *v, int64_t row, int style);

/* Elements [*lo, *hi) of an array row: list offsets, or width per row for a vector. */
static inline void colview_row_elems(const colview *v, int64_t row, int64_t *lo, int64_t *hi)
{
    if (v->kind & PQT_LIST) {
        *lo = v->list_off[row];
        *hi = v->list_off[row + 1];
    } else {
        *lo = row * v->width;
        *hi = *lo + v->width;
    }
}

#endif
