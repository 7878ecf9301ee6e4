/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3_server.h - the C tests start tests/remote/http_server.py (python3) on 127.0.0.1 (with
 * --s3 for the S3 tests) and read its JSON request log.
 */
#ifndef PQT_TEST_S3_SERVER_H
#define PQT_TEST_S3_SERVER_H

#include <sys/types.h>

typedef struct s3srv {
    pid_t pid;
    int port;
    char log[512]; /* the request log, one JSON line a request */
    char endpoint[64];
} s3srv;

/* Start the server on root (ROOT/BUCKET/KEY) with the extra arguments args (NULL-terminated),
 * logging to root/requests.jsonl; 0 when it listens, -1 when python3 or the server cannot
 * run (the caller exits 77). */
int s3srv_start(s3srv *s, const char *root, const char *const *args);
void s3srv_stop(s3srv *s);

/* Lines of the log holding every one of the n strings of needles. */
int s3srv_log_count(const s3srv *s, const char *const *needles, int n);

/* The log's last line (into buf), or "" when it is empty. */
void s3srv_log_last(const s3srv *s, char *buf, size_t cap);

/* Make the file root/rel (its folders first) holding the bytes of rel, n times. */
void s3srv_mkfile(const char *root, const char *rel, int n);

#endif
