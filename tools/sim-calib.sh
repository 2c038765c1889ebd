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
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
case_opts() { awk -F'\t' -v c="$1" '!/^#/ && $1 == c {print $2}' "$cases"; }
# mean LABEL SIMRUN-ARGS...: simrun's mean MB/s, or exit 1 with its reason
# (a table built from a failed run would show other columns' numbers)
mean() {
	local label=$1 out m
	shift
	out=$("$simrun" "$@") || { echo "sim-calib.sh: $label: simrun $* failed (above)" >&2; exit 1; }
	m=$(echo "$out" | awk '/^# mean/ {sub(/;$/, "", $4); print $4}')
	[ -n "$m" ] || { echo "sim-calib.sh: $label: simrun printed no mean" >&2; exit 1; }
	echo "$m"
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
		m=$(mean "$label" --iters 1 --bs $bs threads=5 $opts "$@") || exit 1
		printf '%-20s %s\n' "$label" "$m"
	done >"$tmp" || exit 1
	cat "$tmp"
	exit 0
fi

grep -v '^#' "$cases" | while IFS=$'\t' read -r n opts; do
	# shellcheck disable=SC2086
	m=$(mean "case $n" --iters "$iters" $opts "$@") || exit 1
	p=$(awk -v c="$n" '!/^#/ && $1 == c {s += $3; k++} END {printf "%.2f", s / k}' \
		"$top/profiles/scst-coop/published.tsv")
	echo "$n $m $p"
done >"$tmp" || exit 1
awk '{e = ($2 - $3) / $3 * 100; if (e < 0) a = -e; else a = e; s += a;
	printf "case %2d  model %7.2f  published %7.2f  err %+6.1f%%\n", $1, $2, $3, e}
	END {printf "MAE %.1f%%\n", s / NR}' "$tmp"
