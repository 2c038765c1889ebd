#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab series on logs from real fio runs: averaged (log_avg_msec, and
# log_max_value=1) and per-I/O logs, with and without log_offset; every row
# against the log's own line; Influx timestamps = --start + time; samples
# that Influx would fold into one point refused; errors name file:line;
# log_compression's bw and iops logs (each I/O's value) refused.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
cat > j.fio <<EOF2
[global]
ioengine=null
size=64m
[avg]
rw=randread
bs=4k
rate_iops=2000
runtime=2
time_based
write_bw_log=avg
write_iops_log=avg
write_lat_log=avg
log_avg_msec=200
[max]
stonewall
rw=randwrite
bs=4k
rate_iops=2000
runtime=1
time_based
write_lat_log=max
log_avg_msec=100
log_max_value=1
[raw]
stonewall
rw=write
bs=64k
size=2m
write_lat_log=raw
log_offset=1
[fast]
stonewall
rw=read
bs=4k
size=64m
write_iops_log=fast
write_bw_log=fast
write_lat_log=fast
EOF2
run_fio --output-format=json j.fio > run.json 2> fio.err || fail "fio: $(cat fio.err)"
ls avg_bw.1.log avg_iops.1.log avg_clat.1.log max_clat.2.log raw_clat.3.log fast_iops.4.log fast_bw.4.log fast_clat.4.log > /dev/null ||
	fail "fio did not write the logs: $(ls)"
# what fio 3.33 writes: 5 columns, 6 with log_offset
assert_eq "avg columns" 5 "$(awk -F', ' '{ print NF; exit }' avg_bw.1.log)"
assert_eq "offset columns" 6 "$(awk -F', ' '{ print NF; exit }' raw_clat.3.log)"

# every row is its line: time, value, ddir, bs, offset, prio
for f in avg_bw.1.log avg_iops.1.log avg_clat.1.log avg_lat.1.log max_clat.2.log raw_clat.3.log; do
	$FIOTAB series --format=json "$f" > s.json || fail "fiotab series $f"
	"$JQ" -r '.tables[0].rows[] | [.time_ms, .value, (if .dir == "read" then 0 elif .dir == "write" then 1 else 2 end), .bs, (.offset // "-"), .prio] | join(", ")' s.json > got
	awk -F', ' '{ print $1 ", " $2 ", " $3 ", " $4 ", " (NF == 6 ? $5 : "-") ", " $NF }' "$f" > want
	[ -s want ] || fail "$f is empty"
	cmp -s got want || fail "$f: rows differ from the log: $(diff want got | head -4)"
done
# averaged logs: bs 0 (fio's window entries); the per-I/O log: 64k, offsets 0, 64k, ...
assert_eq "averaged bs" 0 "$($FIOTAB series --format=json avg_bw.1.log | "$JQ" '[.tables[0].rows[].bs] | max')"
assert_eq "raw offsets" "$(seq 0 65536 $((2097152 - 65536)) | paste -sd' ')" \
	"$($FIOTAB series --format=json raw_clat.3.log | "$JQ" -r '[.tables[0].rows[].offset] | map(tostring) | join(" ")')"
# job and number from fio's names, units in the header
out=$($FIOTAB series avg_bw.1.log)
assert_match "text header" 'KiB/s' "$out"
assert_match "job name" '^avg  *1  *read' "$(echo "$out" | sed -n 4p)"

# Influx: times = --start + the log's ms, in ns; fields in base units
start=1795980457123
$FIOTAB series --format=influx --start=$start --tag variant=v1 avg_bw.1.log avg_clat.1.log > s.lp 2> err ||
	fail "influx: $(cat err)"
assert_eq "influx lines" "$(cat avg_bw.1.log avg_clat.1.log | wc -l)" "$(wc -l < s.lp)"
want=$(awk -F', ' -v s=$start '{ printf "%.0f000000\n", s + $1 }' avg_bw.1.log)
got=$(grep '^fiotab_series_bw,' s.lp | awk '{ print $NF }')
assert_eq "influx times" "$want" "$got"
grep -q '^fiotab_series_bw,job=avg,jobnum=1,rw=read,variant=v1 throughput_bytes_per_second=' s.lp ||
	fail "influx tags: $(head -1 s.lp)"
v=$(awk -F', ' 'NR == 1 { print $2 * 1024 }' avg_bw.1.log)
assert_match "bytes/s" "throughput_bytes_per_second=$v " "$(head -1 s.lp)"
# --unix-epoch takes the times as they are
printf '1795980457000, 100, 0, 0, 0\n1795980457500, 200, 0, 0, 0\n' > ep_bw.log
assert_eq "unix epoch" "1795980457500000000" "$($FIOTAB series --format=influx --unix-epoch ep_bw.log | tail -1 | awk '{ print $NF }')"
# ... and a log of the other time base is refused, in every format, naming
# file:line and the option: a unix-time log with --start (the old code put
# its points at start + unix time, in 2080) or with no option; a job-clock
# log with --unix-epoch (the old code: 1970)
for f in text csv influx; do
	$FIOTAB series --format=$f --start=1700000000000 ep_bw.log > out 2> err && fail "--format=$f: a unix-time log read from --start"
	[ -s out ] && fail "--format=$f: output beside the refusal"
	assert_match "unix time named" "ep_bw.log:1: time 1795980457000 ms is a unix time \(fio ran with log_unix_epoch=1\), not ms since the job's start: give --unix-epoch" "$(cat err)"
	$FIOTAB series --format=$f --unix-epoch avg_bw.1.log > out 2> err && fail "--format=$f: a job-clock log read as unix ms"
	assert_match "job clock named" "avg_bw.1.log:1: time [0-9]+ ms is no unix time \(before 2000\).*give --start=UNIX_MS instead" "$(cat err)"
done
$FIOTAB series ep_bw.log > out 2> err && fail "a unix-time log read as times since the job's start"
$FIOTAB series -o ep.svg ep_bw.log 2> err && fail "a unix-time log plotted as times since the job's start"
# no real time: refused for Influx (every point would land at the write's time)
$FIOTAB series --format=influx avg_bw.1.log > /dev/null 2> err && fail "influx without times"
assert_match "needs start" 'needs real times: --start' "$(cat err)"
# --start in other units than ms: date +%s's seconds put every point in
# January 1970, microseconds past Influx's int64 nanoseconds (the old code
# wrote both); refused, saying which
for f in influx text csv; do
	$FIOTAB series --format=$f --start=$((start / 1000)) avg_bw.1.log > out 2> err && fail "--start in seconds accepted (--format=$f)"
	[ -s out ] && fail "--start in seconds: output beside the refusal"
	assert_match "--start in seconds" "^fiotab: --start: $((start / 1000)) ms since 1970 is before 2000, no time fio ran: --start takes unix milliseconds \(date \+%s%3N\), not seconds" "$(cat err)"
	$FIOTAB series --format=$f --start=${start}000 avg_bw.1.log > out 2> err && fail "--start in microseconds accepted (--format=$f)"
	assert_match "--start in microseconds" "^fiotab: --start: ${start}000 ms since 1970 is after 2100, .*not micro- or nanoseconds" "$(cat err)"
done
# --start with the logs of two jobs: 'max' ran after 'avg' (stonewall, 2 s)
# but its log counts from its own start; the old code put both at --start
assert_eq "premise: max's log counts from its own start" 1 \
	"$(awk -F', ' 'NR == 1 { print ($1 < 2000); exit }' max_clat.2.log)"
for f in influx text csv json; do
	$FIOTAB series --format=$f --start=$start avg_clat.1.log max_clat.2.log > out 2> err &&
		fail "--start with two jobs' logs accepted (--format=$f): $(head -3 out)"
	[ -s out ] && fail "--start with two jobs' logs: output beside the refusal"
	assert_match "--start with two jobs' logs" "^fiotab: series: --start with avg_clat.1.log and max_clat.2.log, the logs of two jobs \(avg #1, max #2\): fio counts each log's times from its own job's start" "$(cat err)"
done
$FIOTAB series --start=$start -o two.svg avg_clat.1.log max_clat.2.log 2> err && fail "--start with two jobs' logs plotted"
[ -e two.svg ] && fail "two.svg written for a refused --start"
# a per-I/O log with several samples in one ms: Influx would keep one of them
$FIOTAB series --format=influx --start=$start fast_clat.4.log > /dev/null 2> err &&
	fail "colliding samples accepted"
assert_match "collision named" '^fiotab: series: fast_clat.4.log:[0-9]+: a read sample at [0-9]+ ms, not after line [0-9]+' "$(cat err)"
$FIOTAB series --format=prom avg_bw.1.log > /dev/null 2> err && fail "prom accepted"

# a log with DOS line ends (CR LF) reads as fio's own (the old code:
# "column 5: '\r' after the number", the CR invisible in the message)
mkdir crlf && sed 's/$/\r/' avg_bw.1.log > crlf/avg_bw.1.log
grep -q $'\r$' crlf/avg_bw.1.log || fail "premise: crlf/avg_bw.1.log ends lines in CR LF"
$FIOTAB series --format=csv avg_bw.1.log > want
(cd crlf && $FIOTAB series --format=csv avg_bw.1.log) > got 2> err || fail "a CRLF log refused: $(cat -v err)"
cmp -s got want || fail "a CRLF log's rows differ: $(diff want got | head -4)"

# errors name file:line
sed '3s/, 0, 0, 0$/, x, 0, 0/' avg_bw.1.log > bad_bw.1.log
$FIOTAB series bad_bw.1.log > /dev/null 2> err && fail "bad column accepted"
assert_match "bad column" '^fiotab: series: bad_bw.1.log:3: column 3 is not a whole number' "$(cat err)"
printf '10, 5, 0, 4096\n' > old_bw.log
$FIOTAB series old_bw.log > /dev/null 2> err && fail "4 columns accepted"
assert_match "4 columns" 'old_bw.log:1: 4 columns; fio 3.33 writes 5' "$(cat err)"
printf '10, 5, 0, 4096, 0\n20, 5, 0, 4096, 0, 0\n' > mix_bw.log
$FIOTAB series mix_bw.log > /dev/null 2> err && fail "mixed columns accepted"
assert_match "mixed" 'mix_bw.log:2: 6 columns after 5' "$(cat err)"
printf '10, 5, 7, 4096, 0\n' > dir_bw.log
$FIOTAB series dir_bw.log > /dev/null 2> err && fail "ddir 7 accepted"
assert_match "ddir" 'dir_bw.log:1: ddir 7' "$(cat err)"
printf '0x10, 5, 0, 4096, 0\n' > hex_bw.log
$FIOTAB series hex_bw.log > /dev/null 2> err && fail "hex time accepted"
assert_match "hex" 'hex_bw.log:1: column 1 is hexadecimal' "$(cat err)"
printf '10, 5, 0, 0, 0x0003\n' > prio_bw.log
# an older fio's log_offset=1 log (5 columns, the offset last, before fio
# added prio) is refused: the old fiotab showed its offset 1048576 as prio
printf '10, 5, 0, 4096, 0\n20, 5, 0, 4096, 1048576\n' > off_bw.log
$FIOTAB series off_bw.log > out 2> err && fail "an older fio's offset read as prio: $(tail -1 out)"
assert_match "offset in the prio column" 'off_bw.log:2: column 5 is 1048576: fio 3.33 writes prio there, decimal only as 0 or 1' "$(cat err)"
[ -s out ] && fail "printed for a refused log: $(head -3 out)"
printf '10, 5, 0, 4096, 0, 0x10000\n' > bigprio_bw.log
$FIOTAB series bigprio_bw.log > /dev/null 2> err && fail "prio 0x10000 accepted"
assert_match "prio over 16 bits" 'bigprio_bw.log:1: prio 0x10000 is more than' "$(cat err)"
assert_eq "log_prio=1 prio" 3 "$($FIOTAB series --format=json prio_bw.log | "$JQ" '.tables[0].rows[0].prio')"
cp avg_bw.1.log whatever.txt
$FIOTAB series whatever.txt > /dev/null 2> err && fail "unnamed log accepted"
assert_match "name" 'not named as fio names its logs' "$(cat err)"
# a newline in the name (write_bw_log=$'n\nl') is no label any output can
# show as it is (InfluxDB had it as an escaped space, text split the row)
cp avg_bw.1.log $'n\nl_bw.1.log'
$FIOTAB series --start=1796199350545 --format=influx $'n\nl_bw.1.log' > out 2> err && fail "a newline in a log's name accepted: $(head -2 out)"
assert_match "control name" "a log's name holds a control character \(0x0a\)" "$(cat err)"

# per_job_logs=0 writes every job's samples to one PREFIX_KIND.log, one job
# after the other: its times go back, and one series (text, csv, json, the
# plot's one line) would show two jobs as one; refused in every format,
# naming the line (before: rows of one job 'pj', a zig-zag polyline)
run_fio --output-format=json --name=pj --ioengine=null --size=16m --rate=50m --rw=read --bs=4k --numjobs=2 \
	--write_bw_log=pj --log_avg_msec=100 --per_job_logs=0 > pj.json 2> fio.err || fail "fio: $(cat fio.err)"
[ -f pj_bw.log ] && [ ! -e pj_bw.1.log ] || fail "per_job_logs=0 wrote: $(ls pj*)"
for f in text csv json; do
	$FIOTAB series --format=$f pj_bw.log > out 2> err && fail "a log of two jobs accepted ($f): $(head -5 out)"
	assert_match "two jobs in one log ($f)" '^fiotab: series: pj_bw.log:[0-9]+: a read sample at [0-9]+ ms, before line [0-9]+.s \([0-9]+ ms\): .*more than one job.s samples \(per_job_logs=0' "$(cat err)"
	[ -s out ] && fail "printed for a refused log ($f): $(head -3 out)"
done
$FIOTAB series -o pj.svg pj_bw.log 2> err && fail "a log of two jobs plotted"
[ -e pj.svg ] && fail "pj.svg written for a refused log"
# ... a log of a job whose per-I/O samples share a millisecond is one job's
cat avg_bw.1.log avg_bw.1.log > two_bw.log
$FIOTAB series two_bw.log > /dev/null 2> err && fail "two logs joined accepted"
$FIOTAB series fast_clat.4.log > /dev/null 2> err || fail "a per-I/O log refused: $(cat err)"
# ... but a bw or iops log of each I/O (no log_avg_msec) holds no rate of the
# job: fio logs 1 an I/O in the iops log, and that I/O's bytes over its own
# latency (bytes/ms) in the bw log; the old fiotab showed them as the job's
# IO/s and KiB/s (Influx iops=1, GB/s for a 4k read from the page cache)
"$JQ" -e '.jobs[] | select(.jobname == "fast") | .read.iops > 100' run.json > /dev/null ||
	fail "premise: the fast job ran more than 1 IO/s"
# log_refused WHAT LOG REGEX: series refuses LOG in text and Influx alike,
# nothing on stdout, the message matching REGEX
log_refused() {
	local what=$1 f=$2 re=$3 fmt
	for fmt in text influx; do
		$FIOTAB series --format=$fmt --start=$start "$f" > out 2> err && fail "$what $f tabled as the job's rate ($fmt): $(head -4 out)"
		[ -s out ] && fail "$what $f: output beside the refusal"
		assert_match "$what $f" "$re" "$(cat err)"
	done
}
for f in fast_iops.4.log fast_bw.4.log; do
	log_refused "a per-I/O" "$f" "^fiotab: series: $f:1: a (iops|bw) log of each I/O \(bs 4096: fio ran without log_avg_msec\)"
done

# ... nor does one fio wrote with log_compression or log_store_compressed:
# fio 3.33 then logs bw and iops per I/O and averages each I/O's own value
# over the windows (bs 0): the old fiotab tabled cz's 20 MiB/s as GB/s.
# The I/Os of a window's last ms each log a line, several at one ms; a
# compressed (.fz) log is zlib data, said
run_fio --output-format=json --name=cz --ioengine=null --size=16m --bs=4k --rw=read --rate=100m \
	--write_bw_log=cz --write_iops_log=cz --log_avg_msec=20 --log_compression=64k > cz.json 2> fio.err ||
	fail "fio log_compression: $(cat fio.err)"
awk -F', ' '{ n[$1 " " $3]++ } END { for (k in n) if (n[k] > 1) d = 1; exit !d }' cz_bw.1.log ||
	fail "premise: log_compression's bw log has no two lines of one direction at one ms: $(head -3 cz_bw.1.log)"
"$JQ" -e '.jobs[0].read.bw < 110000' cz.json > /dev/null || fail "premise: cz ran above its rate"
awk -F', ' '$2 > 1000000 { big = 1 } END { exit !big }' cz_bw.1.log ||
	fail "premise: log_compression's bw log holds no value 10x the job's rate"
for f in cz_bw.1.log cz_iops.1.log; do
	log_refused "log_compression's" "$f" "^fiotab: series: $f:[0-9]+: a second read window at [0-9]+ ms \(line [0-9]+'s time\): fio logs a direction's windows log_avg_msec apart, except with log_compression or log_store_compressed"
done
run_fio --output-format=json --name=fz --ioengine=null --size=4m --bs=4k --rw=read --rate=100m \
	--write_bw_log=fz --log_avg_msec=20 --log_compression=64k --log_store_compressed=1 > fz.json 2> fio.err ||
	fail "fio log_store_compressed: $(cat fio.err)"
[ -s fz_bw.1.log.fz ] || fail "premise: fio wrote no fz_bw.1.log.fz: $(ls)"
$FIOTAB series fz_bw.1.log.fz > out 2> err && fail "a .fz log tabled: $(head -4 out)"
assert_match ".fz log" "^fiotab: series: fz_bw.1.log.fz: zlib data, not a log's text: fio stored it compressed \(log_store_compressed=1" "$(cat err)"
# fio's own windows, even 1 ms ones, are one a direction and ms
run_fio --output-format=json --name=w1 --ioengine=null --size=64m --bs=4k --rw=randrw --rate=50m \
	--write_bw_log=w1 --write_iops_log=w1 --log_avg_msec=1 --time_based=1 --runtime=500ms > w1.json 2> fio.err ||
	fail "fio log_avg_msec=1: $(cat fio.err)"
$FIOTAB series w1_bw.1.log w1_iops.1.log > /dev/null 2> err || fail "log_avg_msec=1 windows refused: $(cat err)"

# the plot: one panel per kind, a line per log and direction
$FIOTAB series -o s.svg avg_bw.1.log avg_iops.1.log avg_clat.1.log max_clat.2.log || fail "series plot"
assert_eq "polylines" 4 "$(grep -c '<polyline' s.svg)"
assert_match "legend" '>avg #1 read</text>' "$(cat s.svg)"
exit 0
