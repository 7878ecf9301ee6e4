/* SPDX-License-Identifier: Apache-2.0 */
// example.cpp - pqt from C++: pqt_file.h and the pqt.h it includes are C headers with extern "C"
// guards, so they are included as is (without the guards this program would not link).
// Prints the library's version and the size of a file, as ../find_package/example.c does.
#include <pqt_file.h>

#include <cstdio>
#include <memory>

namespace {
struct file_closer {
    void operator()(pqt_file *f) const { pqt_file_close(f); }
};
} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE.parquet\n", argv[0]);
        return 2;
    }
    std::printf("pqt_version_number %u\n", pqt_version_number());
    pqt_file *raw = nullptr;
    if (pqt_file_open(argv[1], nullptr, &raw) != PQT_OK) {
        std::fprintf(stderr, "%s: %s\n", argv[1], pqt_errmsg());
        return 1;
    }
    std::unique_ptr<pqt_file, file_closer> f(raw);
    std::printf("%s: %lld rows, %d columns\n", argv[1], static_cast<long long>(pqt_file_nrows(f.get())),
                pqt_file_ncols(f.get()));
    return 0;
}
