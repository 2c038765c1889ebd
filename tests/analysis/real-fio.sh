#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Real fio output (null engine, rate-limited so the numbers are plausible,
# plus one psync job on a scratch file) through every table and every
# format; perftest and summary cross-checked against jq on the same JSON;
# the sim contract (coop_backend=sim, sim_time_scale=N) scales and labels
# modeled jobs and never mixes them with real ones.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

cat > "$T/perftest.fio" <<EOF2
[global]
ioengine=null
size=4m
rate=32m
[perftest-w-65536-1]
rw=write
bs=65536
EOF2
for bs in 65536 4096; do
	for d in w r; do
		for i in 1 2 3; do
			[ "$bs$d$i" = 65536w1 ] && continue
			printf '[perftest-%s-%s-%s]\nstonewall\nrw=%s\nbs=%s\n' "$d" "$bs" "$i" \
				"$([ $d = w ] && echo write || echo read)" "$bs" >> "$T/perftest.fio"
		done
	done
done
cat > "$T/phases.fio" <<EOF2
[global]
ioengine=null
size=4m
# Bonnie's K/sec is "%6d": keep rates below 100 MB/s like the disks of 2001
rate=20m
stonewall
[iozone-write-64k]
rw=write
bs=64k
[iozone-rewrite-64k]
rw=write
bs=64k
[iozone-read-64k]
rw=read
bs=64k
[iozone-reread-64k]
rw=read
bs=64k
[iozone-randread-64k]
rw=randread
bs=64k
[iozone-randwrite-64k]
rw=randwrite
bs=64k
[bonnie-putc]
rw=write
bs=512
# 512 B at 20 MB/s keeps fio's CPU near 100 %, and "100.0" would run
# into the K/sec cell (as in Bonnie): a lower rate keeps the row splittable.
rate=2m
[bonnie-write]
rw=write
bs=64k
[bonnie-rewrite]
rw=rw
bs=64k
[bonnie-getc]
rw=read
bs=512
# 512 B at 20 MB/s keeps fio's CPU near 100 %, and "100.0" would run
# into the K/sec cell (as in Bonnie): a lower rate keeps the row splittable.
rate=2m
[bonnie-read]
rw=read
bs=64k
[bonnie-seeks]
rw=randread
bs=64k
numjobs=2
group_reporting
[dd-scratch]
ioengine=psync
filename=$T/scratch
rw=write
bs=1m
size=8m
# ... but slow enough to last more than 1 ms (fio's 1 ms is any run up to 1 ms: refused)
rate=800m
EOF2
run_fio --output-format=json+ "$T/perftest.fio" > "$T/perftest.json" 2> "$T/fio.err" ||
	fail "fio perftest jobs: $(cat "$T/fio.err")"
run_fio --output-format=json "$T/phases.fio" > "$T/phases.json" 2> "$T/fio.err" ||
	fail "fio phase jobs: $(cat "$T/fio.err")"

# every table in every format
for cmd in perftest iozone bonnie dd summary; do
	in=$T/phases.json
	[ $cmd = perftest ] && in=$T/perftest.json
	for fmt in text csv json markdown influx prom; do
		"$FIOTAB" $cmd --format=$fmt "$in" > "$T/out.$cmd.$fmt" 2> "$T/err" ||
			fail "fiotab $cmd --format=$fmt: $(cat "$T/err")"
		[ -s "$T/out.$cmd.$fmt" ] || fail "fiotab $cmd --format=$fmt printed nothing"
	done
	grep -q '^# fio version: fio-' "$T/out.$cmd.text" || fail "$cmd text has no fio version"
	"$JQ" -e '.schema == "fiotab/1" and (.tables | length) > 0 and
		  all(.tables[]; (.rows | length) > 0)' "$T/out.$cmd.json" > /dev/null ||
		fail "$cmd json does not follow the schema"
	# CSV: CRLF, and every record has the header's field count (quoted commas)
	awk 'BEGIN { RS = "\r\n" } NF {
		n = 0; q = 0
		for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); if (c == "\"") q = !q; else if (c == "," && !q) n++ }
		if (NR == 1) h = n; else if (n != h) { print "record " NR ": " n + 1 " fields, header " h + 1; exit 1 }
	}' "$T/out.$cmd.csv" || fail "$cmd csv malformed"
	grep -q $'\r$' "$T/out.$cmd.csv" || fail "$cmd csv lines do not end in CRLF"
	awk '/^###/ { h = 0 } /^\|/ { n = gsub(/[^\\]\|/, "&"); if (!h) h = n; else if (n != h) exit 1 }' "$T/out.$cmd.markdown" ||
		fail "$cmd markdown rows have different cell counts"
done

# ratio from one file: reads against writes, by job-name regex
"$FIOTAB" ratio --baseline-series '^perftest-w-' --candidate-series '^perftest-r-' \
	"$T/perftest.json" > "$T/ratio.text" 2> "$T/err" && fail "ratio of W against R should have no common direction"
grep -q "no direction in common" "$T/err" || fail "ratio error not said: $(cat "$T/err")"
"$FIOTAB" ratio --baseline-series '^perftest-.-65536' --candidate-series '^perftest-.-4096' \
	"$T/perftest.json" > /dev/null 2> "$T/err" && fail "ratio across block sizes should have no common row"
# the same file against itself is one run compared with itself, no
# comparison: refused as a run read twice (samerun.c), across the two sides
# too (it printed ratios 1.00, p 1.000), and so is a copy of it
for cand in "$T/perftest.json" "$T/perftest-copy.json"; do
	cp "$T/perftest.json" "$T/perftest-copy.json"
	"$FIOTAB" ratio "$T/perftest.json" "$cand" > "$T/ratio.text" 2> "$T/err" &&
		fail "ratio of a run with itself ($cand): $(cat "$T/ratio.text")"
	grep -q "^fiotab: $cand:1:1: job 'perftest-w-65536-1': $T/perftest.json document 1 and $cand document 1 are the same fio run" "$T/err" ||
		fail "ratio of a run with itself ($cand): $(cat "$T/err")"
	[ -s "$T/ratio.text" ] && fail "ratio of a run with itself printed: $(cat "$T/ratio.text")"
done
# ... a rerun of the same numbers (an hour later): ratios 1.00, not significant
sed -n '/^{/,$p' "$T/perftest.json" | "$JQ" '.timestamp += 3600 | .timestamp_ms += 3600000' > "$T/perftest-rerun.json"
"$FIOTAB" ratio "$T/perftest.json" "$T/perftest-rerun.json" > "$T/ratio.text" || fail "ratio"
rows=$(awk '$1 ~ /^[0-9]+$/' "$T/ratio.text")
assert_eq "self ratio rows" 2 "$(echo "$rows" | wc -l)"
echo "$rows" | awk '$2 != "1.00" || $3 != "1.00" || $4 != "1.000" || $5 != "1.000" { exit 1 }' ||
	fail "self ratio not 1.00 / p 1.000: $rows"

# perftest numbers: exactly the jq computation
awk '$1 ~ /^[0-9]+$/ { print "W", $1, $5, $6, $7; print "R", $1, $11, $12, $13 }' "$T/out.perftest.text" |
	sort > "$T/a"
jq_perftest "$T/perftest.json" | sort > "$T/b"
diff "$T/a" "$T/b" > "$T/d" || fail "perftest vs jq: $(cat "$T/d")"

# summary: MB/s and p99 against jq (ns to us as fiotab converts them, x 0.001: 350 ns / 1000 prints 0.3, 350 x 0.001 0.4)
"$JQ" -r '.jobs[] | . as $j | ("read", "write") as $d | select($j[$d].io_bytes > 0) |
	  [$j.jobname, $d, $j[$d].io_bytes / ($j[$d].runtime / 1000) / 1048576,
	   $j[$d].clat_ns.percentile["99.000000"] * 0.001] | @tsv' "$T/perftest.json" |
	awk -F'\t' '{ printf "%s %s %.3f %.1f\n", $1, $2, $3, $4 }' | sort > "$T/b"
"$FIOTAB" summary "$T/perftest.json" | awk '$1 ~ /^perftest/ { print $1, $4, $6, $9 }' | sort > "$T/a"
diff "$T/a" "$T/b" > "$T/d" || fail "summary vs jq: $(cat "$T/d")"

# iozone: the phases in their columns; bonnie: every phase present
row=$(awk '$1 ~ /^[0-9]+$/' "$T/out.iozone.text")
assert_eq "iozone KB reclen" "4096 64" "$(echo "$row" | awk '{ print $1, $2 }')"
assert_eq "iozone columns" 8 "$(echo "$row" | awk '{ print NF }')"
row=$(awk '$1 == "fio"' "$T/out.bonnie.text")
assert_eq "bonnie fields" 14 "$(echo "$row" | awk '{ print NF }')"
grep -q -- '--64k (02)-' "$T/out.bonnie.text" || fail "bonnie seek header: $(cat "$T/out.bonnie.text")"
# dd: the scratch file job wrote 8 MiB
grep -q '^8388608 bytes (8.4 MB) copied, [0-9.e-]* s, [0-9.]* [kMG]B/s$' "$T/out.dd.text" ||
	fail "dd line: $(grep 8388608 "$T/out.dd.text")"

# bssplit: the mean transfer size stands for the block size
run_fio --output-format=json --name=split --ioengine=null --size=4m --rate=400m --rw=write \
	--bssplit=4k/50:64k/50 > "$T/split.json" 2> "$T/fio.err" || fail "fio bssplit: $(cat "$T/fio.err")"
want=$("$JQ" -r '.jobs[0].write | (.io_bytes / .total_ios + 0.5 | floor)' <(sed -n '/^{/,$p' "$T/split.json"))
assert_eq "bssplit block size" "$want" "$("$FIOTAB" summary "$T/split.json" | awk '$1 == "split" { print $5 }')"

# plot: a well-formed SVG with one polyline per series and direction per panel
"$FIOTAB" plot -o "$T/p.svg" "$T/perftest.json" || fail "plot"
# MB/s and IOPS: 2 lines each; clat: p50, p99, p99.9 of each line
assert_eq "polylines" 10 "$(grep -c '<polyline' "$T/p.svg")"
# every point inside the canvas
read -r w h < <(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' "$T/p.svg")
grep -o 'points="[^"]*"' "$T/p.svg" | tr -d 'points="' | tr ' ' '\n' |
	awk -F, -v w="$w" -v h="$h" 'NF != 2 || $1 < 0 || $1 > w || $2 < 0 || $2 > h { print; bad = 1 } END { exit bad }' ||
	fail "plot points outside the ${w}x${h} canvas"
if command -v python3 > /dev/null; then
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/p.svg" ||
		fail "SVG not well-formed"
fi
"$FIOTAB" plot -o "$T/nodir/p.svg" "$T/perftest.json" 2> /dev/null && fail "plot into a missing dir"
ls "$T"/nodir* 2> /dev/null && fail "plot left a file behind"

# sim contract: coop_backend=sim + sim_time_scale=10 in "job options"
sed -n '/^{/,$p' "$T/perftest.json" |
	"$JQ" '.jobs[]["job options"] += {"coop_backend": "sim", "sim_time_scale": "10"} |
	  .timestamp += 3600 | .timestamp_ms += 3600000' > "$T/sim.json"
"$FIOTAB" perftest "$T/perftest.json" "$T/sim.json" > "$T/mixed.text" || fail "mixed perftest"
assert_eq "real and modeled series" "# series .
# series ., modeled (coop_backend=sim, time scale 10)" "$(grep '^# series' "$T/mixed.text")"
# modeled times are 10x, rates /10
real=$(awk '/^# series \.$/ { f = 1 } f && $1 == 65536 { print $2, $5; exit }' "$T/mixed.text")
sim=$(awk '/modeled/ { f = 1 } f && $1 == 65536 { print $2, $5; exit }' "$T/mixed.text")
awk -v r="$real" -v s="$sim" 'BEGIN { split(r, a, " "); split(s, b, " ");
	if (b[1] < a[1] * 10 - 0.01 || b[1] > a[1] * 10 + 0.01) exit 1;
	if (b[2] < a[2] / 10 - 0.002 || b[2] > a[2] / 10 + 0.002) exit 1 }' ||
	fail "sim scaling: real '$real' modeled '$sim'"
# in global options too, and absent scale = 1
sed -n '/^{/,$p' "$T/perftest.json" | "$JQ" '."global options" += {"coop_backend": "sim"}' > "$T/sim1.json"
"$FIOTAB" perftest "$T/sim1.json" | grep -q '^# series \., modeled (coop_backend=sim, time scale 1)$' ||
	fail "global coop_backend=sim not recognised"
"$FIOTAB" summary --format=influx "$T/sim.json" | grep -q 'mode=modeled,sim_time_scale=10' ||
	fail "modeled not tagged in influx"
# a modeled job paced under 100 ms: fio's runtime counts whole ms, rounded
# up, so its rate is not the model's (the engine's coop_backend=sim, 64 MiB
# of 1 MiB reads, 59.914 MB/s modeled: at sim_time_scale 200 fio's 6 ms
# printed 53.333 MiB/s, 11 % slow); refused, naming the scale that would
# do; at scale 5 (225 ms) the rate is the model's within 0.5 %
for cmd in perftest summary dd; do
	"$FIOTAB" $cmd "$DATA/probe/modeled-short.json" > "$T/out" 2> "$T/err" &&
		fail "$cmd: a modeled job of 6 ms was tabled: $(cat "$T/out")"
	assert_match "$cmd: modeled job too short" \
		"modeled-short.json:1:1: job 'perftest-r-1048576-1': \"read.runtime\" is 6 ms: a modeled job paced that short \(sim_time_scale 200\) reads up to 1 ms \(17 %\) slow.*sim_time_scale at most 10" \
		"$(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "$cmd: printed $(cat "$T/out")"
done
"$FIOTAB" perftest "$DATA/probe/modeled-5.json" > "$T/out" || fail "perftest of a 225 ms modeled job"
awk '$1 == 1048576 { exit !($7 > 0.995 * 57.139 && $7 < 57.139) }' "$T/out" ||
	fail "modeled at scale 5: R(avg) not within 0.5 % of the model's 57.139 MiB/s: $(cat "$T/out")"

# real client/server: two fio servers on loopback ports (killed on exit),
# one client run; per-server series plus fio's "All clients", never summed
loopback_servers
printf '[cs]\nioengine=null\nsize=4m\nrate=100m\nrw=write\nbs=64k\n' > "$T/cs.fio"
timeout 60 "$FIO" --output-format=json --client=ip:127.0.0.1,$base "$T/cs.fio" \
	--client=ip:127.0.0.1,$((base + 1)) "$T/cs.fio" > "$T/cs.json" 2> "$T/cs.err" ||
	fail "fio client/server run: $(cat "$T/cs.err" "$T"/server.*.log)"
"$FIOTAB" perftest "$T/cs.json" > "$T/cs.out" || fail "perftest of client/server output"
# (fio lists the clients in the order they finish)
assert_eq "client/server series" "$(printf '# series . on host %s\n' 127.0.0.1:$base \
	127.0.0.1:$((base + 1)) "All clients" | sort)" "$(grep '^# series' "$T/cs.out" | sort)"
"$FIOTAB" summary --format=csv "$T/cs.json" > "$T/cs.csv" || fail "summary of client/server output"
assert_eq "client/server summary rows" 3 "$(grep -c '^summary,' "$T/cs.csv")"
# the aggregate moved what both servers moved
"$JQ" -e '([.client_stats[] | select(.jobname != "All clients") | .write.io_bytes] | add) ==
	  (.client_stats[] | select(.jobname == "All clients") | .write.io_bytes)' \
	<(sed -n '/^{/,$p' "$T/cs.json") > /dev/null || fail "fio's aggregate is not the sum (test premise)"
exit 0
