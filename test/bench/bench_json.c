/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_str.h"

#include "bench_json.h"

/* Separator, indentation and key before a value. */
static void
begin_value(struct bench_json *js, const char *key)
{
	bool in_object = js->closer[js->depth] == '}';

	if ((key != NULL) != in_object) {
		js->misused = true;
		fprintf(stderr, "bench_json: %s %s in an %s\n",
			key != NULL ? "key" : "value without key",
			key != NULL ? key : "", in_object ? "object" : "array");
	}
	if (js->has_items[js->depth])
		fputc(',', js->f);
	js->has_items[js->depth] = true;
	fprintf(js->f, "\n%*s", 2 * js->depth, "");
	if (key != NULL) {
		json_str_write(js->f, key);
		fputs(": ", js->f);
	}
}

static void
open_container(struct bench_json *js, const char *key, char open,
	       char close)
{
	begin_value(js, key);
	fputc(open, js->f);
	if (js->depth + 1 < BENCH_JSON_MAX_DEPTH)
		js->depth++;
	js->has_items[js->depth] = false;
	js->closer[js->depth] = close;
}

static void
close_container(struct bench_json *js)
{
	bool had = js->has_items[js->depth];
	char c = js->closer[js->depth];

	if (js->depth > 0)
		js->depth--;
	if (had)
		fprintf(js->f, "\n%*s", 2 * js->depth, "");
	fputc(c, js->f);
}

int
bench_json_init(struct bench_json *js)
{
	memset(js, 0, sizeof(*js));
	js->f = open_memstream(&js->buf, &js->len);
	if (js->f == NULL)
		return -ENOMEM;
	fputc('{', js->f);
	js->depth = 1;
	js->closer[1] = '}';
	return 0;
}

void
bench_json_obj_begin(struct bench_json *js, const char *key)
{
	open_container(js, key, '{', '}');
}

void
bench_json_obj_end(struct bench_json *js)
{
	close_container(js);
}

void
bench_json_arr_begin(struct bench_json *js, const char *key)
{
	open_container(js, key, '[', ']');
}

void
bench_json_arr_end(struct bench_json *js)
{
	close_container(js);
}

void
bench_json_str(struct bench_json *js, const char *key, const char *v)
{
	begin_value(js, key);
	json_str_write(js->f, v != NULL ? v : "");
}

void
bench_json_num(struct bench_json *js, const char *key, double v)
{
	begin_value(js, key);
	if (isfinite(v))
		fprintf(js->f, "%.6g", v);
	else
		fputs("null", js->f);
}

void
bench_json_int(struct bench_json *js, const char *key, int64_t v)
{
	begin_value(js, key);
	fprintf(js->f, "%" PRId64, v);
}

void
bench_json_bool(struct bench_json *js, const char *key, bool v)
{
	begin_value(js, key);
	fputs(v ? "true" : "false", js->f);
}

int
bench_json_finish(struct bench_json *js, const char *path)
{
	FILE *out;
	int ret = 0;

	if (js->f == NULL)
		return -EINVAL;
	while (js->depth > 0)
		close_container(js);
	fputc('\n', js->f);
	fclose(js->f);
	js->f = NULL;
	if (js->misused) {
		ret = -EINVAL;
	} else if (path != NULL) {
		out = fopen(path, "w");
		if (out == NULL) {
			ret = -errno;
		} else {
			if (fwrite(js->buf, 1, js->len, out) != js->len)
				ret = -EIO;
			if (fclose(out) != 0 && ret == 0)
				ret = -errno;
		}
	}
	free(js->buf);
	js->buf = NULL;
	return ret;
}
