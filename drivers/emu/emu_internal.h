/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H

/*
 * Internal state of the device model, shared by its files:
 *   emu_profile.c    profiles and effective capabilities
 *   emu_config.c     devargs
 *   emu_idtab.c      object number tables
 *   emu_objects.c    PD, umem, UAR, MR
 *   emu_rate_table.c packet-pacing rate table
 *   emu_fw.c         firmware command interpreter
 *   emu_wqe.c        WQE decoding and validation, packet gathering
 *   emu_cq.c         CQE writing
 *   emu_sq_engine.c  doorbells, pacing, line-rate sharing, departures
 *   emu_sched.c      NIC scheduling elements and their arbiter
 *   emu_clock.c      realtime device thread and virtual clock
 *   emu_wire.c       counters, pcap, wire hook
 *   emu_fault.c      fault injection
 *   emu_glue.c       the glue table and device open/close
 *   emu_glue_pmd.c   glue operations for the PMD: options, wire, lag
 *
 * Device time is kept in picoseconds since the device was opened, so that
 * paced intervals (120 ns for 1500 bytes at 100 Gb/s, 5.12 ns for 64
 * bytes) add up without rounding drift; uint64_t picoseconds last 213
 * days of device uptime.
 */

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include <pcap/pcap.h>

#include "mlx5_emu.h"
#include "mlx5_tm_glue.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"

#define EMU_PS_PER_NS 1000ULL
#define EMU_TIME_NEVER UINT64_MAX

/* Largest frame the port sends, without FCS (assumption, see the guide). */
#define EMU_MAX_FRAME 9978u
/* Ethernet overheads counted on the line: FCS, preamble+SFD, IFG. */
#define EMU_WIRE_OVERHEAD (4u + 8u + 12u)
/*
 * The kernel's MLX5E_ETH_HARD_MTU (Ethernet header, one VLAN tag, FCS):
 * the port MTU is the netdev MTU plus this (MLX5E_SW2HW_MTU).
 */
#define EMU_HARD_MTU (14u + 4u + 4u)
#define EMU_FCS_LEN 4u
/* Netdev MTU range: Linux's minimum, and what fits EMU_MAX_FRAME. */
#define EMU_MIN_MTU 68u
#define EMU_MAX_MTU (EMU_MAX_FRAME + EMU_FCS_LEN - EMU_HARD_MTU)
/* Frames shorter than this (without FCS) are padded on the line. */
#define EMU_MIN_FRAME 60u
/*
 * What a backlogged SQ's pacing, or an element's ceiling, keeps of its
 * schedule when others hold its packets back: up to this far behind
 * (bytes; WQEs in WQE-rate mode), so that it can catch up when they
 * stop. An assumption (doc/guides/device_model.rst, Departures).
 */
#define EMU_PACE_KEEP_BYTES 16384u
#define EMU_PACE_KEEP_WQES 256u

/* UAR page: size and the doorbell (BlueFlame) registers watched in it. */
#define EMU_UAR_PAGE_SIZE 4096u
#define EMU_UAR_DB_SLOTS 4u
#define EMU_UAR_DB_STRIDE 0x100u

/* Completion vectors (EQs) the device offers to devx_query_eqn. */
#define EMU_NUM_COMP_VECTORS 8u

/* Largest WQE: 63 segments of 16 bytes (ds is 6 bits). */
#define EMU_MAX_WQE_BYTES (MLX5_WQE_CTRL_DS_MASK * MLX5_WQE_DS_UNITS)
#define EMU_MAX_GATHER 64u
/* Most packets in one WQE: an eMPW WQE has one segment per packet. */
#define EMU_MAX_WQE_PKTS (MLX5_WQE_CTRL_DS_MASK - 2u)

/* Object number bases, so that numbers of different kinds differ. */
#define EMU_BASE_PDN 0x10u
#define EMU_BASE_TDN 0x20u
#define EMU_BASE_TISN 0x1000u
#define EMU_BASE_CQN 0x400u
#define EMU_BASE_SQN 0x800u
#define EMU_BASE_UMEM 0x1u
#define EMU_BASE_UAR 0x2u
#define EMU_BASE_LKEY 0x100u

/* ---- logging ---- */

void emu_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define EMU_LOG_ERR 3
#define EMU_LOG_WARNING 4
#define EMU_LOG_INFO 6
#define EMU_LOG_DEBUG 7

/* ---- object number table ---- */

struct emu_idtab {
	void **slot;
	uint32_t cap;
	uint32_t count;
	uint32_t base;
	uint32_t limit; /* most objects at once */
	uint32_t hint;  /* lowest slot that may be free */
};

void emu_idtab_init(struct emu_idtab *t, uint32_t base, uint32_t limit);
int emu_idtab_add(struct emu_idtab *t, void *obj, uint32_t *id);
/* Inline: the engine looks an lkey up for every data segment. */
static inline void *
emu_idtab_get(const struct emu_idtab *t, uint32_t id)
{
	if (id < t->base || id - t->base >= t->cap)
		return NULL;
	return t->slot[id - t->base];
}
void emu_idtab_del(struct emu_idtab *t, uint32_t id);
void emu_idtab_fini(struct emu_idtab *t);

/* ---- objects ---- */

struct mlx5_emu;
struct emu_sq;

struct emu_pd {
	struct mlx5_tm_pd pub;
	struct mlx5_emu *emu;
	uint32_t users; /* MRs and SQs */
};

struct emu_umem {
	struct mlx5_tm_umem pub;
	struct mlx5_emu *emu;
	uint8_t *addr;
	size_t size;
	uint32_t users; /* rings and doorbell records */
};

struct emu_uar {
	struct mlx5_tm_uar pub;
	struct mlx5_emu *emu;
	uint8_t *page;
	uint64_t last[EMU_UAR_DB_SLOTS]; /* register values seen last */
	bool rearmed;                    /* an SQ of it has db_rearmed */
	uint32_t users;                  /* CQs and SQs */
	bool freed;                      /* devx_uar_free called */
	struct emu_sq **sqs;             /* SQs ringing through this page */
	uint32_t nb_sqs;
	uint32_t cap_sqs;
};

struct emu_mr {
	struct mlx5_tm_mr pub;
	struct mlx5_emu *emu;
	struct emu_pd *pd;
	uintptr_t start;
	uintptr_t end;
};

/* A pp_alloc handle. */
struct emu_pp {
	struct mlx5_tm_pp pub;
	struct mlx5_emu *emu;
};

enum emu_obj_type {
	EMU_OBJ_TD,
	EMU_OBJ_TIS,
	EMU_OBJ_CQ,
	EMU_OBJ_SQ,
	EMU_OBJ_SCHED,      /* legacy CREATE_SCHEDULING_ELEMENT */
	EMU_OBJ_SCHED_GEN,  /* general object SCHEDULING_ELEMENT */
	EMU_OBJ_GENERAL,    /* general object of a type not modelled */
};

/* What a firmware command does to its object. */
enum emu_cmd_kind {
	EMU_CMD_GENERAL,
	EMU_CMD_CREATE,
	EMU_CMD_DESTROY,
	EMU_CMD_MODIFY,
	EMU_CMD_QUERY,
};

/* What the glue returns as struct mlx5_tm_devx_obj. */
struct emu_devx_obj {
	struct mlx5_emu *emu;
	enum emu_obj_type type;
	uint32_t id;
};

struct emu_td {
	uint32_t tdn;
	uint32_t users; /* TISes */
};

struct emu_tis {
	uint32_t tisn;
	struct emu_td *td;
	uint8_t prio;
	uint8_t lag_tx_port_affinity;
	bool strict_lag_tx_port_affinity;
	uint32_t users; /* SQs */
};

struct emu_cq {
	uint32_t cqn;
	struct emu_umem *umem;
	uint8_t *ring;
	uint32_t stride;        /* 64 or 128 bytes */
	uint8_t log_size;
	struct emu_umem *dbr_umem;
	uint8_t *dbrec;
	struct emu_uar *uar;
	uint8_t c_eqn;
	uint8_t status;         /* MLX5_CQC_STATUS_* */
	bool oi;                /* overrun ignore */
	uint8_t cq_period_mode;
	uint16_t cq_period;
	uint16_t cq_max_count;
	uint64_t cq_umem_offset;
	uint64_t dbr_addr;
	uint32_t pi;            /* CQEs written */
	uint32_t users;         /* SQs */
};

/* The WQE at the head of an SQ, decoded. */
enum emu_wqe_kind {
	EMU_WQE_SEND,  /* a packet for the wire */
	EMU_WQE_LOCAL, /* completes without the wire (NOP) */
	EMU_WQE_BAD,   /* completes with an error CQE */
};

struct emu_gather {
	const uint8_t *ptr;
	uint32_t len;
};

/* One packet of a WQE: gather entries [first, first + nb). */
struct emu_wqe_pkt {
	uint8_t first;
	uint8_t nb;
	uint32_t len;           /* frame bytes */
};

struct emu_wqe {
	bool valid;
	enum emu_wqe_kind kind;
	uint8_t opcode;
	uint8_t nbb;            /* WQEBBs it takes */
	bool cq_update;
	uint16_t index;
	uint32_t len;           /* frame bytes of the packet at the head */
	uint8_t nb_pkts;        /* packets (1 for SEND, n for eMPW) */
	uint8_t pkt;            /* the packet at the head, 0..nb_pkts-1 */
	uint8_t syndrome;       /* EMU_WQE_BAD */
	bool vlan_insert;
	uint16_t vlan_tci;
	uint16_t dseg_off;      /* first data segment (by lkey), 0 none */
	uint32_t nb_gather;
	struct emu_gather gather[EMU_MAX_GATHER];
	struct emu_wqe_pkt pkts[EMU_MAX_WQE_PKTS];
	uint8_t raw[EMU_MAX_WQE_BYTES + MLX5_SEND_WQE_BB];
};

/* Destination classes of the vport Tx counters. */
enum emu_vport_tx_class {
	EMU_VPORT_TX_UNICAST,
	EMU_VPORT_TX_MULTICAST,
	EMU_VPORT_TX_BROADCAST,
	EMU_VPORT_TX_NB,
};

/* One vport traffic counter: frames and L2 bytes (no FCS) sent. */
struct emu_vport_tx {
	uint64_t packets;
	uint64_t octets;
};

/*
 * Recent achieved rate of an SQ: each departure with the gap since the
 * SQ's previous one, in EMU_RATE_WIN_BUCKETS buckets of
 * EMU_RATE_WIN_BUCKET_PS of such time: the window is the last 0.9 to 1 s
 * of sending time. A departure whose WQE came more than
 * EMU_RATE_PAUSE_PS after the previous departure ends an idle (or
 * suspended) stretch: it and its gap count in no bucket. Shorter pauses
 * are the sender's pace (a ring that runs dry between two bursts): they
 * count, so that the window says what the SQ sent, not what it would
 * send backlogged.
 */
#define EMU_RATE_WIN_BUCKETS 10
#define EMU_RATE_WIN_BUCKET_PS 100000000000ULL /* 100 ms */
#define EMU_RATE_PAUSE_PS EMU_RATE_WIN_BUCKET_PS

struct emu_rate_win {
	uint64_t bytes[EMU_RATE_WIN_BUCKETS];
	uint64_t busy_ps[EMU_RATE_WIN_BUCKETS];
	uint8_t cur;
};

struct emu_sq_stats {
	struct emu_rate_win win;
	uint64_t packets;
	uint64_t bytes;
	uint64_t wqes;
	uint64_t cqes;
	uint64_t errors;
	uint64_t first_ps;
	uint64_t last_ps;
	uint64_t min_gap_ps;
	uint64_t max_gap_ps;
	uint8_t last_syndrome;
	uint64_t mtu_drops;
	uint64_t eswitch_drops;
	uint64_t ran_dry;       /* departures after the SQ ran dry */
};

struct emu_sched_elem;

/* A child of a scheduling element: an element or an SQ (emu_sched.c). */
struct emu_sched_node {
	struct emu_sched_elem *parent;      /* NULL: not in the tree */
	struct emu_sched_node *prev, *next; /* siblings, circular */
	uint64_t finish;                    /* virtual finish of its last packet */
	uint64_t finish_rem;                /* remainder of finish, < weight */
	uint64_t weight;                    /* the weight weight_inv is for */
	uint64_t weight_inv;                /* UINT64_MAX / weight + 1 */
	uint64_t elig_ps;                   /* SQ: this decision's eligibility */
	uint64_t mark;                      /* decision it can send in */
	uint32_t key;                       /* order among equal finishes */
	bool is_sq;
};

struct emu_sq {
	uint32_t sqn;
	uint64_t seq;           /* creation order */
	uint8_t state;
	struct emu_cq *cq;
	struct emu_tis *tis;
	struct emu_pd *pd;
	struct emu_uar *uar;
	struct emu_umem *umem;
	uint8_t *ring;
	uint8_t log_wq_sz;
	struct emu_umem *dbr_umem;
	uint8_t *dbrec;
	uint16_t pp_index;
	uint8_t min_inline_mode; /* sqc.min_wqe_inline_mode */
	uint8_t ts_format;
	uint32_t user_index;
	uint64_t wq_umem_offset;
	uint64_t dbr_addr;
	bool allow_swp;
	bool allow_mpw;         /* sqc.allow_multi_pkt_send_wqe */
	bool flush_in_error;    /* sqc.flush_in_error_en */
	/* engine */
	uint16_t ci;            /* next WQEBB to process */
	uint16_t rung_pi;       /* WQEBBs posted and rung */
	bool db_rearmed;        /* reset, not rung since (emu_uar_rearmed) */
	bool active;            /* in the engine's active list */
	uint64_t ready_ps;      /* head may not be processed before this */
	uint64_t backlog_ps;    /* WQEs posted without a break since then */
	uint64_t tat_ps;        /* pacing: theoretical arrival time */
	uint64_t tat_rem;       /* remainder of tat, in rate units */
	uint32_t keep_rate;     /* the entry rate (and mode) keep_ps is for */
	uint8_t keep_mode;
	uint64_t keep_ps;       /* EMU_PACE_KEEP_BYTES (WQES) at that rate */
	uint64_t wqe_seen;      /* WQEs decoded (fault injection) */
	bool elig_valid;        /* elig_ps is up to date */
	uint64_t elig_ps;       /* head may depart from then on */
	struct emu_wqe head;
	struct emu_sq_stats st;
	uint16_t qos_group;     /* sqc.qos_queue_group_id, 0 none */
	struct emu_sched_node sched;
};

/* ---- rate table ---- */

struct emu_pp_entry {
	bool used;
	uint8_t raw[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)];
	uint32_t rate;
	uint32_t burst;
	uint16_t typical;
	uint8_t mode;
	bool dedicated;
	uint32_t refcount;
	const void *user;
	uint32_t sq_users;
};

/* ---- the device ---- */

struct mlx5_emu {
	pthread_mutex_t lock;   /* recursive: hooks may introspect */
	uint32_t lock_waiters;  /* threads blocked in emu_lock (atomic) */
	struct mlx5_emu *next;  /* registry of open devices */
	uint64_t dev_id;
	struct mlx5_emu_config cfg;
	struct mlx5_emu_caps caps;
	uint8_t min_inline_required; /* device-wide (cap + vport) */
	uint64_t origin_ns;     /* CLOCK_MONOTONIC at device time 0 */
	uint64_t vnow_ps;       /* virtual clock */
	uint64_t sim_ps;        /* departures processed up to here */
	/* objects */
	struct emu_idtab pds, tds, tises, cqs, sqs, umems, uars, mrs;
	uint64_t sq_seq;
	struct emu_pp_entry *pp;    /* index 1..caps.pp_table_size */
	uint32_t pp_handles;
	uint16_t pp_foreign;        /* entries held by other users */
	/* port (netdev) */
	uint32_t mtu;
	bool link_up;
	/* engine */
	struct emu_sq **active;
	uint32_t nb_active;
	uint32_t cap_active;
	uint64_t port_free_ps;
	uint64_t port_rem;      /* of the line times, below the line rate */
	/*
	 * The last frame size on the line (bytes with overheads) and its
	 * line time, bytes * 8e6 ps divided by the line rate in Mbit/s:
	 * quotient and remainder, so that like frames need no division.
	 */
	uint32_t line_bytes;
	uint64_t line_q;
	uint64_t line_r;
	uint32_t rr_last_sqn;
	struct emu_sched *sched; /* scheduling elements (emu_sched.c) */
	/* wire */
	pcap_t *pcap;
	pcap_dumper_t *dumper;
	bool pcap_dirty;          /* frames written since the last flush */
	uint64_t pcap_flushed_ns; /* monotonic time of that flush */
	char pcap_path[256];      /* the capture's file, for messages */
	uint64_t pcap_frames;     /* frames handed to the capture */
	int pcap_errno;           /* its failed write's errno, 0 none */
	mlx5_emu_wire_hook_t hook;
	void *hook_arg;
	uint8_t frame[EMU_MAX_FRAME + 4];
	struct mlx5_emu_port_stats port;
	/* vport Tx counters (QUERY_VPORT_COUNTER), by destination class */
	struct emu_vport_tx vport_tx[EMU_VPORT_TX_NB];
	/* lag */
	struct mlx5_emu_lag lag;
	uint64_t lag_late_ps;     /* device time of the last late pass */
	bool lag_warned;          /* the once-only warning was logged */
	char thread_cpus[64];     /* the device thread's CPUs, as a list */
	/* faults */
	struct mlx5_emu_fault_cmd fault_cmd;
	uint32_t fault_cmd_seen;
	uint32_t fault_cmd_hits;
	uint32_t fault_cmd_repeat;  /* commands after the nth that fail too */
	struct mlx5_emu_fault_pp fault_pp;
	uint32_t fault_pp_seen;
	struct mlx5_emu_fault_wqe fault_wqe;
	uint32_t fault_wqe_seen;
	struct mlx5_emu_cmd_error last_err;
	uint64_t cmd_count;     /* commands run */
	mlx5_emu_cmd_hook_t cmd_hook; /* every command as run, or NULL */
	void *cmd_hook_arg;
	/* held commands (mlx5_emu_cmd_hold), outside the device lock */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	bool cmd_hold;
	unsigned int cmd_held; /* commands waiting at the gate */
	uint64_t cmd_ns;        /* time spent in them */
	/* device thread */
	pthread_t thread;
	bool thread_started;
	bool stop;
	pthread_cond_t wake;
};

/*
 * The entry an SQ paces with, NULL for unlimited (0 or not in use).
 * Inline: the engine asks for every packet.
 */
static inline const struct emu_pp_entry *
emu_pp_get(const struct mlx5_emu *emu, uint16_t index)
{
	if (index == 0 || index >= emu->caps.pp_table_size ||
	    !emu->pp[index].used)
		return NULL;
	return &emu->pp[index];
}

/*
 * The entry SQ @p sq paces with: its index's, or none while it is in a
 * queue group on a device that ignores an index there
 * (sched_sq_pp_and_group=ignore).
 */
static inline const struct emu_pp_entry *
emu_sq_pp(const struct mlx5_emu *emu, const struct emu_sq *sq)
{
	if (sq->qos_group != 0 &&
	    emu->cfg.sched.sq_pp_and_group == MLX5_EMU_SQ_PP_GROUP_IGNORE)
		return NULL;
	return emu_pp_get(emu, sq->pp_index);
}

/*
 * Fault injection (fault_wqe=): does the WQE just decoded on @p sq take
 * the injected error? Inline: checked for every WQE.
 */
static inline bool
emu_fault_wqe_hit(struct mlx5_emu *emu, const struct emu_sq *sq,
		  uint8_t *syndrome)
{
	struct mlx5_emu_fault_wqe *f = &emu->fault_wqe;

	if (f->nth == 0 || (f->sqn != 0 && f->sqn != sq->sqn))
		return false;
	if (++emu->fault_wqe_seen < f->nth)
		return false;
	*syndrome = f->syndrome;
	f->nth = 0;
	return true;
}

/*
 * Take the device's lock. A thread that has to wait says so: the device
 * thread, which otherwise goes from one pass to the next holding the CPU,
 * then yields to it (emu_clock.c).
 */
static inline void
emu_lock(struct mlx5_emu *emu)
{
	if (pthread_mutex_trylock(&emu->lock) == 0)
		return;
	__atomic_add_fetch(&emu->lock_waiters, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&emu->lock);
	__atomic_sub_fetch(&emu->lock_waiters, 1, __ATOMIC_RELAXED);
}

static inline void
emu_unlock(struct mlx5_emu *emu)
{
	pthread_mutex_unlock(&emu->lock);
}

/* emu_config.c */
int emu_parse_cpus(const char *s, cpu_set_t *set);
void emu_cpus_online(cpu_set_t *set, char *list, size_t len);

/* emu_profile.c */
int emu_caps_resolve(const struct mlx5_emu_config *cfg,
		     struct mlx5_emu_caps *caps);
bool emu_profile_known(const char *name);

/* emu_objects.c */
int emu_uar_attach_sq(struct emu_uar *uar, struct emu_sq *sq);
void emu_uar_detach_sq(struct emu_uar *uar, struct emu_sq *sq);
void emu_uar_put(struct emu_uar *uar);

/* emu_rate_table.c */
int emu_pp_table_init(struct mlx5_emu *emu);
void emu_pp_table_fini(struct mlx5_emu *emu);
int emu_pp_acquire(struct mlx5_emu *emu, const void *user, const void *ctx,
		   size_t ctx_sz, bool dedicated, uint16_t *index);
bool emu_pp_index_valid(const struct mlx5_emu *emu, uint16_t index);
void emu_pp_sq_ref(struct mlx5_emu *emu, uint16_t index, int delta);

/* emu_fw.c */
/* Its time counts from @p start, when the DEVX call entered the model. */
int emu_fw_exec(struct mlx5_emu *emu, const void *in, size_t inlen,
		void *out, size_t outlen, uint64_t start);
/* Whether @p in (at least 16 bytes) creates an object, and its type. */
bool emu_fw_is_create(const void *in, enum emu_obj_type *type);
bool emu_fw_is_object_cmd(uint16_t opcode);
/*
 * The object a MODIFY/QUERY/DESTROY command @p in (at least 16 bytes)
 * names: its type and number; EMU_CMD_GENERAL for any other command.
 */
enum emu_cmd_kind emu_fw_cmd_target(const void *in, enum emu_obj_type *type,
				    uint32_t *id);
uint32_t emu_fw_created_obj_id(const void *out, enum emu_obj_type type);
size_t emu_fw_destroy_cmd(enum emu_obj_type type, uint32_t id, void *in,
			  size_t len);
int emu_fw_opcode_parse(const char *s, uint16_t *opcode);

/* emu_wqe.c */
void emu_wqe_decode(struct mlx5_emu *emu, struct emu_sq *sq);
void emu_wqe_prefetch(const struct emu_sq *sq);
uint32_t emu_wqe_gather(const struct emu_wqe *w, uint8_t *frame);

/* Move @p w to its next packet (eMPW); false when it has no more. */
static inline bool
emu_wqe_next_packet(struct emu_wqe *w)
{
	if (w->pkt + 1 >= w->nb_pkts)
		return false;
	w->pkt++;
	w->len = w->pkts[w->pkt].len;
	return true;
}

/* emu_cq.c */
void emu_cq_complete(struct mlx5_emu *emu, struct emu_sq *sq,
		     const struct emu_wqe *w, uint64_t time_ps);
void emu_cq_error(struct mlx5_emu *emu, struct emu_sq *sq,
		  const struct emu_wqe *w, uint64_t time_ps);
void emu_cq_flush(struct mlx5_emu *emu, struct emu_sq *sq, uint16_t index,
		  uint8_t opcode);

/* emu_sq_engine.c */
void emu_engine_poll_doorbells(struct mlx5_emu *emu, uint64_t now_ps);
uint64_t emu_engine_run(struct mlx5_emu *emu, uint64_t horizon_ps,
			uint32_t budget, uint64_t *first_due_ps);
bool emu_engine_pending(const struct mlx5_emu *emu);
void emu_engine_sq_stop(struct mlx5_emu *emu, struct emu_sq *sq);
void emu_engine_sq_error(struct mlx5_emu *emu, struct emu_sq *sq,
			 uint16_t from);
void emu_engine_sq_reset(struct mlx5_emu *emu, struct emu_sq *sq);
void emu_engine_sq_set_pp(struct mlx5_emu *emu, struct emu_sq *sq,
			  uint16_t index);
void emu_engine_sync(struct mlx5_emu *emu);
int emu_engine_reserve(struct mlx5_emu *emu, uint32_t nb_sqs);
void emu_engine_fini(struct mlx5_emu *emu);

/*
 * Where a pacing schedule (TAT) found behind departure time @p t_ps is
 * brought back to, for an SQ's pacing and an element's ceiling alike: at
 * most @p keep_ps behind (EMU_PACE_KEEP_*), never less than one packet
 * (@p interval_ps), and not before its work began (@p since_ps).
 */
static inline uint64_t
emu_pace_floor(uint64_t t_ps, uint64_t interval_ps, uint64_t keep_ps,
	       uint64_t since_ps)
{
	uint64_t floor;

	if (keep_ps < interval_ps)
		keep_ps = interval_ps;
	floor = t_ps > keep_ps ? t_ps - keep_ps : 0;
	return floor > since_ps ? floor : since_ps;
}

/* emu_clock.c */
uint64_t emu_mono_ns(void);
uint64_t emu_now_ps(const struct mlx5_emu *emu);
int emu_clock_start(struct mlx5_emu *emu);
void emu_clock_stop(struct mlx5_emu *emu);

/* emu_wire.c */
int emu_wire_open(struct mlx5_emu *emu, const char *path);
int emu_wire_close(struct mlx5_emu *emu);
void emu_wire_flush_due(struct mlx5_emu *emu);
void emu_wire_depart(struct mlx5_emu *emu, struct emu_sq *sq,
		     const struct emu_wqe *w, uint64_t time_ps);
enum emu_vport_tx_class emu_wire_class(const struct emu_wqe *w);
void emu_rate_win_next(struct emu_rate_win *win, uint64_t bytes,
		       uint64_t busy_ps);

/*
 * The wire counters a departure changes, copied out of an SQ and its
 * device (emu_wire_tally_load) and written back (emu_wire_tally_store):
 * the engine keeps them in registers over the packets of a WQE. The
 * rarer ones (an SQ's first departure, other than unicast frames, a
 * window bucket that fills) go to memory at once.
 */
struct emu_wire_tally {
	struct mlx5_emu *emu;
	struct emu_sq *sq;
	uint64_t packets;       /* sq->st */
	uint64_t bytes;
	uint64_t last_ps;
	uint64_t min_gap_ps;
	uint64_t max_gap_ps;
	uint64_t win_bytes;     /* sq->st.win's current bucket */
	uint64_t win_busy_ps;
	uint64_t port_packets;  /* emu->port */
	uint64_t port_bytes;
	uint64_t uc_packets;    /* emu->vport_tx[EMU_VPORT_TX_UNICAST] */
	uint64_t uc_octets;
};

static inline void
emu_wire_tally_load(struct emu_wire_tally *y, struct mlx5_emu *emu,
		    struct emu_sq *sq)
{
	struct emu_sq_stats *st = &sq->st;

	y->emu = emu;
	y->sq = sq;
	y->packets = st->packets;
	y->bytes = st->bytes;
	y->last_ps = st->last_ps;
	y->min_gap_ps = st->min_gap_ps;
	y->max_gap_ps = st->max_gap_ps;
	y->win_bytes = st->win.bytes[st->win.cur];
	y->win_busy_ps = st->win.busy_ps[st->win.cur];
	y->port_packets = emu->port.packets;
	y->port_bytes = emu->port.bytes;
	y->uc_packets = emu->vport_tx[EMU_VPORT_TX_UNICAST].packets;
	y->uc_octets = emu->vport_tx[EMU_VPORT_TX_UNICAST].octets;
}

static inline void
emu_wire_tally_store(const struct emu_wire_tally *y)
{
	struct emu_sq_stats *st = &y->sq->st;

	st->packets = y->packets;
	st->bytes = y->bytes;
	st->last_ps = y->last_ps;
	st->min_gap_ps = y->min_gap_ps;
	st->max_gap_ps = y->max_gap_ps;
	st->win.bytes[st->win.cur] = y->win_bytes;
	st->win.busy_ps[st->win.cur] = y->win_busy_ps;
	y->emu->port.packets = y->port_packets;
	y->emu->port.bytes = y->port_bytes;
	y->emu->vport_tx[EMU_VPORT_TX_UNICAST].packets = y->uc_packets;
	y->emu->vport_tx[EMU_VPORT_TX_UNICAST].octets = y->uc_octets;
}

/*
 * The packet at the head of @p w leaves at @p time_ps; the SQ's head was
 * ready at @p ready_ps. Counts it: SQ, port and vport counters, the
 * gaps between departures and the recent-rate window.
 */
static inline void
emu_wire_tally_note(struct emu_wire_tally *y, const struct emu_wqe *w,
		    uint64_t ready_ps, uint64_t time_ps)
{
	enum emu_vport_tx_class cls;
	uint32_t len = w->len;

	if (y->packets > 0) {
		uint64_t gap = time_ps - y->last_ps;

		/* Its WQE came after the previous frame left: ran dry. */
		if (ready_ps > y->last_ps)
			y->sq->st.ran_dry++;
		/* Not the first departure after an idle stretch. */
		if (time_ps >= y->last_ps &&
		    (ready_ps <= y->last_ps ||
		     ready_ps - y->last_ps <= EMU_RATE_PAUSE_PS)) {
			if (y->win_busy_ps >= EMU_RATE_WIN_BUCKET_PS) {
				emu_rate_win_next(&y->sq->st.win, y->win_bytes,
						  y->win_busy_ps);
				y->win_bytes = 0;
				y->win_busy_ps = 0;
			}
			y->win_bytes += len;
			y->win_busy_ps += gap;
		}
		if (y->packets == 1 || gap < y->min_gap_ps)
			y->min_gap_ps = gap;
		if (gap > y->max_gap_ps)
			y->max_gap_ps = gap;
	} else {
		y->sq->st.first_ps = time_ps;
	}
	y->last_ps = time_ps;
	y->packets++;
	y->bytes += len;
	y->port_packets++;
	y->port_bytes += len;
	/* The group bit of the first byte tells the common unicast frame. */
	cls = w->gather[w->pkts[w->pkt].first].ptr[0] & 1 ?
	      emu_wire_class(w) : EMU_VPORT_TX_UNICAST;
	if (cls == EMU_VPORT_TX_UNICAST) {
		y->uc_packets++;
		y->uc_octets += len;
	} else {
		y->emu->vport_tx[cls].packets++;
		y->emu->vport_tx[cls].octets += len;
	}
}

/* emu_fault.c */
bool emu_fault_cmd_hit(struct mlx5_emu *emu, uint16_t opcode,
		       uint8_t *status, uint32_t *syndrome);
/* A firmware command's entry: waits while commands are held. */
void emu_cmd_gate(struct mlx5_emu *emu);
int emu_fault_pp_hit(struct mlx5_emu *emu);

#endif /* EMU_INTERNAL_H */
