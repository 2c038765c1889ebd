#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio --client's logs: the client writes each server's write_bw_log as
# PREFIX_bw.N.log.HOST (HOST as given to --client).  fiotab series reads
# them with the host as a label (table column, Influx tag, plot legend),
# each sample equal to the log's line; two hosts' logs of one job are two
# series.  Two logs of one kind, job, N and host (two runs, or fio's two
# servers on one host, which write one file name) are refused naming both.
# The old code refused every client log ("not named as fio names its logs")
# and tabled two runs' PREFIX_bw.1.log as one Influx series.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd setsid timeout

port=$((20000 + $$ % 20000))
srv=
cleanup() {
	if [ -n "$srv" ]; then
		kill -- -"$srv" 2>/dev/null
		wait "$srv" 2>/dev/null
	fi
	_pp_teardown
}
trap cleanup EXIT
mkdir -p "$T/srv" "$T/cl"
# the server: its own process group (fio forks per connection), bounded
(cd "$T/srv" && exec setsid timeout --foreground 120 "$FIO" --server=ip:127.0.0.1,$port > "$T/server.log" 2>&1) &
srv=$!
printf '[global]\nioengine=null\nsize=16m\nrate=40m\nbs=64k\nrw=read\nwrite_bw_log=cl\nlog_avg_msec=50\n[j]\n' > "$T/cl/c.fio"
for i in $(seq 50); do
	(cd "$T/cl" && "$FIO" --output-format=json --client=ip:127.0.0.1,$port c.fio > c.json 2> c.err) && break
	sleep 0.2
done
L=$T/cl/cl_bw.1.log.127.0.0.1
[ -s "$L" ] || fail "premise: fio --client wrote no $L: $(ls "$T/cl"; cat "$T/cl/c.err")"

"$FIOTAB" series --format=csv "$L" > "$T/s.csv" 2> "$T/err" || fail "series of a client log: $(cat "$T/err")"
# (the title, "fio bw log, times ...", holds a comma: fields from 5)
got=$(tr -d '\r' < "$T/s.csv" | awk -F, 'NR > 1 { print $5, $6, $7, $8, $10, $NF }')
want=$(awk -F', ' '{ print "cl", 1, "read", $1, $2, "127.0.0.1" }' "$L")
assert_eq "client log rows = its lines, host from the name" "$want" "$got"

# two hosts' logs of one job: two series (Influx tag, legend)
cp "$L" "$T/cl/cl_bw.1.log.srv-b"
"$FIOTAB" series --format=influx --start=1700000000000 "$L" "$T/cl/cl_bw.1.log.srv-b" > "$T/s.influx" 2> "$T/err" ||
	fail "series of two hosts' logs: $(cat "$T/err")"
assert_eq "an Influx series per host" "fiotab_series_bw,job=cl,jobnum=1,rw=read,host=127.0.0.1
fiotab_series_bw,job=cl,jobnum=1,rw=read,host=srv-b" "$(cut -d' ' -f1 "$T/s.influx" | sort -u)"
"$FIOTAB" series -o "$T/s.svg" "$L" "$T/cl/cl_bw.1.log.srv-b" 2> "$T/err" || fail "plot of two hosts' logs: $(cat "$T/err")"
grep -q 'cl #1 read on srv-b' "$T/s.svg" || fail "the legend names no host"

# per_job_logs=0's client name, PREFIX_bw.log.HOST; a host with '.log.' in it
cp "$L" "$T/cl/cl_bw.log.a.log.b"
"$FIOTAB" series --format=csv "$T/cl/cl_bw.log.a.log.b" > "$T/s2.csv" 2> "$T/err" || fail "PREFIX_bw.log.HOST: $(cat "$T/err")"
assert_eq "job and host of PREFIX_bw.log.HOST" "cl a.log.b" "$(tr -d '\r' < "$T/s2.csv" | awk -F, 'NR == 2 { print $5, $NF }')"

# one job's log twice (two runs; two servers on one host write one name)
mkdir -p "$T/run2"
cp "$L" "$T/run2/"
for f in text csv influx; do
	if "$FIOTAB" series --format=$f --start=1700000000000 "$L" "$T/run2/cl_bw.1.log.127.0.0.1" > "$T/out" 2> "$T/err"; then
		fail "--format=$f: two logs of one job and host tabled as one series"
	fi
	[ -s "$T/out" ] && fail "--format=$f: output beside the refusal"
	assert_match "refusal names both" "cl_bw.1.log.127.0.0.1 and .*run2/cl_bw.1.log.127.0.0.1 are both the bw log of job cl #1 on host 127.0.0.1" "$(cat "$T/err")"
done
cp "$L" "$T/run2/x_bw.1.log"
cp "$L" "$T/cl/x_bw.1.log"
! "$FIOTAB" series --format=influx --start=1700000000000 "$T/cl/x_bw.1.log" "$T/run2/x_bw.1.log" > /dev/null 2> "$T/err" ||
	fail "two local runs' logs of one job tabled as one Influx series"
exit 0
