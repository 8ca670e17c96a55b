/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_GLUE_H
#define MLX5_TM_GLUE_H

/**
 * @file
 * Device glue: the only door between the PMD and an mlx5 device.
 *
 * One table of functions covers everything the PMD needs from rdma-core
 * (libibverbs + libmlx5 DEVX). Two tables exist: mlx5_tm_glue_rdma, over
 * the real libraries, and mlx5_tm_glue_emu, the device model, which lives
 * in its own shared object (MLX5_TM_EMU_LIB) that the PMD loads only for
 * emu= (mlx5_tm_glue_emu_load()). The PMD picks one at probe time (devarg
 * dev= or emu=) and never calls rdma-core or the device model by any other
 * path. Operations that only a device model has (its devarg options, wire
 * figures, lag) are NULL in the real table.
 *
 * Conventions, those of rdma-core so that the real table is a thin wrapper:
 * - functions returning a pointer return NULL on failure and set errno;
 * - functions returning int return 0 or a negative errno value;
 * - command buffers are PRM layouts (mlx5_tm_prm.h), big-endian; when a
 *   command fails in firmware, the out buffer holds the PRM status and
 *   syndrome and the call fails with -EREMOTEIO (errno EREMOTEIO).
 */

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An open mlx5 device context (opaque; one per probed port). */
struct mlx5_tm_glue_dev;

/** A protection domain. */
struct mlx5_tm_pd {
	uint32_t pdn; /**< PD number, for sqc/wq pd fields. */
};

/** A DEVX object (SQ, CQ, TIS, transport domain, ...); opaque. */
struct mlx5_tm_devx_obj;

/** Registered user memory (rings, doorbell records). */
struct mlx5_tm_umem {
	uint32_t umem_id; /**< Id for wq_umem_id / cq_umem_id fields. */
};

/** A user access region: the doorbell page of a send queue. */
struct mlx5_tm_uar {
	void *reg_addr;   /**< Doorbell register (BlueFlame offset) to write. */
	void *base_addr;  /**< Start of the UAR page. */
	uint32_t page_id; /**< UAR page number for sqc/cqc uar_page fields. */
};

/** A packet-pacing entry, as mlx5dv_pp_alloc() returns it. */
struct mlx5_tm_pp {
	uint16_t index; /**< Rate-limit index for packet_pacing_rate_limit_index. */
};

/** A memory region registered for device access. */
struct mlx5_tm_mr {
	void *addr;     /**< Start of the region. */
	size_t length;  /**< Length in bytes. */
	uint32_t lkey;  /**< Local key to put in data segments. */
};

/** The Ethernet port of a device as its kernel netdev shows it. */
struct mlx5_tm_port_info {
	char ifname[32];      /**< Netdev name; "" when there is none. */
	uint32_t mtu;         /**< Netdev MTU (IP bytes, as ip link shows). */
	uint32_t min_mtu;     /**< Smallest MTU the netdev accepts. */
	uint32_t max_mtu;     /**< Largest MTU the netdev accepts. */
	uint32_t speed_mbps;  /**< Link speed; 0 when unknown or down. */
	/**
	 * Fastest link mode the port supports (Mbit/s; 0 unknown): its line
	 * rate while the link is down.
	 */
	uint32_t max_speed_mbps;
	uint8_t link_up;      /**< 1 when the link is up. */
	uint8_t switchdev;    /**< 1 when the E-Switch is in switchdev mode. */
	uint8_t representor;  /**< 1 for an E-Switch representor netdev. */
	/** devlink e-switch mode: -1 unknown, 0 legacy, 1 switchdev. */
	int8_t esw_mode;
	/**
	 * Why devlink gave no mode: 0, or a negative errno (-EPERM: no
	 * CAP_NET_ADMIN; -ENODEV: its instance is in another network
	 * namespace). The role then rests on the IB ports and netdevs.
	 */
	int32_t esw_devlink_err;
	uint16_t ib_ports;         /**< IB ports of the device; 0 unknown. */
	uint16_t esw_representors; /**< Representor netdevs beside it. */
	/** devlink's mode contradicts the IB ports and netdevs. */
	uint8_t esw_disagree;
	char phys_port_name[32]; /**< "" when none. */
	char phys_switch_id[40]; /**< "" when none. */
	uint8_t mac[6];       /**< Netdev MAC address; all zero if unknown. */
	uint16_t pci_device_id; /**< PCI device id (0x1017 ConnectX-5, ...). */
};

/** pp_alloc flag: an entry never shared with another allocation. */
#define MLX5_TM_PP_FLAG_DEDICATED_INDEX (1u << 0)

/** Device access flags for umem and MR registration. */
#define MLX5_TM_ACCESS_LOCAL_WRITE (1u << 0)

/** Wire figures of one send queue (device model: what left the SQ). */
struct mlx5_tm_glue_sq_wire {
	uint64_t packets;            /**< Frames sent. */
	uint64_t bytes;              /**< L2 frame bytes (no FCS). */
	uint64_t first_departure_ns; /**< Device time of the first frame. */
	uint64_t last_departure_ns;  /**< Device time of the last frame. */
	uint64_t mtu_drops;          /**< Frames longer than the MTU allows. */
	/** Frames that left after the SQ had run dry (see mlx5_emu.h). */
	uint64_t ran_dry;
	/**
	 * Recent window: bytes sent during the SQ's last second or so of
	 * sending time, and that time (idle stretches over 100 ms left out).
	 */
	uint64_t recent_bytes;
	uint64_t recent_ns;
};

/** How far a device model falls behind real time. */
struct mlx5_tm_glue_lag {
	uint64_t lag_ns;     /**< Lateness of the last processing pass. */
	uint64_t max_lag_ns; /**< Largest lateness seen. */
	uint64_t late_passes; /**< Passes later than the threshold, all. */
	bool lagging;        /**< A late pass within the last second. */
};

/** Device-model log callback: syslog level (3 error .. 7 debug), a line. */
typedef void (*mlx5_tm_glue_log_t)(int level, const char *msg);

struct mlx5_emu;

/** The table of device operations. */
struct mlx5_tm_glue {
	/** Implementation name, for logs: "rdma-core" or "emulated". */
	const char *name;
	/** Project version the table was built from (MLX5_TM_VERSION). */
	const char *version;

	/**
	 * Open a device with DEVX enabled.
	 *
	 * @param name
	 *   Real: an ibdev name ("mlx5_0") or a PCI address ("0000:08:00.0").
	 *   Emulated: a profile name ("cx6dx").
	 * @param opts
	 *   Real: NULL. Emulated: options made by opts_new() and opts_set()
	 *   (device-model devargs), or NULL for the profile defaults.
	 * @return
	 *   The device, or NULL with errno set (ENODEV: no such device).
	 */
	struct mlx5_tm_glue_dev *(*open_device)(const char *name,
						const void *opts);
	/** Close a device; every object on it must already be released. */
	int (*close_device)(struct mlx5_tm_glue_dev *dev);

	/** Allocate a protection domain. */
	struct mlx5_tm_pd *(*pd_alloc)(struct mlx5_tm_glue_dev *dev);
	/** Free a protection domain. */
	int (*pd_free)(struct mlx5_tm_pd *pd);

	/** Run a command that creates no object (QUERY_HCA_CAP, ...). */
	int (*devx_general_cmd)(struct mlx5_tm_glue_dev *dev,
				const void *in, size_t inlen,
				void *out, size_t outlen);
	/**
	 * Run a CREATE_* command; the object remembers how to destroy it.
	 * CREATE_GENERAL_OBJECT of a SCHEDULING_ELEMENT (0x26) is one, the
	 * way the PMD creates its elements (as libmlx5 does): its MODIFY/
	 * QUERY_GENERAL_OBJECT go through devx_obj_modify/devx_obj_query.
	 */
	struct mlx5_tm_devx_obj *(*devx_obj_create)(struct mlx5_tm_glue_dev *dev,
						    const void *in, size_t inlen,
						    void *out, size_t outlen);
	/** Run a MODIFY_* command on an object. */
	int (*devx_obj_modify)(struct mlx5_tm_devx_obj *obj,
			       const void *in, size_t inlen,
			       void *out, size_t outlen);
	/** Run a QUERY_* command on an object. */
	int (*devx_obj_query)(struct mlx5_tm_devx_obj *obj,
			      const void *in, size_t inlen,
			      void *out, size_t outlen);
	/** Destroy an object (DESTROY_* in firmware). */
	int (*devx_obj_destroy)(struct mlx5_tm_devx_obj *obj);

	/** Register user memory for rings and doorbell records. */
	struct mlx5_tm_umem *(*devx_umem_reg)(struct mlx5_tm_glue_dev *dev,
					      void *addr, size_t size,
					      uint32_t access);
	/** Deregister user memory. */
	int (*devx_umem_dereg)(struct mlx5_tm_umem *umem);

	/** Allocate a UAR page for doorbells. */
	struct mlx5_tm_uar *(*devx_uar_alloc)(struct mlx5_tm_glue_dev *dev);
	/** Free a UAR page. */
	void (*devx_uar_free)(struct mlx5_tm_uar *uar);

	/** Event queue number for completion vector @p vector (cqc c_eqn). */
	int (*devx_query_eqn)(struct mlx5_tm_glue_dev *dev, uint32_t vector,
			      uint32_t *eqn);

	/**
	 * Allocate a packet-pacing entry (mlx5dv_pp_alloc semantics).
	 *
	 * @param pp_context
	 *   A set_pp_rate_limit_context, pp_context_sz bytes, big-endian.
	 * @param flags
	 *   0 or MLX5_TM_PP_FLAG_DEDICATED_INDEX.
	 * @return
	 *   The entry, or NULL with errno: EOPNOTSUPP (no packet pacing),
	 *   EINVAL (rate 0 or out of range), ENOSPC (table full), EIO.
	 */
	struct mlx5_tm_pp *(*pp_alloc)(struct mlx5_tm_glue_dev *dev,
				       size_t pp_context_sz,
				       const void *pp_context, uint32_t flags);
	/** Release a packet-pacing entry. */
	void (*pp_free)(struct mlx5_tm_pp *pp);

	/** Register a memory region for data segments. */
	struct mlx5_tm_mr *(*reg_mr)(struct mlx5_tm_pd *pd, void *addr,
				     size_t length, uint32_t access);
	/** Deregister a memory region. */
	int (*dereg_mr)(struct mlx5_tm_mr *mr);

	/**
	 * Read the port's netdev: MTU, link, speeds, MAC, E-Switch role,
	 * PCI id. Real: the uplink netdev of the device's PCI function
	 * (ioctl and ethtool; its name and E-Switch role were read from
	 * sysfs and devlink once, at open_device: mlx5_tm_netdev.h; no
	 * netlink here, so that rte_eth_link_get() stays cheap). Emulated:
	 * the device model's port.
	 */
	int (*port_query)(struct mlx5_tm_glue_dev *dev,
			  struct mlx5_tm_port_info *info);
	/**
	 * Read only the link of the port: @p info gets link_up, speed_mbps
	 * and max_speed_mbps (and ifname), the rest zero. What
	 * rte_eth_link_get() needs, and no more (real: SIOCGIFFLAGS and
	 * ETHTOOL_GLINKSETTINGS). NULL: port_query serves.
	 */
	int (*link_query)(struct mlx5_tm_glue_dev *dev,
			  struct mlx5_tm_port_info *info);
	/**
	 * Set the netdev MTU (real: SIOCSIFMTU on the netdev, which programs
	 * the port MTU as MTU + 22; needs CAP_NET_ADMIN).
	 */
	int (*port_set_mtu)(struct mlx5_tm_glue_dev *dev, uint32_t mtu);
	/* ---- Device-model operations (NULL on the real device) ---- */

	/** NULL-terminated devarg keys opts_set() takes. */
	const char *const *opt_keys;
	/**
	 * New options for device @p name with its defaults.
	 *
	 * @return
	 *   The options (free with opts_free()), or NULL with errno set and a
	 *   message naming @p name and the accepted names in @p err.
	 */
	void *(*opts_new)(const char *name, char *err, size_t errlen);
	/**
	 * Apply devarg @p key=@p value to @p opts; the model validates it.
	 *
	 * @return
	 *   0; -ENOENT not one of opt_keys; -EINVAL bad value, with a message
	 *   naming the key, the value and what is allowed in @p err.
	 */
	int (*opts_set)(void *opts, const char *key, const char *value,
			char *err, size_t errlen);
	/**
	 * Tell @p opts the CPUs the application keeps busy (EAL's worker
	 * lcores): without cpus=, the device thread runs elsewhere when
	 * there is an elsewhere.
	 */
	void (*opts_busy_cpus)(void *opts, const cpu_set_t *cpus);
	/** Free options from opts_new() (open_device keeps a copy). */
	void (*opts_free)(void *opts);
	/** Where the model writes its messages; NULL: stderr. */
	void (*set_log)(mlx5_tm_glue_log_t fn);
	/** The device's port speed in Mbit/s (0 unknown). */
	uint32_t (*line_rate_mbps)(struct mlx5_tm_glue_dev *dev);
	/** Wire figures of SQ @p sqn; -ENOENT when there is no such SQ. */
	int (*sq_wire_get)(struct mlx5_tm_glue_dev *dev, uint32_t sqn,
			   struct mlx5_tm_glue_sq_wire *wire);
	/** Clear the wire figures of SQ @p sqn. */
	int (*sq_wire_clear)(struct mlx5_tm_glue_dev *dev, uint32_t sqn);
	/** Lag of the model behind real time. */
	void (*lag_get)(struct mlx5_tm_glue_dev *dev,
			struct mlx5_tm_glue_lag *lag);
	/** The errno of the pcap= capture's failed write, 0 none. */
	int (*pcap_error)(struct mlx5_tm_glue_dev *dev);
	/**
	 * Whether device time is the model's virtual clock, which moves only
	 * when the application advances it.
	 */
	bool (*clock_is_virtual)(struct mlx5_tm_glue_dev *dev);
	/** The model's own handle, for its introspection API (mlx5_emu.h). */
	struct mlx5_emu *(*model)(struct mlx5_tm_glue_dev *dev);
};

/** The real device, through libibverbs and libmlx5 (DEVX). */
extern const struct mlx5_tm_glue mlx5_tm_glue_rdma;

/**
 * List the mlx5 devices present, for messages, as
 * "mlx5_0 (0000:08:00.0), mlx5_1 (0000:08:00.1)" (truncated to @p len).
 *
 * @return
 *   The number of mlx5 devices (0: none, @p buf is ""), or -EINVAL.
 */
int mlx5_tm_glue_rdma_list(char *buf, size_t len);

/** The emulated device: the device model in drivers/emu (MLX5_TM_EMU_LIB). */
extern const struct mlx5_tm_glue mlx5_tm_glue_emu;

/** File name of the device-model shared object. */
#define MLX5_TM_EMU_LIB "librte_net_mlx5_tm_emu.so"

/**
 * The emulated device's table, from the device-model shared object, loaded
 * on first use: the copy already in the process, else the one next to the
 * calling driver (its path as loaded, then with symbolic links resolved),
 * else in the DPDK plugin directory, else on the library search path.
 *
 * @return
 *   The table, or NULL with errno set (ENOENT: not found; ENOEXEC: not a
 *   device model of this version) and a message naming the places looked
 *   at in @p err.
 */
const struct mlx5_tm_glue *mlx5_tm_glue_emu_load(char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* MLX5_TM_GLUE_H */
