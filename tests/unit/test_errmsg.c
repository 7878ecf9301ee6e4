/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_errmsg.c - what pqt_errmsg() returns (pqt.h): "" on a thread where no call has failed;
 * after a failure, that failure's message, which successful calls leave unchanged; failures
 * on other threads -- including the library's own worker threads of a parallel read -- never
 * change it.
 *
 * The property runs over every file of parquet-testing's data/ and bad_data/ and tests/data/:
 * open, read every column through the file API and the table API with 1 and 4 threads (the
 * parallel row-group and column paths, string windows that may fall back), clone; after each
 * call, pqt_errmsg() must equal the last failed call's message. Truth: the statuses the calls
 * return (no file's content is judged here).
 */
#include <dirent.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"
#include "util/error.h"

static char last[1024]; /* the message of the last failed call on this thread, "" before one */
static int nfailed, nsucceeded, nreported;

/* After call `what` on `path` returned st: a failure has a message and it becomes `last`; a
 * success leaves pqt_errmsg() as it was. */
static void track(pqt_status st, const char *what, const char *path)
{
    const char *m = pqt_errmsg();
    if (st != PQT_OK) {
        nfailed++;
        if (!m || !*m) {
            if (nreported++ < 10) fprintf(stderr, "%s %s: failed with no message\n", what, path);
            pqt_test_failures++;
        }
        snprintf(last, sizeof last, "%s", m ? m : "");
        return;
    }
    nsucceeded++;
    if (!m || strcmp(m, last) != 0) {
        if (nreported++ < 10)
            fprintf(stderr, "%s %s succeeded but changed pqt_errmsg()\n  from: %s\n  to:   %s\n",
                    what, path, last, m ? m : "(null)");
        pqt_test_failures++;
        snprintf(last, sizeof last, "%s", m ? m : "");
    }
}

static void exercise_file(const char *path, int threads)
{
    pqt_opts *o = NULL;
    track(pqt_opts_new(&o), "pqt_opts_new", path);
    track(pqt_opts_set_int(o, PQT_OPT_THREADS, threads), "set threads", path);
    pqt_file *f = NULL;
    pqt_status st = pqt_file_open(path, o, &f);
    track(st, "pqt_file_open", path);
    if (st == PQT_OK) {
        const int64_t n = pqt_file_nrows(f);
        for (int c = 0; c < pqt_file_ncols(f); c++) {
            pqt_array *a = NULL;
            st = pqt_file_read(f, c, 1, n, &a);
            track(st, "pqt_file_read", path);
            pqt_array_free(a);
        }
        pqt_file_close(f);
    }
    pqt_table *t = NULL, *c = NULL;
    st = pqt_table_open(path, o, &t);
    track(st, "pqt_table_open", path);
    if (st == PQT_OK) {
        track(pqt_table_clone(t, &c), "pqt_table_clone", path);
        track(pqt_table_materialize_all(t), "pqt_table_materialize_all", path);
        if (c) track(pqt_table_materialize_all(c), "pqt_table_materialize_all (clone)", path);
    }
    pqt_table_close(c);
    pqt_table_close(t);
    pqt_opts_free(o);
}

static void exercise_dir(const char *dir, int threads)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: cannot open the directory\n", dir);
        exit(1);
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 8 || strcmp(e->d_name + len - 8, ".parquet") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        exercise_file(path, threads);
    }
    closedir(d);
}

static void test_successes_keep_the_last_failure(void)
{
    CHECK(strcmp(pqt_errmsg(), "") == 0); /* nothing has failed on this thread yet */
    pqt_file *f = NULL;
    track(pqt_file_open("tests/data/no_such_file.parquet", NULL, &f), "open missing", "");
    CHECK(strstr(last, "no_such_file.parquet") != NULL);
    for (int threads = 1; threads <= 4; threads += 3) {
        exercise_dir("tests/data/parquet-testing/data", threads);
        exercise_dir("tests/data/parquet-testing/bad_data", threads);
        exercise_dir("tests/data", threads);
    }
    /* both kinds of calls happened, or the property says nothing */
    CHECK(nfailed > 10);
    CHECK(nsucceeded > 1000);
    printf("errmsg: %d failed and %d successful calls checked\n", nfailed, nsucceeded);
}

/* ---- other threads ---- */

static void *fresh_thread(void *arg)
{
    (void)arg;
    static const char *result;
    result = pqt_errmsg();
    return (void *)(strcmp(result, "") == 0 ? "empty" : "not empty");
}

static void test_threads_have_their_own(void)
{
    /* a failure here is not seen by a new thread */
    pqt_file *f = NULL;
    CHECK(pqt_file_open("tests/data/no_such_file.parquet", NULL, &f) == PQT_IO);
    pthread_t th;
    void *res = NULL;
    CHECK(pthread_create(&th, NULL, fresh_thread, NULL) == 0);
    CHECK(pthread_join(th, &res) == 0);
    CHECK(res && strcmp(res, "empty") == 0);
}

/* A copy of table_rg.parquet (5 row groups) whose data pages are garbage: the footer opens,
 * every row group's read fails -- on the library's worker threads when reads are parallel. */
static void write_garbled(char *path, size_t n)
{
    snprintf(path, n, "/tmp/pqt_test_errmsg_XXXXXX");
    int fd = mkstemp(path);
    FILE *in = fopen("tests/data/table_rg.parquet", "rb");
    if (fd < 0 || !in) {
        fprintf(stderr, "cannot make the garbled copy\n");
        exit(1);
    }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)size);
    if (!b || fread(b, 1, (size_t)size, in) != (size_t)size) exit(1);
    fclose(in);
    long footer = (long)(b[size - 8] | b[size - 7] << 8 | b[size - 6] << 16 | (long)b[size - 5] << 24);
    memset(b + 4, 0xff, (size_t)(size - 8 - footer - 4));
    if (write(fd, b, (size_t)size) != size) exit(1);
    close(fd);
    free(b);
}

static void test_workers_keep_their_own(void)
{
    char garbled[64];
    write_garbled(garbled, sizeof garbled);
    enum { NT = 4 };
    pthread_t who[NT];
    char mine[NT][64];
    /* each thread of a team fails its own way first */
#pragma omp parallel num_threads(NT)
    {
        int k = omp_get_thread_num();
        who[k] = pthread_self();
        snprintf(mine[k], sizeof mine[k], "tests/data/no_such_file_%d.parquet", k);
        pqt_file *f = NULL;
        (void)pqt_file_open(mine[k], NULL, &f);
    }
    /* a parallel read fails in the library's worker threads (the same pool) */
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, NT));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(garbled, o, &f));
    pqt_array *a = NULL;
    CHECK(pqt_file_read(f, 0, 1, pqt_file_nrows(f), &a) != PQT_OK);
    CHECK(strstr(pqt_errmsg(), garbled) != NULL); /* the caller has the failure */
    pqt_file_close(f);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(garbled, o, &t));
    CHECK(pqt_table_materialize_all(t) != PQT_OK);
    CHECK(strstr(pqt_errmsg(), "pqt_table_materialize_all") != NULL);
    pqt_table_close(t);
    pqt_opts_free(o);
    /* every other pool thread still has its own failure */
    int bad = 0, seen = 0;
#pragma omp parallel num_threads(NT) reduction(+ : bad, seen)
    {
        for (int k = 1; k < NT; k++) {
            if (!pthread_equal(who[k], pthread_self())) continue;
            seen++;
            if (!strstr(pqt_errmsg(), mine[k])) {
                fprintf(stderr, "pool thread %d: pqt_errmsg() is now: %s\n", k, pqt_errmsg());
                bad++;
            }
        }
    }
    CHECK_EQ_I64(bad, 0);
    if (seen == 0) printf("errmsg: the OpenMP pool changed threads; worker check skipped\n");
    unlink(garbled);
}

/* ---- the internal tools a recovering call uses ---- */

static void test_mute_and_redirect(void)
{
    pqt_err(PQT_IO, "the real failure");
    pqt_err_mute();
    pqt_err_mute();
    CHECK(pqt_err(PQT_CORRUPT, "recovered") == PQT_CORRUPT); /* the status still comes back */
    pqt_err_unmute();
    pqt_err_prefix("context: ");
    pqt_err_unmute();
    CHECK(strcmp(pqt_errmsg(), "the real failure") == 0);
    char outer[64], inner[8];
    pqt_err_target p0 = pqt_err_redirect(outer, sizeof outer);
    pqt_err(PQT_CORRUPT, "page %d", 3);
    pqt_err_target p1 = pqt_err_redirect(inner, sizeof inner);
    pqt_err(PQT_CORRUPT, "longer than eight");
    pqt_err_restore(p1);
    pqt_err_prefix("row group %d: ", 2);
    pqt_err_restore(p0);
    CHECK(strcmp(inner, "longer ") == 0);
    CHECK(strcmp(outer, "row group 2: page 3") == 0);
    CHECK(strcmp(pqt_errmsg(), "the real failure") == 0);
    pqt_err_prefix("then: ");
    CHECK(strcmp(pqt_errmsg(), "then: the real failure") == 0);
}

int main(void)
{
    test_successes_keep_the_last_failure();
    test_threads_have_their_own();
    test_workers_keep_their_own();
    test_mute_and_redirect();
    return pqt_test_done("test_errmsg");
}
