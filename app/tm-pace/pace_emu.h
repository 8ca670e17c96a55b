/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_EMU_H
#define PACE_EMU_H

/**
 * @file
 * What dpdk-tm-pace does differently on the emulated mlx5-tm device: in
 * virtual time the sending loop drives the device clock. On any other
 * port (or a build without the mlx5-tm PMD) nothing here applies.
 */

#include <stdbool.h>
#include <stdint.h>

/** The device model behind a port, if any. */
struct pace_emu {
	bool present;        /**< The port is an emulated mlx5-tm device. */
	bool virtual_clock;  /**< Its time moves only when we advance it. */
	void *model;         /**< struct mlx5_emu *, opaque here. */
	uint16_t port_id;
};

/** Find out whether @p port_id is an emulated mlx5-tm device. */
void pace_emu_attach(struct pace_emu *e, uint16_t port_id);

/** Device time in ns (virtual clock only). */
uint64_t pace_emu_now_ns(const struct pace_emu *e);

/** Move the virtual device clock forward by @p ns, departing packets. */
void pace_emu_advance(struct pace_emu *e, uint64_t ns);

/** How far the model fell behind real time. */
struct pace_emu_lag {
	uint64_t late_passes;  /**< Passes later than threshold, since then. */
	uint64_t max_lag_ns;   /**< Largest lateness since the last read. */
	uint64_t threshold_ns;
};

/** What the device's wire saw of one Tx queue. */
struct pace_emu_wire {
	uint64_t pkts;
	uint64_t bytes;             /**< Frame bytes, no FCS. */
	uint64_t last_departure_ns; /**< Device time, 0 before the first. */
	uint16_t pp_index;          /**< The SQ's pacing entry, 0 = none. */
	uint64_t mtu_drops;         /**< Frames the port dropped: above MTU. */
};

/**
 * Read the wire figures of Tx queue @p queue (port started).
 *
 * @return false when the port is not emulated or the queue has no SQ.
 */
bool pace_emu_wire(const struct pace_emu *e, uint16_t queue,
		   struct pace_emu_wire *w);

/**
 * Read the lag figures since the last read and start the next interval
 * (nothing lost in between); false when the port has none.
 */
bool pace_emu_lag(const struct pace_emu *e, struct pace_emu_lag *lag);

/**
 * End the device model's pcap= capture (after the run: what the device
 * sent is in it): 0, or the -errno of a write that failed (the model
 * logged the path and the error); 0 when there is none.
 */
int pace_emu_pcap_end(const struct pace_emu *e);

#endif /* PACE_EMU_H */
