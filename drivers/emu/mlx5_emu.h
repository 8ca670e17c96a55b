/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_EMU_H
#define MLX5_EMU_H

/**
 * @file
 * The emulated ConnectX device (device model): configuration, clock control
 * and introspection. The model is a shared object of its own,
 * librte_net_mlx5_tm_emu.so, exporting this API and its glue table
 * (mlx5_tm_glue_emu). The PMD loads it for emu= and reaches it only through
 * the glue table; this header is for tests, the demo and benchmarks that
 * look at or steer the model (they link the model library; a port's model
 * comes from rte_pmd_mlx5_tm_emu()).
 *
 * doc/guides/device_model.rst describes what the model does, the doorbell
 * and completion protocol it expects, and every assumption it makes.
 *
 * Unless stated otherwise, functions returning int return 0 or a negative
 * errno value, and every function may be called from any thread (the model
 * serialises them with its own lock).
 */

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mlx5_tm_glue_dev;

/** A device-model instance (opaque). */
struct mlx5_emu;

/** How device time advances. */
enum mlx5_emu_clock_mode {
	/** A device thread follows the monotonic clock (default). */
	MLX5_EMU_CLOCK_REALTIME = 0,
	/** Time moves only on mlx5_emu_advance(): deterministic, fast. */
	MLX5_EMU_CLOCK_VIRTUAL,
};

/** A one-shot fault: fail the nth firmware command with this opcode. */
struct mlx5_emu_fault_cmd {
	uint16_t opcode;   /**< PRM opcode (MLX5_CMD_OP_*). */
	uint32_t nth;      /**< 1 = the next one; 0 = not armed. */
	uint8_t status;    /**< PRM status to answer (MLX5_CMD_STAT_*). */
	uint32_t syndrome; /**< Syndrome to answer. */
};

/** A one-shot fault: fail the nth pp_alloc with errno @p err. */
struct mlx5_emu_fault_pp {
	uint32_t nth; /**< 1 = the next one; 0 = not armed. */
	int err;      /**< ENOSPC or EIO. */
};

/** A one-shot fault: an error CQE for the nth WQE an SQ processes. */
struct mlx5_emu_fault_wqe {
	uint32_t sqn;     /**< SQ number; 0 = whichever SQ gets there first. */
	uint32_t nth;     /**< 1 = the next WQE; 0 = not armed. */
	uint8_t syndrome; /**< Error CQE syndrome (MLX5_CQE_SYNDROME_*). */
};

/** How SQs attached to no queue group share the line (unverified). */
enum mlx5_emu_sched_unattached {
	/** Children of the device root, weighed like the top elements. */
	MLX5_EMU_SCHED_UNATTACHED_SHARE = 0,
	/** Served before the hierarchy whenever they can send. */
	MLX5_EMU_SCHED_UNATTACHED_STRICT,
};

/** What firmware does with MODIFY_SQ modify_bitmask bit 2 (unverified). */
enum mlx5_emu_sq_group_bit {
	/** Accepted where qos_cap.nic_sq_scheduling, refused elsewhere. */
	MLX5_EMU_SQ_GROUP_BIT_CAP = 0,
	/** Accepted everywhere (a group id of 0 on a device without). */
	MLX5_EMU_SQ_GROUP_BIT_ACCEPT,
	/** Refused everywhere (as a VF's firmware might). */
	MLX5_EMU_SQ_GROUP_BIT_REFUSE,
	/**
	 * Accepted and ignored: the SQ stays where it is (a queue group's
	 * ceiling and weight then do nothing for it).
	 */
	MLX5_EMU_SQ_GROUP_BIT_IGNORE,
};

/** sched_sq_pp_and_group=ignore (0 refuse and 1 honour are themselves). */
#define MLX5_EMU_SQ_PP_GROUP_IGNORE 2

/**
 * NIC scheduling options: capability overrides (a negative value keeps
 * the profile's) and the model's choices where the hardware is not known.
 */
struct mlx5_emu_sched_config {
	int64_t nic_sq_scheduling;     /**< cap_nic_sq_scheduling=0|1. */
	int64_t nic_bw_share;          /**< cap_nic_bw_share=0|1. */
	int64_t nic_rate_limit;        /**< cap_nic_rate_limit=0|1. */
	int64_t nic_element_type;      /**< cap_nic_element_type=MASK. */
	int64_t nic_tsar_type;         /**< cap_nic_tsar_type=MASK. */
	int64_t max_tsar_bw_share;     /**< cap_max_tsar_bw_share=N. */
	int64_t log_max_queue_group;   /**< cap_log_max_qos_nic_queue_group=N. */
	int64_t log_max_elements;      /**< cap_log_max_qos_nic_sched_elem=N. */
	int64_t max_depth;             /**< cap_sched_max_depth=N. */
	/** sched_unattached=share|strict. */
	enum mlx5_emu_sched_unattached unattached;
	/** sched_zero_bw_share=N: the weight a bw_share of 0 stands for. */
	int64_t zero_bw_share;
	/**
	 * sched_sq_pp_and_group=0|1|ignore: an SQ in a queue group with a
	 * pacing index: 1 honours the index (default), 0 refuses the
	 * command, ignore (MLX5_EMU_SQ_PP_GROUP_IGNORE) accepts it and the
	 * index has no effect while the SQ is in a group. Unverified.
	 */
	int64_t sq_pp_and_group;
	/**
	 * sched_root_values=0|1: children of the device root may have a
	 * bw_share and a max_average_bw (default 0: both must be 0).
	 */
	int64_t root_values;
	/**
	 * sched_id_base=N: the first element id firmware hands out (default
	 * 1); ids above 65535 cannot be an SQ's 16-bit qos_queue_group_id.
	 */
	int64_t id_base;
	/**
	 * sched_create_sq_group=apply|ignore: whether CREATE_SQ applies the
	 * sqc.qos_queue_group_id it carries (unverified; default apply).
	 */
	int64_t create_sq_group_ignore;
	/** sched_modify_sq_group=cap|accept|refuse|ignore: MODIFY_SQ bit 2. */
	enum mlx5_emu_sq_group_bit modify_sq_group;
};

/** Options of the model, from devargs; every capability overridable. */
struct mlx5_emu_config {
	char profile[16];                /**< "cx5", "cx6dx", "cx7". */
	enum mlx5_emu_clock_mode clock;  /**< clock=realtime|virtual. */
	char pcap_path[256];             /**< pcap=FILE, "" for none. */
	/* Capability overrides; a negative value keeps the profile's. */
	int64_t packet_pacing;           /**< cap_packet_pacing=0|1. */
	int64_t pp_min_rate_kbps;        /**< cap_pp_min_rate=KBPS. */
	int64_t pp_max_rate_kbps;        /**< cap_pp_max_rate=KBPS. */
	int64_t pp_table_size;           /**< cap_pp_table_size=N. */
	int64_t pp_burst_bound;          /**< cap_pp_burst_bound=0|1. */
	int64_t pp_typical_size;         /**< cap_pp_typical_size=0|1. */
	int64_t wqe_rate_pp;             /**< cap_wqe_rate_pp=0|1. */
	int64_t line_rate_mbps;          /**< line_rate=MBPS (or 25G...). */
	/**
	 * link_max_speed=MBPS (or 100G...): the fastest link mode the port
	 * reports supporting (ethtool's supported modes), its line rate
	 * while the link is down; default: the line rate.
	 */
	int64_t link_max_speed_mbps;
	/** pci_device_id=ID: the PCI device id the port reports. */
	int64_t pci_device_id;
	/**
	 * mtu_set=apply|ignore: whether port_set_mtu (SIOCSIFMTU) changes
	 * the port's MTU or only says it did (default apply).
	 */
	int64_t mtu_set_ignore;
	int64_t log_max_wq_sz;           /**< cap_log_max_wq_sz=N. */
	int64_t log_max_cq_sz;           /**< cap_log_max_cq_sz=N. */
	int64_t wqe_inline_mode;         /**< cap_inline_mode=0|1|2. */
	/**
	 * cap_vport_inline=none|l2|ip|tcp_udp (or cap_vport_inline_mode=0..3):
	 * NIC vport min_wqe_inline_mode.
	 */
	int64_t vport_inline_mode;
	/** cap_empw=0|1: enhanced_multi_pkt_send_wqe. */
	int64_t empw;
	/** cap_mpw=0..3: multi_pkt_send_wqe. */
	int64_t mpw;
	/** lag_threshold_us=N: lag above which the model reports lagging. */
	int64_t lag_threshold_us;
	struct mlx5_emu_fault_cmd fault_cmd; /**< fault_cmd=OP:NTH:STATUS[:SYND]. */
	struct mlx5_emu_fault_pp fault_pp;   /**< fault_pp_alloc=NTH:ENOSPC|EIO. */
	struct mlx5_emu_fault_wqe fault_wqe; /**< fault_wqe=NTH[:SYNDROME]. */
	/**
	 * cpus=LIST (e.g. "1" or "0-3,6"): CPUs the realtime device thread
	 * may run on; "" = the online CPUs outside busy_cpus (not the CPU set
	 * of the thread that opens the device, which EAL may have pinned to
	 * an lcore).
	 */
	char cpus[64];
	/**
	 * Without cpus=, the device thread runs on the online CPUs outside
	 * this set, or on every online CPU when that leaves none. The PMD
	 * puts EAL's worker lcores here: a sender polling beside the thread
	 * would share its CPU with it. Empty by default.
	 */
	cpu_set_t busy_cpus;
	struct mlx5_emu_sched_config sched; /**< NIC scheduling options. */
	/** cap_sq_ts_format=free_run|rt|both (0, 1, 2). */
	int64_t sq_ts_format;
	/** cap_packet_pacing_uid=0|1: qos_cap.packet_pacing_uid. */
	int64_t packet_pacing_uid;
	/**
	 * cap_sched_elem_obj=0|1: cmd_hca_cap.general_obj_types has the
	 * SCHEDULING_ELEMENT (0x26) bit (default: where the profile has NIC
	 * scheduling); without it CREATE_GENERAL_OBJECT of one is refused,
	 * as an older firmware's.
	 */
	int64_t sched_elem_obj;
	/** mtu=BYTES: netdev (software) MTU of the port; default 1500. */
	int64_t mtu;
	/** link=up|down: the port's link; default up. */
	int64_t link_up;
	/**
	 * eswitch=legacy|switchdev|representor (0, 1, 2): E-Switch mode,
	 * or a port that is a VF's representor (switchdev); default legacy.
	 */
	int64_t eswitch_switchdev;
	/** pp_foreign=N: rate-table entries held by other users at open. */
	int64_t pp_foreign;
	/**
	 * rst2rdy_pp=apply|ignore: whether MODIFY_SQ RST->RDY applies the
	 * pacing index it carries (unverified on hardware; default apply).
	 */
	int64_t rst2rdy_pp_ignore;
	/**
	 * sq_reset_keeps_qos=0|1: whether an SQ's context keeps its pacing
	 * index and qos_queue_group_id through a move to RST (default 1, as
	 * Linux's recovery relies on; unverified).
	 */
	int64_t sq_reset_keeps_qos;
};

/** Fill @p cfg with the defaults of profile @p profile (no overrides). */
int mlx5_emu_config_init(struct mlx5_emu_config *cfg, const char *profile);

/**
 * Apply one devarg to @p cfg.
 *
 * @return
 *   0; -ENOENT when @p key is not a device-model option; -EINVAL for a bad
 *   value, with a message naming the key and the accepted values in
 *   @p err (NUL-terminated, at most @p errlen bytes).
 */
int mlx5_emu_config_set(struct mlx5_emu_config *cfg, const char *key,
			const char *value, char *err, size_t errlen);

/** NULL-terminated list of the devarg keys mlx5_emu_config_set() takes. */
extern const char *const mlx5_emu_config_keys[];

/** NULL-terminated list of the profile names ("cx5", "cx6dx", "cx7"). */
extern const char *const mlx5_emu_profile_names[];

/** The model behind an emulated glue device, NULL for a real device. */
struct mlx5_emu *mlx5_emu_from_glue(struct mlx5_tm_glue_dev *dev);

/**
 * Where the model writes its messages (configuration refused, device
 * errors). @p fn NULL restores the default: errors and warnings to
 * stderr. Process-wide.
 *
 * @param fn
 *   Called with a level (3 error, 4 warning, 6 info, 7 debug; the syslog
 *   numbers rte_log uses) and a NUL-terminated line without newline.
 */
void mlx5_emu_set_log(void (*fn)(int level, const char *msg));

/* ---- Capabilities ---- */

/** NIC transmit scheduling capabilities (qos_cap). */
struct mlx5_emu_sched_caps {
	bool nic_sq_scheduling;      /**< SQs can join queue groups. */
	bool nic_bw_share;           /**< bw_share honoured. */
	bool nic_rate_limit;         /**< max_average_bw honoured. */
	uint16_t nic_element_type;   /**< Bit 1 << element type. */
	uint16_t nic_tsar_type;      /**< Bit 1 << TSAR type. */
	uint32_t max_tsar_bw_share;  /**< Largest bw_share. */
	uint8_t log_max_queue_group; /**< log_max_qos_nic_queue_group. */
	uint8_t log_max_elements;    /**< log_max_qos_nic_scheduling_element. */
	uint8_t max_depth;           /**< Elements on a path below the root. */
};

/** Effective capabilities of a device (profile plus overrides). */
struct mlx5_emu_caps {
	char profile[16];
	bool packet_pacing;
	bool pp_burst_bound;
	bool pp_typical_size;
	bool wqe_rate_pp;
	uint32_t pp_min_rate_kbps;
	uint32_t pp_max_rate_kbps;
	uint16_t pp_table_size;     /**< N: indices 1..N-1 usable. */
	uint32_t line_rate_mbps;
	uint8_t log_max_wq_sz;      /**< WQEBBs. */
	uint8_t log_max_cq_sz;      /**< CQEs. */
	uint8_t log_max_sq;
	uint8_t log_max_cq;
	uint8_t wqe_inline_mode;    /**< 0 L2, 1 vport context, 2 none. */
	uint8_t vport_inline_mode;  /**< 0 none, 1 L2, 2 IP, 3 TCP/UDP. */
	uint8_t sq_ts_format;       /**< 0 free-running, 1 real-time, 2 both. */
	bool empw;                  /**< enhanced_multi_pkt_send_wqe. */
	uint8_t mpw;                /**< multi_pkt_send_wqe (0 = none). */
	bool packet_pacing_uid;     /**< qos_cap.packet_pacing_uid. */
	/** general_obj_types bit 0x26: SCHEDULING_ELEMENT objects. */
	bool sched_elem_obj;
	uint16_t pci_device_id;     /**< PCI device id the profile stands for. */
	uint32_t num_comp_vectors;  /**< Valid devx_query_eqn vectors. */
	struct mlx5_emu_sched_caps sched; /**< NIC scheduling. */
};

/** Effective capabilities of @p emu. */
void mlx5_emu_get_caps(struct mlx5_emu *emu, struct mlx5_emu_caps *caps);

/**
 * The capabilities a device opened with @p cfg would report (its profile
 * plus overrides), without opening one: to compare a real NIC with the
 * profiles.
 *
 * @return
 *   0; -ENODEV unknown profile; -EINVAL overrides the model refuses.
 */
int mlx5_emu_config_caps(const struct mlx5_emu_config *cfg,
			 struct mlx5_emu_caps *caps);

/* ---- Clock ---- */

/** The clock mode of @p emu. */
enum mlx5_emu_clock_mode mlx5_emu_clock(struct mlx5_emu *emu);

/**
 * Device time in nanoseconds: since the device was opened (CQE timestamps
 * and pcap use the same clock). Realtime: follows CLOCK_MONOTONIC;
 * virtual: starts at 0 and moves only with advance/run/drain.
 */
uint64_t mlx5_emu_now_ns(struct mlx5_emu *emu);

/**
 * Virtual clock: notice doorbells, then let @p ns nanoseconds pass,
 * processing every departure (and writing its CQE) due by then.
 *
 * @return
 *   0; -ENOTSUP on a realtime device.
 */
int mlx5_emu_advance(struct mlx5_emu *emu, uint64_t ns);

/**
 * Process until every WQE posted (doorbell rung) on a ready SQ has
 * departed or failed. Virtual: advances time as far as the last departure.
 * Realtime: waits for the device thread (sleeping, not spinning).
 */
int mlx5_emu_drain(struct mlx5_emu *emu);

/**
 * Notice doorbells and process what is due now, without moving time
 * (virtual) or without waiting for the device thread (realtime).
 */
void mlx5_emu_poll(struct mlx5_emu *emu);

/** How far the model fell behind real time (realtime mode). */
struct mlx5_emu_lag {
	uint64_t lag_ns;      /**< Lateness of the last processing pass. */
	uint64_t max_lag_ns;  /**< Largest lateness seen. */
	uint64_t threshold_ns;/**< Lateness above which it counts as lagging. */
	uint64_t late_passes; /**< Passes later than the threshold. */
	uint64_t total_late_passes; /**< The same since the open, kept. */
	uint64_t passes;      /**< Processing passes so far. */
	/**
	 * A pass later than the threshold came within the last second of
	 * device time: pacing accuracy is lost around it.
	 */
	bool lagging;
};

/**
 * Lag of the model: realtime departures are computed (not observed), so
 * timestamps stay exact while the device thread keeps up; when it does
 * not, completions come late, senders see back-pressure late and measured
 * rates drop: tools should report results as unreliable when lagging.
 */
void mlx5_emu_get_lag(struct mlx5_emu *emu, struct mlx5_emu_lag *lag);

/**
 * Account one processing pass as the realtime device thread does after
 * each: it ran at device time @p now_ns and its earliest departure was
 * due at @p first_due_ns (lateness now - due). Lets a test make a pass
 * late deterministically, with either clock.
 *
 * @return 0, or -EINVAL (no device, or a departure due after now).
 */
int mlx5_emu_account_pass(struct mlx5_emu *emu, uint64_t now_ns,
			  uint64_t first_due_ns);

/**
 * Read the lag figures and forget max_lag_ns and late_passes (the start
 * of the next measurement), in one step: a tool that measures interval by
 * interval loses no late pass between the read and the reset.
 */
void mlx5_emu_take_lag(struct mlx5_emu *emu, struct mlx5_emu_lag *lag);

/* ---- Wire ---- */

/**
 * Called for each departing packet, in departure order, with the model's
 * lock held: it may call introspection functions but not close the device
 * or move the clock. @p bytes is the frame as sent (inline header, VLAN
 * insertion, gathered data), @p len bytes, without FCS.
 */
typedef void (*mlx5_emu_wire_hook_t)(void *arg, uint32_t sqn,
				     uint64_t time_ns, const uint8_t *bytes,
				     uint32_t len);

/** Install (or remove, @p fn NULL) the wire hook. */
void mlx5_emu_set_wire_hook(struct mlx5_emu *emu, mlx5_emu_wire_hook_t fn,
			    void *arg);

/**
 * Start writing departures to pcap file @p path (nanosecond timestamps,
 * Ethernet), replacing any current capture; NULL or "" stops capturing.
 *
 * @return
 *   0; -errno when @p path cannot be opened, or when the capture it ends
 *   had a write fail (mlx5_emu_pcap_error()).
 */
int mlx5_emu_set_pcap(struct mlx5_emu *emu, const char *path);

/**
 * The errno of the capture's failed write (ENOSPC on a full disk, EFBIG
 * past a file-size limit), 0 while every write succeeded. The first
 * failure is logged once (the path, the frames handed to the capture, the
 * error) and ends the capture: the file keeps what reached it before. It
 * is logged again when the capture is closed, and stays until a new
 * capture starts. The PMD shows it as the xstat emu_pcap_errno.
 */
int mlx5_emu_pcap_error(struct mlx5_emu *emu);

/** Port counters. */
struct mlx5_emu_port_stats {
	uint64_t packets;
	uint64_t bytes;        /**< L2 frame bytes (no FCS, preamble, IFG). */
	uint64_t wire_busy_ns; /**< Time the line was busy (with overheads). */
	uint64_t cqes;
	uint64_t error_cqes;
	uint64_t cq_overruns;  /**< CQEs dropped: CQ full (consumer index). */
	uint64_t doorbells;    /**< Doorbell register changes seen. */
	uint64_t doorbell_mismatches; /**< UAR write beyond the doorbell record. */
	/** Frames dropped at the port: longer than the MTU allows. */
	uint64_t mtu_drops;
	/** Frames dropped in switchdev mode: no E-Switch rule for the SQ. */
	uint64_t eswitch_drops;
};

/** Counters of the port of @p emu. */
void mlx5_emu_get_port_stats(struct mlx5_emu *emu,
			     struct mlx5_emu_port_stats *stats);

/**
 * The netdev MTU of the port (what SIOCSIFMTU sets on hardware). A frame
 * leaves only when its length with FCS fits in MTU + 22 bytes (the
 * kernel's MLX5E_SW2HW_MTU: Ethernet header, one VLAN tag and FCS): at
 * most MTU + 18 bytes without FCS; longer ones complete without error and
 * are counted in mtu_drops.
 */
uint32_t mlx5_emu_mtu(struct mlx5_emu *emu);

/** Set the link of the port up or down (as devarg link=). */
void mlx5_emu_set_link(struct mlx5_emu *emu, bool up);

/**
 * The link renegotiated at @p mbps (a cable or a peer changed): the speed
 * the port reports while up and the line rate the wire sends at, as
 * devarg line_rate= sets them at start; 0 or above the fastest link mode
 * (link_max_speed=) refused with -EINVAL.
 */
int mlx5_emu_set_link_speed(struct mlx5_emu *emu, uint32_t mbps);

/**
 * Set the netdev MTU as another program would (ip link set mtu), behind
 * the PMD's back; @p mtu within the devarg mtu='s range (else -EINVAL).
 */
int mlx5_emu_set_mtu(struct mlx5_emu *emu, uint32_t mtu);

/* ---- Introspection ---- */

/**
 * Emulated devices open in this process. A close that finds objects left
 * in the device (queues, memory, pacing entries, scheduling elements) is
 * refused and the device stays open: once a user has closed what it
 * opened, the count is back where it was, unless the user leaked one.
 */
unsigned int mlx5_emu_devices_open(void);

/** A send queue as the model sees it. */
struct mlx5_emu_sq_info {
	uint32_t sqn;
	uint8_t state;          /**< MLX5_SQC_STATE_RST/RDY/ERR. */
	uint16_t pp_index;      /**< packet_pacing_rate_limit_index. */
	bool pp_stale;          /**< pp_index names an entry no longer allocated. */
	uint32_t cqn;
	uint32_t tisn;
	uint8_t log_wq_sz;
	uint16_t hw_ci;         /**< WQEBB counter of the next WQE to process. */
	uint16_t rung_pi;       /**< WQEBB counter up to which WQEs are posted. */
	/* Departure statistics since creation (or mlx5_emu_sq_stats_clear). */
	uint64_t packets;
	uint64_t bytes;         /**< L2 frame bytes. */
	uint64_t wqes;          /**< WQEs completed (NOPs included). */
	uint64_t cqes;          /**< CQEs written (error CQEs included). */
	uint64_t errors;        /**< Error CQEs. */
	uint64_t first_departure_ns;
	uint64_t last_departure_ns;
	uint64_t min_gap_ns;    /**< Smallest gap between two departures. */
	uint64_t max_gap_ns;    /**< Largest gap between two departures. */
	uint8_t last_error_syndrome; /**< Syndrome of the last error CQE. */
	uint16_t qos_queue_group_id; /**< Queue group element; 0 none. */
	uint64_t mtu_drops;     /**< Frames dropped: longer than the MTU allows. */
	uint64_t eswitch_drops; /**< Frames dropped: no E-Switch rule (switchdev). */
	/**
	 * Departures whose WQE the device had not seen when the SQ's previous
	 * frame left: the SQ ran dry (its sender posted too late, or in real
	 * time the device noticed the doorbell late). A paced SQ whose sender
	 * keeps its ring full never runs dry.
	 */
	uint64_t ran_dry;
	/**
	 * Recent rate: bytes of the SQ's departures during its last 0.9 to
	 * 1 s of sending time, and that time in ns (each departure over the
	 * gap since the previous one). Idle and suspended stretches longer
	 * than 100 ms are not in it: the departure that ends one counts in
	 * neither; shorter pauses of the sender are.
	 */
	uint64_t recent_bytes;
	uint64_t recent_ns;
};

/**
 * SQ numbers of @p emu, in creation order.
 *
 * @return
 *   How many SQs exist (possibly more than @p max; @p sqns gets the first
 *   @p max).
 */
unsigned int mlx5_emu_sq_list(struct mlx5_emu *emu, uint32_t *sqns,
			      unsigned int max);

/** State of SQ @p sqn; -ENOENT when there is no such SQ. */
int mlx5_emu_sq_get(struct mlx5_emu *emu, uint32_t sqn,
		    struct mlx5_emu_sq_info *info);

/** Clear the departure statistics of SQ @p sqn (0: of every SQ). */
int mlx5_emu_sq_stats_clear(struct mlx5_emu *emu, uint32_t sqn);

/** A rate-table entry in use. */
struct mlx5_emu_pp_info {
	uint16_t index;
	uint32_t rate_limit;        /**< kbps, or WQEs/s in WQE-rate mode. */
	uint32_t burst_upper_bound; /**< Bytes; 0 = device default. */
	uint16_t typical_packet_size;
	uint8_t rate_mode;          /**< 0 data rate, 1 WQE rate. */
	bool dedicated;
	uint32_t refcount;          /**< pp_alloc handles holding it. */
	uint64_t user;              /**< Id of the owning glue device; 0 other users (pp_foreign). */
	uint32_t sq_users;          /**< SQs whose pacing index is this. */
};

/**
 * Entries of the rate table in use, by index.
 *
 * @return
 *   How many entries are in use (possibly more than @p max).
 */
unsigned int mlx5_emu_pp_list(struct mlx5_emu *emu,
			      struct mlx5_emu_pp_info *entries,
			      unsigned int max);

/** A NIC scheduling element. */
struct mlx5_emu_sched_info {
	uint32_t id;             /**< scheduling_element_id. */
	uint32_t parent_id;      /**< 0: the device root. */
	uint8_t element_type;    /**< MLX5_SCHED_ELEM_TYPE_*. */
	uint8_t tsar_type;       /**< MLX5_TSAR_TYPE_* (TSARs). */
	uint8_t depth;           /**< 1 for a child of the root. */
	uint32_t bw_share;       /**< As set (0: device default weight). */
	uint32_t max_average_bw; /**< Mbit/s, 0 unlimited. */
	uint32_t nb_children;    /**< Elements whose parent it is. */
	uint32_t nb_sqs;         /**< SQs attached (queue groups). */
	uint64_t packets;        /**< Packets that went through it. */
	uint64_t bytes;          /**< Their L2 frame bytes. */
};

/**
 * Scheduling elements of @p emu, by id.
 *
 * @return
 *   How many exist (possibly more than @p max; @p elems gets the first
 *   @p max).
 */
unsigned int mlx5_emu_sched_list(struct mlx5_emu *emu,
				 struct mlx5_emu_sched_info *elems,
				 unsigned int max);

/** Element @p id of @p emu; -ENOENT when there is none. */
int mlx5_emu_sched_get(struct mlx5_emu *emu, uint32_t id,
		       struct mlx5_emu_sched_info *info);

/** The last firmware command that failed. */
struct mlx5_emu_cmd_error {
	uint16_t opcode;
	uint8_t status;
	uint32_t syndrome;
	uint64_t count;  /**< Failed commands so far. */
};

/** The last failed firmware command of @p emu (count 0: none yet). */
void mlx5_emu_last_cmd_error(struct mlx5_emu *emu,
			     struct mlx5_emu_cmd_error *err);

/**
 * Firmware commands run by the model (devx general/create/modify/query/
 * destroy, pp_alloc, pp_free) since the device was opened, and the time
 * spent in them (monotonic clock, from the call's entry into the model:
 * the DEVX layer's checks and lock, then the command).
 */
void mlx5_emu_cmd_stats(struct mlx5_emu *emu, uint64_t *count, uint64_t *ns);

/* ---- Fault injection (also from devargs) ---- */

/**
 * Called for every firmware command the model runs, the ones the glue
 * builds itself included (a DEVX destroy, as the kernel builds it): the
 * input, and the output as answered (@p status 0: OK).
 */
typedef void (*mlx5_emu_cmd_hook_t)(void *arg, const void *in, size_t inlen,
				    const void *out, size_t outlen,
				    uint8_t status);

/** Watch every command with @p fn (NULL: stop); under the device lock. */
void mlx5_emu_set_cmd_hook(struct mlx5_emu *emu, mlx5_emu_cmd_hook_t fn,
			   void *arg);

/**
 * Hold (@p hold true) or release firmware commands: from now on a command
 * (DEVX create, modify, query, destroy, general command; pp_alloc,
 * pp_free) waits at the device's command interface until released, as a
 * command firmware is slow to answer. It waits outside the device lock:
 * the wire, completions and every counter go on meanwhile.
 */
void mlx5_emu_cmd_hold(struct mlx5_emu *emu, bool hold);

/** Wait until @p n commands are held (or commands are released). */
void mlx5_emu_cmd_wait_held(struct mlx5_emu *emu, unsigned int n);

/**
 * Commands the armed command fault has failed since it was armed
 * (mlx5_emu_fault_cmd()).
 */
unsigned int mlx5_emu_fault_cmd_hits(struct mlx5_emu *emu);

/**
 * The armed command fault fails @p repeat more commands with its opcode
 * after the nth (UINT32_MAX: every one until disarmed): a device that
 * keeps refusing. Arming a fault sets it back to 0 (the nth alone).
 */
void mlx5_emu_fault_cmd_repeat(struct mlx5_emu *emu, uint32_t repeat);

/** Arm a command fault (replaces any armed one); nth 0 disarms. */
int mlx5_emu_fault_cmd(struct mlx5_emu *emu,
		       const struct mlx5_emu_fault_cmd *fault);

/** Arm a pp_alloc fault (err ENOSPC or EIO); nth 0 disarms. */
int mlx5_emu_fault_pp_alloc(struct mlx5_emu *emu,
			    const struct mlx5_emu_fault_pp *fault);

/** Arm a WQE fault (error CQE with the given syndrome); nth 0 disarms. */
int mlx5_emu_fault_wqe(struct mlx5_emu *emu,
		       const struct mlx5_emu_fault_wqe *fault);

/* ---- Syndromes the firmware model answers (mbox_out.syndrome) ---- */

#define MLX5_EMU_SYND_BAD_OPCODE     0x0e0c0001u /**< Unknown opcode. */
#define MLX5_EMU_SYND_BAD_INLEN      0x0e0c0002u /**< Input too short. */
#define MLX5_EMU_SYND_BAD_OUTLEN     0x0e0c0003u /**< Output too short. */
#define MLX5_EMU_SYND_BAD_OPMOD      0x0e0c0004u /**< op_mod not supported. */
#define MLX5_EMU_SYND_NO_OBJECT      0x0e0c0005u /**< Named object missing. */
#define MLX5_EMU_SYND_BAD_FIELD      0x0e0c0006u /**< Field out of range. */
#define MLX5_EMU_SYND_BAD_SIZE       0x0e0c0007u /**< Log size beyond caps. */
#define MLX5_EMU_SYND_BAD_PP_INDEX   0x0e0c0008u /**< Pacing index unused. */
#define MLX5_EMU_SYND_BAD_STATE      0x0e0c0009u /**< State transition. */
#define MLX5_EMU_SYND_IN_USE         0x0e0c000au /**< Object still in use. */
#define MLX5_EMU_SYND_NO_RESOURCES   0x0e0c000bu /**< Object limit reached. */
#define MLX5_EMU_SYND_BAD_UMEM_RANGE 0x0e0c000cu /**< Ring beyond its umem. */
#define MLX5_EMU_SYND_SCHED_BAD_PARENT  0x0e0c0010u /**< No such TSAR. */
#define MLX5_EMU_SYND_SCHED_TOO_DEEP    0x0e0c0011u /**< Beyond max depth. */
#define MLX5_EMU_SYND_SCHED_TOO_MANY    0x0e0c0012u /**< Element limit. */
#define MLX5_EMU_SYND_SCHED_BAD_TYPE    0x0e0c0013u /**< Type not in caps. */
#define MLX5_EMU_SYND_SCHED_IN_USE      0x0e0c0014u /**< Has children/SQs. */
#define MLX5_EMU_SYND_SCHED_UNSUPPORTED 0x0e0c0015u /**< No NIC scheduling. */
#define MLX5_EMU_SYND_SCHED_BAD_GROUP   0x0e0c0016u /**< Not a queue group. */
#define MLX5_EMU_SYND_INJECTED       0x0e0c00ffu /**< Default injected. */

#ifdef __cplusplus
}
#endif

#endif /* MLX5_EMU_H */
