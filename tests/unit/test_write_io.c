/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_io.c - the writer's background writes (src/write/write_io.c): bytes put in
 * pieces of every size around the 4 MiB staging buffers (empty, one byte, a buffer less one,
 * exactly one, several at once, more than the 32 MiB after which the thread flushes to disk)
 * land in the file in order, byte for byte, with and without the thread; a descriptor that
 * cannot be written gives PQT_IO naming the file, at the put or at the final sync, and every
 * later call fails too; freeing a writer with bytes still pending neither blocks nor writes
 * them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "write/write_io.h"

#define MiB ((size_t)1 << 20)

static const size_t g_sizes[] = {0,       1,  4 * MiB - 1, 1,           4 * MiB,
                                 3 * MiB + 7, 0, 9 * MiB + 5, 17, 4 * MiB + 1, 40 * MiB + 3};
enum { NSIZES = sizeof g_sizes / sizeof g_sizes[0] };

static uint8_t *pattern(size_t n, uint64_t seed)
{
    uint8_t *p = malloc(n + 1);
    REQUIRE_OK(p == NULL);
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(pqt_test_rand(&s) >> 56);
    return p;
}

static void round_trip(const char *dir, bool background)
{
    char path[300];
    snprintf(path, sizeof path, "%s/bytes_%d", dir, (int)background);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    REQUIRE_OK(fd < 0);
    size_t total = 0;
    for (int i = 0; i < NSIZES; i++) total += g_sizes[i];
    uint8_t *want = pattern(total, 42 + (uint64_t)background);
    pqt_wio *io = NULL;
    REQUIRE_OK(pqt_wio_open(&io, fd, path, background));
    size_t at = 0;
    for (int i = 0; i < NSIZES; i++) {
        CHECK_OK(pqt_wio_put(io, want + at, g_sizes[i]));
        at += g_sizes[i];
    }
    CHECK_OK(pqt_wio_sync(io));
    CHECK_OK(pqt_wio_sync(io)); /* nothing new: a second sync is harmless */
    pqt_wio_free(io);
    close(fd);
    FILE *fp = fopen(path, "rb");
    REQUIRE_OK(fp == NULL);
    uint8_t *got = malloc(total + 1);
    size_t n = fread(got, 1, total + 1, fp);
    fclose(fp);
    CHECK_EQ_I64((int64_t)n, (int64_t)total);
    CHECK(n == total && memcmp(got, want, total) == 0);
    free(got);
    free(want);
}

static void write_fails(const char *dir, bool background)
{
    char path[300];
    snprintf(path, sizeof path, "%s/readonly_%d", dir, (int)background);
    int fd = open(path, O_CREAT | O_RDONLY, 0644);
    REQUIRE_OK(fd < 0);
    uint8_t *b = pattern(9 * MiB, 7);
    pqt_wio *io = NULL;
    REQUIRE_OK(pqt_wio_open(&io, fd, path, background));
    pqt_status st = pqt_wio_put(io, b, 9 * MiB); /* hands two buffers over */
    if (st == PQT_OK) st = pqt_wio_sync(io);
    CHECK_EQ_I64(st, PQT_IO);
    CHECK(strstr(pqt_errmsg(), path) != NULL);
    CHECK_EQ_I64(pqt_wio_put(io, b, 10), PQT_IO); /* and every later call */
    CHECK_EQ_I64(pqt_wio_sync(io), PQT_IO);
    pqt_wio_free(io);
    close(fd);
    free(b);
}

/* Bytes put and never synced are dropped at free, without waiting on the disk. */
static void free_pending(const char *dir)
{
    char path[300];
    snprintf(path, sizeof path, "%s/pending", dir);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    REQUIRE_OK(fd < 0);
    uint8_t *b = pattern(MiB, 9);
    pqt_wio *io = NULL;
    REQUIRE_OK(pqt_wio_open(&io, fd, path, true));
    CHECK_OK(pqt_wio_put(io, b, MiB)); /* stays in the buffer being filled */
    pqt_wio_free(io);
    CHECK_EQ_I64((int64_t)lseek(fd, 0, SEEK_END), 0);
    close(fd);
    free(b);
}

int main(void)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/pqt_write_io_XXXXXX");
    REQUIRE_OK(mkdtemp(dir) == NULL);
    round_trip(dir, true);
    round_trip(dir, false);
    write_fails(dir, true);
    write_fails(dir, false);
    free_pending(dir);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return pqt_test_done("test_write_io");
}
