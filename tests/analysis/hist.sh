#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab hist on real fio json+ output: the bucket bounds against fio's own
# numbers (every exact min and max sample fio reports lies in the first and
# last bucket; every percentile fio prints is the key of a bucket that
# contains it), counts against fio's N, the Prometheus histogram through
# promtool, and the exhaustive bucket check (hist-test).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd promtool

"$B/tests/analysis/hist-test" > "$T/unit" || fail "hist-test: $(cat "$T/unit")"

cat > "$T/j.fio" <<EOF2
[global]
ioengine=null
size=8m
# paced to ~8 ms: fio writes 1 ms for any shorter run, which fiotab refuses
rate=1g
[rd]
rw=randread
bs=4k
lat_percentiles=1
[wr]
rw=write
bs=64k
slat_percentiles=1
EOF2
run_fio --output-format=json+ "$T/j.fio" > "$T/plus.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
run_fio --output-format=json "$T/j.fio" > "$T/plain.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"

$FIOTAB hist --format=csv --host testhost "$T/plus.json" > "$T/h.csv" || fail "fiotab hist csv"
$FIOTAB hist --format=json --host testhost "$T/plus.json" > "$T/h.json" || fail "fiotab hist json"
"$JQ" -r '.tables[0].rows[] | [.job, .dir, .latency, .lower_ns, (.upper_ns // ""), .count, .cumulative] | @tsv' \
	"$T/h.json" > "$T/h.tsv"
# fio's numbers: job dir lat min max N, and job dir lat percentile-value
"$JQ" -r '.jobs[] | .jobname as $j | ("read", "write") as $d | .[$d] as $o |
	("clat", "slat", "lat") as $l | $o[$l + "_ns"] | select(.bins != null) |
	[$j, $d, $l, .min, .max, .N] | @tsv' "$T/plus.json" > "$T/fio.tsv"
"$JQ" -r '.jobs[] | .jobname as $j | ("read", "write") as $d | .[$d] as $o |
	("clat", "slat", "lat") as $l | $o[$l + "_ns"] | select(.bins != null) |
	.percentile | to_entries[] | [$j, $d, $l, .value] | @tsv' "$T/plus.json" > "$T/pct.tsv"
[ "$(wc -l < "$T/fio.tsv")" -ge 3 ] || fail "fio wrote fewer histograms than asked: $(cat "$T/fio.tsv")"
awk -F'\t' '
	FNR == 1 { file++ }
	file == 1 { k = $1 SUBSEP $2 SUBSEP $3
		lo = $4; hi = $5 == "" ? 1e30 : $5
		if (lo > hi) { print "bounds " $0; bad++ }
		if (!(k in first)) { first[k] = lo; firsthi[k] = hi }
		lastlo[k] = lo; lasthi[k] = hi; sum[k] += $6; cum[k] = $7
		nb[k]++; blo[k, nb[k]] = lo; bhi[k, nb[k]] = hi
		if (prevhi[k] != "" && lo <= prevhi[k]) { print "overlap " $0; bad++ }
		prevhi[k] = hi; next }
	file == 2 { k = $1 SUBSEP $2 SUBSEP $3; seen[k] = 1
		if (!($4 >= first[k] && $4 <= firsthi[k])) { print "min " $4 " not in first bucket " first[k] ".." firsthi[k] " of " $1 " " $2 " " $3; bad++ }
		if (!($5 >= lastlo[k] && $5 <= lasthi[k])) { print "max " $5 " not in last bucket of " $1 " " $2 " " $3; bad++ }
		if (sum[k] != $6 || cum[k] != $6) { print "N " $6 " but the buckets hold " sum[k] " (cumulative " cum[k] ")"; bad++ }
		next }
	file == 3 { k = $1 SUBSEP $2 SUBSEP $3; ok = 0
		for (i = 1; i <= nb[k]; i++) if ($4 >= blo[k, i] && $4 <= bhi[k, i]) ok = 1
		if (!ok) { print "percentile value " $4 " of " $1 " " $2 " " $3 " in no bucket"; bad++ }
		np++ }
	END { for (k in sum) if (!(k in seen)) { print "extra histogram " k; bad++ }
		if (np < 20) { print "only " np " percentiles checked"; bad++ }
		exit bad > 0 }' "$T/h.tsv" "$T/fio.tsv" "$T/pct.tsv" > "$T/check" ||
	fail "buckets against fio: $(head -5 "$T/check")"

# Prometheus: a valid histogram; +Inf and _count are fio's N; buckets cumulative
$FIOTAB hist --format=prom --host testhost --tag variant=a "$T/plus.json" > "$T/h.prom" || fail "fiotab hist prom"
promtool check metrics < "$T/h.prom" > "$T/lint" 2>&1 || fail "promtool: $(cat "$T/lint")"
assert_match "TYPE" '# TYPE fiotab_clat_seconds histogram' "$(cat "$T/h.prom")"
n=$(awk -F'\t' '$1 == "rd" && $2 == "read" && $3 == "clat" { print $6 }' "$T/fio.tsv")
assert_eq "rd clat _count" "$n" "$(grep '^fiotab_clat_seconds_count{fio_job="rd"' "$T/h.prom" | awk '{ print $2 }')"
assert_eq "rd clat +Inf" "$n" "$(grep '^fiotab_clat_seconds_bucket{fio_job="rd".*le="+Inf"' "$T/h.prom" | awk '{ print $2 }')"
grep '^fiotab_clat_seconds_bucket{fio_job="rd"' "$T/h.prom" | grep -q 'host="testhost".*variant="a"' ||
	fail "labels --host/--tag missing: $(grep -m1 _bucket "$T/h.prom")"
grep '^fiotab_[a-z]*_seconds_bucket' "$T/h.prom" | sed 's/,le="[^"]*"}/}/' |
	awk '{ if ($1 == k && $2 < v) { print "not cumulative: " $0; exit 1 } k = $1; v = $2 }' ||
	fail "buckets not cumulative"
# the mean fio printed, times N, is _sum (seconds)
awk -v m="$("$JQ" '.jobs[0].read.clat_ns.mean * .jobs[0].read.clat_ns.N * 1e-9' "$T/plus.json")" \
    -v s="$(grep '^fiotab_clat_seconds_sum{fio_job="rd"' "$T/h.prom" | awk '{ print $2 }')" \
    'BEGIN { exit !(s > 0 && (s - m) / m < 1e-12 && (m - s) / m < 1e-12) }' || fail "_sum is not mean * N"

# --tag in CSV: a column of its own, or the cells of the column it names
hdr=$($FIOTAB hist --format=csv --tag target=nvme0 --tag variant=a "$T/plus.json" 2> /dev/null | head -2 | tr -d '\r')
assert_eq "csv header" "table,series,variant,job,host,target,run,dir,latency,lower_ns,upper_ns,count,cumulative,percent" \
	"$(echo "$hdr" | head -1)"
assert_match "csv tag cells" '^histogram,"[^"]*",a,rd,[^,]*,nvme0,' "$(echo "$hdr" | tail -1)"
for t in job=x instance=x le=x quantile=x fio_job=x 9a=x a-b=x a=; do
	$FIOTAB hist --format=prom --tag "$t" "$T/plus.json" > /dev/null 2>&1 && fail "--tag $t accepted"
done

# Influx and JSON carry the same buckets
$FIOTAB hist --format=influx "$T/plus.json" > "$T/h.lp" 2> /dev/null || fail "fiotab hist influx"
assert_eq "influx lines = csv rows" "$(($(wc -l < "$T/h.csv") - 1))" "$(wc -l < "$T/h.lp")"
assert_eq "csv rows = json rows" "$(($(wc -l < "$T/h.csv") - 1))" "$(wc -l < "$T/h.tsv")"
grep -q '^fiotab_histogram,.*bucket_lower_ns=[0-9]* count=[0-9]*,cumulative_count=[0-9]* [0-9]*$' "$T/h.lp" ||
	fail "influx line: $(head -1 "$T/h.lp")"

# plain json has no bins: refused, saying how to get them
$FIOTAB hist "$T/plain.json" > /dev/null 2> "$T/err" && fail "hist of plain json succeeded"
assert_match "plain json" 'json\+' "$(cat "$T/err")"
# a bin key no fio bucket has: refused, named
"$JQ" '.jobs[0].read.clat_ns.bins["1000000001"] = 1' "$T/plus.json" > "$T/badkey.json"
$FIOTAB hist "$T/badkey.json" > /dev/null 2> "$T/err" && fail "bad bin key accepted"
assert_match "bad key" "job 'rd' read.clat_ns.bins: \"1000000001\" is not the key of a fio bucket" "$(cat "$T/err")"
# client/server json+: one histogram per server; fio's "All clients" (the sum
# of the servers' bins) left out, said, and equal to the servers' sum
loopback_servers
printf '[cs]\nioengine=null\nsize=4m\nrate=100m\nrw=write\nbs=64k\n' > "$T/cs.fio"
timeout 60 "$FIO" --output-format=json+ --client=ip:127.0.0.1,$base "$T/cs.fio" \
	--client=ip:127.0.0.1,$((base + 1)) "$T/cs.fio" > "$T/cs.json" 2> "$T/cs.err" ||
	fail "fio client/server run: $(cat "$T/cs.err" "$T"/server.*.log)"
$FIOTAB hist --format=prom "$T/cs.json" > "$T/cs.prom" 2> "$T/cs.note" || fail "hist of client/server: $(cat "$T/cs.note")"
assert_match "aggregate note" '"All clients" record left out' "$(cat "$T/cs.note")"
grep -q 'All clients' "$T/cs.prom" && fail "aggregate in the histogram"
assert_eq "one series per server" "127.0.0.1:$base 127.0.0.1:$((base + 1))" \
	"$(grep '^fiotab_clat_seconds_count' "$T/cs.prom" | sed 's/.*host="\([^"]*\)".*/\1/' | sort | paste -sd' ')"
assert_eq "servers' counts = fio's aggregate N" \
	"$(sed -n '/^{/,$p' "$T/cs.json" | "$JQ" '.client_stats[] | select(.jobname == "All clients") | .write.clat_ns.N')" \
	"$(grep '^fiotab_clat_seconds_count' "$T/cs.prom" | awk '{ s += $2 } END { print s }')"
# Two histograms with one name (job, host, run, target, direction) would be
# summed by Prometheus and overwritten by InfluxDB: refused, saying how the
# jobs differ; numjobs clones are told about group_reporting.
run_fio --output-format=json+ --ioengine=null --size=4m --rate=500m --bs=4k --rw=randread \
	--name=same --iodepth=1 --name=same --iodepth=4 > "$T/dup.json" 2> "$T/fio.err" ||
	fail "fio: $(cat "$T/fio.err")"
for f in prom influx csv; do
	$FIOTAB hist --format=$f "$T/dup.json" > /dev/null 2> "$T/err" && fail "hist --format=$f merged two jobs named 'same'"
	assert_match "dup names ($f)" "two jobs named 'same' .* they differ in iodepth 1 / 4" "$(cat "$T/err")"
done
run_fio --output-format=json+ --ioengine=null --size=4m --rate=500m --bs=4k --rw=randread \
	--name=cl --numjobs=2 > "$T/clones.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
$FIOTAB hist --format=prom "$T/clones.json" > /dev/null 2> "$T/err" && fail "hist merged numjobs clones"
assert_match "clones" "numjobs clones.*group_reporting=1" "$(cat "$T/err")"
run_fio --output-format=json+ --ioengine=null --size=4m --rate=500m --bs=4k --rw=randread \
	--name=cl --numjobs=2 --group_reporting > "$T/grouped.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
$FIOTAB hist --format=prom "$T/grouped.json" > "$T/grouped.prom" 2> "$T/err" || fail "hist of group_reporting: $(cat "$T/err")"
promtool check metrics < "$T/grouped.prom" > "$T/lint" 2>&1 || fail "promtool: $(cat "$T/lint")"
# json+ of a job that measured no latency (gtod_reduce=1) has no bins:
# the refusal names the option, not only json+ (which it was)
run_fio --output-format=json+ --ioengine=null --size=4m --rate=500m --bs=4k --rw=randread \
	--name=gr --gtod_reduce=1 > "$T/gtod.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
"$JQ" -e '.jobs[0].read | .io_bytes > 0 and .clat_ns.N == 0' "$T/gtod.json" > /dev/null || fail "premise: no clat with gtod_reduce=1"
$FIOTAB hist "$T/gtod.json" > "$T/out" 2> "$T/err" && fail "hist without bins accepted: $(head -3 "$T/out")"
assert_match "gtod_reduce named" "^fiotab: hist: no latency bins in the input \(fio writes them with --output-format=json\+, for the latencies it measured: none with gtod_reduce=1" "$(cat "$T/err")"
exit 0
