#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# profiles/scst-coop/results/ holds what the model gives now: for every
# calibration case and every later series, the committed report of its
# 1 MiB job (results/*.model, run-model-matrix through fio) equals simrun's
# report of the same run field for field (the model is deterministic).  A
# change of a default or a mechanism without the matrix re-run fails here,
# as does a later series whose options in tools/sim-calib.sh are not those
# profiles/scst-coop/gen-jobs.sh wrote into the job files.
. "$TOP/tests/lib.sh"
SIMRUN=$B/tools/simrun
RES=$TOP/profiles/scst-coop/results
BS=1048576

# same LABEL JOB OPTIONS...: JOB's committed report against simrun's
n=0
same() {
	local label=$1 job=$2 want got
	shift 2
	want=$(cat "$RES"/*.model | grep -- "^job=$job " | grep -o 'model_time_ns=.*')
	[ -n "$want" ] || fail "$label: no report of job $job in results/*.model"
	[ "$(printf '%s\n' "$want" | wc -l)" = 1 ] || fail "$label: job $job reported twice in results/"
	got=$("$SIMRUN" --iters 1 --bs $BS --report "$@" | grep -o 'model_time_ns=.*') ||
		fail "$label: simrun $* failed"
	if [ "$got" != "$want" ]; then
		diff <(tr ' ' '\n' <<<"$want") <(tr ' ' '\n' <<<"$got") >"$T/diff"
		fail "$label: results/ (<) is not what the model gives now (>), rerun run-model-matrix and copy its output to results/: $(head -6 "$T/diff" | tr '\n' ' ')"
	fi
	n=$((n + 1))
}

while IFS=$'\t' read -r c opts; do
	# shellcheck disable=SC2086
	same "case $c" "perftest-c$(printf %02d "$c")-r-$BS-1" $opts
done < <(grep -v '^#' "$TOP/profiles/scst-coop/cases.tsv")
assert_eq "calibration cases checked" 11 "$n"

n=0
while IFS='|' read -r label opts; do
	# shellcheck disable=SC2086
	same "$label" "perftest-$label-r-$BS-1" threads=5 $opts
done < <(SIMRUN=$SIMRUN "$TOP/tools/sim-calib.sh" --later-series)
want=$(cat "$RES"/later-*.model | grep -c -- "-r-$BS-1 ")
assert_eq "later series checked (one per 1 MiB job in results/)" "$want" "$n"
exit 0
