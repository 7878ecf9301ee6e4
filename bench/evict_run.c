/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evict_run.c - see evict_run.h. The tool is a separate process (posix_spawn: no copy of a
 * large parent) so that every engine, the node peers included, evicts the same way.
 */
#define _GNU_SOURCE

#include "evict_run.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The number after "key": in a flat JSON line, or -1. */
static long long json_num(const char *line, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

int evict_run(const char *bin, const char *path, evict_log *log, char *err, size_t errlen)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "evict: pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char *argv[] = {(char *)bin, "--file", (char *)path, NULL};
    pid_t pid;
    int e = posix_spawn(&pid, bin, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (e != 0) {
        close(fds[0]);
        snprintf(err, errlen, "evict: cannot run %s: %s", bin, strerror(e));
        return -1;
    }
    char line[2048];
    size_t got = 0;
    ssize_t r;
    while (got + 1 < sizeof line && (r = read(fds[0], line + got, sizeof line - 1 - got)) > 0)
        got += (size_t)r;
    line[got] = 0;
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    long long before = json_num(line, "resident_before"), after = json_num(line, "resident_after");
    const char *m = strstr(line, "\"method\":\"");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || before < 0 || after < 0 || !m) {
        line[strcspn(line, "\n")] = 0;
        snprintf(err, errlen, "evict %s failed: %.300s", path, got ? line : "no output");
        return -1;
    }
    m += strlen("\"method\":\"");
    snprintf(log->method, sizeof log->method, "%.*s", (int)strcspn(m, "\""), m);
    log->pages = json_num(line, "pages");
    if (log->n < EVICT_MAX_RUNS) {
        log->before[log->n] = before;
        log->after[log->n] = after;
        log->n++;
    }
    return 0;
}

void evict_print(const evict_log *log)
{
    if (log->n == 0) return;
    printf(",\"evict\":{\"method\":\"%s\",\"pages\":%lld,\"before\":[", log->method, log->pages);
    for (int i = 0; i < log->n; i++)
        printf("%s%lld", i ? "," : "", log->before[i]);
    printf("],\"after\":[");
    for (int i = 0; i < log->n; i++)
        printf("%s%lld", i ? "," : "", log->after[i]);
    printf("]}");
}
