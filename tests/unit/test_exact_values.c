/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_exact_values.c - issue 8's exact values through the C API: the uint64 kind (file
 * reads, table copies checked per value, casts, sort), the unscaled integers of decimals
 * (file and table, int64 and int128) and PQT_OPT_INT96_UNIT.
 *
 * Truth: tests/data/exact_values.parquet was written by DuckDB from the literals listed in
 * tests/data/make_exact_values.mjs; int96_from_spark.parquet's values are DuckDB's epoch_us
 * of each row, and for row 6 (which DuckDB misreads) the microseconds the corpus'
 * int96_from_spark.md documents.
 */
#include <string.h>

#include "format/schema_int.h"
#include "pqt_file.h"
#include "testutil.h"

#define EXACT "tests/data/exact_values.parquet"
#define INT96 "tests/data/parquet-testing/data/int96_from_spark.parquet"

static const uint64_t U64[5] = {0, 1, 9223372036854775807ULL, 9223372036854775808ULL,
                                18446744073709551615ULL};

static int col_of(pqt_file *f, const char *name)
{
    int c = -1;
    CHECK_OK(pqt_file_find_column(f, name, &c));
    return c;
}

static void file_reads(void)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(EXACT, NULL, &f));
    int u64 = col_of(f, "u64"), u32 = col_of(f, "u32"), u16 = col_of(f, "u16");
    CHECK_EQ_I64(pqt_file_column_kind(f, u64), PQT_UINT64);
    CHECK(strcmp(pqt_kind_name(PQT_UINT64), "uint64") == 0);
    CHECK(strcmp(pqt_kind_name(PQT_UINT64 | PQT_LIST), "list<uint64>") == 0);
    CHECK_EQ_I64(pqt_kind_elem_nbytes(PQT_UINT64), 8);
    CHECK_EQ_I64(pqt_kind_elem_nbytes(PQT_INT128), 16);
    uint64_t v[6];
    uint8_t valid[1];
    CHECK_OK(pqt_file_read_into(f, u64, 1, 6, v, sizeof v, valid));
    for (int i = 0; i < 5; i++)
        CHECK(v[i] == U64[i]);
    CHECK_EQ_I64(valid[0], 0x1f);
    /* UINT_32 widens to int64 (zero-extended), UINT_16 stays int32: exact either way */
    int64_t w[6];
    CHECK_EQ_I64(pqt_file_column_kind(f, u32), PQT_INT64);
    CHECK_OK(pqt_file_read_into(f, u32, 1, 6, w, sizeof w, NULL));
    CHECK_EQ_I64(w[1], 4294967295LL);
    CHECK_EQ_I64(w[2], 2147483648LL);
    int32_t x[6];
    CHECK_EQ_I64(pqt_file_column_kind(f, u16), PQT_INT32);
    CHECK_OK(pqt_file_read_into(f, u16, 1, 6, x, sizeof x, NULL));
    CHECK_EQ_I64(x[1], 65535);

    /* decimals: precision/scale and unscaled integers */
    int p = 0, s = 0;
    CHECK_OK(pqt_file_column_decimal(f, col_of(f, "d38"), &p, &s));
    CHECK_EQ_I64(p, 38);
    CHECK_EQ_I64(s, 10);
    CHECK_EQ_I64(pqt_file_column_decimal(f, u64, &p, &s), PQT_KIND);
    pqt_array *a = NULL;
    CHECK_EQ_I64(pqt_file_read_decimal(f, u64, 1, 6, &a), PQT_KIND);
    CHECK_OK(pqt_file_read_decimal(f, col_of(f, "d5"), 1, 6, &a));
    CHECK_EQ_I64(pqt_array_kind(a), PQT_INT64);
    static const int64_t d5[6] = {12, -12, 123456789, 0, -999999999, 0};
    const int64_t *dv = pqt_array_data(a);
    for (int i = 0; i < 6; i++)
        CHECK_EQ_I64(dv[i], d5[i]);
    CHECK_EQ_I64(pqt_array_validity(a)[0] & 0x3f, 0x1f);
    pqt_array_free(a);
    CHECK_OK(pqt_file_read_decimal(f, col_of(f, "d18"), 2, 3, &a));
    CHECK_EQ_I64(((const int64_t *)pqt_array_data(a))[0], -12345);
    CHECK_EQ_I64(((const int64_t *)pqt_array_data(a))[1], 999999999999999999LL);
    pqt_array_free(a);
    CHECK_OK(pqt_file_read_decimal(f, col_of(f, "d38"), 1, 5, &a));
    CHECK_EQ_I64(pqt_array_kind(a), PQT_INT128);
    const int64_t *q = pqt_array_data(a);
    /* 10^38 - 1 = 0x4B3B4CA85A86C47A_098A223FFFFFFFFF, and its negation */
    CHECK(q[0] == (int64_t)0x098A223FFFFFFFFFULL && q[1] == 0x4B3B4CA85A86C47ALL);
    CHECK(q[2] == (int64_t)(~0x098A223FFFFFFFFFULL + 1) && q[3] == (int64_t)~0x4B3B4CA85A86C47AULL);
    CHECK(q[4] == 1 && q[5] == 0);   /* 0.0000000001 */
    CHECK(q[6] == -1 && q[7] == -1); /* -0.0000000001 */
    char txt[64];
    pqt_format_decimal(q[9], (uint64_t)q[8], 10, txt, sizeof txt);
    CHECK(strcmp(txt, "12345678901234567890.1234567890") == 0);
    pqt_array_free(a);
    pqt_file_close(f);
}

static void table_uint64(void)
{
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(EXACT, NULL, &t));
    int k = 0;
    CHECK_OK(pqt_table_kind(t, "u64", &k));
    CHECK_EQ_I64(k, PQT_UINT64);
    uint64_t u[6];
    CHECK_OK(pqt_table_get(t, "u64", 0, u, sizeof u, NULL, 0));
    for (int i = 0; i < 5; i++)
        CHECK(u[i] == U64[i]);
    /* as int64: checked per value; a refused copy writes nothing */
    int64_t s[6];
    memset(s, 0x5a, sizeof s);
    CHECK_EQ_I64(pqt_table_get(t, "u64", PQT_INT64, s, sizeof s, NULL, 0), PQT_OVERFLOW);
    CHECK(strstr(pqt_errmsg(), "'u64', row 4") && strstr(pqt_errmsg(), "9223372036854775808"));
    CHECK(s[0] == 0x5a5a5a5a5a5a5a5aLL && s[5] == 0x5a5a5a5a5a5a5a5aLL);
    void *d = NULL;
    CHECK_EQ_I64(pqt_table_get_alloc(t, "u64", PQT_INT64, &d, NULL, NULL), PQT_OVERFLOW);
    CHECK(d == NULL);
    CHECK_OK(pqt_table_get_range(t, "u64", 1, 3, PQT_INT64, s, sizeof s, NULL, 0));
    CHECK_EQ_I64(s[2], INT64_MAX);
    int64_t one = 0;
    CHECK_OK(pqt_table_get_value(t, "u64", 3, 0, PQT_INT64, &one, sizeof one, NULL));
    CHECK_EQ_I64(one, INT64_MAX);
    CHECK_EQ_I64(pqt_table_get_value(t, "u64", 5, 0, PQT_INT64, &one, sizeof one, NULL),
                 PQT_OVERFLOW);
    CHECK(strstr(pqt_errmsg(), "row 5") && strstr(pqt_errmsg(), "18446744073709551615"));
    int64_t rows[2] = {3, 5};
    CHECK_EQ_I64(pqt_table_get_rows(t, "u64", rows, 2, PQT_INT64, s, sizeof s, NULL, 0),
                 PQT_OVERFLOW);
    /* float64 only by an explicit cast */
    double dd[6];
    CHECK_EQ_I64(pqt_table_get(t, "u64", PQT_FLOAT64, dd, sizeof dd, NULL, 0), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "pqt_table_cast") != NULL);
    /* list of uint64: the element that does not fit is named by its row */
    int64_t *off = NULL;
    void *ld = NULL;
    CHECK_EQ_I64(pqt_table_get_list_alloc(t, "lu64", PQT_INT64, &off, &ld, NULL, NULL, NULL),
                 PQT_OVERFLOW);
    CHECK(strstr(pqt_errmsg(), "'lu64', row 2") != NULL);
    CHECK_OK(pqt_table_get_list_alloc(t, "lu64", 0, &off, &ld, NULL, NULL, NULL));
    CHECK(((uint64_t *)ld)[off[1] + 1] == 18446744073709551615ULL);
    pqt_free(off);
    pqt_free(ld);
    /* sort: unsigned order, 2^64-1 first when descending */
    const char *key = "u64";
    const int desc = 1;
    CHECK_OK(pqt_table_copy_column(t, "u64", "u64c", 0, 1));
    CHECK_OK(pqt_table_sort_by_names(t, &key, 1, &desc, NULL));
    CHECK_OK(pqt_table_get(t, "u64", 0, u, sizeof u, NULL, 0));
    for (int i = 0; i < 5; i++)
        CHECK(u[i] == U64[4 - i]);
    /* exact cast to float64 refuses 2^64-1; the rounding cast takes it */
    CHECK_EQ_I64(pqt_table_cast(t, "u64c", PQT_FLOAT64, 1), PQT_OVERFLOW);
    CHECK_OK(pqt_table_cast(t, "u64c", PQT_FLOAT64, 0));
    CHECK_OK(pqt_table_get(t, "u64c", 0, dd, sizeof dd, NULL, 0));
    CHECK(dd[0] == 18446744073709551616.0); /* copied before the sort, moved with it */
    /* an added uint64 column and set */
    uint64_t six[6] = {0, 1, 9223372036854775807ULL, 9223372036854775808ULL, 7, 8};
    CHECK_OK(pqt_table_add_column(t, "mine", PQT_UINT64, 1, six, NULL, 6, NULL));
    six[4] = 18446744073709551615ULL;
    CHECK_OK(pqt_table_set(t, "mine", six, sizeof six, NULL));
    CHECK_OK(pqt_table_cast(t, "mine", PQT_INT64, 0)); /* out of range becomes 0 */
    CHECK_OK(pqt_table_get(t, "mine", 0, s, sizeof s, NULL, 0));
    CHECK_EQ_I64(s[2], INT64_MAX);
    CHECK_EQ_I64(s[3], 0);
    CHECK_EQ_I64(s[4], 0);
    CHECK_EQ_I64(s[5], 8);
    pqt_table_close(t);
}

static void table_decimal(void)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 2));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 5));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(EXACT, o, &t));
    pqt_opts_free(o);
    int p = 0, s = 0, kind = 0;
    CHECK_OK(pqt_table_decimal(t, "d18", &p, &s));
    CHECK_EQ_I64(p, 18);
    CHECK_EQ_I64(s, 3);
    CHECK_EQ_I64(pqt_table_decimal(t, "f64", &p, &s), PQT_KIND);
    void *d = NULL;
    int64_t n = 0;
    CHECK_OK(pqt_table_get_decimal_alloc(t, "d18", &d, NULL, &n, &kind));
    CHECK_EQ_I64(n, 4);
    CHECK_EQ_I64(kind, PQT_INT64);
    static const int64_t want[4] = {-12345, 999999999999999999LL, -5, 0};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_I64(((int64_t *)d)[i], want[i]);
    pqt_free(d);
    CHECK_OK(pqt_table_rename_column(t, "d38", "wide"));
    uint8_t *valid = NULL;
    CHECK_OK(pqt_table_get_decimal_alloc(t, "wide", &d, &valid, &n, &kind));
    CHECK_EQ_I64(kind, PQT_INT128);
    CHECK(((int64_t *)d)[2] == 1 && ((int64_t *)d)[3] == 0); /* row 3: 1e-10 */
    CHECK(valid == NULL);
    pqt_free(d);
    CHECK_OK(pqt_table_cast(t, "d18", PQT_INT64, 0));
    CHECK_EQ_I64(pqt_table_get_decimal_alloc(t, "d18", &d, NULL, &n, &kind), PQT_KIND);
    pqt_table_close(t);
}

static void int96_unit(void)
{
    /* DuckDB epoch_us of each row; row 6 from int96_from_spark.md */
    static const int64_t us[6] = {
        1704141296123456LL,   1704070800000000LL, 253402225200000000LL, 1735599600000000LL, 0,
        9089380393200000000LL};
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(INT96, NULL, &f));
    CHECK_EQ_I64(pqt_file_column_time_unit(f, 0), PQT_UNIT_NANOS);
    int64_t v[6];
    CHECK_EQ_I64(pqt_file_read_into(f, 0, 1, 6, v, sizeof v, NULL), PQT_OVERFLOW);
    CHECK(strstr(pqt_errmsg(), "PQT_OPT_INT96_UNIT") != NULL);
    CHECK_OK(pqt_file_read_into(f, 0, 1, 2, v, sizeof v, NULL)); /* these fit nanoseconds */
    CHECK_EQ_I64(v[0], us[0] * 1000);
    pqt_file_close(f);

    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, 3), PQT_MISUSE);
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, PQT_UNIT_MICROS));
    REQUIRE_OK(pqt_file_open(INT96, o, &f));
    CHECK_EQ_I64(pqt_file_column_time_unit(f, 0), PQT_UNIT_MICROS);
    uint8_t valid[1];
    CHECK_OK(pqt_file_read_into(f, 0, 1, 6, v, sizeof v, valid));
    for (int i = 0; i < 6; i++)
        CHECK_EQ_I64(v[i], us[i]);
    CHECK_EQ_I64(valid[0], 0x2f);
    pqt_file_close(f);

    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, PQT_UNIT_MILLIS));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(INT96, o, &t));
    int unit = -1;
    CHECK_OK(pqt_table_time_unit(t, "a", &unit));
    CHECK_EQ_I64(unit, PQT_UNIT_MILLIS);
    CHECK_OK(pqt_table_get(t, "a", 0, v, sizeof v, NULL, 0));
    for (int i = 0; i < 6; i++)
        CHECK_EQ_I64(v[i], us[i] / 1000);
    pqt_table *c;
    CHECK_OK(pqt_table_clone(t, &c)); /* the clone reopens with the same unit */
    CHECK_OK(pqt_table_time_unit(c, "a", &unit));
    CHECK_EQ_I64(unit, PQT_UNIT_MILLIS);
    pqt_table_close(c);
    pqt_table_close(t);
    pqt_opts_free(o);
}

/* The logical-type forms DuckDB does not write (it writes converted types): hand-built
 * schema elements, kinds by LogicalTypes.md. */
static void classify_logical(void)
{
    pqt_schema_elem e;
    pqt_col c;
    memset(&e, 0, sizeof e);
    e.converted_type = -1;
    e.type = PQT_PT_INT64;
    e.logical.id = PQT_LT_INTEGER;
    e.logical.bit_width = 64;
    e.logical.is_signed = false;
    memset(&c, 0, sizeof c);
    pqt_schema_classify(&e, false, &c);
    CHECK_EQ_I64(c.elem_kind, PQT_UINT64);
    e.logical.is_signed = true;
    pqt_schema_classify(&e, false, &c);
    CHECK_EQ_I64(c.elem_kind, PQT_INT64);
    e.type = PQT_PT_INT32;
    e.logical.bit_width = 32;
    e.logical.is_signed = false;
    pqt_schema_classify(&e, false, &c);
    CHECK_EQ_I64(c.elem_kind, PQT_INT64); /* zero-extended: exact */
    e.logical.bit_width = 16;
    pqt_schema_classify(&e, false, &c);
    CHECK_EQ_I64(c.elem_kind, PQT_INT32);
    e.type = PQT_PT_BYTE_ARRAY;
    e.logical.id = PQT_LT_DECIMAL;
    e.logical.precision = 30;
    e.logical.scale = 4;
    memset(&c, 0, sizeof c);
    pqt_schema_classify(&e, false, &c);
    CHECK_EQ_I64(c.elem_kind, PQT_FLOAT64);
    CHECK_EQ_I64(c.decimal_precision, 30);
    CHECK_EQ_I64(c.decimal_scale, 4);
    /* the converted DECIMAL form carries precision too */
    e.logical.id = PQT_LT_NONE;
    e.converted_type = PQT_CT_DECIMAL;
    e.precision = 7;
    e.scale = 2;
    e.has_scale = true;
    memset(&c, 0, sizeof c);
    pqt_schema_classify(&e, false, &c);
    CHECK_EQ_I64(c.decimal_precision, 7);
    CHECK_EQ_I64(c.decimal_scale, 2);
}

/* The corpus' decimal files hold 1.00 .. 24.00 (DuckDB reads them so:
 * tests/golden/expected/<file>.jsonl): unscaled 100 .. 2400 through every physical type. */
static void corpus_decimals(void)
{
    static const struct {
        const char *file;
        int kind, precision;
    } files[] = {{"byte_array_decimal.parquet", PQT_INT64, 4},
                 {"fixed_length_decimal.parquet", PQT_INT128, 25},
                 {"fixed_length_decimal_legacy.parquet", PQT_INT64, 13},
                 {"int32_decimal.parquet", PQT_INT64, 4},
                 {"int64_decimal.parquet", PQT_INT64, 10}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/parquet-testing/data/%s", files[i].file);
        pqt_file *f;
        REQUIRE_OK(pqt_file_open(path, NULL, &f));
        int p = 0, s = 0;
        CHECK_OK(pqt_file_column_decimal(f, 0, &p, &s));
        CHECK_EQ_I64(p, files[i].precision);
        CHECK_EQ_I64(s, 2);
        pqt_array *a = NULL;
        CHECK_OK(pqt_file_read_decimal(f, 0, 1, 24, &a));
        if (a) {
            CHECK_EQ_I64(pqt_array_kind(a), files[i].kind);
            const int64_t *v = pqt_array_data(a);
            int step = files[i].kind == PQT_INT128 ? 2 : 1;
            for (int r = 0; r < 24; r++) {
                CHECK_EQ_I64(v[r * step], (r + 1) * 100);
                if (step == 2) CHECK_EQ_I64(v[r * 2 + 1], 0);
            }
        }
        pqt_array_free(a);
        pqt_file_close(f);
    }
}

int main(void)
{
    classify_logical();
    corpus_decimals();
    file_reads();
    table_uint64();
    table_decimal();
    int96_unit();
    return pqt_test_done("test_exact_values");
}
