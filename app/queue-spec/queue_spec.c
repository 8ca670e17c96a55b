/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue_spec.h"

static const char *const key_names[] = {
	"RATE", "peak", "Bps", "pps", "burst", "cir", "size", "weight",
	"group", "parent", "adjust", "dedicated",
};
#define NB_KEYS (sizeof(key_names) / sizeof(key_names[0]))

/* "bad WHAT 'VALUE' [in 'SPEC']: WHY" into @p err; returns -EINVAL. */
static int
fail(char *err, size_t errlen, const char *what, const char *value,
     const char *spec, const char *why, ...)
{
	char reason[192];
	va_list ap;

	va_start(ap, why);
	vsnprintf(reason, sizeof(reason), why, ap);
	va_end(ap);
	if (spec != NULL && strcmp(spec, value) != 0)
		snprintf(err, errlen, "bad %s '%s' in '%s': %s", what, value,
			 spec, reason);
	else
		snprintf(err, errlen, "bad %s '%s': %s", what, value, reason);
	return -EINVAL;
}

/* The number of @p s, or a reason in @p why. */
static int
number(const char *s, enum qspec_scale scale, uint64_t *out,
       const char **why)
{
	const bool binary = scale == QSPEC_BINARY;
	uint64_t whole = 0, frac = 0, frac_div = 1, mult = 1;
	const char *p = s;
	bool digits = false;

	*why = "not a number";
	for (; isdigit((unsigned char)*p); p++) {
		const uint64_t d = (uint64_t)(*p - '0');

		if (whole > (UINT64_MAX - d) / 10)
			goto too_large;
		whole = whole * 10 + d;
		digits = true;
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (frac_div > UINT64_MAX / 100) {
				*why = "too many decimals";
				return -EINVAL;
			}
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_div *= 10;
			digits = true;
		}
	}
	if (!digits)
		return -EINVAL;
	switch (*p) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mult = binary ? 1ull << 10 : 1000ull;
		p++;
		break;
	case 'M':
		mult = binary ? 1ull << 20 : 1000000ull;
		p++;
		break;
	case 'G':
	case 'g':
		mult = binary ? 1ull << 30 : 1000000000ull;
		p++;
		break;
	case 'T':
		mult = binary ? 1ull << 40 : 1000000000000ull;
		p++;
		break;
	default:
		*why = "unknown suffix";
		return -EINVAL;
	}
	if (*p != '\0') {
		*why = "characters after the number";
		return -EINVAL;
	}
	if (whole > UINT64_MAX / mult)
		goto too_large;
	/* frac / frac_div * mult must be whole: frac * mult % frac_div. */
	if (frac != 0) {
		if (frac > UINT64_MAX / mult || (frac * mult) % frac_div != 0) {
			*why = "not a whole number";
			return -EINVAL;
		}
		frac = frac * mult / frac_div;
	}
	if (whole * mult > UINT64_MAX - frac)
		goto too_large;
	*out = whole * mult + frac;
	return 0;
too_large:
	*why = "too large for 64 bits";
	return -EINVAL;
}

static const char *
scale_text(enum qspec_scale scale)
{
	return scale == QSPEC_BINARY ?
		"a whole number, suffix K, M, G, T = 2^10, 2^20, 2^30, 2^40" :
		"a whole number, suffix k, M, G, T = 10^3, 10^6, 10^9, 10^12";
}

int
qspec_number(const char *s, enum qspec_scale scale, const char *what,
	     uint64_t *out, char *err, size_t errlen)
{
	const char *why;

	if (number(s, scale, out, &why) == 0)
		return 0;
	return fail(err, errlen, what, s, NULL, "%s; allowed: %s", why,
		    scale_text(scale));
}

/* Decimal digits only, into @p v; false when there are none or more. */
static bool
digits_of(const char *s, const char **end, uint64_t *v)
{
	const char *p = s;

	*v = 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (*v > 1000000)
			return false;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	*end = p;
	return p != s;
}

int
qspec_range(const char *s, uint16_t min, uint16_t max, const char *what,
	    uint16_t *lo, uint16_t *hi, char *err, size_t errlen)
{
	const char *end;
	uint64_t a, b;

	if (!digits_of(s, &end, &a))
		goto bad;
	if (strncmp(end, "..", 2) == 0) {
		if (!digits_of(end + 2, &end, &b))
			goto bad;
	} else {
		b = a;
	}
	if (*end != '\0' || a > b || a < min || b > max)
		goto bad;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
bad:
	return fail(err, errlen, what, s, NULL, "expected N or A..B (A <= B) "
		    "within %u..%u", min, max);
}

int
qspec_name(const char *s, char out[QSPEC_NAME_LEN])
{
	size_t i, n = strlen(s);

	if (n == 0 || n >= QSPEC_NAME_LEN ||
	    !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-')
			return -EINVAL;
	memcpy(out, s, n + 1);
	return 0;
}

char *
qspec_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int
qspec_split(const char *spec, char *buf, size_t len, char **head,
	    char **items, char *err, size_t errlen)
{
	char *colon;

	if (strlen(spec) >= len)
		return fail(err, errlen, "spec", spec, NULL, "longer than %zu "
			    "characters", len - 1);
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon == NULL)
		return fail(err, errlen, "spec", spec, NULL, "expected "
			    "HEAD:ITEMS, a queue number or group name, a "
			    "colon, then the items");
	*colon = '\0';
	*head = qspec_trim(buf);
	*items = colon + 1;
	return 0;
}

int
qspec_queue(const char *spec, const char *head, unsigned int max,
	    uint16_t *queue, char *err, size_t errlen)
{
	const char *end;
	uint64_t q;

	if (!digits_of(head, &end, &q) || *end != '\0' || q > max)
		return fail(err, errlen, "queue number", head, spec,
			    "expected 0..%u", max);
	*queue = (uint16_t)q;
	return 0;
}

void
qspec_key_names(unsigned int keys, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < NB_KEYS && off < len; k++)
		if (keys & (1u << k))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
				off ? ", " : "", key_names[k]);
}

/* The value of key @p k (a bit) in @p val, into @p q. */
static int
item_value(const char *spec, unsigned int k, const char *val,
	   const struct qspec_syntax *syn, struct qspec *q, char *err,
	   size_t errlen)
{
	const char *why;
	uint64_t v;

	switch (k) {
	case QSPEC_RATE:
	case QSPEC_PEAK:
	case QSPEC_BPS:
	case QSPEC_PPS:
		if (number(val, QSPEC_DECIMAL, &q->rate, &why) < 0)
			return fail(err, errlen, "rate", val, spec,
				    "%s; allowed: %s", why,
				    scale_text(QSPEC_DECIMAL));
		/* rte_tm takes bytes/s: below 8 bit/s it would get 0. */
		if (k == QSPEC_PEAK && q->rate != 0 &&
		    q->rate < QSPEC_MIN_BIT_RATE)
			return fail(err, errlen, "peak rate (peak=)", val, spec,
				    "below %u bit/s, the smallest rate rte_tm "
				    "takes (1 byte/s)", QSPEC_MIN_BIT_RATE);
		q->rate_key = k;
		return 0;
	case QSPEC_CIR:
		if (number(val, QSPEC_DECIMAL, &q->cir, &why) < 0)
			return fail(err, errlen, "committed rate (cir=)", val,
				    spec, "%s; allowed: %s", why,
				    scale_text(QSPEC_DECIMAL));
		if (q->cir != 0 && q->cir < QSPEC_MIN_BIT_RATE)
			return fail(err, errlen, "committed rate (cir=)", val,
				    spec, "below %u bit/s, the smallest rate "
				    "rte_tm takes (1 byte/s)",
				    QSPEC_MIN_BIT_RATE);
		return 0;
	case QSPEC_BURST:
		if (number(val, QSPEC_BINARY, &q->burst, &why) < 0)
			return fail(err, errlen, "burst", val, spec,
				    "%s; allowed: %s", why,
				    scale_text(QSPEC_BINARY));
		return 0;
	case QSPEC_SIZE:
		if (qspec_range(val, syn->frame_min, syn->frame_max, "size",
				&q->size_min, &q->size_max, err, errlen) < 0)
			return fail(err, errlen, "size", val, spec,
				    "expected N or A..B within %u..%u bytes",
				    syn->frame_min, syn->frame_max);
		return 0;
	case QSPEC_WEIGHT:
		if (number(val, QSPEC_DECIMAL, &v, &why) < 0 || v < 1 ||
		    v > UINT16_MAX)
			return fail(err, errlen, "weight", val, spec,
				    "expected 1..65535");
		q->weight = (uint32_t)v;
		return 0;
	case QSPEC_ADJUST: {
		char *end;
		long long a;

		errno = 0;
		a = strtoll(val, &end, 10);
		if (*val == '\0' || *end != '\0' || errno != 0 ||
		    a < INT32_MIN || a > INT32_MAX)
			return fail(err, errlen, "adjust", val, spec,
				    "expected a number of bytes, %" PRId32
				    "..%" PRId32, INT32_MIN, INT32_MAX);
		q->adjust = (int32_t)a;
		return 0;
	}
	default: /* QSPEC_GROUP, QSPEC_PARENT */
		if (qspec_name(val, q->group) < 0)
			return fail(err, errlen, "group name", val, spec,
				    "a letter or _, then letters, digits, _ "
				    "or -; at most %d", QSPEC_NAME_LEN - 1);
		return 0;
	}
}

int
qspec_items(const char *spec, char *items, const struct qspec_syntax *syn,
	    struct qspec *out, char *err, size_t errlen)
{
	char *item, *save = NULL, known[128];
	bool first = true;
	unsigned int k;

	memset(out, 0, sizeof(*out));
	qspec_key_names(syn->keys & ~QSPEC_RATE, known, sizeof(known));
	for (item = strtok_r(items, ",", &save); item != NULL;
	     item = strtok_r(NULL, ",", &save), first = false) {
		char *eq = strchr(item, '=');
		const char *val = "";

		if (eq != NULL) {
			*eq = '\0';
			val = qspec_trim(eq + 1);
		}
		item = qspec_trim(item);
		for (k = 0; k < NB_KEYS; k++)
			if (strcmp(item, key_names[k]) == 0)
				break;
		/* A bare item: a flag, or the rate first where allowed. */
		if (eq == NULL &&
		    (k == NB_KEYS || (1u << k) != QSPEC_DEDICATED)) {
			if (!first || !(syn->keys & QSPEC_RATE))
				return fail(err, errlen, "item", item, spec,
					    "items are key=value; known keys "
					    "here: %s", known);
			k = 0;
			val = item;
		} else if (eq != NULL && (k == 0 ||
			   (1u << k) == QSPEC_DEDICATED)) {
			k = NB_KEYS;
		}
		if (k == NB_KEYS || !(syn->keys & (1u << k))) {
			snprintf(err, errlen, "bad key '%s' in '%s': known "
				 "keys here: %s", item, spec, known);
			return -EINVAL;
		}
		if (out->given & (1u << k) ||
		    ((1u << k) & QSPEC_RATE_KEYS && out->rate_key != 0))
			return fail(err, errlen, "spec", spec, NULL, "a key "
				    "given twice, or two rates (one of a bare "
				    "rate, peak=, Bps=, pps=)");
		out->given |= 1u << k;
		if ((1u << k) != QSPEC_DEDICATED &&
		    item_value(spec, 1u << k, val, syn, out, err, errlen) < 0)
			return -EINVAL;
	}
	return 0;
}
