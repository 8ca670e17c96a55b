# mlx5-tm: the two commands of the README (make demo, make test) and a few
# helpers. Each target does its own set-up, idempotently.

BUILD      ?= build
BUILD_SAN  ?= build-san
MESON_OPTS ?=

.PHONY: all setup build build-san test demo bench clean

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

demo: build
	@bash scripts/demo.sh $(BUILD)

bench: build
	@bash scripts/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
