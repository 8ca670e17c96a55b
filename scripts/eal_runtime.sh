# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
#
# Sourced by the scripts that run DPDK programs: DPDK 22.11 leaves each
# EAL runtime directory (<base>/dpdk/<prefix>: the shared configuration and
# memory maps, or nothing with --no-shconf) behind; whoever chose a
# --file-prefix removes it once its programs are gone.

# The runtime directory of prefix $1, as EAL chooses it: under /var/run
# for root, else under $XDG_RUNTIME_DIR (or /tmp).
eal_runtime_dir() {
	if [ "$(id -u)" = 0 ]; then
		echo "/var/run/dpdk/$1"
	else
		echo "${XDG_RUNTIME_DIR:-/tmp}/dpdk/$1"
	fi
}

# Remove the runtime directories of the prefixes given.
eal_runtime_remove() {
	local p
	for p in "$@"; do
		rm -rf "$(eal_runtime_dir "$p")"
	done
}
