# Convenience front end for a fresh Debian 12 machine (run as root, or with sudo
# available). The real build is CMake; this file only installs what is missing,
# configures and runs.
#
#   make run    install dependencies, build, run the main job on a bundled trace
#   make test   install dependencies, build (gcc, -Werror) and run the whole test
#               suite, then again with clang + ASan/UBSan
.PHONY: all deps build run test test-release test-sanitize bench clean

BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc)
MAIN_TRACE ?= traces/make-probe.dat

# Debian packages the build, the tests and the bundled workloads need.
PACKAGES = cmake make gcc clang pkg-config libtracecmd-dev libtracefs-dev \
           libtraceevent-dev libjansson-dev libzstd-dev zlib1g-dev trace-cmd rt-tests \
           stress-ng python3 libkshark-dev libjson-c-dev

SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

all: build

deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD) -DSCHEDREPLAY_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/schedreplay replay $(MAIN_TRACE)

test-release: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize: deps
	CC=clang cmake -S . -B $(BUILD_ASAN) -DSCHEDREPLAY_WERROR=ON -DSCHEDREPLAY_SANITIZE=ON \
	  -DCMAKE_BUILD_TYPE=Debug
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

test: test-release test-sanitize

bench: build
	cmake --build $(BUILD) --target bench

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
