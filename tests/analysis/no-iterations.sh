#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab perftest --no-iterations folds each document's jobs into sums per
# configuration as it reads (group.c, struct fold) and keeps only the jobs
# the grouping still needs.  Its tables must be the full tables without
# the per-iteration time columns, to the last digit (JSON output, every
# other key, note and tag compared), and it must refuse what the full
# table refuses with the same words: jobs that ran side by side (numjobs
# clones; jobs that differ only in a description, so one point of one
# series), several parameters varying without --x.  Inputs: perftest-shaped
# documents over 4 targets, one read only (the W half of zeros), the same
# document twice, an iodepth sweep in one group (side by side, but on
# different points: allowed), --series labels, --x.
source "$TOP/tests/lib.sh"
need_cmd "$JQ"

# job NAME RW BS GROUP MS [EXTRA_OPTS_JSON]: one fio job record (2 MiB moved)
job() {
	local dir=$2 other=write ext=${6:-}
	case $2 in *write) dir=write other=read ;; *read) dir=read ;; esac
	printf '{ "jobname" : "%s", "groupid" : %d, "error" : 0,\n' "$1" "$4"
	printf '  "job options" : { "name" : "%s", "rw" : "%s", "bs" : "%s"%s },\n' "$1" "$2" "$3" "$ext"
	printf '  "%s" : { "io_bytes" : 2097152, "runtime" : %d, "total_ios" : %d, "iops" : 1.0,\n' "$dir" "$5" $((2097152 / $3))
	printf '    "clat_ns" : { "mean" : 1500.5, "percentile" : { "50.000000" : 1400, "99.000000" : 2100, "99.900000" : 3000 } } },\n'
	printf '  "%s" : { "io_bytes" : 0, "runtime" : 0, "total_ios" : 0 },\n' "$other"
	printf '  "trim" : { "io_bytes" : 0, "runtime" : 0, "total_ios" : 0 }, "usr_cpu" : 1.5, "sys_cpu" : 2.5 }'
}
# doc TIMESTAMP TARGET JOB...: a document of those jobs
doc() {
	local ts=$1 tg=$2 sep= j
	shift 2
	printf '{ "fio version" : "fio-3.33", "timestamp" : %d, "timestamp_ms" : %d000,\n' "$ts" "$ts"
	printf '  "global options" : { "ioengine" : "null", "size" : "2m", "filename" : "%s" },\n  "jobs" : [\n' "$tg"
	for j; do
		printf '%s%s' "$sep" "$j"
		sep=$',\n'
	done
	printf '\n] }\n'
}
# perftest-shaped: 3 block sizes x W, R x 3 iterations, each its own group
perftest_doc() {	# perftest_doc K (file number: target K % 4, run times from K)
	local k=$1 g=0 bs d i jobs=()
	for bs in 1048576 65536 4096; do
		for d in write read; do
			for i in 1 2 3; do
				jobs+=("$(job "perftest-${d:0:1}-$bs-$i" "$d" "$bs" $g $((3 + (k * 7 + g * 5) % 11)))")
				g=$((g + 1))
			done
		done
	done
	doc $((1795980457 + k)) "/dev/memdisk$((k % 4))" "${jobs[@]}"
}
mkdir -p "$T/pt"
for k in $(seq 1 24); do perftest_doc "$k" > "$T/pt/r$k.json"; done
# read only: the W half prints zeros
doc 1795990000 /dev/ronly "$(job r1 read 4096 0 5)" "$(job r2 read 4096 1 7)" \
	"$(job r3 read 65536 2 4)" > "$T/ronly.json"
# a document and a later run of its jobs (fio output concatenated)
# (rerun() of lib-analysis.sh, never sourced here, shifts "timestamp" only:
# the copy was never made, and the case read r1.json once)
{ cat "$T/pt/r1.json"; sed 's/1795980458/1795984058/g' "$T/pt/r1.json"; } > "$T/twice.json"
grep -q '"timestamp_ms" : 1795984058000' "$T/twice.json" || fail "premise: twice.json's rerun"
# an iodepth sweep, each job its own group (stonewalled: points in one
# group ran at once and are refused, side-points.sh); the iterations differ
# in their description only
sw=()
g=0
for qd in 1 4 16; do
	for i in 1 2; do
		sw+=("$(job "qd$qd-$i" randread 4096 $g $((2 + qd + i)) ", \"iodepth\" : \"$qd\", \"description\" : \"try $i\"")")
		g=$((g + 1))
	done
done
doc 1795991000 /dev/sweep "${sw[@]}" > "$T/sweep.json"
# refusals: numjobs clones in one group, and two jobs of one point that
# differ only in their description (two classes, one point)
doc 1795992000 /dev/cl "$(job clone read 4096 0 5)" "$(job clone read 4096 0 6)" > "$T/clones.json"
doc 1795993000 /dev/de "$(job a read 4096 0 5 ', "description" : "x"')" \
	"$(job b read 4096 0 6 ', "description" : "y"')" > "$T/desc.json"
# two classes on one point: randrw jobs of bs 4k,8k and 4k,16k are two
# configurations whose reads would be one point of the bs axis: refused
rw2() {	# rw2 NAME BS MS WIOS: a randrw job, both directions (WIOS: writes in total_ios)
	printf '{ "jobname" : "%s", "groupid" : 0, "error" : 0,\n' "$1"
	printf '  "job options" : { "name" : "%s", "rw" : "randrw", "bs" : "%s" },\n' "$1" "$2"
	printf '  "read" : { "io_bytes" : 1048576, "runtime" : %d, "total_ios" : 256, "iops" : 1.0 },\n' "$3"
	printf '  "write" : { "io_bytes" : 1048576, "runtime" : %d, "total_ios" : %d, "iops" : 1.0 },\n' "$3" "$4"
	printf '  "trim" : { "io_bytes" : 0, "runtime" : 0, "total_ios" : 0 }, "usr_cpu" : 1.5, "sys_cpu" : 2.5 }'
}
doc 1795993500 /dev/rw "$(rw2 m8 4k,8k 5 128)" "$(rw2 m16 4k,16k 6 64)" > "$T/rwbs.json"
# two parameters vary independently: --x needed
doc 1795994000 /dev/two "$(job a read 4096 0 5 ', "iodepth" : "1", "numjobs" : "1"')" \
	"$(job b read 4096 1 6 ', "iodepth" : "4", "numjobs" : "1"')" \
	"$(job c read 4096 2 7 ', "iodepth" : "1", "numjobs" : "2"')" \
	"$(job d read 4096 3 8 ', "iodepth" : "4", "numjobs" : "2"')" > "$T/twovary.json"

# What must be equal: every table but the iteration columns and the note
# saying they are left out.
JQCUT='.tables[] | .columns |= map(select(.key | test("^[WRM][0-9]+_s$") | not)) |
	.rows |= map(with_entries(select(.key | test("^[WRM][0-9]+_s$") | not))) |
	.notes |= map(select(startswith("--no-iterations") | not))'
n=0
check() {	# check NAME ARGS...: the full and the folded run agree; RC = exit status
	local name=$1 frc nrc
	shift
	"$FIOTAB" perftest --format=json "$@" > "$T/full.json" 2> "$T/full.err"
	frc=$?
	"$FIOTAB" perftest --no-iterations --format=json "$@" > "$T/fold.json" 2> "$T/fold.err"
	nrc=$?
	assert_eq "$name: exit status" "$frc" "$nrc"
	assert_eq "$name: stderr" "$(cat "$T/full.err")" "$(cat "$T/fold.err")"
	if [ "$frc" = 0 ]; then
		"$JQ" "$JQCUT" "$T/full.json" > "$T/full.cut" || fail "$name: full JSON"
		"$JQ" "$JQCUT" "$T/fold.json" > "$T/fold.cut" || fail "$name: folded JSON"
		[ -s "$T/full.cut" ] || fail "$name: no table"
		cmp -s "$T/full.cut" "$T/fold.cut" ||
			fail "$name: --no-iterations differs: $(diff "$T/full.cut" "$T/fold.cut" | head -8)"
		"$JQ" -e '[.tables[].notes[] | select(startswith("--no-iterations"))] | length > 0' \
			"$T/fold.json" > /dev/null || fail "$name: no note on the left-out columns"
		"$JQ" -e '[.tables[].columns[].key | select(test("^[WRM][0-9]+_s$"))] | length == 0' \
			"$T/fold.json" > /dev/null || fail "$name: iteration columns printed"
	fi
	n=$((n + 1))
	RC=$frc
}
check perftest "$T"/pt/*.json; [ "$RC" = 0 ] || fail "perftest-shaped input refused"
check "read only" "$T/ronly.json" "$T"/pt/r2.json; [ "$RC" = 0 ] || fail "read-only input refused"
"$JQ" -e '[.tables[] | select(.title == "series /dev/ronly") | .rows[] | .W_avg_MBps] | all(. == 0)' \
	"$T/fold.json" > /dev/null || fail "read only: no W half of zeros"
check twice "$T/twice.json"; [ "$RC" = 0 ] || fail "a document and its rerun refused"
# the same document twice is one run read twice: refused alike, folded or not
check "one run twice" "$T/pt/r1.json" "$T/pt/r1.json"; [ "$RC" = 2 ] || fail "one run read twice not refused"
assert_match "one run twice" "r1.json document 1 and .*r1.json document 1 are the same fio run" "$(cat "$T/fold.err")"
check sweep "$T/sweep.json"; [ "$RC" = 0 ] || fail "a stonewalled sweep refused"
check "sweep --x iodepth" --x iodepth "$T/sweep.json"; [ "$RC" = 0 ] || fail "--x iodepth refused"
check "--series" --series 'perftest-(w)' --series 'perftest-(r)' "$T"/pt/*.json; [ "$RC" = 0 ] ||
	fail "--series refused"
check "mixed inputs" "$T"/pt/r3.json "$T/sweep.json" "$T/ronly.json" --x bs; [ "$RC" = 0 ] ||
	fail "mixed inputs refused"
check clones "$T/clones.json"; [ "$RC" = 1 ] || fail "numjobs clones not refused"
assert_match "clones" "ran side by side" "$(cat "$T/fold.err")"
check "one point, two descriptions" "$T"/pt/r5.json "$T/desc.json"; [ "$RC" = 1 ] ||
	fail "two jobs of one point in one group not refused"
assert_match "descriptions" "jobs 'a' and 'b' ran side by side" "$(cat "$T/fold.err")"
check "one read point, two configurations" "$T/rwbs.json"; [ "$RC" = 1 ] ||
	fail "two configurations on one point not refused"
assert_match "bs 4k,8k and 4k,16k" "jobs 'm8' \([^ ]*/rwbs.json, bs 4096,8192\) and 'm16' \([^ ]*/rwbs.json, bs 4096,16384\) would be one read point" "$(cat "$T/fold.err")"
check "two vary" "$T/twovary.json"; [ "$RC" = 1 ] || fail "two varying parameters not refused"
check "two vary --x" --x iodepth "$T/twovary.json"; [ "$RC" = 0 ] || fail "--x iodepth refused"
check "bad regex" --series '(' "$T/pt/r1.json"; [ "$RC" = 1 ] || fail "a bad regex accepted"
"$FIOTAB" summary --no-iterations "$T/pt/r1.json" > /dev/null 2> "$T/err" && fail "summary --no-iterations accepted"
assert_match "other commands" "summary: --no-iterations is not an option of this command" "$(cat "$T/err")"
note "$n inputs: --no-iterations prints the full tables' avg, std and IOPS, refuses what they refuse"
exit 0
