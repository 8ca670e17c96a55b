/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_spec.h"

static int
fail(char *err, size_t errlen, const char *what, const char *s)
{
	snprintf(err, errlen, "%s: \"%s\"", what, s);
	return -1;
}

int
plan_parse_number(const char *s, bool binary, uint64_t *out, char *err,
		  size_t errlen)
{
	uint64_t whole = 0, frac = 0, frac_div = 1, mult = 1;
	const char *p = s;
	bool digits = false;

	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return fail(err, errlen, "number too large", s);
		whole = whole * 10 + (uint64_t)(*p - '0');
		digits = true;
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (frac_div > UINT64_MAX / 100)
				return fail(err, errlen, "too many decimals",
					    s);
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_div *= 10;
			digits = true;
		}
	}
	if (!digits)
		return fail(err, errlen, "not a number", s);
	switch (*p) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mult = binary ? 1024ull : 1000ull;
		p++;
		break;
	case 'M':
		mult = binary ? 1024ull * 1024 : 1000000ull;
		p++;
		break;
	case 'G':
		mult = binary ? 1024ull * 1024 * 1024 : 1000000000ull;
		p++;
		break;
	case 'T':
		mult = binary ? 1024ull * 1024 * 1024 * 1024 :
			1000000000000ull;
		p++;
		break;
	default:
		return fail(err, errlen, "unknown suffix", s);
	}
	if (*p != '\0')
		return fail(err, errlen, "trailing characters", s);
	if (whole > UINT64_MAX / mult)
		return fail(err, errlen, "number too large", s);
	/* frac / frac_div * mult must be whole: frac * mult % frac_div. */
	if (frac != 0) {
		if (frac > UINT64_MAX / mult ||
		    (frac * mult) % frac_div != 0)
			return fail(err, errlen, "not a whole number", s);
		frac = frac * mult / frac_div;
	}
	if (whole * mult > UINT64_MAX - frac)
		return fail(err, errlen, "number too large", s);
	*out = whole * mult + frac;
	return 0;
}

static int
parse_item(struct plan_queue *q, const char *item, bool first, char *err,
	   size_t errlen)
{
	const char *eq = strchr(item, '=');
	char key[16];
	const char *val;
	uint64_t v;
	size_t klen;

	if (strcmp(item, "dedicated") == 0) {
		q->dedicated = true;
		return 0;
	}
	if (eq == NULL) {
		if (!first)
			return fail(err, errlen, "expected key=value", item);
		key[0] = '\0';
		val = item;
	} else {
		klen = (size_t)(eq - item);
		if (klen >= sizeof(key))
			return fail(err, errlen, "unknown key", item);
		memcpy(key, item, klen);
		key[klen] = '\0';
		val = eq + 1;
	}
	if (key[0] == '\0' || strcmp(key, "peak") == 0 ||
	    strcmp(key, "Bps") == 0 || strcmp(key, "pps") == 0) {
		if (plan_parse_number(val, false, &v, err, errlen) != 0)
			return -1;
		q->rate_as_written = v;
		if (strcmp(key, "Bps") == 0) {
			q->unit = PLAN_RATE_BYTES;
			q->shaper.peak_rate = v;
		} else if (strcmp(key, "pps") == 0) {
			q->unit = PLAN_RATE_PACKETS;
			q->shaper.peak_rate = v;
			q->shaper.packet_mode = true;
		} else {
			q->unit = PLAN_RATE_BITS;
			q->shaper.peak_rate = v / 8;
			q->bits_truncated = v % 8 != 0;
		}
		return 0;
	}
	if (strcmp(key, "burst") == 0)
		return plan_parse_number(val, true, &q->shaper.peak_size, err,
					 errlen);
	if (strcmp(key, "cir") == 0) {
		if (plan_parse_number(val, false, &v, err, errlen) != 0)
			return -1;
		q->shaper.committed_rate = v / 8;
		return 0;
	}
	if (strcmp(key, "adjust") == 0) {
		char *end;
		long a = strtol(val, &end, 10);

		if (*val == '\0' || *end != '\0' || a < INT32_MIN ||
		    a > INT32_MAX)
			return fail(err, errlen, "bad adjust", val);
		q->shaper.pkt_length_adjust = (int32_t)a;
		return 0;
	}
	return fail(err, errlen, "unknown key", item);
}

int
plan_parse_queue(const char *spec, struct plan_queue *q, char *err,
		 size_t errlen)
{
	char buf[sizeof(q->text)];
	char *colon, *item, *save = NULL;
	uint64_t qid;
	bool first = true;

	memset(q, 0, sizeof(*q));
	if (strlen(spec) >= sizeof(buf))
		return fail(err, errlen, "specification too long", spec);
	strcpy(buf, spec);
	strcpy(q->text, spec);
	colon = strchr(buf, ':');
	if (colon == NULL)
		return fail(err, errlen, "expected QUEUE:RATE", spec);
	*colon = '\0';
	if (plan_parse_number(buf, false, &qid, err, errlen) != 0 ||
	    qid > UINT16_MAX)
		return fail(err, errlen, "bad queue number", spec);
	q->qid = (uint16_t)qid;
	for (item = strtok_r(colon + 1, ",", &save); item != NULL;
	     item = strtok_r(NULL, ",", &save)) {
		if (parse_item(q, item, first, err, errlen) != 0)
			return -1;
		first = false;
	}
	if (first)
		return fail(err, errlen, "no rate", spec);
	return 0;
}
