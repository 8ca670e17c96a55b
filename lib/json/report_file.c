/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* fopencookie: _GNU_SOURCE, which the build defines. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_file.h"

/* The stream's writes: all of @p buf, or the first failure kept. */
static ssize_t
rf_write(void *cookie, const char *buf, size_t len)
{
	struct report_file *rf = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(rf->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (rf->err == 0)
				rf->err = errno;
			return done > 0 ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int
rf_close(void *cookie)
{
	struct report_file *rf = cookie;

	if (close(rf->fd) != 0 && rf->err == 0)
		rf->err = errno;
	rf->fd = -1;
	return rf->err != 0 ? -1 : 0;
}

/* The stream over rf->fd; the fd closed on failure. */
static int
rf_stream(struct report_file *rf)
{
	static const cookie_io_functions_t io = {
		.write = rf_write, .close = rf_close,
	};
	int err;

	rf->f = fopencookie(rf, "w", io);
	if (rf->f != NULL)
		return 0;
	err = errno;
	close(rf->fd);
	rf->fd = -1;
	return -err;
}

int
report_file_open(struct report_file *rf, const char *path)
{
	struct stat st;
	mode_t mode, mask;
	int ret;

	memset(rf, 0, sizeof(*rf));
	rf->fd = -1;
	if (strlen(path) >= sizeof(rf->path))
		return -ENAMETOOLONG;
	snprintf(rf->path, sizeof(rf->path), "%s", path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO: renaming over it would replace it. */
		rf->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		return rf->fd >= 0 ? rf_stream(rf) : -errno;
	}
	snprintf(rf->tmp, sizeof(rf->tmp), "%s.XXXXXX", path);
	rf->fd = mkostemp(rf->tmp, O_CLOEXEC);
	if (rf->fd < 0) {
		ret = -errno;
		rf->tmp[0] = '\0';
		return ret;
	}
	/* mkstemp makes 0600: give what fopen(path, "w") would have. */
	mask = umask(0);
	umask(mask);
	mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask;
	ret = fchmod(rf->fd, mode) == 0 ? rf_stream(rf) : -errno;
	if (ret < 0) {
		if (rf->fd >= 0)
			close(rf->fd);
		rf->fd = -1;
		unlink(rf->tmp);
		rf->tmp[0] = '\0';
	}
	return ret;
}

int
report_file_commit(struct report_file *rf)
{
	int err;

	if (rf->f == NULL)
		return -EBADF;
	/* Flushed, synced (a delayed ENOSPC shows here), closed. */
	if (fflush(rf->f) != 0 && rf->err == 0)
		rf->err = EIO;
	if (rf->err == 0 && ferror(rf->f))
		rf->err = EIO;
	if (rf->err == 0 && rf->tmp[0] != '\0' && fsync(rf->fd) != 0)
		rf->err = errno;
	fclose(rf->f);
	rf->f = NULL;
	err = rf->err;
	if (err == 0 && rf->tmp[0] != '\0' && rename(rf->tmp, rf->path) != 0)
		err = errno;
	if (err != 0 && rf->tmp[0] != '\0')
		unlink(rf->tmp);
	rf->tmp[0] = '\0';
	return -err;
}

void
report_file_discard(struct report_file *rf)
{
	if (rf->f != NULL)
		fclose(rf->f);
	rf->f = NULL;
	if (rf->tmp[0] != '\0')
		unlink(rf->tmp);
	rf->tmp[0] = '\0';
}
