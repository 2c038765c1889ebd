#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio's usr_cpu/sys_cpu of a coop job include its workers.  fio counts a
# job's CPU with getrusage(RUSAGE_THREAD) on the job's thread alone; coop
# folds its workers' CPU into that figure (engines/coop/stats.c).  Jobs
# whose workers do nearly all the work (4 MiB reads of a sparse file: the
# kernel zero-fills every byte, the job's thread mostly sleeps):
#  - fork mode, coop_threads=2: the job's reported CPU-seconds must come
#    within 15 % (+ 0.3 s for fio's own start-up and main process) of the
#    whole fio process tree's user+system time, and never exceed it;
#  - thread mode, numjobs=2: the two jobs' sum likewise, so each job
#    counts its own workers and not the other's;
#  - coop_stats names each worker's usr_ms/sys_ms.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd "$JQ"

truncate -s 256m "$T/sparse"

# check LABEL FIO_ARGS...: run, compare fio's figure with the process's.
check() {
	local label=$1 out=$T/$1.json times=$T/$1.times
	shift
	TIMEFORMAT='%U %S'
	{ time coop_fio --output-format=json --name=cpu --filename="$T/sparse" \
		--size=256m --rw=read --bs=4m --iodepth=4 --time_based --runtime=2 \
		"$@" >"$out" 2>"$T/$label.err"; } 2>"$times" ||
		fail "$label: fio failed: $(cat "$T/$label.err")"
	local proc fio
	proc=$(awk '{ print $1 + $2 }' "$times")
	fio=$("$JQ" '[.jobs[] | (.usr_cpu + .sys_cpu) * .job_runtime / 100000] | add' "$out") ||
		fail "$label: no JSON: $(head -c 300 "$out")"
	note "$label: fio reports $fio CPU-s, the process used $proc"
	# Below this the slack for fio's own start-up would let anything pass.
	awk -v p="$proc" 'BEGIN { exit !(p < 0.6) }' &&
		skip "$label: the process got only $proc CPU-s in 2 s: machine too loaded to tell"
	awk -v f="$fio" -v p="$proc" 'BEGIN { exit !(f >= 0.85 * p - 0.3) }' ||
		fail "$label: fio reports $fio CPU-s of the $proc the process used: workers missing"
	awk -v f="$fio" -v p="$proc" 'BEGIN { exit !(f <= p + 0.02) }' ||
		fail "$label: fio reports $fio CPU-s, more than the $proc the process used"
}

check fork --coop_threads=2
check thread --thread --numjobs=2 --coop_threads=2

# The per-worker figures of coop_stats (stderr with JSON output).
coop_fio --output-format=json --name=st --filename="$T/sparse" --size=64m \
	--rw=read --bs=4m --coop_threads=2 --coop_stats=1 >"$T/st.json" 2>"$T/st.err" ||
	fail "coop_stats run failed: $(cat "$T/st.err")"
n=$(grep -cE 'worker=[0-9]+ .* usr_ms=[0-9.]+ sys_ms=[0-9.]+$' "$T/st.err")
assert_eq "coop_stats lines with usr_ms/sys_ms ($(cat "$T/st.err"))" 2 "$n"
awk '/worker=/ { for (i = 1; i <= NF; i++) if ($i ~ /^(usr|sys)_ms=/) { split($i, a, "="); s += a[2] } }
	END { exit !(s > 0) }' "$T/st.err" || fail "coop_stats: workers used no CPU? $(cat "$T/st.err")"
exit 0
