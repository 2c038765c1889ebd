#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio's unified_rw_reporting: =1 writes one "mixed" record per job instead
# of read/write/trim, =both writes read, write, trim and their sum "mixed".
# Real fio runs (null engine, randrw, rate-limited): summary shows the
# mixed direction with fio's own numbers, perftest tables it as M (two
# iterations), equal to jq.  The old code said "no usable jobs".
# =both's mixed record is read + write: left out (said) in every command and
# format, or a dd line, an M column and an rw="mixed" series beside read
# and write count every byte twice (the old code showed it everywhere).
# =1 jobs of rw=read and rw=write share the M column: two series, not two
# iterations of one (the old code averaged a read and a write job), and
# plot draws them (the old code: "plot: no usable jobs").
# perftest says a randrw job's W and R ran at once, and a write that ran
# with trims (trimwrite) or verify reads among it (verify_backlog).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

printf '[global]\nioengine=null\nsize=4m\nrate=40m\nbs=64k\nrw=randrw\nstonewall\n' > "$T/mix.fio"
printf '[mix-1]\nunified_rw_reporting=1\n[mix-2]\nunified_rw_reporting=1\n' >> "$T/mix.fio"
printf '[both-1]\nunified_rw_reporting=both\n' >> "$T/mix.fio"
(cd "$T" && "$FIO" --output-format=json+ mix.fio > mix.json 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
M=$T/mix.json
sed -n '/^{/,$p' "$M" | "$JQ" -e '.jobs[0] | has("mixed") and (has("read") | not)' > /dev/null ||
	fail "premise: unified_rw_reporting=1 should write only 'mixed'"

"$FIOTAB" summary --format=json "$M" > "$T/sum.json" 2> "$T/err" || fail "summary of mixed output: $(cat "$T/err")"
got=$("$JQ" -r '.tables[].rows[] | "\(.job) \(.dir) \(.MBps)"' "$T/sum.json" |
	awk '{ printf "%s %s %.6f\n", $1, $2, $3 }')
want=$(sed -n '/^{/,$p' "$M" | "$JQ" -r '.jobs[] | .jobname as $n |
	("read", "write", "mixed") as $d | select(.[$d].io_bytes > 0) |
	select($d != "mixed" or (has("read") | not)) |
	"\($n) \($d) \(.[$d].io_bytes / (.[$d].runtime / 1000) / 1048576)"' | awk '{ printf "%s %s %.6f\n", $1, $2, $3 }')
assert_eq "summary rows = fio's records" "$want" "$got"
assert_eq "rows: 2 mixed + read, write" 4 "$(echo "$got" | wc -l)"
# =both: mixed moved what read and write moved together
sed -n '/^{/,$p' "$M" | "$JQ" -e '.jobs[2] | .mixed.io_bytes == .read.io_bytes + .write.io_bytes' > /dev/null ||
	fail "premise: mixed = read + write under =both"

grep -q "job 'both-1': its mixed record (4194304 bytes, unified_rw_reporting=both) is the sum of its read, write and trim records, shown apart: left out" "$T/err" ||
	fail "=both's mixed record not said left out: $(cat "$T/err")"

# =both's mixed record in no command and format
sed -n '/^{/,$p' "$M" | "$JQ" '.jobs |= .[2:3]' > "$T/both.json"
for c in summary dd perftest hist; do
	for f in text csv json markdown influx prom; do
		"$FIOTAB" "$c" --format=$f --host h "$T/both.json" > "$T/out" 2> "$T/err" || fail "$c --format=$f of =both: $(cat "$T/err")"
		! grep -qi 'mixed\|\bM\b' "$T/out" || fail "$c --format=$f shows =both's mixed record: $(grep -i 'mixed\|\bM\b' "$T/out" | head -3)"
		grep -q 'unified_rw_reporting=both) is the sum' "$T/err" || fail "$c --format=$f: left out unsaid"
	done
done
"$FIOTAB" dd --format=prom --host h "$T/both.json" > "$T/out" 2> /dev/null
want=$(sed -n '/^{/,$p' "$T/both.json" | "$JQ" '.jobs[0] | .read.io_bytes + .write.io_bytes')
assert_eq "dd bytes summed over rw = read + write" "$want" \
	"$(awk '/^fiotab_dd_bytes\{/ { s += $NF } END { print s }' "$T/out")"
"$FIOTAB" plot -o "$T/both.svg" "$T/both.json" 2> "$T/err" || fail "plot of =both: $(cat "$T/err")"
! grep -q '<title>[^<]*mixed' "$T/both.svg" || fail "plot draws =both's mixed record"

# =1: a read and a write job of one bs are two series, never one's repeats
printf '[global]\nioengine=null\nsize=4m\nbs=64k\nunified_rw_reporting=1\nstonewall\n' > "$T/rw.fio"
printf '[rd]\nrw=read\nrate=40m\n[wr]\nrw=write\nrate=40m\n[rd2]\nrw=read\nrate=40m\n' >> "$T/rw.fio"
(cd "$T" && "$FIO" --output-format=json rw.fio > rw.json 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
"$FIOTAB" perftest --format=json "$T/rw.json" > "$T/pt.json" 2> "$T/err" || fail "perftest of =1 read and write: $(cat "$T/err")"
got=$("$JQ" -r '.tables[] | "\(.tags.rw_pattern) \(.rows[0].blocksize) \(.rows[0] | keys | map(select(test("^M[0-9]+_s$"))) | length) \(.rows[0].M_avg_MBps)"' "$T/pt.json" |
	awk '{ printf "%s %s %s %.6f\n", $1, $2, $3, $4 }')
want=$(sed -n '/^{/,$p' "$T/rw.json" | "$JQ" -r '[.jobs[] | { rw: ."job options".rw, m: (.mixed.io_bytes / (.mixed.runtime / 1000) / 1048576) }] |
	group_by(.rw)[] | "\(.[0].rw) 65536 \(length) \((map(.m) | add) / length)"' | awk '{ printf "%s %s %s %.6f\n", $1, $2, $3, $4 }')
assert_eq "=1 read and write: a series each, avg = jq" "$want" "$got"
"$FIOTAB" plot -o "$T/rw.svg" "$T/rw.json" 2> "$T/err" || fail "plot of =1 jobs: $(cat "$T/err")"
assert_eq "plot: a mixed line per rw" "2" "$(grep -o '<title>[^<]*mixed</title>' "$T/rw.svg" | sort -u | wc -l)"

# perftest: the =1 jobs are two iterations of one configuration (M columns)
sed -n '/^{/,$p' "$M" | "$JQ" '.jobs |= .[0:2]' > "$T/mix1.json"
"$FIOTAB" perftest "$T/mix1.json" > "$T/pt.out" 2> "$T/err" || fail "perftest of mixed jobs: $(cat "$T/err")"
grep -q '^blocksize        M        M   M(avg,    M(std        M$' "$T/pt.out" || fail "M header: $(grep blocksize "$T/pt.out")"
want=$(sed -n '/^{/,$p' "$T/mix1.json" | "$JQ" -r '[.jobs[].mixed | .io_bytes / (.runtime / 1000)] |
	(add / length) as $m | "\($m / 1048576) \($m / 65536)"' | awk '{ printf "%.3f %.3f", $1, $2 }')
assert_eq "M avg and IOPS = jq" "$want" "$(awk '$1 == 65536 { print $4, $6 }' "$T/pt.out")"

# without unified_rw_reporting a randrw job gives perftest's W and R from
# one run, the directions side by side: said (the old table looked like
# blockdev-perftest's write and read runs apart); write and read jobs apart
# get no such note
printf '[global]\nioengine=null\nsize=4m\nrate=40m\nbs=64k\nstonewall\n[rw-1]\nrw=randrw\n' > "$T/rw.fio"
printf '[global]\nioengine=null\nsize=4m\nrate=40m\nbs=64k\nstonewall\n[apart-w]\nrw=write\n[apart-r]\nrw=read\n' > "$T/apart.fio"
for f in rw apart; do
	(cd "$T" && "$FIO" --output-format=json $f.fio > $f.json 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
done
for opt in "" --no-iterations; do
	"$FIOTAB" perftest $opt "$T/rw.json" > "$T/pt.out" 2> "$T/err" || fail "perftest $opt of a randrw job: $(cat "$T/err")"
	assert_match "perftest $opt: randrw said" "^# W and R: job 'rw-1' \(rw=randrw\) read and wrote at once: its W and R are one run's two directions sharing the target" "$(cat "$T/pt.out")"
	"$FIOTAB" perftest $opt --series 'apart' "$T/apart.json" > "$T/pt.out" 2> "$T/err" || fail "perftest $opt of write and read jobs: $(cat "$T/err")"
	grep -q '^# W and R' "$T/pt.out" && fail "perftest $opt: write and read jobs apart said to run at once"
done

# a write whose runtime also holds I/O no half shows: trims (rw=trimwrite)
# and verify's reads among the writes (verify_backlog): said, naming the
# job (the old table showed W as a write run, stderr alone naming the trims
# or verify reads left out, and saying "fio times the writes apart"); a
# verify after the writes (no verify_backlog) is not said
printf '[global]\nioengine=null\nsize=4m\nrate=40m\nbs=64k\nstonewall\n[tw-1]\nrw=trimwrite\n' > "$T/tw.fio"
printf '[global]\nioengine=psync\nsize=4m\nbs=64k\nrw=write\nverify=crc32c\nstonewall\n' > "$T/vb.fio"
printf '[vb-1]\nfilename=vb-1\nverify_backlog=8\n[vn-1]\nfilename=vn-1\n' >> "$T/vb.fio"
for f in tw vb; do
	(cd "$T" && "$FIO" --output-format=json $f.fio > $f.json 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
done
sed -n '/^{/,$p' "$T/tw.json" | "$JQ" -e '.jobs[0] | .trim.io_bytes > 0 and .write.io_bytes > 0' > /dev/null ||
	fail "premise: rw=trimwrite should trim and write"
for opt in "" --no-iterations; do
	"$FIOTAB" perftest $opt "$T/tw.json" > "$T/pt.out" 2> "$T/err" || fail "perftest $opt of a trimwrite job: $(cat "$T/err")"
	grep -q "^# W: job 'tw-1' (rw=trimwrite) trimmed as it ran: fio's runtime of its writes holds its trims too" "$T/pt.out" ||
		fail "perftest $opt: trimwrite not said: $(cat "$T/pt.out")"
	"$FIOTAB" perftest $opt --series 'vb' "$T/vb.json" > "$T/pt.out" 2> "$T/err" || fail "perftest $opt of verify_backlog: $(cat "$T/err")"
	grep -q "^# W: job 'vb-1' (verify_backlog=8) verified among its writes: fio's runtime of its writes holds those verify reads too" "$T/pt.out" ||
		fail "perftest $opt: verify_backlog not said: $(cat "$T/pt.out")"
	grep -q "vb-1.*the write record stands, but with verify_backlog fio verified among the writes" "$T/err" ||
		fail "perftest $opt: stderr says of verify_backlog: $(cat "$T/err")"
	"$FIOTAB" perftest $opt --series 'vn' "$T/vb.json" > "$T/pt.out" 2> "$T/err" || fail "perftest $opt of verify: $(cat "$T/err")"
	grep -q '^# W:' "$T/pt.out" && fail "perftest $opt: a verify after the writes said to run among them: $(cat "$T/pt.out")"
	grep -q "vn-1.*fio times the writes apart" "$T/err" || fail "perftest $opt: stderr of verify: $(cat "$T/err")"
done
exit 0
