#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The dashboard formats checked by their real consumers: every table's
# Prometheus exposition through "promtool check metrics", and every table's
# line protocol written into a local influxd (loopback port, temp config and
# data dir, killed on exit) and counted back with InfluxQL.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd promtool

seed_json "$DATA/seed000-block.txt" 134217728 /dev/md4 > "$T/block.json"
seed_json "$DATA/seed000-file.txt" 134217728 "/mnt/a file,with=odd chars" > "$T/file.json"
cat > "$T/j.fio" <<EOF2
[global]
ioengine=null
size=2m
rate=20m
stonewall
[iozone-write-64k]
rw=write
bs=64k
[iozone-read-64k]
rw=read
bs=64k
[bonnie-write]
rw=write
bs=64k
[bonnie-seeks]
rw=randread
bs=64k
EOF2
run_fio --output-format=json+ "$T/j.fio" > "$T/real.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"

cmds=("perftest $T/block.json $T/file.json" "ratio $T/block.json $T/file.json"
      "iozone $T/real.json" "bonnie $T/real.json" "dd $T/real.json" "summary $T/real.json $T/block.json")
for c in "${cmds[@]}"; do
	$FIOTAB $c --format=prom > "$T/p.prom" || fail "fiotab $c --format=prom"
	[ -s "$T/p.prom" ] || fail "fiotab $c: empty exposition"
	promtool check metrics < "$T/p.prom" > "$T/lint" 2>&1 || fail "promtool on '$c': $(cat "$T/lint")"
	# HELP a person can read, not the column key
	grep '^# HELP' "$T/p.prom" | grep -qv '^# HELP [^ ]* [A-Z0-9]' &&
		fail "'$c': unreadable HELP: $(grep '^# HELP' "$T/p.prom" | grep -v '^# HELP [^ ]* [A-Z0-9]' | head -1)"
	grep -q '[{,]job=' "$T/p.prom" && fail "'$c': label job (Prometheus renames it exported_job)"
done
# the same run appended twice: no two samples with the same name and labels
cat "$T/real.json" "$T/real.json" > "$T/twice.json"
for c in summary dd; do
	dups=$($FIOTAB $c --format=prom "$T/twice.json" | grep -v '^#' | sed 's/ [^ ]*$//' | sort | uniq -d)
	[ -z "$dups" ] || fail "$c: duplicate series: $(echo "$dups" | head -2)"
done
# the odd target survives label escaping
$FIOTAB perftest --format=prom "$T/file.json" | grep -q 'target="/mnt/a file,with=odd chars"' ||
	fail "label value not kept"

command -v influxd > /dev/null && command -v curl > /dev/null ||
	skip "promtool part passed; the InfluxDB part needs influxd and curl"

# influxd on a free loopback port, everything under $T, bounded waits
for try in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 20000))
	mkdir -p "$T/influx"
	cat > "$T/influx/influxd.conf" <<EOF2
reporting-disabled = true
bind-address = "127.0.0.1:$((port + 1))"
[meta]
  dir = "$T/influx/meta"
[data]
  dir = "$T/influx/data"
  wal-dir = "$T/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$port"
  log-enabled = false
[continuous_queries]
  enabled = false
EOF2
	influxd run -config "$T/influx/influxd.conf" > "$T/influx/log" 2>&1 &
	ipid=$!
	trap 'kill $ipid 2>/dev/null; wait $ipid 2>/dev/null; _pp_teardown' EXIT
	for i in $(seq 100); do
		curl -sf -o /dev/null "http://127.0.0.1:$port/ping" && break 2
		kill -0 $ipid 2>/dev/null || break
		sleep 0.1
	done
	kill $ipid 2>/dev/null
	wait $ipid 2>/dev/null
done
curl -sf -o /dev/null "http://127.0.0.1:$port/ping" || fail "influxd did not start: $(tail -5 "$T/influx/log")"
q() { curl -sf -G "http://127.0.0.1:$port/query" --data-urlencode "db=fiotab" --data-urlencode "q=$1"; }
curl -sf -XPOST "http://127.0.0.1:$port/query" --data-urlencode "q=CREATE DATABASE fiotab" > /dev/null ||
	fail "CREATE DATABASE"

for c in "${cmds[@]}"; do
	$FIOTAB $c --format=influx > "$T/l.txt" || fail "fiotab $c --format=influx"
	code=$(curl -s -o "$T/resp" -w '%{http_code}' -XPOST \
		"http://127.0.0.1:$port/write?db=fiotab" --data-binary @"$T/l.txt")
	assert_eq "influx write of '$c' ($(cat "$T/resp"))" 204 "$code"
done
# perftest: 2 series x 18 block sizes x 2 directions of avg, 3 iterations each
out=$(q "SELECT count(throughput_bytes_per_second) FROM fiotab_perftest")
assert_match "perftest points" '"count",72\]|,72\]' "$out"
out=$(q "SELECT count(iteration_seconds) FROM fiotab_perftest")
assert_match "iteration points" ',216\]' "$out"
# the tags the dashboards group by, with the odd target intact
out=$(q "SHOW TAG VALUES FROM fiotab_perftest WITH KEY = target")
assert_match "target tag" 'a file,with=odd chars' "$out"
out=$(q "SHOW TAG KEYS FROM fiotab_summary")
for k in host target rw bs iodepth job; do
	assert_match "summary tag $k" "\"$k\"" "$out"
done
# a value read back equals the table's: 64 MiB W avg of /dev/md4 in MB/s
want=$($FIOTAB perftest "$T/block.json" | awk '$1 == 67108864 { print $5 }')
got=$(q "SELECT throughput_bytes_per_second FROM fiotab_perftest WHERE target = '/dev/md4' AND rw = 'write' AND bs = '67108864'" |
	"$JQ" -r '.results[0].series[0].values[0][1] / 1048576 | . * 1000 | round / 1000')
awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 0.0005 && b - a < 0.0005) }' ||
	fail "influx value $got != table $want"
# Re-ingesting writes the same points: the run is the document's content,
# the time its own timestamp_ms.  Two real runs of one job file, written as
# one file, then the second alone, then both again: the count stays that of
# the first write, and each run's points carry its own time.
run_fio --output-format=json "$T/j.fio" > "$T/a.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
run_fio --output-format=json "$T/j.fio" > "$T/b.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
cat "$T/a.json" "$T/b.json" > "$T/ab.json"
rows=$(($($FIOTAB summary --format=csv "$T/ab.json" | wc -l) - 1))
cnt() { q "SELECT count(iops) FROM fiotab_summary WHERE variant = 'reingest'" | "$JQ" '.results[0].series[0].values[0][1]'; }
for f in ab b ab; do
	$FIOTAB summary --format=influx --tag variant=reingest "$T/$f.json" > "$T/l.txt" 2> /dev/null ||
		fail "fiotab summary $f"
	code=$(curl -s -o "$T/resp" -w '%{http_code}' -XPOST \
		"http://127.0.0.1:$port/write?db=fiotab" --data-binary @"$T/l.txt")
	assert_eq "influx write of $f.json ($(cat "$T/resp"))" 204 "$code"
	assert_eq "points after writing $f.json" "$rows" "$(cnt)"
done
run=$($FIOTAB summary --format=json "$T/a.json" | "$JQ" -r '.tables[0].rows[0].run')
t=$(curl -sf -G "http://127.0.0.1:$port/query" --data-urlencode "db=fiotab" --data-urlencode "epoch=ms" \
	--data-urlencode "q=SELECT iops FROM fiotab_summary WHERE variant = 'reingest' AND run = '$run'" |
	"$JQ" '[.results[0].series[0].values[][0]] | unique | .[]')
assert_eq "time of a.json's points" "$("$JQ" '.timestamp_ms' "$T/a.json")" "$t"
# and their values are a.json's, not overwritten by b.json's
want=$("$JQ" -c '[.jobs[] | (.read, .write) | select(.io_bytes > 0) | .iops] | sort' "$T/a.json")
got=$(q "SELECT iops FROM fiotab_summary WHERE variant = 'reingest' AND run = '$run'" |
	"$JQ" -c '[.results[0].series[0].values[][1]] | sort')
assert_eq "values of a.json's points" "$want" "$got"
# A backslash in a tag: influxd unescapes only '\,', '\=' and '\ ' there,
# keeping '\\' as two bytes (other readers take one), so one is written as
# it is, and one that no spelling reads back (before another, before ',',
# '=' or ' ', at the end) is refused.  The old fiotab doubled it: job 'w\d'
# was read back as 'w\\d'.
"$JQ" '.jobs[0].jobname = "w\\d"' "$T/a.json" > "$T/bsl.json"
$FIOTAB summary --format=influx --tag variant=backslash "$T/bsl.json" > "$T/l.txt" 2> /dev/null ||
	fail "fiotab summary of job 'w\\d' --format=influx"
code=$(curl -s -o "$T/resp" -w '%{http_code}' -XPOST \
	"http://127.0.0.1:$port/write?db=fiotab" --data-binary @"$T/l.txt")
assert_eq "influx write of job 'w\\d' ($(cat "$T/resp"))" 204 "$code"
got=$(q "SHOW TAG VALUES FROM fiotab_summary WITH KEY = job WHERE variant = 'backslash'" |
	"$JQ" -c '[.results[0].series[0].values[][1]] | map(select(startswith("w")))')
assert_eq "job with a backslash read back by influxd" '["w\\d"]' "$got"
for name in 'w\\\\d' 'w\\,d' 'w\\=d' 'w\\ d' 'w\\'; do
	"$JQ" ".jobs[0].jobname = \"$name\"" "$T/a.json" > "$T/bsl.json"
	rc=0
	$FIOTAB summary --format=influx "$T/bsl.json" > "$T/out" 2> "$T/err" || rc=$?
	[ "$rc" = 1 ] || fail "job '$name' --format=influx: exit $rc, want 1: $(head -c 300 "$T/out")"
	[ ! -s "$T/out" ] || fail "job '$name' --format=influx: printed $(head -c 300 "$T/out")"
	assert_match "job '$name': the refusal" "summary --format=influx: label job='.*' has a backslash" "$(cat "$T/err")"
done
exit 0
