#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# group_reporting over several job sections of one group: fio writes one
# record, named after the first section, with the last one's options and
# every section's bytes (two targets' rates added under one target's
# name).  Size-based sections show it in their bytes (checks.sh); timed
# ones only in job_runtime, the sections' runs summed: refused, with
# group_reporting=1 and a bare group_reporting (absent from fio's JSON)
# alike; numjobs clones and sections apart (new_group) are read.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
for gr in group_reporting=1 group_reporting; do
	cat > j.fio <<EOF2
[global]
ioengine=null
size=1m
bs=4k
rw=read
rate=4m
time_based=1
runtime=600ms
$gr
[a]
filename=$T/fa
[b]
filename=$T/fb
EOF2
	run_fio --output-format=json j.fio > two.json 2> fio.err || fail "fio: $(cat fio.err)"
	# premise: one record, a's name, b's filename, both sections' bytes
	"$JQ" -e '(.jobs | length) == 1 and .jobs[0].jobname == "a" and .jobs[0]["job options"].filename == "'"$T/fb"'" and
		.jobs[0].read.io_bytes > 1.5 * 4 * 1048576 * 0.6 and .jobs[0].job_runtime >= 1150' two.json > /dev/null ||
		fail "premise ($gr): one record of both sections: $("$JQ" -c '.jobs[] | {jobname, o: .["job options"], b: .read.io_bytes, job_runtime}' two.json)"
	for cmd in summary dd perftest; do
		"$FIOTAB" $cmd two.json > out 2> err && fail "$gr, $cmd: two sections' record read as job a on $T/fb: $(tail -2 out)"
		[ -s out ] && fail "$gr, $cmd: output beside the refusal"
		assert_match "$gr, $cmd: refused" "^fiotab: two.json:1:1: job 'a': \"job_runtime\" is [0-9]+ ms, more than numjobs \(1\) times its runtime \([0-9]+ ms\): the record sums the runs of more jobs than its numjobs clones \(group_reporting over several job sections" "$(cat err)"
	done
	# ... new_group before the second section: two records, each read
	sed -i 's/^\[b\]$/[b]\nnew_group/' j.fio
	run_fio --output-format=json j.fio > apart.json 2> fio.err || fail "fio: $(cat fio.err)"
	"$FIOTAB" summary --format=csv apart.json > out 2> err || fail "$gr: sections apart refused: $(cat err)"
	assert_eq "$gr: sections apart" "a b" "$(tail -n +2 out | cut -d, -f4 | paste -sd' ')"
done
# ... and numjobs clones in one group_reporting record (job_runtime their sum)
printf '[c]\nioengine=null\nsize=1m\nbs=4k\nrw=read\nrate=4m\ntime_based=1\nruntime=600ms\nnumjobs=3\ngroup_reporting\n' > c.fio
run_fio --output-format=json c.fio > c.json 2> fio.err || fail "fio: $(cat fio.err)"
"$JQ" -e '.jobs[0].job_runtime >= 1700' c.json > /dev/null || fail "premise: three clones' job_runtime summed: $("$JQ" -c '.jobs[0].job_runtime' c.json)"
"$FIOTAB" summary c.json > out 2> err || fail "numjobs clones refused: $(cat err)"
exit 0
