/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_file.h"

int
report_file_open(struct report_file *rf, const char *path)
{
	struct stat st;
	mode_t mode, mask;
	int fd, err;

	memset(rf, 0, sizeof(*rf));
	if (strlen(path) >= sizeof(rf->path))
		return -ENAMETOOLONG;
	snprintf(rf->path, sizeof(rf->path), "%s", path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO: renaming over it would replace it. */
		rf->f = fopen(path, "w");
		return rf->f != NULL ? 0 : -errno;
	}
	snprintf(rf->tmp, sizeof(rf->tmp), "%s.XXXXXX", path);
	fd = mkstemp(rf->tmp);
	if (fd < 0) {
		err = errno;
		rf->tmp[0] = '\0';
		return -err;
	}
	/* mkstemp makes 0600: give what fopen(path, "w") would have. */
	mask = umask(0);
	umask(mask);
	mode = stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask;
	rf->f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
	if (rf->f == NULL) {
		err = errno;
		close(fd);
		unlink(rf->tmp);
		rf->tmp[0] = '\0';
		return -err;
	}
	return 0;
}

int
report_file_commit(struct report_file *rf)
{
	int err = 0;

	if (rf->f == NULL)
		return -EBADF;
	/* The error indicator: a write that failed while the run wrote. */
	errno = 0;
	if (fflush(rf->f) != 0)
		err = errno != 0 ? errno : EIO;
	else if (ferror(rf->f))
		err = EIO;
	else if (rf->tmp[0] != '\0' && fsync(fileno(rf->f)) != 0)
		err = errno;
	if (fclose(rf->f) != 0 && err == 0)
		err = errno;
	rf->f = NULL;
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
