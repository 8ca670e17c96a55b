/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Device time. Realtime: a device thread per device follows
 * CLOCK_MONOTONIC; each pass notices doorbells and processes the
 * departures due by now, then sleeps until the next departure (at least
 * EMU_RT_MIN_SLEEP_NS, so that traffic is handled in batches) or, when
 * idle, for a poll interval that backs off to EMU_RT_MAX_IDLE_NS. It goes
 * on at once, without sleeping, when the next departure is due by the end
 * of the pass (it is behind, or frames come faster than it processes
 * them) and for EMU_RT_SPIN_NS after a pass that saw a doorbell or sent a
 * frame: dense traffic is polled for, as the hardware does, but only
 * while the thread has a CPU to itself (see emu_rt_may_poll()). Once it
 * has caught up with a dense sender (sent every queued frame, at least
 * EMU_RT_DENSE_FRAMES since it woke), it polls for up to EMU_RT_REFILL_NS
 * whatever its contention, so that one unpaced queue is not held to a
 * ring per wake-up on a loaded machine; less after windows that no
 * doorbell ended (it then shares the sender's CPU, or the sender is off).
 * Virtual: no thread; time moves only in advance/run/drain.
 * The poll interval returns to EMU_RT_MIN_SLEEP_NS whenever a pass saw a
 * doorbell or processed a departure, and doubles after a quiet pass.
 */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "emu_internal.h"

#define EMU_RT_MIN_SLEEP_NS 20000ULL     /* 20 us between busy passes */
/*
 * Polling goes on this long after the last doorbell or frame. Sleeping
 * between the passes of dense traffic would cap a sender at about a ring
 * per sleep (WQEs noticed in one pass leave in the next), cost more in
 * system calls than the frames, and on a loaded machine give the CPU away
 * for milliseconds at each wake-up.
 */
#define EMU_RT_SPIN_NS 2000ULL
/*
 * After a pass that sent the last queued frame, polling goes on this long,
 * contended or not, if the thread sent at least EMU_RT_DENSE_FRAMES since
 * it woke: the sender is refilling its ring. Most refills of testpmd
 * txonly ring within 2 us, hundreds a second within 2 to 50 us
 * (doc/guides/benchmarks.rst); a sleep lets the ring fill and the sender
 * wait, for long on a loaded machine, where wake-ups come late. Paced
 * frames (a departure ahead) and sparse senders do not qualify.
 */
#define EMU_RT_REFILL_NS 50000ULL
#define EMU_RT_DENSE_FRAMES 32u
/*
 * A window that ends without a doorbell halves the next one, down to
 * EMU_RT_REFILL_NS >> EMU_RT_REFILL_MAX_SHIFT (1.6 us); one that a
 * doorbell ends doubles it back. When the thread runs on the sender's CPU,
 * the sender cannot ring while it polls, and a full window would only
 * take the sender's time.
 */
#define EMU_RT_REFILL_MAX_SHIFT 5u
/*
 * How often the thread asks whether it was preempted, and how long it
 * then sleeps between passes instead of polling.
 */
#define EMU_RT_CONTENTION_CHECK_NS 1000000ULL
#define EMU_RT_CONTENDED_NS 200000000ULL
#define EMU_RT_MAX_IDLE_NS 1000000ULL    /* 1 ms poll when idle */
#define EMU_RT_PASS_BUDGET 65536u        /* events per pass, then yield */
#define EMU_LAG_THRESHOLD_NS 1000000ULL  /* 1 ms: default lagging bound */
/*
 * A late pass leaves the device lagging this long: pacing accuracy is
 * lost for the measurement around it (a paced queue whose ring covers
 * less than the lateness ran dry meanwhile), not only at that pass.
 */
#define EMU_LAG_HOLD_NS 1000000000ULL

static uint64_t emu_ns_to_ps(uint64_t ns);

uint64_t
emu_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t
emu_now_ps(const struct mlx5_emu *emu)
{
	if (emu->cfg.clock == MLX5_EMU_CLOCK_VIRTUAL)
		return emu->vnow_ps;
	return (emu_mono_ns() - emu->origin_ns) * EMU_PS_PER_NS;
}

/* Whether a late pass came within EMU_LAG_HOLD_NS before @p now_ps. */
static bool
emu_lag_recent(const struct mlx5_emu *emu, uint64_t now_ps)
{
	return emu->lag.total_late_passes > 0 &&
	       (now_ps < emu->lag_late_ps ||
		now_ps - emu->lag_late_ps < EMU_LAG_HOLD_NS * EMU_PS_PER_NS);
}

/*
 * Account a pass at @p now_ps whose earliest departure was due at
 * @p first_due_ps (EMU_TIME_NEVER: none); the caller holds the lock.
 */
static void
emu_lag_account(struct mlx5_emu *emu, uint64_t now_ps, uint64_t first_due_ps)
{
	uint64_t lag = 0;

	if (first_due_ps != EMU_TIME_NEVER && first_due_ps < now_ps)
		lag = (now_ps - first_due_ps) / EMU_PS_PER_NS;
	emu->lag.passes++;
	emu->lag.lag_ns = lag;
	if (lag > emu->lag.max_lag_ns)
		emu->lag.max_lag_ns = lag;
	if (lag > emu->lag.threshold_ns) {
		emu->lag.late_passes++;
		emu->lag.total_late_passes++;
		emu->lag_late_ps = now_ps;
		if (!emu->lag_warned) {
			emu->lag_warned = true;
			emu_log(EMU_LOG_WARNING, "the device thread is %" PRIu64
				" us late (threshold %" PRIu64 " us): it "
				"cannot keep up in real time, and achieved "
				"rates now measure the machine, not the pacing "
				"(xstats emu_lagging, emu_late_passes; "
				"clock=virtual is exact; cpus= gives the "
				"thread a CPU of its own%s%s). Said once",
				lag / 1000, emu->lag.threshold_ns / 1000,
				emu->thread_cpus[0] != '\0' ?
				", it runs on CPUs " : "", emu->thread_cpus);
		}
	}
	emu->lag.lagging = emu_lag_recent(emu, now_ps);
}

/* One realtime pass: doorbells, then departures due by now. */
static uint64_t
emu_rt_pass(struct mlx5_emu *emu, uint32_t budget, uint64_t *now_out)
{
	uint64_t now = emu_now_ps(emu);
	uint64_t first_due, next;

	emu_engine_poll_doorbells(emu, now);
	next = emu_engine_run(emu, now, budget, &first_due);
	emu_lag_account(emu, now, first_due);
	emu_wire_flush_due(emu);
	*now_out = now;
	return next;
}

int
mlx5_emu_account_pass(struct mlx5_emu *emu, uint64_t now_ns,
		      uint64_t first_due_ns)
{
	if (emu == NULL || first_due_ns > now_ns)
		return -EINVAL;
	emu_lock(emu);
	emu_lag_account(emu, emu_ns_to_ps(now_ns), emu_ns_to_ps(first_due_ns));
	emu_unlock(emu);
	return 0;
}

/* What the device thread knows of its competition for the CPU. */
struct emu_rt_contention {
	uint64_t checked_ps;       /* device time of the last check */
	uint64_t preemptions;      /* ru_nivcsw at that check */
	uint64_t no_poll_until_ps; /* sleep between passes until then */
};

/*
 * Polling pays only on a CPU of its own. When the scheduler preempted the
 * thread (involuntary context switches) since the last check, other
 * threads want its CPU: a poller then counts as a CPU hog and waits a
 * whole time slice each time it is preempted (milliseconds to hundreds of
 * them on a loaded 2-core machine, during which no CQE is written), while
 * the scheduler favours a thread that sleeps between passes when it
 * wakes. Checked every
 * EMU_RT_CONTENTION_CHECK_NS; after a preemption the thread does not poll
 * for EMU_RT_CONTENDED_NS. Returns whether it may poll at @p now_ps.
 */
static bool
emu_rt_may_poll(struct emu_rt_contention *c, uint64_t now_ps)
{
	struct rusage ru;

	if (now_ps - c->checked_ps >= EMU_RT_CONTENTION_CHECK_NS *
	    EMU_PS_PER_NS && getrusage(RUSAGE_THREAD, &ru) == 0) {
		if ((uint64_t)ru.ru_nivcsw != c->preemptions)
			c->no_poll_until_ps = now_ps + EMU_RT_CONTENDED_NS *
					      EMU_PS_PER_NS;
		c->preemptions = (uint64_t)ru.ru_nivcsw;
		c->checked_ps = now_ps;
	}
	return now_ps >= c->no_poll_until_ps;
}

static void *
emu_rt_thread(void *arg)
{
	struct mlx5_emu *emu = arg;
	struct emu_rt_contention contention = { 0 };
	uint64_t idle_ns = EMU_RT_MIN_SLEEP_NS;
	uint64_t active_ps = 0;
	uint64_t awake_from = 0; /* emu->port.packets at the last wake-up */
	uint32_t refill_shift = 0; /* the window is EMU_RT_REFILL_NS >> it */
	bool refilling = false;  /* polling for a dense sender's refill */

	/* Wake-ups close to the asked time; the default slack is 50 us. */
	prctl(PR_SET_TIMERSLACK, 5000UL, 0, 0, 0);
	emu_lock(emu);
	while (!emu->stop) {
		uint64_t before = emu->port.doorbells + emu->port.packets +
				  emu->port.cqes + emu->port.error_cqes;
		uint64_t seen = emu->port.doorbells + emu->port.packets;
		uint64_t now, next, wake_ns, sleep_ns;
		struct timespec ts;

		next = emu_rt_pass(emu, EMU_RT_PASS_BUDGET, &now);
		/* Judged at the end of the pass, which may have taken long. */
		now = emu_now_ps(emu);
		if (emu->port.doorbells + emu->port.packets != seen) {
			active_ps = now;
			if (refilling && refill_shift > 0)
				refill_shift--;
		}
		refilling = next == EMU_TIME_NEVER &&
			    emu->port.packets - awake_from >=
			    EMU_RT_DENSE_FRAMES;
		if (next <= now ||
		    (refilling &&
		     now - active_ps < (EMU_RT_REFILL_NS >> refill_shift) *
				       EMU_PS_PER_NS) ||
		    (now - active_ps < EMU_RT_SPIN_NS * EMU_PS_PER_NS &&
		     emu_rt_may_poll(&contention, now))) {
			/*
			 * Due, or dense traffic: go on, after letting in
			 * control commands that wait, and only them: a yield
			 * to any other thread could give the CPU away for a
			 * time slice on a loaded machine.
			 */
			idle_ns = EMU_RT_MIN_SLEEP_NS;
			emu_unlock(emu);
			if (__atomic_load_n(&emu->lock_waiters,
					    __ATOMIC_RELAXED) != 0)
				sched_yield();
			emu_lock(emu);
			continue;
		}
		if (refilling && refill_shift < EMU_RT_REFILL_MAX_SHIFT)
			refill_shift++;
		/* Poll often while something happens, back off when quiet. */
		if (emu->port.doorbells + emu->port.packets + emu->port.cqes +
		    emu->port.error_cqes != before)
			idle_ns = EMU_RT_MIN_SLEEP_NS;
		else if (idle_ns < EMU_RT_MAX_IDLE_NS)
			idle_ns *= 2;
		sleep_ns = idle_ns;
		if (next != EMU_TIME_NEVER) {
			uint64_t until = (next - now) / EMU_PS_PER_NS;

			if (until < sleep_ns)
				sleep_ns = until < EMU_RT_MIN_SLEEP_NS ?
					   EMU_RT_MIN_SLEEP_NS : until;
		}
		wake_ns = emu->origin_ns + now / EMU_PS_PER_NS + sleep_ns;
		ts.tv_sec = (time_t)(wake_ns / 1000000000ULL);
		ts.tv_nsec = (long)(wake_ns % 1000000000ULL);
		pthread_cond_timedwait(&emu->wake, &emu->lock, &ts);
		awake_from = emu->port.packets;
		refilling = false;
	}
	emu_unlock(emu);
	return NULL;
}

/*
 * Let the device thread run on the CPUs of cpus=, or else on the online
 * CPUs outside busy_cpus (EAL's worker lcores, when the PMD opened the
 * device), or on every online CPU when that leaves none: the opener's CPU
 * set may be a single EAL lcore with a busy sender, and a thread that the
 * scheduler moves beside a polling sender holds it to a ring per time
 * slice. An explicit cpus= that cannot be honoured (CPUs outside this
 * process's cpuset) fails the open; the default set is best effort (the
 * CPUs outside busy_cpus, then every online CPU, then the opener's).
 */
/* @p set as a CPU list ("0,2-3") into @p buf. */
static void
emu_cpus_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int c, first = -1;

	buf[0] = '\0';
	for (c = 0; c <= CPU_SETSIZE && off < len; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, set);

		if (in && first < 0)
			first = c;
		if (in || first < 0)
			continue;
		off += (size_t)snprintf(buf + off, len - off, first == c - 1 ?
					"%s%d" : "%s%d-%d", off ? "," : "",
					first, c - 1);
		first = -1;
	}
}

/*
 * Say where the device thread runs and why (the log of the PMD, level
 * info): with -l 0-1 on two CPUs that is the main lcore's CPU.
 */
static void
emu_thread_placed(struct mlx5_emu *emu, const cpu_set_t *set,
		  const char *why)
{
	emu_cpus_format(set, emu->thread_cpus, sizeof(emu->thread_cpus));
	emu_log(EMU_LOG_INFO, "device thread on CPUs %s: %s",
		emu->thread_cpus, why);
}

static int
emu_thread_place(struct mlx5_emu *emu)
{
	cpu_set_t set, online;
	char list[256];
	int ret;

	emu_cpus_online(&online, list, sizeof(list));
	if (emu->cfg.cpus[0] != '\0') {
		if (emu_parse_cpus(emu->cfg.cpus, &set) < 0)
			return -EINVAL;
	} else {
		CPU_XOR(&set, &online, &emu->cfg.busy_cpus);
		CPU_AND(&set, &set, &online);
		if (CPU_COUNT(&set) == 0)
			set = online;
	}
	ret = pthread_setaffinity_np(emu->thread, sizeof(set), &set);
	if (ret == 0) {
		emu_thread_placed(emu, &set, emu->cfg.cpus[0] != '\0' ?
			"cpus=" : CPU_EQUAL(&set, &online) ?
			"every online CPU (none is free of EAL's worker "
			"lcores, or there are none; cpus= to choose)" :
			"the online CPUs outside EAL's worker lcores, the "
			"main lcore's included (cpus= to choose)");
		return 0;
	}
	if (emu->cfg.cpus[0] == '\0' && !CPU_EQUAL(&set, &online))
		ret = pthread_setaffinity_np(emu->thread, sizeof(online),
					     &online);
	if (ret == 0) {
		emu_thread_placed(emu, &online, "every online CPU (the "
				  "process may not use the others)");
		return 0;
	}
	if (emu->cfg.cpus[0] == '\0') {
		emu_log(EMU_LOG_WARNING, "device thread left on the opener's "
			"CPUs: %s", strerror(ret));
		return 0;
	}
	emu_log(EMU_LOG_ERR, "cpus=%s: the device thread cannot run there: "
		"%s (give CPUs this process may use: see taskset -p %d)",
		emu->cfg.cpus, strerror(ret), (int)getpid());
	return -ret;
}

int
emu_clock_start(struct mlx5_emu *emu)
{
	pthread_condattr_t attr;
	int ret;

	emu->lag.threshold_ns = emu->cfg.lag_threshold_us > 0 ?
		(uint64_t)emu->cfg.lag_threshold_us * 1000 :
		EMU_LAG_THRESHOLD_NS;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	ret = pthread_cond_init(&emu->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (ret != 0)
		return -ret;
	emu->origin_ns = emu_mono_ns();
	if (emu->cfg.clock == MLX5_EMU_CLOCK_VIRTUAL)
		return 0;
	ret = pthread_create(&emu->thread, NULL, emu_rt_thread, emu);
	if (ret != 0) {
		pthread_cond_destroy(&emu->wake);
		return -ret;
	}
	pthread_setname_np(emu->thread, "mlx5-emu");
	emu->thread_started = true;
	ret = emu_thread_place(emu);
	if (ret < 0) {
		emu_clock_stop(emu);
		return ret;
	}
	return 0;
}

void
emu_clock_stop(struct mlx5_emu *emu)
{
	if (emu->thread_started) {
		emu_lock(emu);
		emu->stop = true;
		pthread_cond_signal(&emu->wake);
		emu_unlock(emu);
		pthread_join(emu->thread, NULL);
		emu->thread_started = false;
	}
	pthread_cond_destroy(&emu->wake);
}

enum mlx5_emu_clock_mode
mlx5_emu_clock(struct mlx5_emu *emu)
{
	return emu->cfg.clock;
}

uint64_t
mlx5_emu_now_ns(struct mlx5_emu *emu)
{
	uint64_t ps;

	emu_lock(emu);
	ps = emu_now_ps(emu);
	emu_unlock(emu);
	return ps / EMU_PS_PER_NS;
}

/* Virtual clock: doorbells at the current time, then run to @p until_ps. */
static void
emu_virtual_run(struct mlx5_emu *emu, uint64_t until_ps)
{
	emu_engine_poll_doorbells(emu, emu->vnow_ps);
	if (until_ps < emu->vnow_ps)
		until_ps = emu->vnow_ps;
	emu_engine_run(emu, until_ps, UINT32_MAX, NULL);
	emu->vnow_ps = until_ps;
	emu_wire_flush_due(emu);
}

/* @p ns in picoseconds, saturating below EMU_TIME_NEVER. */
static uint64_t
emu_ns_to_ps(uint64_t ns)
{
	return ns >= (EMU_TIME_NEVER - 1) / EMU_PS_PER_NS ?
	       EMU_TIME_NEVER - 1 : ns * EMU_PS_PER_NS;
}

int
mlx5_emu_advance(struct mlx5_emu *emu, uint64_t ns)
{
	uint64_t until;

	if (emu == NULL)
		return -EINVAL;
	if (emu->cfg.clock != MLX5_EMU_CLOCK_VIRTUAL)
		return -ENOTSUP;
	emu_lock(emu);
	until = emu->vnow_ps + emu_ns_to_ps(ns);
	if (until < emu->vnow_ps || until == EMU_TIME_NEVER)
		until = EMU_TIME_NEVER - 1;
	emu_virtual_run(emu, until);
	emu_unlock(emu);
	return 0;
}

int
mlx5_emu_drain(struct mlx5_emu *emu)
{
	if (emu == NULL)
		return -EINVAL;
	if (emu->cfg.clock == MLX5_EMU_CLOCK_VIRTUAL) {
		emu_lock(emu);
		emu_engine_poll_doorbells(emu, emu->vnow_ps);
		emu_engine_run(emu, EMU_TIME_NEVER, UINT32_MAX, NULL);
		if (emu->sim_ps > emu->vnow_ps)
			emu->vnow_ps = emu->sim_ps;
		emu_wire_flush_due(emu);
		emu_unlock(emu);
		return 0;
	}
	for (;;) {
		uint64_t now, next, wait_ns;
		struct timespec ts;
		bool pending;

		emu_lock(emu);
		next = emu_rt_pass(emu, EMU_RT_PASS_BUDGET, &now);
		pending = emu_engine_pending(emu);
		emu_unlock(emu);
		if (!pending)
			return 0;
		wait_ns = EMU_RT_MAX_IDLE_NS;
		if (next > now && (next - now) / EMU_PS_PER_NS < wait_ns)
			wait_ns = (next - now) / EMU_PS_PER_NS;
		if (next <= now)
			wait_ns = 0;
		ts.tv_sec = (time_t)(wait_ns / 1000000000ULL);
		ts.tv_nsec = (long)(wait_ns % 1000000000ULL);
		if (wait_ns > 0)
			nanosleep(&ts, NULL);
		else
			sched_yield();
	}
}

void
mlx5_emu_poll(struct mlx5_emu *emu)
{
	uint64_t now;

	if (emu == NULL)
		return;
	if (emu->cfg.clock == MLX5_EMU_CLOCK_VIRTUAL) {
		mlx5_emu_advance(emu, 0);
		return;
	}
	emu_lock(emu);
	emu_rt_pass(emu, UINT32_MAX, &now);
	emu_unlock(emu);
}

void
mlx5_emu_get_lag(struct mlx5_emu *emu, struct mlx5_emu_lag *lag)
{
	emu_lock(emu);
	emu->lag.lagging = emu_lag_recent(emu, emu_now_ps(emu));
	*lag = emu->lag;
	emu_unlock(emu);
}

/* Forget the figures of a measurement; the caller holds the lock. */
static void
emu_lag_forget(struct mlx5_emu *emu)
{
	emu->lag.max_lag_ns = 0;
	emu->lag.late_passes = 0;
	emu->lag.passes = 0;
}

void
mlx5_emu_take_lag(struct mlx5_emu *emu, struct mlx5_emu_lag *lag)
{
	emu_lock(emu);
	emu->lag.lagging = emu_lag_recent(emu, emu_now_ps(emu));
	*lag = emu->lag;
	emu_lag_forget(emu);
	emu_unlock(emu);
}
