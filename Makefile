# Thin wrapper over CMake: the README's two commands live here.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build demo check check-asan bench interop install clean

all: build

deps:
	@bash scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on the bundled example: schema and first rows of a small catalogue.
demo: build
	$(BUILD)/pqt schema examples/catalogue.parquet
	$(BUILD)/pqt cat examples/catalogue.parquet --limit 10

# Every test.
check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
check-asan:
	@$(MAKE) --no-print-directory check BUILD=build-asan CMAKE_FLAGS="-DPQT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

bench: build
	bash bench/run.sh

interop: build
	bash tests/interop/run.sh

install: build
	cmake --install $(BUILD)

clean:
	rm -rf build build-asan
