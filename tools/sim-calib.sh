#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Quick calibration with simrun (no fio): modeled vs published mean MB/s over
# the 13 block sizes for cases 1-11.  Usage: sim-calib.sh [extra param=value...]
top=$(cd "$(dirname "$0")/.." && pwd)
simrun=${SIMRUN:-$top/tools/simrun}
iters=${ITERS:-1}
grep -v '^#' "$top/profiles/scst-coop/cases.tsv" | while IFS=$'\t' read -r n opts; do
	m=$($simrun --iters "$iters" $opts "$@" | awk '/^# mean/ {print $4}')
	p=$(awk -v c="$n" '!/^#/ && $1 == c {s += $3; k++} END {printf "%.2f", s / k}' \
		"$top/profiles/scst-coop/published.tsv")
	echo "$n $m $p"
done | awk '{e = ($2 - $3) / $3 * 100; if (e < 0) a = -e; else a = e; s += a;
	printf "case %2d  model %7.2f  published %7.2f  err %+6.1f%%\n", $1, $2, $3, e}
	END {printf "MAE %.1f%%\n", s / NR}'
