# Thin wrapper over CMake: the README's two commands live here.
BUILD ?= build
JOBS ?= $(shell nproc)
BUILD_TYPE ?= RelWithDebInfo
CMAKE_FLAGS ?=
# Our own builds treat warnings as errors; a user's bare `cmake` does not (PQT_WERROR).
OUR_FLAGS = -DPQT_WERROR=ON

.PHONY: all deps test-deps build demo check check-clang check-release check-asan check-tsan check-packaging \
	fuzz bench bench-pushdown bench-mpi bench-arrow bench-remote interop install clean

all: build

# Debian packages: `build` for the library and the tool, `test` adds what the tests need.
deps:
	@bash scripts/install-deps build

test-deps:
	@bash scripts/install-deps test

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(OUR_FLAGS) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on the bundled example: schema and first rows of a small catalogue. Builds the
# library and the tool only; the build's output goes to a log, shown if the build fails.
DEMO_LOG = $(BUILD)/demo-build.log
demo: deps
	@mkdir -p $(BUILD)
	@echo "Building pqt (the library and the tool; log in $(DEMO_LOG))..."
	@{ cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(OUR_FLAGS) $(CMAKE_FLAGS) && \
	   cmake --build $(BUILD) -j $(JOBS) --target pqt_cli; } >$(DEMO_LOG) 2>&1 || \
	 { cat $(DEMO_LOG); echo "make demo: the build failed (output above, also in $(DEMO_LOG))" >&2; \
	   exit 1; }
	@echo
	@echo '$$ pqt schema examples/catalogue.parquet'
	@$(BUILD)/pqt schema examples/catalogue.parquet
	@echo
	@echo '$$ pqt cat examples/catalogue.parquet --limit 10'
	@$(BUILD)/pqt cat examples/catalogue.parquet --limit 10

# Every test.
check: test-deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same suite built by clang (the code must build warning-free with both compilers).
check-clang:
	@$(MAKE) --no-print-directory check BUILD=build-clang BUILD_TYPE=Release CMAKE_FLAGS="-DCMAKE_C_COMPILER=clang"

# The suite in Release with gcc: the optimizer's own warnings (maybe-uninitialized) show only here.
check-release:
	@$(MAKE) --no-print-directory check BUILD=build-release BUILD_TYPE=Release

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
check-asan:
	@$(MAKE) --no-print-directory check BUILD=build-asan BUILD_TYPE=Debug CMAKE_FLAGS="-DPQT_SANITIZE=ON"

# Install to a prefix and build C, C++ and Fortran consumers against it (CMake and pkg-config),
# and check that `make demo` is quiet and builds only the library and the tool (CI runs it).
check-packaging: test-deps
	bash tests/packaging/run.sh
	bash tests/packaging/demo.sh

# The thread tests under ThreadSanitizer, built by clang with OpenMP from LLVM's libomp
# (Debian libomp-dev), whose Archer tool tells TSan about OpenMP's own synchronization
# (libgomp is not instrumented and gives false reports). A report fails the test.
empty :=
space := $(empty) $(empty)
TSAN_TESTS = test_table_pthreads test_table_threads test_parts test_stats_lie test_write_steps test_write_io \
	test_par test_scan_fail_order test_filter_limit test_filter_decode_once test_dataset test_share \
	test_arrow_export test_arrow_export_meta
# Archer is loaded through OMP_TOOL_LIBRARIES: without it every OpenMP barrier is a false
# report. libomp-dev puts it beside clang's own lib directory (/usr/lib/llvm-14/lib).
ARCHER ?= $(abspath $(firstword $(wildcard $(shell clang -print-resource-dir 2>/dev/null)/../../libarcher.so \
	$(shell clang -print-file-name=libarcher.so 2>/dev/null) /usr/lib/llvm-*/lib/libarcher.so)))
check-tsan: deps
	@test -n "$(ARCHER)" || { echo "check-tsan: libarcher.so not found (Debian: libomp-dev)" >&2; exit 1; }
	@cmake -S . -B build-tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQT_TSAN=ON \
	  -DPQT_BUILD_BENCH=OFF >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target $(TSAN_TESTS)
	cd build-tsan && OMP_TOOL_LIBRARIES="$(ARCHER)" \
	  TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" \
	  ctest --output-on-failure -j $(JOBS) -R '^($(subst $(space),|,$(strip $(TSAN_TESTS))))$$'

# libFuzzer on every tests/fuzz target, FUZZ_SECONDS each (not part of check): the library
# built by clang with coverage + ASan + UBSan in build-fuzz; crashes land in
# build-fuzz/fuzz-artifacts/<target>/ (tests/fuzz/run.sh says how to triage them). The
# targets are the directory's fuzz_*.c, so a new one is fuzzed without touching this file.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
fuzz:
	@bash scripts/install-fuzz-deps
	@cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DPQT_FUZZ_LIBFUZZER=ON \
	  -DPQT_BUILD_BENCH=OFF \
	  -DCMAKE_C_FLAGS="-O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run.sh build-fuzz $(FUZZ_TARGETS)

bench: build
	bash bench/run.sh

# docs/pruning.md's scenarios 1-9 ("Scenarios") (bench/README.md, "Pushdown scenarios")
bench-pushdown: build
	bash bench/run.sh pushdown

# MPI: the collective open, W1 over ranks and the shared-file write against one process
# (bench/mpi_run.sh; docs/benchmarks.md, "MPI")
bench-mpi: build
	bash bench/mpi_run.sh

# W1 and W9 through the Arrow stream into DuckDB against DuckDB's own read (bench/arrow_run.sh;
# docs/benchmarks.md, "Arrow hand-off"); also the last step of `make bench`
bench-arrow: build
	bash bench/arrow_run.sh

# W1, W2, W3 over HTTP with 20 ms per request against the local read (bench/remote_run.sh;
# docs/remote.md, "Requests and coalescing")
bench-remote: build
	bash bench/remote_run.sh

interop: build
	bash tests/interop/run.sh

install: build
	cmake --install $(BUILD)

clean:
	rm -rf build build-asan build-clang build-pkg build-tsan
