#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio's unified_rw_reporting: =1 writes one "mixed" record per job instead
# of read/write/trim, =both writes read, write, trim and their sum "mixed".
# Real fio runs (null engine, randrw, rate-limited): summary shows the
# mixed direction with fio's own numbers, perftest tables it as M (two
# iterations), equal to jq.  The old code said "no usable jobs".
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

printf '[global]\nioengine=null\nsize=4m\nrate=40m\nbs=64k\nrw=randrw\nstonewall\n' > "$T/mix.fio"
printf '[mix-1]\nunified_rw_reporting=1\n[mix-2]\nunified_rw_reporting=1\n' >> "$T/mix.fio"
printf '[both-1]\nunified_rw_reporting=both\n' >> "$T/mix.fio"
(cd "$T" && "$FIO" --output-format=json mix.fio > mix.json 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
M=$T/mix.json
sed -n '/^{/,$p' "$M" | "$JQ" -e '.jobs[0] | has("mixed") and (has("read") | not)' > /dev/null ||
	fail "premise: unified_rw_reporting=1 should write only 'mixed'"

"$FIOTAB" summary --format=json "$M" > "$T/sum.json" 2> "$T/err" || fail "summary of mixed output: $(cat "$T/err")"
got=$("$JQ" -r '.tables[].rows[] | "\(.job) \(.dir) \(.MBps)"' "$T/sum.json" |
	awk '{ printf "%s %s %.6f\n", $1, $2, $3 }')
want=$(sed -n '/^{/,$p' "$M" | "$JQ" -r '.jobs[] | .jobname as $n |
	("read", "write", "mixed") as $d | select(.[$d].io_bytes > 0) |
	"\($n) \($d) \(.[$d].io_bytes / (.[$d].runtime / 1000) / 1048576)"' | awk '{ printf "%s %s %.6f\n", $1, $2, $3 }')
assert_eq "summary rows = fio's records" "$want" "$got"
assert_eq "rows: 2 mixed + read, write, mixed" 5 "$(echo "$got" | wc -l)"
# =both: mixed moved what read and write moved together
sed -n '/^{/,$p' "$M" | "$JQ" -e '.jobs[2] | .mixed.io_bytes == .read.io_bytes + .write.io_bytes' > /dev/null ||
	fail "premise: mixed = read + write under =both"

# perftest: the =1 jobs are two iterations of one configuration (M columns)
sed -n '/^{/,$p' "$M" | "$JQ" '.jobs |= .[0:2]' > "$T/mix1.json"
"$FIOTAB" perftest "$T/mix1.json" > "$T/pt.out" 2> "$T/err" || fail "perftest of mixed jobs: $(cat "$T/err")"
grep -q '^blocksize        M        M   M(avg,    M(std        M$' "$T/pt.out" || fail "M header: $(grep blocksize "$T/pt.out")"
want=$(sed -n '/^{/,$p' "$T/mix1.json" | "$JQ" -r '[.jobs[].mixed | .io_bytes / (.runtime / 1000)] |
	(add / length) as $m | "\($m / 1048576) \($m / 65536)"' | awk '{ printf "%.3f %.3f", $1, $2 }')
assert_eq "M avg and IOPS = jq" "$want" "$(awk '$1 == 65536 { print $4, $6 }' "$T/pt.out")"
exit 0
