# Convenience entry points; CMake does the real work.
#   make demo   install dependencies, build, ingest the bundled sample, search it
#   make test   install dependencies, build, run every test
#   make fuzz   build the libFuzzer targets with clang, run each for FUZZ_SECONDS
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all deps build demo test test-sanitize fuzz docs install clean
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

# The whole test suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer (clang; scripts/sanitize-ignore.txt lists what
# is not instrumented and why).
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
  -fsanitize-ignorelist=$(CURDIR)/scripts/sanitize-ignore.txt
test-sanitize: deps
	CC=clang-14 CXX=clang++-14 cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLITGRAPH_JEMALLOC=OFF -DLITGRAPH_BUILD_BENCH=OFF \
	  -DCMAKE_C_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
	cmake --build build-sanitize -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir build-sanitize --output-on-failure -j $(JOBS) -E '^format$$'

# The libFuzzer targets (fuzz/, doc/fuzzing.md) built with clang, ASan and
# UBSan in build-fuzz, each run for FUZZ_SECONDS over its committed corpus,
# FUZZ_PARALLEL at a time; fails when a target crashes. CI runs it after
# `make test` with 20 s per target, two at a time.
FUZZ_SECONDS ?= 20
FUZZ_PARALLEL ?= 1
fuzz: deps
	FUZZ_PARALLEL=$(FUZZ_PARALLEL) JOBS=$(JOBS) scripts/fuzz.sh $(FUZZ_SECONDS)

# Regenerates man/ and completions/ from the tools' option definitions.
docs: build
	scripts/gen-docs.sh $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD)
