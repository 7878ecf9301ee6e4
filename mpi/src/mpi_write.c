/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_write.c - every rank's rows into one shared Parquet file, or one file per rank with
 * a _metadata summary (libpqt_mpi; docs/mpi.md "Writing").
 *
 * Only the communication lives here; the file work is libpqt's parts (pqt_file.h "Parts of
 * one file"). Each rank writes its rows as a part, rank r as part r (rank 0's straight into
 * the temporary file beside the path, the others' into a spool of their own; no collective
 * yet);
 * a prefix sum of the parts' sizes gives each rank its offset in the temporary file rank 0
 * created, where each rank writes its bytes; rank 0 gathers the part footers, writes the
 * page indexes and the footer after the last part and gives the file its name. Each step
 * ends with an agreement on the status, so a failure anywhere stops every rank at the same
 * step, the temporary file is removed and every rank returns the first failing rank's
 * error.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_common.h"
#include "pqt_file.h"
#include "pqt_mpi.h"

static pqt_status misuse(const char *call, const char *what)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", call, what);
    return pqt_set_error(PQT_MISUSE, msg);
}

/* Rank 0's temporary file name on every rank (*tmp_ret: rank 0's own string there, a copy
 * elsewhere; NULL when the agreed status is not PQT_OK). */
static pqt_status share_name(MPI_Comm comm, int rank, pqt_status local, char *name, char **tmp_ret)
{
    *tmp_ret = NULL;
    pqt_status agreed = pqt_mpi_agree(comm, local);
    if (agreed != PQT_OK) return agreed;
    void *got = NULL;
    size_t n = 0;
    pqt_status st = pqt_mpi_bcast_bytes(comm, 0, name, rank == 0 ? strlen(name) + 1 : 0, &got, &n);
    if (st == PQT_OK && rank != 0 && (n == 0 || ((char *)got)[n - 1] != '\0')) {
        st = pqt_set_error(PQT_CORRUPT, "the temporary file's name from rank 0 is not a string");
        free(got);
        got = NULL;
    }
    st = pqt_mpi_agree(comm, st);
    if (st != PQT_OK) {
        if (rank != 0) free(got);
        return st;
    }
    *tmp_ret = got;
    return PQT_OK;
}

/* Every part's footer to rank 0: *all_ret (malloc'd) holds them one after another, sizes in
 * *sizes_ret (malloc'd, nranks entries). Other ranks get NULLs. */
static pqt_status gather_footers(MPI_Comm comm, int rank, int nranks, const pqt_part *p,
                                 uint8_t **all_ret, int **sizes_ret)
{
    size_t fn = 0;
    const void *f = pqt_part_footer(p, &fn);
    pqt_status st =
        fn > INT_MAX ? pqt_set_error(PQT_LIMIT, "a part's footer passes 2 GiB") : PQT_OK;
    st = pqt_mpi_agree(comm, st);
    if (st != PQT_OK) return st;
    int mine = (int)fn, *sizes = NULL, *displ = NULL;
    uint8_t *all = NULL;
    if (rank == 0) {
        sizes = calloc((size_t)nranks, sizeof *sizes);
        displ = calloc((size_t)nranks, sizeof *displ);
    }
    st = pqt_mpi_check(MPI_Gather(&mine, 1, MPI_INT, sizes, 1, MPI_INT, 0, comm),
                       "MPI_Gather (the part footers' sizes)");
    if (rank == 0 && st == PQT_OK) {
        int64_t total = 0;
        for (int r = 0; r < nranks && sizes; r++) {
            if (displ) displ[r] = (int)total;
            total += sizes[r];
        }
        if (!sizes || !displ)
            st = pqt_set_error(PQT_NOMEM, "out of memory for the part footers' sizes");
        else if (total > INT_MAX)
            st = pqt_set_error(PQT_LIMIT, "the part footers together pass 2 GiB");
        else if (!(all = malloc((size_t)total + 1)))
            st = pqt_set_error(PQT_NOMEM, "out of memory for the part footers");
    }
    st = pqt_mpi_agree(comm, st);
    if (st == PQT_OK)
        st = pqt_mpi_agree(comm, pqt_mpi_check(MPI_Gatherv(f, mine, MPI_BYTE, all, sizes, displ,
                                                           MPI_BYTE, 0, comm),
                                               "MPI_Gatherv (the part footers)"));
    free(displ);
    if (st != PQT_OK) {
        free(all);
        free(sizes);
        return st;
    }
    *all_ret = all;
    *sizes_ret = sizes;
    return PQT_OK;
}

/* Rank 0: the tail from every footer, written, the file named. */
static pqt_status finish_file(pqt_part *first, int nranks, const uint8_t *all, const int *sizes,
                              const char *tmp)
{
    const void **footers = calloc((size_t)nranks, sizeof *footers);
    size_t *fn = calloc((size_t)nranks, sizeof *fn);
    if (!footers || !fn) {
        free(footers);
        free(fn);
        return pqt_set_error(PQT_NOMEM, "out of memory for the part footers");
    }
    size_t at = 0;
    for (int r = 0; r < nranks; r++) {
        footers[r] = all + at;
        fn[r] = (size_t)sizes[r];
        at += fn[r];
    }
    int64_t tail_at = 0;
    void *tail = NULL;
    size_t tn = 0;
    pqt_status st = pqt_part_assemble(first, nranks, footers, fn, &tail_at, &tail, &tn);
    if (st == PQT_OK) st = pqt_shared_file_commit(first, tmp, tail_at, tail, tn);
    pqt_free(tail);
    free(footers);
    free(fn);
    return st;
}

/* Steps 2-4 of pqt_file.h's parts, once every rank holds its part (local: this rank's status
 * so far; part NULL unless it is PQT_OK). Frees part. */
static pqt_status write_shared(MPI_Comm comm, pqt_part *part, pqt_status local)
{
    int rank = 0, nranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    pqt_status st = pqt_mpi_agree(comm, local);
    char *own = NULL, *tmp = NULL;
    uint8_t *all = NULL;
    int *sizes = NULL;
    /* each part's offset: 4 + the bytes of the ranks before it */
    int64_t nbytes = pqt_part_nbytes(part), before = 0;
    if (st == PQT_OK)
        st = pqt_mpi_agree(
            comm, pqt_mpi_check(MPI_Exscan(&nbytes, &before, 1, MPI_INT64_T, MPI_SUM, comm),
                                "MPI_Exscan (the parts' sizes)"));
    if (rank == 0) before = 0; /* MPI_Exscan leaves rank 0's undefined */
    /* rank 0's part made the temporary file: its name for every rank */
    if (st == PQT_OK) {
        pqt_status mine = rank == 0 ? pqt_shared_file_create(part, &own) : PQT_OK;
        st = share_name(comm, rank, mine, own, &tmp);
    }
    if (st == PQT_OK) st = pqt_mpi_agree(comm, pqt_part_write_to(part, tmp, 4 + before));
    if (st == PQT_OK) st = gather_footers(comm, rank, nranks, part, &all, &sizes);
    if (st == PQT_OK)
        st = pqt_mpi_agree(comm, rank == 0 ? finish_file(part, nranks, all, sizes, tmp) : PQT_OK);
    if (st != PQT_OK && rank == 0 && own) pqt_shared_file_remove(own);
    /* (rank 0's part also removes the file when freed unnamed: a failure before the name
     * was shared) */
    free(all);
    free(sizes);
    if (rank != 0) free(tmp);
    pqt_free(own);
    pqt_part_free(part);
    return st;
}

pqt_status pqt_write_table_mpi(MPI_Comm comm, pqt_table *t, const char *path,
                               const pqt_write_opts *o)
{
    const char *call = "pqt_write_table_mpi";
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    pqt_part *part = NULL;
    pqt_status st = !t || !path ? misuse(call, "the table or the path is NULL")
                                : pqt_write_table_part(t, path, o, rank, &part);
    return write_shared(comm, part, st);
}

pqt_status pqt_writer_open_mpi(MPI_Comm comm, pqt_writer **ret, const char *path,
                               pqt_table *template_table, const pqt_write_opts *o)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    pqt_writer *w = NULL;
    pqt_status st = ret ? pqt_writer_open_part(&w, path, template_table, o, rank)
                        : misuse("pqt_writer_open_mpi", "ret is NULL");
    st = pqt_mpi_agree(comm, st);
    if (st != PQT_OK) {
        pqt_writer_abort(w);
        if (ret) *ret = NULL;
        return st;
    }
    *ret = w;
    return PQT_OK;
}

pqt_status pqt_writer_close_mpi(MPI_Comm comm, pqt_writer *w)
{
    pqt_part *part = NULL;
    pqt_status st =
        w ? pqt_writer_close_part(w, &part) : misuse("pqt_writer_close_mpi", "the writer is NULL");
    return write_shared(comm, part, st);
}

/* ---- one file per rank ---- */

pqt_status pqt_write_dataset_mpi(MPI_Comm comm, pqt_table *t, const char *dir,
                                 const pqt_write_opts *o)
{
    const char *call = "pqt_write_dataset_mpi";
    int rank = 0, nranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    pqt_status st =
        !t || !dir || !*dir ? misuse(call, "the table or the directory is NULL") : PQT_OK;
    char *own = NULL, *tmp = NULL;
    if (st == PQT_OK && rank == 0) st = pqt_dataset_dir_create(dir, &own);
    st = share_name(comm, rank, st, own, &tmp);
    /* a rank without rows writes no file, unless no rank has any: then rank 0 writes its
     * empty one, so the dataset still has its columns */
    int64_t n = st == PQT_OK ? pqt_table_nrows(t) : 0, total = 0;
    if (st == PQT_OK)
        st = pqt_mpi_agree(comm,
                           pqt_mpi_check(MPI_Allreduce(&n, &total, 1, MPI_INT64_T, MPI_SUM, comm),
                                         "MPI_Allreduce (the ranks' rows)"));
    int wrote = st == PQT_OK && (n > 0 || (total == 0 && rank == 0));
    if (st == PQT_OK) {
        pqt_status mine = PQT_OK;
        if (wrote) {
            size_t cap = strlen(tmp) + 32;
            char *file = malloc(cap);
            if (!file) {
                mine = pqt_set_error(PQT_NOMEM, "out of memory");
            } else {
                snprintf(file, cap, "%s/part-%05d.parquet", tmp, rank);
                mine = pqt_write_table(t, file, o);
                free(file);
            }
        }
        st = pqt_mpi_agree(comm, mine);
    }
    int *who = rank == 0 ? calloc((size_t)nranks, sizeof *who) : NULL;
    if (st == PQT_OK)
        st = pqt_mpi_agree(comm,
                           rank == 0 && !who ? pqt_set_error(PQT_NOMEM, "out of memory") : PQT_OK);
    if (st == PQT_OK)
        st = pqt_mpi_agree(comm,
                           pqt_mpi_check(MPI_Gather(&wrote, 1, MPI_INT, who, 1, MPI_INT, 0, comm),
                                         "MPI_Gather (the ranks' files)"));
    if (st == PQT_OK) {
        pqt_status mine = PQT_OK;
        if (rank == 0) {
            char(*names)[24] = calloc((size_t)nranks, sizeof *names);
            const char **files = calloc((size_t)nranks, sizeof *files);
            int nf = 0;
            if (!names || !files) mine = pqt_set_error(PQT_NOMEM, "out of memory");
            for (int r = 0; mine == PQT_OK && r < nranks; r++) {
                if (!who[r]) continue;
                snprintf(names[nf], sizeof names[nf], "part-%05d.parquet", r);
                files[nf] = names[nf];
                nf++;
            }
            if (mine == PQT_OK) mine = pqt_write_metadata_summary(tmp, files, nf);
            if (mine == PQT_OK) mine = pqt_dataset_dir_commit(tmp, dir);
            free(names);
            free(files);
        }
        st = pqt_mpi_agree(comm, mine);
    }
    if (st != PQT_OK && rank == 0 && own) pqt_dataset_dir_remove(own);
    free(who);
    if (rank != 0) free(tmp);
    pqt_free(own);
    return st;
}
