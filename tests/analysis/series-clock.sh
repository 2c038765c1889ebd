#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab series on logs of fio's other clocks: log_unix_epoch=1 or
# log_alternate_epoch=1 with log_alternate_epoch_clock_id=1 (CLOCK_MONOTONIC)
# or 7 (CLOCK_BOOTTIME) write ms since boot, which read as ms since the
# job's start (or from --start) put every sample hours late; refused in
# every format and with every time option, naming the file, line and option.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
cat > j.fio <<EOF2
[global]
ioengine=null
size=16m
rw=read
bs=4k
rate_iops=1000
runtime=1
time_based=1
log_avg_msec=200
[mono]
write_bw_log=mono
write_lat_log=mono
log_unix_epoch=1
log_alternate_epoch_clock_id=1
[boot]
stonewall
write_iops_log=boot
log_alternate_epoch=1
log_alternate_epoch_clock_id=7
[own]
stonewall
write_bw_log=own
EOF2
run_fio --output-format=json j.fio > run.json 2> fio.err || fail "fio: $(cat fio.err)"
ls mono_bw.1.log mono_clat.1.log boot_iops.2.log own_bw.3.log > /dev/null || fail "fio did not write the logs: $(ls)"
# premise: the boot clocks' logs start hours (here: more than 10 s) in,
# the job clock's within its first windows
for f in mono_bw.1.log mono_clat.1.log boot_iops.2.log; do
	assert_eq "premise: $f starts after boot" 1 "$(awk -F', ' 'NR == 1 { print ($1 > 10000 && $1 < 946684800000); exit }' $f)"
done
assert_eq "premise: own_bw.3.log starts at its job's start" 1 "$(awk -F', ' 'NR == 1 { print ($1 < 1000); exit }' own_bw.3.log)"
$FIOTAB series --format=csv own_bw.3.log > /dev/null 2> err || fail "a job-clock log refused: $(cat err)"

start=1795980457123
for f in mono_bw.1.log mono_clat.1.log boot_iops.2.log; do
	for opt in "" --start=$start --unix-epoch; do
		for fmt in text csv influx; do
			[ "$fmt" = influx ] && [ -z "$opt" ] && continue
			$FIOTAB series --format=$fmt $opt $f > out 2> err &&
				fail "$f ($fmt $opt): a log of ms since boot read as a job's: $(sed -n 3,4p out)"
			[ -s out ] && fail "$f ($fmt $opt): output beside the refusal"
			assert_match "$f ($fmt $opt) refused" "^fiotab: series: $f:1: the log's first sample is at [0-9]+ ms, later than a log timed from its job's start begins .*log_alternate_epoch_clock_id=1, CLOCK_MONOTONIC, or 7, CLOCK_BOOTTIME.*give --unix-epoch$" "$(cat err)"
		done
	done
	$FIOTAB series -o s.svg $f 2> err && fail "$f plotted"
	[ -e s.svg ] && fail "s.svg written for $f"
	assert_match "$f plot refused" "$f:1: the log's first sample is at" "$(cat err)"
done
exit 0
