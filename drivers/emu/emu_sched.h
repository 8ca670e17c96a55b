/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef EMU_SCHED_H
#define EMU_SCHED_H

/*
 * NIC transmit scheduling of the device model (emu_sched.c): capabilities
 * and devargs, the scheduling-element commands, queue-group membership of
 * SQs and the arbiter the send engine asks which SQ sends next.
 */

#include "emu_internal.h"

/* A scheduling element: a TSAR or a queue group. */
struct emu_sched_elem {
	struct emu_sched_node node;      /* as a child of its parent */
	uint32_t id;
	uint8_t type;                    /* MLX5_SCHED_ELEM_TYPE_* */
	uint8_t tsar_type;
	uint8_t depth;                   /* 0: the device root */
	uint32_t bw_share;
	uint32_t max_average_bw;         /* Mbit/s, 0 unlimited */
	struct emu_sched_node *children; /* circular list, NULL if none */
	uint32_t nb_elems;               /* element children */
	uint32_t nb_sqs;                 /* SQ children */
	uint64_t vtime;                  /* start of the last packet served */
	uint64_t vspan;                  /* largest bytes / weight served */
	struct emu_sched_node *best;     /* child to serve, in a decision */
	uint32_t backlog;                /* SQs below with WQEs posted */
	uint64_t backlog_ps;             /* since when, without a break */
	uint64_t tat_ps;                 /* ceiling: theoretical arrival */
	uint64_t tat_rem;
	uint32_t keep_mbps;              /* the ceiling keep_ps is for */
	uint64_t keep_ps;                /* EMU_PACE_KEEP_BYTES at it */
	uint64_t packets;
	uint64_t bytes;
};

struct emu_sched {
	struct emu_idtab elems;
	uint32_t nb_groups;
	struct emu_sched_elem root;      /* id 0, the device's own TSAR */
	uint64_t gen;                    /* arbitration decisions so far */
};

/* Configuration and capabilities. */
void emu_sched_config_init(struct mlx5_emu_config *cfg);
int emu_sched_config_set(struct mlx5_emu_config *cfg, const char *key,
			 const char *value, char *err, size_t errlen);
int emu_sched_caps_resolve(const struct mlx5_emu_config *cfg,
			   struct mlx5_emu_caps *caps);
void emu_sched_fill_caps(const struct mlx5_emu *emu, void *qos_cap);

/* Device lifetime. */
int emu_sched_init(struct mlx5_emu *emu);
void emu_sched_fini(struct mlx5_emu *emu);
uint32_t emu_sched_count(const struct mlx5_emu *emu);

/* Firmware commands (emu_fw.c's handler signature). */
uint8_t emu_sched_cmd_create(struct mlx5_emu *emu, const void *in,
			     size_t inlen, void *out, uint32_t *synd);
uint8_t emu_sched_cmd_modify(struct mlx5_emu *emu, const void *in,
			     size_t inlen, void *out, uint32_t *synd);
uint8_t emu_sched_cmd_query(struct mlx5_emu *emu, const void *in,
			    size_t inlen, void *out, uint32_t *synd);
uint8_t emu_sched_cmd_destroy(struct mlx5_emu *emu, const void *in,
			      size_t inlen, void *out, uint32_t *synd);
/* The same as the general object SCHEDULING_ELEMENT (obj_type 0x26). */
uint8_t emu_sched_gen_create(struct mlx5_emu *emu, const void *in,
			     size_t inlen, void *out, uint32_t *synd);
uint8_t emu_sched_gen_modify(struct mlx5_emu *emu, const void *in,
			     size_t inlen, void *out, uint32_t *synd);
uint8_t emu_sched_gen_query(struct mlx5_emu *emu, const void *in,
			    size_t inlen, void *out, uint32_t *synd);
uint8_t emu_sched_gen_destroy(struct mlx5_emu *emu, const void *in,
			      size_t inlen, void *out, uint32_t *synd);

/*
 * SQs: may @p group (0: none) go with @p pp_index? MLX5_CMD_STAT_*. And
 * may a MODIFY_SQ carry modify_bitmask bit 2 (sched_modify_sq_group)?
 */
uint8_t emu_sched_sq_group_bit(const struct mlx5_emu *emu, uint32_t *synd);
uint8_t emu_sched_sq_check(const struct mlx5_emu *emu, uint32_t group,
			   uint16_t pp_index, uint32_t *synd);
void emu_sq_sched_attach(struct mlx5_emu *emu, struct emu_sq *sq,
			 uint16_t group);
void emu_sq_sched_detach(struct mlx5_emu *emu, struct emu_sq *sq);
/* @p sq got WQEs to send (@p delta 1) or has none left (-1). */
void emu_sched_sq_backlog(struct mlx5_emu *emu, struct emu_sq *sq, int delta);

/* Arbiter, for the send engine. */
bool emu_sched_on(const struct mlx5_emu *emu);
uint64_t emu_sched_sq_elig(struct mlx5_emu *emu, struct emu_sq *sq,
			   uint64_t elig_ps);
struct emu_sq *emu_sched_pick(struct mlx5_emu *emu, uint64_t t_ps);
void emu_sched_charge(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t_ps,
		      uint32_t len);

#endif /* EMU_SCHED_H */
