# Convenience entry points; CMake does the real work.
#   make demo   install dependencies, build, ingest the bundled sample, search it
#   make test   install dependencies, build, run every test
#   make test-sanitize  the tests again under ASan+UBSan (clang build in build-sanitize)
#   make fuzz   the libFuzzer targets from that build, each for FUZZ_SECONDS
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all deps build demo test sanitize-build test-sanitize fuzz docs install clean
all: build

deps:
	scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	scripts/demo.sh $(BUILD)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The sanitizer build (scripts/sanitize-build.sh, in $(SANITIZE_BUILD)):
# clang-14, AddressSanitizer and UndefinedBehaviorSanitizer over the library,
# the tools and the unit tests, and the libFuzzer targets (fuzz/) beside them;
# scripts/sanitize-ignore.txt lists what is not instrumented and why. One
# clang build serves both targets below (CI: `make test-sanitize fuzz`).
#   test-sanitize  the test suite in it, less SANITIZE_EXCLUDE (a ctest -E regex)
#   fuzz           each fuzz target for FUZZ_SECONDS over its committed corpus,
#                  FUZZ_PARALLEL at a time; fails when a target crashes
# SANITIZE_SCOPE=unit (what CI uses) builds and runs the unit tests and fuzz
# targets only, not the tools and the end-to-end suite (tests/cli), which
# under ASan took ~4 min more to build and ~6 min to run on a loaded 2-core
# machine; `all`, the default, runs every test.
SANITIZE_BUILD ?= build-sanitize
SANITIZE_SCOPE ?= all
ifeq ($(SANITIZE_SCOPE),unit)
SANITIZE_TARGETS ?= litgraph_unit_tests fuzz
SANITIZE_EXCLUDE ?= ^cli_
endif
SANITIZE_TARGETS ?=
SANITIZE_EXCLUDE ?=
SANITIZE_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ASAN_SYMBOLIZER_PATH=$(wildcard /usr/lib/llvm-14/bin/llvm-symbolizer)
FUZZ_SECONDS ?= 20
FUZZ_PARALLEL ?= 1

sanitize-build: deps
	SANITIZE_BUILD=$(SANITIZE_BUILD) JOBS=$(JOBS) scripts/sanitize-build.sh $(SANITIZE_TARGETS)

test-sanitize: sanitize-build
	$(SANITIZE_ENV) ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j $(JOBS) \
	  $(if $(SANITIZE_EXCLUDE),-E '$(SANITIZE_EXCLUDE)')

# Builds only the fuzz targets when test-sanitize has not built them.
fuzz: deps
	SANITIZE_BUILD=$(SANITIZE_BUILD) FUZZ_PARALLEL=$(FUZZ_PARALLEL) JOBS=$(JOBS) \
	  scripts/fuzz.sh $(FUZZ_SECONDS)

# Regenerates man/ and completions/ from the tools' option definitions.
docs: build
	scripts/gen-docs.sh $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
