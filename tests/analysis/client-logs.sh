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
# Two servers: fio's "All clients" record (the hosts' sum) is left out of
# the influx and prom outputs of summary, dd and perftest, said, so a sum
# over host is the hosts' bytes (the old code wrote it beside them as
# host="All clients": twice the bytes); the text table keeps its row.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd setsid timeout

port=$((20000 + $$ % 20000))
port2=$((port + 1))
srv=
srv2=
cleanup() {
	local p
	for p in $srv $srv2; do
		kill -- -"$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	_pp_teardown
}
trap cleanup EXIT
mkdir -p "$T/srv" "$T/cl"
# the server: its own process group (fio forks per connection), bounded
(cd "$T/srv" && exec setsid timeout --foreground 120 "$FIO" --server=ip:127.0.0.1,$port > "$T/server.log" 2>&1) &
srv=$!
mkdir -p "$T/srv2"
(cd "$T/srv2" && exec setsid timeout --foreground 120 "$FIO" --server=ip:127.0.0.1,$port2 > "$T/server2.log" 2>&1) &
srv2=$!
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

# two servers: 'All clients' in no dashboard output, said; the text keeps it
mkdir -p "$T/two"
printf '[global]\nioengine=null\nsize=4m\nrate=20m\nbs=64k\nrw=randrw\n[j]\n' > "$T/two/c.fio"
# (the second server may still be starting: retried as the first)
ok=
for i in $(seq 50); do
	(cd "$T/two" && "$FIO" --output-format=json+ --client=ip:127.0.0.1,$port c.fio --client=ip:127.0.0.1,$port2 c.fio > c.json 2> c.err) && ok=1 && break
	sleep 0.2
done
[ -n "$ok" ] || fail "fio with two servers: $(cat "$T/two/c.err")"
C=$T/two/c.json
sed -n '/^{/,$p' "$C" | "$JQ" -e '[.client_stats[] | select(.jobname == "All clients")] | length == 1' > /dev/null ||
	fail "premise: fio wrote no 'All clients' record"
want=$(sed -n '/^{/,$p' "$C" | "$JQ" '[.client_stats[] | select(.jobname != "All clients") | .read.io_bytes + .write.io_bytes] | add')
"$FIOTAB" dd --format=prom "$C" > "$T/out" 2> "$T/err" || fail "dd --format=prom: $(cat "$T/err")"
assert_eq "prom dd bytes summed over host and rw = the hosts'" "$want" \
	"$(awk '/^fiotab_dd_bytes\{/ { s += $NF } END { print s }' "$T/out")"
for c in summary dd perftest; do
	for f in influx prom; do
		"$FIOTAB" $c --format=$f "$C" > "$T/out" 2> "$T/err" || fail "$c --format=$f: $(cat "$T/err")"
		! grep -q 'All' "$T/out" || fail "$c --format=$f writes 'All clients' beside its hosts: $(grep -m1 All "$T/out")"
		grep -q "fio's 'All clients' record left out: it is the sum of the hosts' records" "$T/err" ||
			fail "$c --format=$f: the aggregate left out unsaid: $(cat "$T/err")"
	done
done
"$FIOTAB" summary "$C" > "$T/out" 2> "$T/err" || fail "summary: $(cat "$T/err")"
grep -q '^All clients' "$T/out" || fail "the text table lost the 'All clients' row"
# a --tag that replaces a label of several values here would make their
# series one (the old code wrote both hosts' samples as host=foo, and read
# and write as rw=x): refused, naming the values; a new label is fine
for f in csv json influx prom; do
	for t in host=foo rw=x; do
		! "$FIOTAB" dd --format=$f --tag $t "$C" > "$T/out" 2> "$T/err" || fail "dd --format=$f --tag $t: accepted"
		[ -s "$T/out" ] && fail "dd --format=$f --tag $t: output beside the refusal"
		grep -q -- "--tag $t replaces the label ${t%%=*}, which takes more than one value here ('[^']*', '[^']*'): their series would be one" "$T/err" ||
			fail "dd --format=$f --tag $t: $(cat "$T/err")"
	done
	"$FIOTAB" dd --format=$f --tag variant=a "$C" > /dev/null 2> "$T/err" || fail "dd --format=$f --tag variant=a: $(cat "$T/err")"
done
! "$FIOTAB" series --format=influx --start=1700000000000 --tag host=foo "$L" "$T/cl/cl_bw.1.log.srv-b" > /dev/null 2> "$T/err" ||
	fail "series: two hosts' logs tagged host=foo accepted"
grep -q -- "--tag host=foo replaces the label host, which takes more than one value here ('127.0.0.1', 'srv-b')" "$T/err" ||
	fail "series --tag host=foo: $(cat "$T/err")"
! "$FIOTAB" hist --format=prom --tag host=foo "$C" > "$T/out" 2> "$T/err" || fail "hist --format=prom --tag host=foo: accepted"
grep -Eq -- "--tag host=foo replaces the label host, which takes more than one value here \\('127\\.0\\.0\\.1:($port|$port2)', '127\\.0\\.0\\.1:($port|$port2)'\\)" "$T/err" ||
	fail "hist --format=prom --tag host=foo: $(cat "$T/err")"
"$FIOTAB" hist --format=prom --tag variant=a "$C" > /dev/null 2> "$T/err" || fail "hist --tag variant=a: $(cat "$T/err")"

# fio --client that cannot reach one of its servers goes on without it and
# exits 0, saying so before its JSON (--output: the same file): the document
# has no record of that host (nor an 'All clients' one). Refused, naming the
# host (the old fiotab tabled the two others as the run)
dead=$((port + 2))
mkdir -p "$T/dead"
cp "$T/two/c.fio" "$T/dead/"
(cd "$T/dead" && "$FIO" --output-format=json --output=d.json --client=ip:127.0.0.1,$port c.fio \
	--client=ip:127.0.0.1,$port2 c.fio --client=ip:127.0.0.1,$dead c.fio > d.out 2>&1) ||
	fail "premise: fio --client exits 0 without one of three servers: $(cat "$T/dead/d.out")"
grep -q "^fio: failed to connect to 127.0.0.1:$dead\$" "$T/dead/d.json" || fail "premise: no 'failed to connect' line: $(head -5 "$T/dead/d.json")"
assert_eq "premise: the document's records" "j:$port j:$port2" \
	"$(sed '/^{/,$!d' "$T/dead/d.json" | "$JQ" -r '[.client_stats[] | "\(.jobname):\(.port)"] | sort | join(" ")')"
for c in summary perftest dd "summary --format=influx"; do
	! "$FIOTAB" $c "$T/dead/d.json" > "$T/out" 2> "$T/err" || fail "$c of a run without one of its servers: accepted"
	[ -s "$T/out" ] && fail "$c: output beside the refusal: $(head -3 "$T/out")"
	grep -Eq "d\.json:[0-9]+:1: fio --client could not reach server 127\.0\.0\.1:$dead \('fio: failed to connect to 127\.0\.0\.1:$dead' at line [0-9]+\) and went on without it" "$T/err" ||
		fail "$c: $(cat "$T/err")"
done
exit 0
