#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Points of one series (a bs sweep) that ran at once: jobs of one group of
# one fio run (no stonewall), or of groups that overlapped (new_group
# without stonewall, told by fio's elapsed).  Each job's rate is its share
# of what they did together, not its block size's alone: refused by
# perftest (with and without --no-iterations) and plot, naming both jobs
# (the old code tabled them as a sweep run one point at a time, as
# blockdev-perftest runs it).  The stonewalled sweep is read.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
printf '[global]\nioengine=null\nrw=read\nsize=4m\nrate=8m\ntime_based=1\nruntime=700ms\n[pt-4k]\nbs=4k\n[pt-8k]\nbs=8k\n' > one.fio
sed 's/^bs=8k$/bs=8k\nnew_group/' one.fio > over.fio
sed 's/^bs=8k$/bs=8k\nstonewall/' one.fio > seq.fio
for f in one over seq; do
	run_fio --output-format=json $f.fio > $f.json 2> fio.err || fail "fio: $(cat fio.err)"
done
"$JQ" -e '[.jobs[].groupid] == [0, 0]' one.json > /dev/null || fail "premise: one group: $("$JQ" -c '[.jobs[].groupid]' one.json)"
"$JQ" -e '[.jobs[].groupid] == [0, 1] and ([.jobs[].read.runtime] | add) > 1000 * .jobs[0].elapsed' over.json > /dev/null ||
	fail "premise: two groups that overlapped: $("$JQ" -c '[.jobs[] | {groupid, elapsed, r: .read.runtime}]' over.json)"

"$FIOTAB" perftest seq.json > out 2> err || fail "a stonewalled sweep refused: $(cat err)"
assert_eq "the sweep's block sizes" "8192 4096" "$(awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " }' out)"
for f in one over; do
	case $f in
	one) how="one group of one fio run" ;;
	over) how="groups of one fio run that overlapped, new_group without stonewall" ;;
	esac
	for cmd in "perftest" "perftest --no-iterations" "plot -o p.svg"; do
		$FIOTAB $cmd $f.json > out 2> err && fail "$cmd $f.json: points that ran at once tabled as a sweep: $(tail -3 out)"
		[ -s out ] && fail "$cmd $f.json: output beside the refusal"
		[ -e p.svg ] && fail "$cmd $f.json: p.svg written"
		grep -qF "fiotab: $f.json: jobs 'pt-4k' and 'pt-8k' ran side by side ($how), two points of one series (bs 4096 and 8192): each rate is the job's share of what they did at once" err ||
			fail "$cmd $f.json: not refused as side by side points: $(cat err)"
	done
done
exit 0
