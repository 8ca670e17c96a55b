# mlx5-tm: the two commands of the README (make demo, make test) and a few
# helpers. Each target does its own set-up, idempotently.

BUILD      ?= build
BUILD_SAN  ?= build-san
MESON_OPTS ?=

.PHONY: all setup build build-san test test-tsan coverage fuzz demo bench install uninstall deb clean

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/build.ninja: | setup
	meson setup $(BUILD) $(MESON_OPTS)

$(BUILD_SAN)/build.ninja: | setup
	meson setup $(BUILD_SAN) $(MESON_OPTS) -Dbuildtype=debug \
		-Db_sanitize=address,undefined -Db_lundef=false

build: setup $(BUILD)/build.ninja
	ninja -C $(BUILD)

build-san: setup $(BUILD_SAN)/build.ninja
	ninja -C $(BUILD_SAN)

test: build build-san
	@bash test/run_all.sh $(BUILD) $(BUILD_SAN)

# The control-path fuzzer, one million operations under ASan/UBSan
# (FUZZ_OPS, FUZZ_SEED: scripts/fuzz.sh).
fuzz: build-san
	@bash scripts/fuzz.sh $(BUILD_SAN)

# The concurrent paths under ThreadSanitizer, in a build directory of
# their own (scripts/tsan.sh).
BUILD_TSAN ?= build-tsan

test-tsan: setup
	@bash scripts/tsan.sh $(BUILD_TSAN)

# Line coverage of the product sources from make test's suites (plain
# runs) in a build directory of its own: one line per file,
# "<path> <covered>/<lines> <percent>%" (scripts/coverage.sh;
# COVERAGE_SUITES="a b" runs only those suites).
BUILD_COV ?= build-cov

coverage: setup
	@bash scripts/coverage.sh $(BUILD_COV)

demo: build
	@bash scripts/demo.sh $(BUILD)

bench: build
	@bash scripts/bench.sh $(BUILD)

# Into the system DPDK (meson.build says where): the driver in the plugin
# directory the EAL loads at start-up, the device model, headers and
# pkg-config files; tools and guides under the meson prefix.
# scripts/install_check.sh checks install and uninstall end to end.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

install: build
	$(SUDO) meson install -C $(BUILD) --no-rebuild

# What meson installed (its install log), then the directories of ours
# that held it.
uninstall:
	@test -f $(BUILD)/meson-logs/install-log.txt || \
		{ echo "uninstall: nothing installed from $(BUILD)"; exit 1; }
	$(SUDO) ninja -C $(BUILD) uninstall
	@docdir=$$(meson introspect $(BUILD) --buildoptions | \
		python3 -c 'import json,sys; o={x["name"]:x["value"] for x in json.load(sys.stdin)}; print(o["prefix"] + "/" + o["datadir"] + "/doc/mlx5-tm")'); \
	if [ -d "$$docdir" ]; then \
		$(SUDO) find "$$docdir" -depth -type d -empty -delete; \
	fi

# Debian binary packages (debian/) in $(BUILD)/deb, checked with lintian.
# The packaging tools it installs are removed again unless
# DEB_KEEP_TOOLS=1 (scripts/deb.sh).
DEB_KEEP_TOOLS ?= 0

deb:
	@DEB_KEEP_TOOLS=$(DEB_KEEP_TOOLS) bash scripts/deb.sh $(BUILD)/deb

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_TSAN) $(BUILD_COV)
