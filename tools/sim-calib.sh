#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Quick calibration with simrun (no fio): modeled vs published mean MB/s over
# the 13 block sizes for cases 1-11.  Usage: sim-calib.sh [extra param=value...]
# sim-calib.sh --later [param=value...]: the later matrix's series (as
# profiles/scst-coop/gen-jobs.sh builds them), mean modeled MB/s over its six
# block sizes, one line per series; --later-series: each series' label and
# simrun options (LABEL|OPTIONS), nothing run.
set -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
simrun=${SIMRUN:-$top/tools/simrun}
iters=${ITERS:-1}
cases=$top/profiles/scst-coop/cases.tsv
case_opts() { awk -F'\t' -v c="$1" '!/^#/ && $1 == c {print $2}' "$cases"; }
# mean SIMRUN-ARGS...: simrun's mean MB/s over its block sizes; fails with simrun
mean() {
	local out

	out=$($simrun "$@") || return
	out=$(awk '/^# mean/ {print $4}' <<<"$out")
	[ -n "$out" ] || { echo "sim-calib.sh: no mean from simrun $*" >&2; return 1; }
	echo "${out%;}"
}

# later_series: LABEL|OPTIONS, one line per series of the later matrix
later_series() {
	local ctx="ra=context ioctx=shared" t c s cs

	{
		for t in 1 2; do for c in 5 6 7 8 9 10 11; do
			echo "t$t.cfq.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t"
		done; done
		for t in 1 2 5; do for c in 5 6 7 8 9 10 11; do
			echo "t$t.dl.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t sched=deadline"
		done; done
		for s in cfq deadline; do for t in 1 2; do for c in 5 8 11; do
			echo "t$t.$s.ord.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t sched=$s order=ordered"
		done; done; done
		for cs in deadline cfq; do for t in 1 2; do for c in 5 8 11; do
			echo "t$t.ini$cs.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t sched=deadline client_sched=$cs"
		done; done; done
		for t in 1 2; do
			echo "t$t.tgtnoop.c05|$(case_opts 5) $ctx threads=$t sched=noop"
			echo "t$t.ininoop.c05|$(case_opts 5) $ctx threads=$t client_sched=noop"
			echo "t$t.bothnoop.c05|$(case_opts 5) $ctx threads=$t sched=noop client_sched=noop"
		done
	}
}

if [ "${1:-}" = --later-series ]; then
	later_series
	exit
fi
if [ "${1:-}" = --later ]; then
	shift
	bs=67108864,4194304,1048576,262144,65536,16384
	later_series | while IFS='|' read -r label opts; do
		# shellcheck disable=SC2086
		m=$(mean --iters 1 --bs $bs threads=5 $opts "$@") || exit 2
		printf '%-20s %s\n' "$label" "$m"
	done
	exit
fi

res=$(grep -v '^#' "$cases" | while IFS=$'\t' read -r n opts; do
	# shellcheck disable=SC2086
	m=$(mean --iters "$iters" $opts "$@") || exit 2
	p=$(awk -v c="$n" '!/^#/ && $1 == c {s += $3; k++} END {printf "%.2f", s / k}' \
		"$top/profiles/scst-coop/published.tsv")
	echo "$n $m $p"
done) || exit 2
echo "$res" | awk '{e = ($2 - $3) / $3 * 100; if (e < 0) a = -e; else a = e; s += a;
	printf "case %2d  model %7.2f  published %7.2f  err %+6.1f%%\n", $1, $2, $3, e}
	END {printf "MAE %.1f%%\n", s / NR}'
