#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every table's time is linear in its input: each command's CPU time (user +
# sys, the least of 3 runs) over 10 N files of the same shape is at
# most SCALE_LIMIT (20) times its time over N (gen_sweep: 18 jobs a file).  A
# linear command costs about 10x; one step that compares every job with
# every other (the plot subtitle's list of distinct hosts, versions and
# targets did, for 180,000 jobs 11 s where the rest took 0.9) costs 10x per
# job on top, ~50-100x at these sizes.  The bench (make bench) measures the
# exponent of perftest alone on real fio output; this covers the other
# commands and output shapes (iozone and bonnie read the same way but
# refuse a perftest sweep's repeated phases).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd python3
N=${SCALE_FILES:-500}
LIMIT=${SCALE_LIMIT:-20}

gen_sweep "$T/small" "$N"
gen_sweep "$T/big" $((10 * N))
# json+ copies for hist: each clat a 4-sample histogram in two fio buckets
for d in small big; do
	cp -r "$T/$d" "$T/$d+"
	find "$T/$d+" -name '*.json' -exec sed -i \
		-e 's/"clat_ns" : { "mean" : 1500.5,/"clat_ns" : { "N" : 4, "mean" : 1500.5,/' \
		-e 's/"99.900000" : 3000 }/&, "bins" : { "1400" : 3, "10688" : 1 }/' {} +
done

# cpu DIR ARGS...: least CPU seconds (user + sys, from wait4's rusage: GNU
# time prints only hundredths) of 3 runs of fiotab ARGS over DIR's files
cpu() {
	local dir=$1
	shift
	python3 - "$T" "$FIOTAB" "$@" "$dir"/*.json <<'PY' || fail "fiotab $* on $dir: $(head -3 "$T/err")"
import os, sys
tmp, cmd = sys.argv[1], sys.argv[2:]
best = None
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(tmp + "/out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)
        os.dup2(os.open(tmp + "/err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        os.execv(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status):
        sys.exit(1)
    t = ru.ru_utime + ru.ru_stime
    best = t if best is None else min(best, t)
print("%.4f" % best)
PY
}

check() {	# check LABEL ARGS... (SUFFIX=+: on the json+ copies)
	local label=$1 small big
	shift
	small=$(cpu "$T/small${SUFFIX:-}" "$@")
	big=$(cpu "$T/big${SUFFIX:-}" "$@")
	note "$label: $small s at $N files, $big s at $((10 * N))"
	awk -v s="$small" -v b="$big" -v l="$LIMIT" 'BEGIN { exit !(b <= l * s) }' ||
		fail "fiotab $label: $big s of CPU at $((10 * N)) files, more than $LIMIT x its $small s at $N: not linear in the input"
}

check "perftest" perftest
check "perftest --no-iterations" perftest --no-iterations
check "perftest --format=json" perftest --format=json
check "perftest -o SVG" perftest -o "$T/p.svg"
check "plot" plot -o "$T/plot.svg"
check "ratio" ratio --baseline-series memdisk0 --candidate-series memdisk1
check "ratio -o SVG" ratio --baseline-series memdisk0 --candidate-series memdisk1 -o "$T/r.svg"
check "summary" summary
check "summary --format=prom" summary --format=prom
check "dd" dd
SUFFIX=+ check "hist" hist
SUFFIX=+ check "hist -o SVG" hist -o "$T/h.svg"
exit 0
