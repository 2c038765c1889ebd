#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What fiotab's memory grows by per job: peak RSS (GNU time) of
# `fiotab perftest` over N and 10 N files of the same shape (one fio
# document of 18 jobs each: 3 block sizes x write/read x 3 iterations, 4
# targets), and the growth per job between them.  A job used to keep a
# 216-byte record (its document's version, file, times and identity, its
# configuration's target, rw, sizes and mode in each job), the direction
# record it ran, and perftest built its tables with all of them still in
# memory: 446 bytes a job.  Then a job was 120 bytes, pointing to what it
# shares with its document (struct jobdoc) and its configuration (struct
# jconf), and perftest freed the jobs once they were grouped, so what grew
# was the job and its direction record while reading, the grouping's
# share, then the table's own cells: ~270 bytes.  Now perftest folds each
# document's jobs into per-configuration classes as it reads (group.c,
# struct fold) and frees them, their direction records and the document:
# what grows is each iteration's time, bytes and order (24 bytes, with the
# arrays' slack up to twice that) and the table's cell and column share,
# ~150 bytes.  The limit (MEM_PER_JOB, 200 bytes) sits between the two.
#
# ratio (RATIO_LIMIT, 80 bytes a job of its two sides) keeps each
# iteration's time, bytes and order, as the full perftest table does.
#
# perftest --no-iterations keeps no iteration at all, only what tells one
# fio run read twice (samerun.c: 8 bytes a job, kept in a sorted array that
# grows by doubling): its peak must not grow with the jobs beyond that and
# a few bytes of rounding (MEM_FOLD_PER_JOB, 24 bytes a job; 18 measured),
# and stays within 2x at ten times the files (issue 15's bound).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
[ -x /usr/bin/time ] || skip "GNU time (package time) not installed"
N=${MEM_FILES:-300}
LIMIT=${MEM_PER_JOB:-200}
FOLD_LIMIT=${MEM_FOLD_PER_JOB:-24}
RATIO_LIMIT=${MEM_RATIO_PER_JOB:-80}
PLOT_LIMIT=${MEM_PLOT_PER_JOB:-350}

gen_sweep "$T/small" "$N"
gen_sweep "$T/big" $((10 * N))
"$FIOTAB" perftest "$T/small/r00001.json" > "$T/one" || fail "fiotab perftest on one generated file"
grep -q '^  1048576' "$T/one" || fail "the generated file is not read as a perftest sweep: $(head -5 "$T/one")"

# rss DIR [ARGS]: peak RSS in KiB of fiotab ARGS (perftest) over DIR's files (the least of 3)
rss() {
	local best= m r dir=$1
	shift
	[ $# -gt 0 ] || set -- perftest
	for r in 1 2 3; do
		/usr/bin/time -f '%M' -o "$T/time" "$FIOTAB" "$@" "$dir"/*.json > /dev/null 2> "$T/err" ||
			fail "fiotab $* on $dir: $(head -3 "$T/err")"
		m=$(tail -1 "$T/time")
		[ -z "$best" ] || [ "$m" -lt "$best" ] && best=$m
	done
	echo "$best"
}
small=$(rss "$T/small")
big=$(rss "$T/big")
jobs=$((9 * N * 18))
per=$(( (big - small) * 1024 / jobs ))
note "peak RSS: $small KiB at $N files, $big KiB at $((10 * N)) files: $per bytes per job more (limit $LIMIT)"
[ "$per" -le "$LIMIT" ] ||
	fail "fiotab's memory grows by $per bytes a job (limit $LIMIT): $small KiB at $N files, $big KiB at $((10 * N))"

"$FIOTAB" perftest --no-iterations "$T/small/r00001.json" > "$T/one" 2> "$T/err" ||
	fail "fiotab perftest --no-iterations: $(head -3 "$T/err")"
fsmall=$(rss "$T/small" perftest --no-iterations)
fbig=$(rss "$T/big" perftest --no-iterations)
fper=$(( (fbig - fsmall) * 1024 / jobs ))
note "--no-iterations: $fsmall KiB at $N files, $fbig KiB at $((10 * N)) files: $fper bytes per job more (limit $FOLD_LIMIT), $(awk -v a="$fbig" -v b="$fsmall" 'BEGIN { printf "%.2f", a / b }')x"
[ "$fper" -le "$FOLD_LIMIT" ] ||
	fail "--no-iterations grows by $fper bytes a job (limit $FOLD_LIMIT): $fsmall KiB at $N files, $fbig KiB at $((10 * N))"
[ "$fbig" -le $((2 * fsmall)) ] ||
	fail "--no-iterations: $fbig KiB at $((10 * N)) files, more than twice $fsmall KiB at $N"

# ratio folds its jobs as perftest does, keeping each iteration's time and
# bytes (Welch's test reads every run's rate): half the jobs are the two
# sides here.  It kept every job and its direction record, ~270 bytes a job.
rsmall=$(rss "$T/small" ratio --baseline-series memdisk0 --candidate-series memdisk1)
rbig=$(rss "$T/big" ratio --baseline-series memdisk0 --candidate-series memdisk1)
rper=$(( (rbig - rsmall) * 1024 / (jobs / 2) ))
note "ratio: $rsmall KiB at $N files, $rbig KiB at $((10 * N)) files: $rper bytes per job of its sides more (limit $RATIO_LIMIT)"
[ "$rper" -le "$RATIO_LIMIT" ] ||
	fail "ratio grows by $rper bytes a job (limit $RATIO_LIMIT): $rsmall KiB at $N files, $rbig KiB at $((10 * N))"

# plot folds them too, with each iteration's latency percentiles (48 bytes);
# what else grows is its SVG, built in memory, a dot per iteration (~120
# bytes).  It kept every job and its direction record as well: ~500.
psmall=$(rss "$T/small" plot -o "$T/plot.svg")
pbig=$(rss "$T/big" plot -o "$T/plot.svg")
pper=$(( (pbig - psmall) * 1024 / jobs ))
note "plot: $psmall KiB at $N files, $pbig KiB at $((10 * N)) files: $pper bytes per job more (limit $PLOT_LIMIT)"
[ "$pper" -le "$PLOT_LIMIT" ] ||
	fail "plot grows by $pper bytes a job (limit $PLOT_LIMIT): $psmall KiB at $N files, $pbig KiB at $((10 * N))"
exit 0
