/* SPDX-License-Identifier: Apache-2.0 */
/*
 * remote_server.h - the C tests start tests/remote/http_server.py (python3) on 127.0.0.1 (with
 * --s3 for the S3 tests) and read its JSON request log.
 */
#ifndef PQT_TEST_REMOTE_SERVER_H
#define PQT_TEST_REMOTE_SERVER_H

#include <sys/types.h>

typedef struct tsrv {
    pid_t pid;
    int port;
    char log[512]; /* the request log, one JSON line a request */
    char endpoint[64];
} tsrv;

/* Start the server on root (with --s3: ROOT/BUCKET/KEY) with the extra arguments args
 * (NULL-terminated), logging to /tmp/pqt_test_server_PID.log; 0 when it listens, -1 when
 * python3 or the server cannot run (the caller exits 77). */
int tsrv_start(tsrv *s, const char *root, const char *const *args);
/* Stop it and remove its log (read the log before). */
void tsrv_stop(tsrv *s);

/* Lines of the log holding every one of the n strings of needles. */
int tsrv_log_count(const tsrv *s, const char *const *needles, int n);

/* The log's last line (into buf), or "" when it is empty. */
void tsrv_log_last(const tsrv *s, char *buf, size_t cap);

/* Make the file root/rel (its folders first) holding the bytes of rel, n times. */
void tsrv_mkfile(const char *root, const char *rel, int n);

#endif
