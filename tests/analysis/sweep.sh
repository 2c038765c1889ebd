#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A real fio sweep that is not over the block size: randread on the null
# engine, iodepth 1/4/16/32 x numjobs 1/2, two iterations each, every job
# rate-limited to 500 IOPS per iodepth (so IOPS ~ 500 x iodepth x numjobs:
# configurations that must never be averaged together).  fiotab must refuse
# the table without an axis (naming iodepth and numjobs), table and plot it
# on --x iodepth (a series per numjobs) and --x numjobs, equal to jq per
# configuration, and take iodepth as the default axis when only it varies.
# The old code averaged all 16 jobs into one "4096" row.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

{
	printf '[global]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\ntime_based\nruntime=200ms\n'
	printf 'group_reporting\nstonewall\n'
	for nj in 1 2; do
		for qd in 1 4 16 32; do
			for it in 1 2; do
				printf '[sweep-qd%s-nj%s-%s]\niodepth=%s\nnumjobs=%s\nrate_iops=%s\n' \
					"$qd" "$nj" "$it" "$qd" "$nj" $((500 * qd))
			done
		done
	done
} > "$T/sweep.fio"
(cd "$T" && "$FIO" --output-format=json sweep.fio > sweep.json 2> fio.err) ||
	fail "fio sweep failed: $(cat "$T/fio.err")"
S=$T/sweep.json

# without an axis: refused, naming what varies, nothing printed
"$FIOTAB" perftest "$S" > "$T/none.out" 2> "$T/none.err"
assert_eq "no axis: exit status" 1 "$?"
[ -s "$T/none.out" ] && fail "printed a table that averages iodepths and numjobs: $(head -5 "$T/none.out")"
assert_match "no axis: the varying parameters" 'differ in iodepth, numjobs' "$(cat "$T/none.err")"
"$FIOTAB" plot -o "$T/none.svg" "$S" 2> /dev/null && fail "plot without an axis accepted"

# jq: per (numjobs, iodepth) mean of io_bytes/runtime over the iterations
jq_conf() {
	sed -n '/^{/,$p' "$S" | "$JQ" -r '[.jobs[] | {nj: (.["job options"].numjobs | tonumber),
		qd: (.["job options"].iodepth | tonumber), r: (.read.io_bytes / (.read.runtime / 1000))}] |
		group_by([.nj, .qd])[] | [.[0].nj, .[0].qd, (map(.r) | add / length / 1048576), length] | @tsv' |
	awk -F'\t' '{ printf "%d %d %.3f %d\n", $1, $2, $3, $4 }'
}
jq_conf > "$T/jq.txt"
assert_eq "configurations" 8 "$(wc -l < "$T/jq.txt")"

# --x iodepth: one table per numjobs, a row per iodepth (ascending), 2 iterations
"$FIOTAB" perftest --x iodepth "$S" > "$T/qd.out" || fail "perftest --x iodepth failed"
assert_eq "--x iodepth titles" "# series ., numjobs=1
# series ., numjobs=2" "$(grep '^# series' "$T/qd.out")"
awk '/^# series/ { match($0, /numjobs=[0-9]+/); nj = substr($0, RSTART + 8, RLENGTH - 8) } $1 ~ /^[0-9]+$/ { print nj, $1, $9, 2 }' \
	"$T/qd.out" > "$T/qd.txt"
diff "$T/jq.txt" "$T/qd.txt" > "$T/d" || fail "--x iodepth differs from jq: $(cat "$T/d")"
# a randread sweep: blockdev-perftest's W half as zeros (a test it did not run), then R
grep -q '^  iodepth        W        W   W(avg,   W(std,        W        R        R   R(avg,' "$T/qd.out" ||
	fail "--x iodepth header: $(grep '^  iodepth' "$T/qd.out" | head -1)"
awk '$1 ~ /^[0-9]+$/ && ($2 $3 $4 $5 $6) != "0.0000.0000.0000.0000.000" { exit 1 }' "$T/qd.out" ||
	fail "the W half of a read-only sweep is not zeros"
# the rates follow the configuration: IOPS up to 500 x iodepth x numjobs (the
# rate limit; +5%), and above half of it (a loaded machine only slows fio down)
awk '/^# series/ { match($0, /numjobs=[0-9]+/); nj = substr($0, RSTART + 8, RLENGTH - 8) } $1 ~ /^[0-9]+$/ {
	want = 500 * $1 * nj; if ($11 < 0.5 * want || $11 > 1.05 * want) { print "iodepth " $1 " numjobs " nj ": " $11 " IOPS, want ~" want; bad = 1 } }
	END { exit bad }' "$T/qd.out" || fail "IOPS do not follow iodepth x numjobs"

# --x numjobs: one table per iodepth
"$FIOTAB" perftest --x numjobs "$S" > "$T/nj.out" || fail "perftest --x numjobs failed"
assert_eq "--x numjobs tables" 4 "$(grep -c '^# series ., iodepth=' "$T/nj.out")"
awk '/^# series/ { match($0, /iodepth=[0-9]+/); qd = substr($0, RSTART + 8, RLENGTH - 8) } $1 ~ /^[0-9]+$/ { print $1, qd, $9, 2 }' \
	"$T/nj.out" | sort -n -k1,1 -k2,2 > "$T/nj.txt"
diff "$T/jq.txt" "$T/nj.txt" > "$T/d" || fail "--x numjobs differs from jq: $(cat "$T/d")"

# CSV carries the axis and the series' parameter as columns/tags
"$FIOTAB" perftest --x iodepth --format=csv "$S" > "$T/qd.csv" || fail "csv"
head -n 1 "$T/qd.csv" | grep -q '^table,series,iodepth,W1_s,W2_s,W_avg_MBps,W_std_MBps,W_IOPS,R1_s,' || fail "csv header: $(head -n 1 "$T/qd.csv")"
"$FIOTAB" perftest --x iodepth --format=json "$S" | "$JQ" -e '[.tables[].tags.numjobs] == ["1", "2"]' > /dev/null ||
	fail "json tags lack numjobs"

# plot on the iodepth axis: a line per numjobs, axis named iodepth
"$FIOTAB" plot --x iodepth -o "$T/qd.svg" "$S" || fail "plot --x iodepth failed"
assert_eq "polylines (2 series x 2 panels, + 3 clat percentiles each)" 10 "$(grep -c '<polyline' "$T/qd.svg")"
grep -q '>iodepth (log2 scale)</text>' "$T/qd.svg" || fail "x axis not named iodepth"
grep -q "block size" "$T/qd.svg" && fail "the plot still says block size"
grep -q "latency against iodepth" "$T/qd.svg" || fail "title does not name the axis"
# ratio of numjobs=2 to numjobs=1 on the iodepth axis: the note names the
# one difference (rate_iops changes with the axis on both sides), ratios ~2
# (1.3 to 3: the rate limit caps both sides, a loaded machine slows either)
for nj in 1 2; do
	sed -n '/^{/,$p' "$S" | "$JQ" --arg nj $nj '.jobs |= map(select(.["job options"].numjobs == $nj))' > "$T/nj$nj.json"
done
"$FIOTAB" ratio "$T/nj1.json" "$T/nj2.json" > "$T/ratio.out" 2> "$T/err" || fail "ratio numjobs 2 / 1: $(cat "$T/err")"
grep -q '^# baseline / candidate configurations differ in: numjobs 1 / 2$' "$T/ratio.out" ||
	fail "ratio note: $(grep differ "$T/ratio.out")"
assert_eq "ratio rows" "1 4 16 32" "$(awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " }' "$T/ratio.out")"
awk '$1 ~ /^[0-9]+$/ && ($2 < 1.3 || $2 > 3) { print; bad = 1 } END { exit bad }' "$T/ratio.out" ||
	fail "numjobs 2 / 1 is not ~2"

# numjobs clones without group_reporting ran side by side: they are not
# iterations (the old code averaged the 3 clones' rates as 3 iterations)
printf '[global]\nioengine=null\nsize=4m\nrate=40m\nbs=64k\nrw=read\n[clone]\nnumjobs=3\n' > "$T/clones.fio"
(cd "$T" && "$FIO" --output-format=json clones.fio > clones.json 2> fio.err) || fail "fio clones: $(cat "$T/fio.err")"
"$FIOTAB" perftest "$T/clones.json" > "$T/clones.out" 2> "$T/clones.err" && fail "clones tabled as iterations: $(cat "$T/clones.out")"
assert_match "clones refused" "jobs 'clone' and 'clone' ran side by side .*use group_reporting" "$(cat "$T/clones.err")"
[ -s "$T/clones.out" ] && fail "printed a table of clones"

# an axis no job has is refused, naming what varies
"$FIOTAB" perftest --x frobnicate "$S" > "$T/frob.out" 2> "$T/frob.err" && fail "--x of an unknown option accepted"
assert_match "--x unknown" 'no job has that option \(the parameters that vary: iodepth, numjobs, rate_iops\)' "$(cat "$T/frob.err")"
[ -s "$T/frob.out" ] && fail "printed with an unknown --x"

# only iodepth varies (numjobs=1 jobs): iodepth is the default axis
sed -n '/^{/,$p' "$S" | "$JQ" '.jobs |= map(select(.["job options"].numjobs == "1"))' > "$T/qd1.json"
"$FIOTAB" perftest "$T/qd1.json" > "$T/qd1.out" || fail "default axis with one varying parameter"
assert_eq "default axis rows" "1 4 16 32" "$(awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " }' "$T/qd1.out")"
assert_eq "default axis title" "# series ." "$(grep '^# series' "$T/qd1.out")"
exit 0
