# The two commands of the README's quick start, and what they stand on.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

SAMPLE_STORE ?= out/sample-store

.PHONY: setup build release install uninstall deb fuzz sample test lint format bench bench-month clean

PREFIX ?= /usr/local
DESTDIR ?=

SWIFT_SOURCES := Sources Tests Package.swift Fuzz/Sources Fuzz/Package.swift

setup:
	@scripts/setup.sh

build: setup
	swift build -c release --product tunnelvision

# What is installed and packaged: the Swift runtime linked in, so no toolchain is needed to run it.
release: setup
	swift build -c release --static-swift-stdlib --product tunnelvision

# The executable, the report's fonts, the man page and the completions under DESTDIR/PREFIX.
install: release
	scripts/install.sh "$(DESTDIR)" "$(PREFIX)"

uninstall:
	scripts/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

# A Debian package of the same files: out/tunnelvision_VERSION_ARCH.deb.
deb: release
	scripts/deb.sh

# Every reader under libFuzzer with AddressSanitizer: FUZZ_RUNS inputs each, or FUZZ_SECONDS.
fuzz: setup
	mkdir -p out
	scripts/fuzz.sh

# The main job: the sample store (created when absent), its 2.4.0 session exported and verified.
sample: build
	@scripts/sample.sh "$(SAMPLE_STORE)"

# The whole test suite, its classes spread over worker processes (scripts/test.py; TEST_WORKERS,
# TEST_FILTER). The executable is built first: tests run it as a separate process. Says how long
# each stage took.
test:
	@start=$$(date +%s); stage() { echo "make test: $$1 $$(( $$(date +%s) - start )) s" >&2; }; \
	$(MAKE) --no-print-directory setup && stage "set up after" && \
	$(MAKE) --no-print-directory lint && stage "linted after" && \
	swift build --build-tests && stage "built after" && \
	scripts/test.py; status=$$?; stage "done after"; exit $$status

# The toolchain's formatter, with the checked-in .swift-format: `make format` rewrites, lint only reads.
lint:
	swift format lint --strict --recursive $(SWIFT_SOURCES)

format:
	swift format --in-place --recursive $(SWIFT_SOURCES)

# The benchmark: the reference workload and a tenth of it, figures as ratios to the machine's floor,
# measuring the executable `release` builds, which is what is installed and packaged.
bench: setup
	swift build -c release --static-swift-stdlib --product tunnelvision
	swift build -c release --static-swift-stdlib --product tunnelvision-bench
	mkdir -p out
	.build/release/tunnelvision-bench --json-output out/bench.json

# An audit's day beside a month of recorded history (1,000,000 connections, 20,000,000 packets)
# and beside a hundredth of it: what must not grow with the history, as month/small.
bench-month: setup
	swift build -c release --static-swift-stdlib --product tunnelvision
	swift build -c release --static-swift-stdlib --product tunnelvision-bench
	mkdir -p out
	.build/release/tunnelvision-bench --month --json-output out/bench-month.json

clean:
	rm -rf .build out
