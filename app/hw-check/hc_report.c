/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Steps as they are reported: evidence collected while a step runs,
 * printed when it ends, and the JSON report at the end of the run.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_str.h"

#include "hc.h"

static const char *const verdict_names[] = {
	[HC_PASS] = "pass",
	[HC_FAIL] = "fail",
	[HC_SKIP] = "skip",
};

/* Append @p s (@p n bytes) to a growing string. */
static void
append(char **buf, size_t *len, const char *s, size_t n)
{
	char *p = realloc(*buf, *len + n + 1);

	if (p == NULL)
		return;
	memcpy(p + *len, s, n);
	*len += n;
	p[*len] = '\0';
	*buf = p;
}

/* Append NUL-terminated @p s. */
static void
append_str(char **buf, size_t *len, const char *s)
{
	append(buf, len, s, strlen(s));
}

/* Append @p s as a JSON string literal. */
static void
append_json_str(char **buf, size_t *len, const char *s)
{
	char *lit = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&lit, &n);

	if (m == NULL)
		return;
	json_str_write(m, s);
	if (fclose(m) == 0)
		append(buf, len, lit, n);
	free(lit);
}

void
hc_step_begin(struct hc *hc, const char *name, const char *title)
{
	struct hc_step *s;

	if (hc->nb_steps == hc->cap_steps) {
		unsigned int cap = hc->cap_steps ? hc->cap_steps * 2 : 32;
		struct hc_step *p = realloc(hc->steps, cap * sizeof(*p));

		if (p == NULL) {
			fprintf(stderr, "hw-check: out of memory\n");
			exit(2);
		}
		hc->steps = p;
		hc->cap_steps = cap;
	}
	s = &hc->steps[hc->nb_steps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->title, sizeof(s->title), "%s", title);
	hc->cur = s;
	hc->sender_short = false;
}

void
hc_ev(struct hc *hc, const char *fmt, ...)
{
	struct hc_step *s = hc->cur;
	char line[512];
	va_list ap;
	int n;

	if (s == NULL)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	append(&s->text, &s->text_len, line, (size_t)n);
	append(&s->text, &s->text_len, "\n", 1);
}

/* Start a JSON member "key": in the current step's evidence. */
static struct hc_step *
member(struct hc *hc, const char *key)
{
	struct hc_step *s = hc->cur;

	if (s == NULL)
		return NULL;
	if (s->json_len > 0)
		append(&s->json, &s->json_len, ", ", 2);
	append_json_str(&s->json, &s->json_len, key);
	append(&s->json, &s->json_len, ": ", 2);
	return s;
}

void
hc_evj_num(struct hc *hc, const char *key, double v)
{
	struct hc_step *s = member(hc, key);
	char num[64];
	int n;

	if (s == NULL)
		return;
	if (!isfinite(v))
		n = snprintf(num, sizeof(num), "null");
	else
		n = snprintf(num, sizeof(num), "%.6g", v);
	append(&s->json, &s->json_len, num, (size_t)n);
}

void
hc_evj_u64(struct hc *hc, const char *key, uint64_t v)
{
	struct hc_step *s = member(hc, key);
	char num[32];
	int n;

	if (s == NULL)
		return;
	n = snprintf(num, sizeof(num), "%" PRIu64, v);
	append(&s->json, &s->json_len, num, (size_t)n);
}

void
hc_evj_str(struct hc *hc, const char *key, const char *v)
{
	struct hc_step *s = member(hc, key);

	if (s != NULL)
		append_json_str(&s->json, &s->json_len, v);
}

void
hc_evj_bool(struct hc *hc, const char *key, bool v)
{
	struct hc_step *s = member(hc, key);

	if (s != NULL)
		append_str(&s->json, &s->json_len, v ? "true" : "false");
}

void
hc_step_end(struct hc *hc, enum hc_verdict v, const char *fmt, ...)
{
	struct hc_step *s = hc->cur;
	const char *p;
	va_list ap;

	if (s == NULL)
		return;
	s->verdict = v;
	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
		va_end(ap);
	}
	printf("[%s] %-26s %s\n", v == HC_PASS ? "PASS" :
	       v == HC_FAIL ? "FAIL" : "SKIP", s->name, s->title);
	if (s->reason[0] != '\0')
		printf("       %s: %s\n", verdict_names[v], s->reason);
	for (p = s->text; p != NULL && *p != '\0';) {
		const char *nl = strchr(p, '\n');
		int n = nl != NULL ? (int)(nl - p) : (int)strlen(p);

		printf("       | %.*s\n", n, p);
		p += n + (nl != NULL);
	}
	fflush(stdout);
	hc->cur = NULL;
}

void
hc_report_counts(const struct hc *hc, unsigned int *pass, unsigned int *fail,
		 unsigned int *skip)
{
	unsigned int i;

	*pass = *fail = *skip = 0;
	for (i = 0; i < hc->nb_steps; i++) {
		switch (hc->steps[i].verdict) {
		case HC_PASS:
			(*pass)++;
			break;
		case HC_FAIL:
			(*fail)++;
			break;
		default:
			(*skip)++;
			break;
		}
	}
}

/* Write the JSON report to @p f. */
static void
write_json(const struct hc *hc, FILE *f, const char *device_line)
{
	unsigned int pass, fail, skip, i;
	char *s = NULL;
	size_t len = 0;

	hc_report_counts(hc, &pass, &fail, &skip);
	append_str(&s, &len, "{\n  \"tool\": \"dpdk-mlx5-tm-check\",\n");
	append_str(&s, &len, "  \"format\": 1,\n  \"device\": ");
	append_json_str(&s, &len, device_line);
	fputs(s, f);
	free(s);
	fprintf(f, ",\n  \"emulated\": %s,\n  \"virtual_clock\": %s,\n"
		"  \"tolerance_pct\": %.6g,\n  \"steps\": [",
		hc->info.emulated ? "true" : "false",
		hc->ran_vclock ? "true" : "false", hc->opt.tolerance_pct);
	for (i = 0; i < hc->nb_steps; i++) {
		const struct hc_step *st = &hc->steps[i];
		char *e = NULL;
		size_t el = 0;

		append_str(&e, &el, i ? ",\n    {" : "\n    {");
		append_str(&e, &el, "\"name\": ");
		append_json_str(&e, &el, st->name);
		append_str(&e, &el, ", \"title\": ");
		append_json_str(&e, &el, st->title);
		append_str(&e, &el, ", \"verdict\": ");
		append_json_str(&e, &el, verdict_names[st->verdict]);
		append_str(&e, &el, ", \"reason\": ");
		append_json_str(&e, &el, st->reason);
		append_str(&e, &el, ", \"text\": ");
		append_json_str(&e, &el, st->text != NULL ? st->text : "");
		append_str(&e, &el, ", \"evidence\": {");
		if (st->json != NULL)
			append(&e, &el, st->json, st->json_len);
		append_str(&e, &el, "}}");
		fputs(e, f);
		free(e);
	}
	fprintf(f, "\n  ],\n  \"summary\": {\"steps\": %u, \"pass\": %u, "
		"\"fail\": %u, \"skip\": %u}\n}\n", hc->nb_steps, pass, fail,
		skip);
}

int
hc_report_open(struct hc *hc)
{
	int ret;

	if (hc->opt.json_path == NULL)
		return 0;
	ret = report_file_open(&hc->json_out, hc->opt.json_path);
	if (ret < 0)
		fprintf(stderr, "hw-check: --json: cannot write %s: %s\n",
			hc->opt.json_path, strerror(-ret));
	return ret;
}

int
hc_report_finish(struct hc *hc, const char *device_line)
{
	unsigned int pass, fail, skip, i;
	int ret = 0;

	hc_report_counts(hc, &pass, &fail, &skip);
	printf("\nSummary: %u steps: %u passed, %u failed, %u skipped\n",
	       hc->nb_steps, pass, fail, skip);
	for (i = 0; i < hc->nb_steps; i++)
		if (hc->steps[i].verdict != HC_PASS)
			printf("  %s %s: %s\n",
			       verdict_names[hc->steps[i].verdict],
			       hc->steps[i].name, hc->steps[i].reason);
	if (hc->json_out.f != NULL) {
		write_json(hc, hc->json_out.f, device_line);
		ret = report_file_commit(&hc->json_out);
		if (ret < 0)
			fprintf(stderr, "hw-check: --json: writing %s failed: "
				"%s\n", hc->opt.json_path, strerror(-ret));
		else
			printf("report written to %s\n", hc->opt.json_path);
	}
	for (i = 0; i < hc->nb_steps; i++) {
		free(hc->steps[i].text);
		free(hc->steps[i].json);
	}
	free(hc->steps);
	hc->steps = NULL;
	hc->nb_steps = 0;
	return ret;
}
