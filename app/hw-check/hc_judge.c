/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <math.h>

#include "hc_judge.h"

enum hc_rate_judgement
hc_judge_rate(bool vclock, double tol_pct, double want_bps, double got_bps,
	      uint64_t posted, double needed)
{
	double e;

	if (!(want_bps > 0) || isnan(got_bps))
		return HC_RATE_OFF;
	e = 100 * (got_bps - want_bps) / want_bps;
	if (fabs(e) <= tol_pct)
		return HC_RATE_OK;
	if (!vclock && e < 0 && (double)posted < needed * (1 - tol_pct / 100))
		return HC_RATE_SHORT;
	return HC_RATE_OFF;
}
