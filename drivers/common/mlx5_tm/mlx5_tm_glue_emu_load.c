/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Loading the device model: a shared object of its own, so that the
 * driver on real hardware carries no emulator (no libpcap, no device
 * thread) and loads none unless emu= is given. Loaded once, never
 * unloaded: devices of every port share it.
 */

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mlx5_tm_glue.h"

#ifndef MLX5_TM_PLUGIN_DIR
#error "MLX5_TM_PLUGIN_DIR (the DPDK plugin directory) must be defined"
#endif

static pthread_mutex_t emu_load_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct mlx5_tm_glue *emu_glue;
/* A candidate was found but is unusable (ENOEXEC rather than ENOENT). */
static int emu_found_unusable;

/* Directory part of @p path into @p dir ("" when it has none). */
static void
dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash != NULL ? (size_t)(slash - path) : 0;

	if (n >= len)
		n = 0;
	memcpy(dir, path, n);
	dir[n] = '\0';
}

/*
 * The table from @p handle, if it is a device model of this version;
 * else NULL with the reason appended to @p err.
 */
static const struct mlx5_tm_glue *
glue_of(void *handle, const char *where, char *err, size_t errlen)
{
	const struct mlx5_tm_glue *g = dlsym(handle, "mlx5_tm_glue_emu");
	size_t off = strlen(err);

	emu_found_unusable = 1;
	if (g == NULL || g->version == NULL || g->opts_new == NULL) {
		snprintf(err + off, errlen - off,
			 "; %s is not an mlx5-tm device model", where);
		return NULL;
	}
	if (strcmp(g->version, MLX5_TM_VERSION) != 0) {
		snprintf(err + off, errlen - off,
			 "; %s is device model version %s, the driver is %s",
			 where, g->version, MLX5_TM_VERSION);
		return NULL;
	}
	emu_found_unusable = 0;
	return g;
}

/* Try @p dir/MLX5_TM_EMU_LIB; note why not in @p err. */
static const struct mlx5_tm_glue *
try_dir(const char *dir, const char *what, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const struct mlx5_tm_glue *g;
	size_t off = strlen(err);
	void *handle;

	if (dir[0] == '\0')
		return NULL;
	if (snprintf(path, sizeof(path), "%s/%s", dir, MLX5_TM_EMU_LIB) >=
	    (int)sizeof(path))
		return NULL;
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (handle == NULL) {
		const char *why = dlerror();

		/* A missing file is expected; a broken one is news. */
		if (access(path, F_OK) == 0) {
			emu_found_unusable = 1;
			snprintf(err + off, errlen - off, "; %s (%s): %s",
				 path, what, why != NULL ? why : "dlopen failed");
		} else {
			snprintf(err + off, errlen - off, "; not in %s (%s)",
				 dir, what);
		}
		return NULL;
	}
	g = glue_of(handle, path, err, errlen);
	if (g == NULL)
		dlclose(handle);
	return g;
}

static const struct mlx5_tm_glue *
emu_find(char *err, size_t errlen)
{
	const struct mlx5_tm_glue *g = NULL;
	char dir[PATH_MAX], real[PATH_MAX];
	Dl_info self;
	void *handle;

	err[0] = '\0';
	emu_found_unusable = 0;
	/* Linked into the program already (tools and tests using its API). */
	handle = dlopen(MLX5_TM_EMU_LIB, RTLD_NOW | RTLD_NOLOAD);
	if (handle != NULL) {
		g = glue_of(handle, MLX5_TM_EMU_LIB " (loaded)", err, errlen);
		if (g != NULL)
			return g;
		dlclose(handle);
	}
	if (dladdr((void *)(uintptr_t)mlx5_tm_glue_emu_load, &self) != 0 &&
	    self.dli_fname != NULL) {
		dir_of(self.dli_fname, dir, sizeof(dir));
		g = try_dir(dir, "next to the driver", err, errlen);
		if (g == NULL && realpath(self.dli_fname, real) != NULL) {
			char rdir[PATH_MAX];

			dir_of(real, rdir, sizeof(rdir));
			if (strcmp(rdir, dir) != 0)
				g = try_dir(rdir, "next to the driver's file",
					    err, errlen);
		}
	}
	if (g == NULL)
		g = try_dir(MLX5_TM_PLUGIN_DIR, "DPDK plugin directory", err,
			    errlen);
	if (g == NULL) {
		size_t off = strlen(err);

		handle = dlopen(MLX5_TM_EMU_LIB, RTLD_NOW | RTLD_LOCAL);
		if (handle == NULL) {
			snprintf(err + off, errlen - off,
				 "; not on the library search path");
			return NULL;
		}
		g = glue_of(handle, MLX5_TM_EMU_LIB, err, errlen);
		if (g == NULL)
			dlclose(handle);
	}
	return g;
}

const struct mlx5_tm_glue *
mlx5_tm_glue_emu_load(char *err, size_t errlen)
{
	const struct mlx5_tm_glue *g;
	char why[1024];
	int unusable = 0;

	pthread_mutex_lock(&emu_load_lock);
	g = emu_glue;
	if (g == NULL) {
		g = emu_find(why, sizeof(why));
		emu_glue = g;
		unusable = emu_found_unusable;
	}
	pthread_mutex_unlock(&emu_load_lock);
	if (g != NULL)
		return g;
	/* why starts with "; ". */
	snprintf(err, errlen,
		 "emu= needs the device model %s, which cannot be loaded: %s; install it beside the driver (make install, or the Debian package librte-net-mlx5-tm-emu)",
		 MLX5_TM_EMU_LIB, why[0] != '\0' ? why + 2 : "not found");
	errno = unusable ? ENOEXEC : ENOENT;
	return NULL;
}
