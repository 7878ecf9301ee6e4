/* SPDX-License-Identifier: Apache-2.0 */
/*
 * remote_server.c - start and stop tests/remote/http_server.py for the C tests; read its log.
 */
#include "remote_server.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int tsrv_start(tsrv *s, const char *root, const char *const *args)
{
    memset(s, 0, sizeof *s);
    snprintf(s->log, sizeof s->log, "/tmp/pqt_test_server_%d.log", (int)getpid());
    unlink(s->log);
    const char *argv[32] = {"python3", "tests/remote/http_server.py", "--root", root, "--log",
                            s->log};
    int n = 6;
    for (int i = 0; args && args[i] && n < 31; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        int null = open("/dev/null", O_WRONLY); /* not the test's stderr: a pipe reader waits */
        if (null >= 0) dup2(null, 2);
        execvp("python3", (char *const *)argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    int port = 0;
    if (!f || fscanf(f, "PORT %d", &port) != 1 || port <= 0) {
        if (f) fclose(f);
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        return -1;
    }
    fclose(f);
    s->pid = pid;
    s->port = port;
    snprintf(s->endpoint, sizeof s->endpoint, "http://127.0.0.1:%d", port);
    return 0;
}

void tsrv_stop(tsrv *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
        unlink(s->log);
    }
    s->pid = 0;
}

int tsrv_log_count(const tsrv *s, const char *const *needles, int n)
{
    FILE *f = fopen(s->log, "r");
    if (!f) return 0;
    char line[8192];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        int k = 0;
        while (k < n && strstr(line, needles[k]))
            k++;
        count += k == n;
    }
    fclose(f);
    return count;
}

void tsrv_log_last(const tsrv *s, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(s->log, "r");
    if (!f) return;
    char line[8192];
    while (fgets(line, sizeof line, f))
        snprintf(buf, cap, "%s", line);
    fclose(f);
}

void tsrv_mkfile(const char *root, const char *rel, int n)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    for (char *c = p + strlen(root) + 1; (c = strchr(c, '/')) != NULL; c++) {
        *c = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) perror(p);
        *c = '/';
    }
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        return;
    }
    for (int i = 0; i < n; i++)
        fputs(rel, f);
    fclose(f);
}
