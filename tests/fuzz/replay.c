/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.c - runs a fuzz target without libFuzzer, so every build (gcc, ASan+UBSan) runs
 * the seed corpus and the committed regressions.
 *
 * usage: fuzz_<x>_replay [-t MAX] [-f N] [-m] PATH...
 * Each PATH is a file or a directory (its regular files, sorted, not recursive); -m lets a
 * PATH be missing (a target's regressions directory exists only once it has found something
 * to commit), otherwise a missing PATH is an error, so a typo cannot pass. Every file
 * is run as is; then, unless -f 0 -t 0, deterministic mutations of it: every truncation
 * prefix when the file has at most MAX bytes (-t, default 0 = none), and N copies with
 * 1..4 random bytes overwritten (-f, default 0), from a seed made of the file's bytes, so a
 * failure replays wherever the file lives. Each file's name goes to stdout before it runs.
 * Each input is placed so that it ends at a PROT_NONE page: a read one byte past the input
 * faults even in a build without AddressSanitizer.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static uint8_t *region;   /* readable pages followed by one guard page */
static size_t region_cap; /* readable bytes of region */

static void run(const uint8_t *data, size_t n)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (n > region_cap) {
        if (region) munmap(region, region_cap + page);
        region_cap = (n + page - 1) / page * page;
        region = mmap(NULL, region_cap + page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (region == MAP_FAILED || mprotect(region + region_cap, page, PROT_NONE) != 0) {
            perror("replay: mmap");
            exit(2);
        }
    }
    uint8_t *p = region + region_cap - n;
    if (n) memcpy(p, data, n);
    LLVMFuzzerTestOneInput(p, n);
}

static uint64_t rng_state;
static uint64_t rng(void) /* splitmix64: fixed seed, same sequence on every platform */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static long max_trunc = 0, nflips = 0, runs = 0;
static int missing_ok;

static void run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0, k;
    uint8_t *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, fp)) > 0)
        if ((n += k) == cap) buf = realloc(buf, cap *= 2);
    fclose(fp);
    if (!buf) exit(2);
    printf("%s\n", path);
    fflush(stdout);
    rng_state = 0x5eed + n;
    for (size_t i = 0; i < n; i++) rng_state = rng_state * 31 + buf[i];
    run(buf, n), runs++;
    if ((long)n <= max_trunc)
        for (size_t len = 0; len < n; len++) run(buf, len), runs++;
    uint8_t *m = malloc(n ? n : 1);
    for (long i = 0; n && m && i < nflips; i++) {
        memcpy(m, buf, n);
        for (int j = 1 + (int)(rng() % 4); j > 0; j--) {
            const uint64_t r = rng();
            /* Half of the flips go to the first 16 bytes, where the parameters and headers are. */
            m[(r & 1 ? (r >> 1) % (n < 16 ? n : 16) : (r >> 1) % n)] = (uint8_t)(r >> 40);
        }
        run(m, n), runs++;
    }
    free(m);
    free(buf);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (missing_ok) return;
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    char **names = NULL;
    size_t nn = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        names = realloc(names, (nn + 1) * sizeof *names);
        names[nn] = malloc(strlen(path) + strlen(e->d_name) + 2);
        sprintf(names[nn++], "%s/%s", path, e->d_name);
    }
    if (d) closedir(d);
    if (nn) qsort(names, nn, sizeof *names, cmp_str);
    for (size_t i = 0; i < nn; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) run_path(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    int opt;
    while ((opt = getopt(argc, argv, "t:f:m")) != -1) {
        if (opt == 't') max_trunc = atol(optarg);
        else if (opt == 'f') nflips = atol(optarg);
        else if (opt == 'm') missing_ok = 1;
        else {
            fprintf(stderr, "usage: %s [-t MAX] [-f N] [-m] PATH...\n", argv[0]);
            return 2;
        }
    }
    for (int i = optind; i < argc; i++) run_path(argv[i]);
    printf("%s: %ld inputs\n", argv[0], runs);
    return 0;
}
