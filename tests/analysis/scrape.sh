#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A real Prometheus scrapes fiotab's exposition (summary gauges and the
# json+ histogram of a real fio run, served over HTTP on loopback) and is
# queried the way a dashboard would: by fio_job (not the scrape's "job",
# which Prometheus would have turned ours into exported_job), by the --tag
# label, and with histogram_quantile() against fio's own median.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd prometheus
need_cmd promtool
need_cmd curl
need_cmd python3

cat > "$T/j.fio" <<EOF2
[global]
ioengine=null
size=16m
# paced to ~8 ms: fio writes 1 ms for any shorter run, which fiotab refuses
rate=2g
[rd]
rw=randread
bs=4k
[wr]
rw=write
bs=64k
EOF2
run_fio --output-format=json+ "$T/j.fio" > "$T/plus.json" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
mkdir -p "$T/www"
{
	$FIOTAB summary --format=prom --tag variant=baseline "$T/plus.json" &&
	$FIOTAB hist --format=prom --tag variant=baseline "$T/plus.json"
} > "$T/www/metrics" 2> "$T/fiotab.err" || fail "fiotab: $(cat "$T/fiotab.err")"
promtool check metrics < "$T/www/metrics" > "$T/lint" 2>&1 || fail "promtool: $(cat "$T/lint")"
# a person can read the HELP lines
grep -q '^# HELP fiotab_job_iops I/Os per second of the fio job' "$T/www/metrics" ||
	fail "HELP: $(grep -m1 '^# HELP fiotab_job_iops' "$T/www/metrics")"
grep -q 'fiotab column' "$T/www/metrics" && fail "internal HELP left: $(grep -m1 'fiotab column' "$T/www/metrics")"

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; _pp_teardown' EXIT
up() { curl -sf -o /dev/null "$1"; }
# the exposition over HTTP, then Prometheus, each on a free loopback port
for try in 1 2 3 4 5; do
	hport=$((20000 + RANDOM % 20000))
	python3 -m http.server --bind 127.0.0.1 --directory "$T/www" "$hport" > "$T/http.log" 2>&1 &
	hpid=$!
	for i in $(seq 50); do
		up "http://127.0.0.1:$hport/metrics" && break 2
		kill -0 $hpid 2>/dev/null || break
		sleep 0.1
	done
	kill $hpid 2>/dev/null
	wait $hpid 2>/dev/null
done
pids+=("$hpid")
up "http://127.0.0.1:$hport/metrics" || fail "http server did not start: $(tail -3 "$T/http.log")"
cat > "$T/prom.yml" <<EOF2
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: fiotab
    static_configs:
      - targets: ['127.0.0.1:$hport']
EOF2
for try in 1 2 3 4 5; do
	pport=$((20000 + RANDOM % 20000))
	prometheus --config.file="$T/prom.yml" --storage.tsdb.path="$T/prom" \
		--web.listen-address="127.0.0.1:$pport" > "$T/prom.log" 2>&1 &
	ppid=$!
	for i in $(seq 100); do
		up "http://127.0.0.1:$pport/-/ready" && break 2
		kill -0 $ppid 2>/dev/null || break
		sleep 0.1
	done
	kill $ppid 2>/dev/null
	wait $ppid 2>/dev/null
done
pids+=("$ppid")
up "http://127.0.0.1:$pport/-/ready" || fail "prometheus did not start: $(tail -5 "$T/prom.log")"
q() { curl -sf -G "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1"; }

# bounded wait for the first scrape (1 s interval)
for i in $(seq 150); do
	n=$(q 'fiotab_job_iops{fio_job="rd"}' | "$JQ" '.data.result | length')
	[ "${n:-0}" -gt 0 ] && break
	sleep 0.2
done
out=$(q 'fiotab_job_iops{fio_job="rd"}')
assert_eq "series by fio_job" 1 "$(echo "$out" | "$JQ" '.data.result | length')"
m=$(echo "$out" | "$JQ" -c '.data.result[0].metric')
assert_eq "scrape job label" '"fiotab"' "$(echo "$m" | "$JQ" '.job')"
assert_eq "no exported_job" null "$(echo "$m" | "$JQ" '.exported_job')"
assert_eq "--tag label" '"baseline"' "$(echo "$m" | "$JQ" '.variant')"
assert_eq "local host" "\"$(hostname)\"" "$(echo "$m" | "$JQ" '.host')"
# the value scraped is fio's
want=$("$JQ" '.jobs[] | select(.jobname == "rd") | .read.iops' "$T/plus.json")
got=$(echo "$out" | "$JQ" -r '.data.result[0].value[1]')
awk -v a="$want" -v b="$got" 'BEGIN { exit !(a == b || (a - b) / a < 1e-9 && (b - a) / a < 1e-9) }' ||
	fail "iops scraped $got, fio $want"
# a dashboard's median: histogram_quantile over the scraped buckets lands in
# the fio bucket of fio's own p50 (1 ns wide below 128 ns, 1/64 above)
p50=$("$JQ" '.jobs[] | select(.jobname == "rd") | .read.clat_ns.percentile["50.000000"]' "$T/plus.json")
out=$(q 'histogram_quantile(0.5, fiotab_clat_seconds_bucket{fio_job="rd",rw="read"})')
got=$(echo "$out" | "$JQ" -r '.data.result[0].value[1]')
awk -v p="$p50" -v q="$got" 'BEGIN { w = p < 128 ? 1 : p / 64; q *= 1e9; exit !(q >= p - w - 1 && q <= p + w) }' ||
	fail "histogram_quantile(0.5) = $got s, fio's p50 = $p50 ns"
# summed over jobs (the query the histogram is for) it is a number too
out=$(q 'histogram_quantile(0.99, sum by (le) (fiotab_clat_seconds_bucket{variant="baseline"}))')
echo "$out" | "$JQ" -e '.data.result[0].value[1] | tonumber > 0' > /dev/null ||
	fail "aggregated quantile: $out"
exit 0
