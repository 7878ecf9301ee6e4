/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_struct_hostile.c - the writer's struct-source walk (write_struct_src.c) reads a
 * hostile source file with the reader's checks (issue 29). The file is built byte by byte
 * (pqbuild.c): s STRUCT(a INT32, b INT32), both optional (max definition level 2, bit width
 * 2), four rows in one uncompressed v1 page per leaf. A copy keeping s.b alone reads the
 * levels of s.a only to learn where s is present. When s.a's levels hold 3, which the bit
 * width can store but the schema forbids, the copy fails naming the level (it went through
 * before); with valid levels it succeeds and keeps s present where s.a's levels say (the
 * truth: the levels written here, read back from the copy's page bytes). A page of s.a claiming 1.9
 * GB uncompressed from a few compressed bytes is refused before anything that size is allocated
 * (memcount).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/file_int.h"
#include "encoding/encoding.h"
#include "format/meta.h"
#include "memcount.h"
#include "pqbuild.h"
#include "pqt.h"
#include "testutil.h"

static char g_dir[256];

/* One v1 page of 4 entries: definition levels `defs` (bit width 2, a run each), then a
 * PLAIN int32 100 + row for each level 2. unc_claim: what the header says (0: the truth). */
static void put_page(pqb *w, const uint8_t *defs, int32_t unc_claim)
{
    pqb lv = {0};
    for (int i = 0; i < 4; i++)
        pqb_rle_run(&lv, 1, defs[i], 2);
    pqb body = {0};
    pqb_le32(&body, (uint32_t)lv.n);
    pqb_bytes(&body, lv.b, lv.n);
    for (int i = 0; i < 4; i++)
        if (defs[i] == 2) pqb_le32(&body, (uint32_t)(100 + i));
    pqb_page h = {.type = PQT_PAGE_DATA,
                  .num_values = 4,
                  .encoding = PQT_ENC_PLAIN,
                  .uncompressed_size = unc_claim ? unc_claim : (int32_t)body.n,
                  .compressed_size = (int32_t)body.n};
    pqb_page_header(w, &h);
    pqb_bytes(w, body.b, body.n);
    pqb_free(&lv);
    pqb_free(&body);
}

/* s.b's levels: null in rows 1 and 3 (row 1 a null leaf of a present struct by s.a's
 * levels), s null in row 2. */
static const uint8_t B_DEFS[4] = {2, 1, 0, 1};

/* The file with a's levels a_defs, its chunk compressed with a_codec (the bytes are stored
 * as they are: the claim a_unc is refused before they are looked at), b's B_DEFS. */
static void build(const char *path, const uint8_t *a_defs, int a_codec, int32_t a_unc)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_chunk ch[2];
    for (int c = 0; c < 2; c++) {
        int64_t at = (int64_t)w.n;
        put_page(&w, c == 0 ? a_defs : B_DEFS, c == 0 ? a_unc : 0);
        int64_t n = (int64_t)w.n - at;
        ch[c] = (pqb_chunk){.offset = at,
                            .nbytes = n,
                            .num_values = 4,
                            .total_uncompressed = c == 0 && a_unc ? (int64_t)a_unc + 64 : n,
                            .codec = c == 0 ? a_codec : PQT_CODEC_UNCOMPRESSED};
    }
    pqb_col cols[2] = {{"a", PQT_PT_INT32, PQT_REP_OPTIONAL, false, 0},
                       {"b", PQT_PT_INT32, PQT_REP_OPTIONAL, false, 0}};
    const char *const group[2] = {"s", "s"};
    int64_t rows = 4;
    pqb_footer_groups(&w, cols, group, 2, 1, &rows, ch);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
}

/* The definition levels of the first (only) leaf of an uncompressed v1 copy, max_def 2:
 * [4-byte length][RLE/bit-packed, bit width 2] at the start of its page. */
static void copy_defs(const char *path, uint32_t *def)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    const pqt_column_meta *m = &f->meta.row_groups[0].columns[0].meta;
    FILE *fp = fopen(path, "rb");
    uint8_t raw[4096];
    REQUIRE_OK(fp && fseek(fp, (long)m->data_page_offset, SEEK_SET) == 0 ? PQT_OK : PQT_IO);
    size_t got = fread(raw, 1, sizeof raw, fp);
    fclose(fp);
    pqt_page_header h;
    size_t hn = 0;
    REQUIRE_OK(pqt_meta_decode_page_header(raw, got, 0, &h, &hn));
    CHECK_EQ_I64(h.num_values, 4);
    uint32_t len;
    memcpy(&len, raw + hn, 4);
    pqt_rle_dec d;
    REQUIRE_OK(pqt_rle_init(&d, 2, raw + hn + 4, len));
    REQUIRE_OK(pqt_rle_get_u32(&d, 4, def));
    pqt_file_close(f);
}

/* Copy s.b of src to dst: the status, and the message on failure in msg. */
static pqt_status copy_b(const char *src, const char *dst, char *msg, size_t cap)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(src, NULL, &t));
    const char *keep[] = {"s.b"};
    CHECK_OK(pqt_table_keep_columns(t, keep, 1));
    unlink(dst);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_CODEC, PQT_WRITE_UNCOMPRESSED));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    pqt_status st = pqt_write_table(t, dst, o);
    pqt_write_opts_free(o);
    snprintf(msg, cap, "%s", st == PQT_OK ? "" : pqt_errmsg());
    pqt_table_close(t);
    return st;
}

static void level_above_max(void)
{
    char src[300], dst[300], msg[512];
    snprintf(src, sizeof src, "%s/bad_level.parquet", g_dir);
    snprintf(dst, sizeof dst, "%s/out.parquet", g_dir);
    static const uint8_t bad[4] = {2, 3, 0, 2};
    build(src, bad, PQT_CODEC_UNCOMPRESSED, 0);
    pqt_status st = copy_b(src, dst, msg, sizeof msg);
    CHECK_EQ_I64(st, PQT_CORRUPT);
    if (!strstr(msg, "level 3 above the maximum 2") || !strstr(msg, "column 's.a'")) {
        fprintf(stderr, "message: %s\n", msg);
        CHECK(0);
    }
    unlink(src);
    unlink(dst);
}

/* The valid file: by s.a's levels s is present in rows 0, 1, 3 and null in row 2, so the
 * copy of s.b alone writes b's levels 2, 1, 0, 1 (row 3: a present s whose b is null),
 * where b's own validity would say 2, 0, 0, 0. */
static void valid_levels(void)
{
    char src[300], dst[300], msg[512];
    snprintf(src, sizeof src, "%s/good.parquet", g_dir);
    snprintf(dst, sizeof dst, "%s/out.parquet", g_dir);
    static const uint8_t good[4] = {2, 1, 0, 2};
    build(src, good, PQT_CODEC_UNCOMPRESSED, 0);
    CHECK_OK(copy_b(src, dst, msg, sizeof msg));
    uint32_t def[4] = {9, 9, 9, 9};
    copy_defs(dst, def);
    for (int i = 0; i < 4; i++) {
        if (def[i] != B_DEFS[i]) fprintf(stderr, "row %d: def %u, want %u\n", i, def[i], B_DEFS[i]);
        CHECK(def[i] == B_DEFS[i]);
    }
    unlink(src);
    unlink(dst);
}

/* A SNAPPY page of s.a claiming 1.9 GB: refused as implausible for its compressed bytes,
 * with nothing near that allocated. */
static void page_claim_capped(void)
{
    char src[300], dst[300], msg[512];
    snprintf(src, sizeof src, "%s/huge.parquet", g_dir);
    snprintf(dst, sizeof dst, "%s/out.parquet", g_dir);
    static const uint8_t good[4] = {2, 2, 2, 2};
    build(src, good, PQT_CODEC_SNAPPY, 1900000000);
    memcount_reset_peak();
    int64_t before = memcount_get().inuse;
    pqt_status st = copy_b(src, dst, msg, sizeof msg);
    int64_t peak = memcount_get().peak - before;
    CHECK_EQ_I64(st, PQT_CORRUPT);
    if (!strstr(msg, "uncompressed bytes") && !strstr(msg, "not plausible")) {
        fprintf(stderr, "message: %s\n", msg);
        CHECK(0);
    }
    if (peak > (64 << 20)) {
        fprintf(stderr, "peak %lld bytes for a refused page\n", (long long)peak);
        CHECK(0);
    }
    unlink(src);
    unlink(dst);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "%s", "/tmp/pqt_wstruct_hostile_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) ? PQT_OK : PQT_IO);
    valid_levels();
    level_above_max();
    page_claim_capped();
    rmdir(g_dir);
    return pqt_test_done("test_write_struct_hostile");
}
