/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evict.c - drop one file's pages from the page cache, for the cold-cache workloads (W1c,
 * W3c), and say how many were resident before and after.
 *
 *   pqt_evict --file PATH [--method auto|drop|fadvise|none]
 *
 * Methods: "drop" is `sync; echo 3 > /proc/sys/vm/drop_caches` (the whole machine's clean
 * page cache, dentries and inodes: needs root and a writable /proc/sys); "fadvise" is
 * posix_fadvise(POSIX_FADV_DONTNEED) over the whole file (any user; drops the file's clean
 * pages that no process has mapped); "none" only counts. "auto" (the default, or the
 * BENCH_EVICT environment variable) is drop when drop_caches can be written, else fadvise.
 * The check: mincore() over a fresh mmap of the file (the mapping touches nothing, so it
 * reports the page cache as it is), before and after eviction.
 *
 * One JSON line on stdout, exit status 0:
 *   {"method":"fadvise","file":"...","bytes":..,"pages":..,"resident_before":..,"resident_after":..}
 * or {"error":"..."} and exit status 1.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *g_file = "";

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static int fail(const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s: %s: %s", g_file, what, strerror(errno));
    printf("{\"error\":");
    json_str(msg);
    printf("}\n");
    return 1;
}

/* Pages of the file in the page cache now: -1 on failure (errno set). */
static long long resident(int fd, size_t bytes, size_t page)
{
    if (bytes == 0) return 0;
    void *map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return -1;
    size_t npages = (bytes + page - 1) / page;
    unsigned char *vec = malloc(npages);
    long long n = -1;
    if (vec && mincore(map, bytes, vec) == 0) {
        n = 0;
        for (size_t i = 0; i < npages; i++)
            n += vec[i] & 1;
    }
    free(vec);
    munmap(map, bytes);
    return n;
}

static int drop_caches(void)
{
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int ok = write(fd, "3\n", 2) == 2;
    close(fd);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *method = getenv("BENCH_EVICT");
    if (!method || !*method) method = "auto";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--file"))
            g_file = argv[i + 1];
        else if (!strcmp(argv[i], "--method"))
            method = argv[i + 1];
        else
            g_file = "";
    }
    if (!*g_file || argc % 2 == 0 ||
        (strcmp(method, "auto") && strcmp(method, "drop") && strcmp(method, "fadvise") &&
         strcmp(method, "none"))) {
        fprintf(stderr, "usage: pqt_evict --file PATH [--method auto|drop|fadvise|none]\n");
        return 2;
    }
    if (!strcmp(method, "auto"))
        method = access("/proc/sys/vm/drop_caches", W_OK) == 0 ? "drop" : "fadvise";

    int fd = open(g_file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("open");
    struct stat sb;
    if (fstat(fd, &sb) != 0) return fail("fstat");
    size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = (size_t)sb.st_size;
    long long before = resident(fd, bytes, page);
    if (before < 0) return fail("mincore before eviction");
    if (!strcmp(method, "drop") && drop_caches() != 0) return fail("drop_caches");
    if (!strcmp(method, "fadvise")) {
        int e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        if (e) {
            errno = e;
            return fail("posix_fadvise");
        }
    }
    long long after = resident(fd, bytes, page);
    if (after < 0) return fail("mincore after eviction");
    close(fd);
    printf("{\"method\":");
    json_str(method);
    printf(",\"file\":");
    json_str(g_file);
    printf(",\"bytes\":%lld,\"pages\":%lld,\"resident_before\":%lld,\"resident_after\":%lld}\n",
           (long long)bytes, (long long)((bytes + page - 1) / page), before, after);
    return 0;
}
