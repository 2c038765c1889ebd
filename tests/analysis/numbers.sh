#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The numbers fiotab converts from fio's (ns to us and s, % to a ratio,
# usr_cpu + sys_cpu, bytes over whole ms) are the decimal results, in every
# output shape (21 MiB in 700 ms is 30 MiB/s, not 30.000000000000004): fio's
# 89600 ns clat p99.9 is 89.6 us and 8.96e-05 s, not 89.60000000000001 and
# 8.960000000000001e-05; usr_cpu 20.1 + sys_cpu 10.2 is 30.3 %, not
# 30.299999999999997.  Every number printed still reads back as the double
# fiotab holds (util.c fmt_double(), dec_scale(), dec_sum()).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"
need_cmd python3

# 4 MiB in 100 ms at 4k (and 200 ms read): rates with short decimal forms;
# in 102 ms: 39.21568627450981 MiB/s, a double whose shortest form has 16
# digits (cJSON's own printing wrote 39.215686274509807)
printf '4096 0.102 0.1 0.1 0 0 0 0.2 0.2 0.2 0 0 0\n' > "$T/rows.txt"
seed_json "$T/rows.txt" 4194304 /dev/nums > "$T/seed.json"
# clat percentiles as fio writes them; CPU % with 6 decimals, as fio's %f
sed -n '/^{/,$p' "$T/seed.json" | "$JQ" '
	(.jobs[] | (.read, .write) | select(.io_bytes > 0) | .clat_ns.percentile) |=
		{"50.000000": 12096, "99.000000": 89600, "99.900000": 1810432} |
	.jobs[0].usr_cpu = 20.1 | .jobs[0].sys_cpu = 10.2 |
	.jobs[1].usr_cpu = 42.857143 | .jobs[1].sys_cpu = 0 |
	.jobs[2].usr_cpu = 0.1 | .jobs[2].sys_cpu = 0.2' > "$T/in.json"

# 21 MiB in 700 ms: 30 MiB/s, where dividing by 0.7 s gave 30.000000000000004
printf '4096 0.7 0.7 0.7 0 0 0 0.7 0.7 0.7 0 0 0\n' > "$T/rows2.txt"
seed_json "$T/rows2.txt" 22020096 /dev/rate >> "$T/in.json"
# 1 MiB in 149 ms three times: equal rates whose sums leave a rounding
printf '4096 0.149 0.149 0.149 0 0 0 0.149 0.149 0.149 0 0 0\n' > "$T/rows3.txt"
seed_json "$T/rows3.txt" 1048576 /dev/eq >> "$T/in.json"
# render IN SUFFIX: summary, dd and perftest of IN in every machine format,
# $T/CMD$SUFFIX.FMT
render() {
	local cmd fmt
	for cmd in summary dd perftest; do
		for fmt in csv json influx prom; do
			"$FIOTAB" $cmd --format=$fmt --host h "$1" > "$T/$cmd$2.$fmt" 2> "$T/err" ||
				fail "$cmd --format=$fmt${2:+ ($2)}: $(cat "$T/err")"
		done
	done
}
render "$T/in.json" ""

# what fio measured, converted by hand
# (grep the files: assert_match's echo | grep -q fails on a long text under
# pipefail when grep stops reading first)
CR=$'\r'
has() { grep -Eq -- "$2" "$T/$1" || fail "$1: no value $3 (/$2/) in: $(head -c 2000 "$T/$1")"; }
for v in 12.096 89.6 1810.432 30.3 42.857143 0.3; do
	has summary.csv ",${v//./\\.}[,$CR]" "$v"	# RFC 4180: CR LF line ends
done
for v in 12.096 89.6 1810.432 30.3 0.3; do
	has summary.json "\"[^\"]+\":[[:space:]]*${v//./\\.},?\$" "$v"
done
for v in 1.2096e-05 8.96e-05 0.001810432 0.303 0.42857143 0.003; do
	has summary.influx "=${v//./\\.}[, ]" "$v"
	has summary.prom " ${v//./\\.}\$" "$v"
done
has dd.influx "cpu_user_ratio=0\\.201[, ]" "0.201 (us 20.1 %)"
has dd.prom " 0\\.102\$" "0.102 (sy 10.2 %)"

# JSON writes each number as CSV does (one helper, fmt_double())
python3 - "$T/summary.csv" "$T/summary.json" <<'PY' || fail "summary: JSON and CSV numbers differ (above)"
import csv, json, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
text = open(sys.argv[2]).read()
# the JSON rows' number texts, in order, as written
got = re.findall(r'"([^"]+)":\s*(-?\d[^,\s}]*)', text[text.index('"rows"'):])
tab = json.loads(text)["tables"][0]
keys = [c["key"] for c in tab["columns"]]
want = [(k, r[k]) for r, jr in zip(rows, tab["rows"]) for k in keys
        if type(jr[k]) in (int, float)]
if got != want:
    print('\n'.join('json %s=%s csv %s=%s' % (a + b) for a, b in zip(got, want) if a != b) or
          'json %d numbers, csv %d' % (len(got), len(want)))
    sys.exit(1)
PY
has summary.csv ",1,30,[0-9.]+," "30 (MiB/s of 21 MiB in 700 ms)"
# ... which the tables call MB/s, as blockdev-perftest does: they say it is
# 2^20 bytes/s (fio prints that rate as 30.0MiB/s and "31.5MB/s")
"$FIOTAB" summary --host h "$T/in.json" > "$T/summary.txt" 2> "$T/err" || fail "summary: $(cat "$T/err")"
has summary.txt "^# MB/s = 2\^20 bytes/s \(fio's MiB/s; its MB/s is 10\^6 bytes/s\)" "the MB/s note"
has summary.txt "^perftest-w-4096-1 +- +write +write +4096 +30\.000 " "30.000 (MiB/s of 21 MiB in 700 ms)"
has dd.csv ",0\\.7,31\\.45728," "31.45728 (MB/s of 21 MiB in 700 ms)"
has summary.influx "throughput_bytes_per_second=31457280," "31457280 (B/s of 21 MiB in 700 ms)"
"$FIOTAB" perftest --no-iterations --format=csv "$T/in.json" > "$T/perftest-noiter.csv" 2> "$T/err" ||
	fail "perftest --no-iterations: $(cat "$T/err")"
eq="6\\.711409395973154,0,1718\\.1208053691273"
for f in perftest.csv perftest-noiter.csv; do
	it=
	[ $f = perftest.csv ] && it="(0\\.149,){3}"
	has $f "^perftest,series /dev/eq,4096,$it$eq,$it$eq$CR\$" \
		"std 0 of three equal runs (1 MiB in 149 ms; the old code: 1.1920928955078125e-07)"
done
# perftest: three equal runs have std 0 (the old code: 3.371747880871523e-07
# MB/s from rates of 30.000000000000004), IOPS 7680 (7680.000000000001)
has perftest.csv "^perftest,series /dev/rate,4096,0\\.7,0\\.7,0\\.7,30,0,7680,0\\.7,0\\.7,0\\.7,30,0,7680$CR\$" "30, 0, 7680 (avg, std, IOPS of 21 MiB in 700 ms)"
grep -q '39\.21568627450981,' "$T/summary.csv" || fail "summary.csv: the 102 ms write's MiB/s is not 39.21568627450981"

# ratio: candidate over baseline as the decimal it is: 4 MiB in 5 ms over
# 4 MiB in 6 ms, three runs each, is 1.2, where the quotient of the mean
# rates is 1.2000000000000002 (the old ratio, in every machine format)
printf '4096 0.006 0.006 0.006 0 0 0 0.006 0.006 0.006 0 0 0\n' > "$T/rb.txt"
printf '4096 0.005 0.005 0.005 0 0 0 0.005 0.005 0.005 0 0 0\n' > "$T/rc.txt"
seed_json "$T/rb.txt" 4194304 /dev/rb > "$T/rb.json"
seed_json "$T/rc.txt" 4194304 /dev/rc > "$T/rc.json"
for fmt in csv json influx prom; do
	"$FIOTAB" ratio --format=$fmt --host h "$T/rb.json" "$T/rc.json" > "$T/ratio.$fmt" 2> "$T/err" ||
		fail "ratio --format=$fmt: $(cat "$T/err")"
done
has ratio.csv "^ratio,[^,]*,4096,1\\.2,1\\.2,.*,666\\.6666666666666,800$CR\$" "1.2 (W and R: 6 ms over 5 ms; baseline 666.6666666666666, candidate 800 MB/s)"
has ratio.influx " ratio=1\\.2 " "1.2"

# a modeled job's times and latencies times sim_time_scale, its IOPS over
# it, are the decimal results too: 193 ms at scale 5 is 0.965 s, fio's
# 4992 ns p50 24.96 us (the old 0.9650000000000001 and 24.960000000000004)
printf '4096 0.193 0.193 0.194 0 0 0 0.193 0.193 0.193 0 0 0\n' > "$T/m.txt"
seed_json "$T/m.txt" 4194304 /dev/sim "" fio-3.33 ', "coop_backend" : "sim", "sim_time_scale" : "5"' > "$T/m.json"
render "$T/m.json" -modeled
has perftest-modeled.csv ",4096,0\\.965,0\\.965,0\\.97," "0.965 (193 ms at scale 5)"
has summary-modeled.csv ",24\\.96,350\\.72,448," "24.96, 350.72, 448 (us: fio's ns times 5)"

# no fraction anywhere carries binary noise: 16 digits or more for a double
# within a rounding of a short decimal (the old 8.9600000000000005e-05)
python3 - "$T"/summary* "$T"/dd* "$T"/perftest* "$T"/ratio.* <<'PY' || fail "noisy numbers (above)"
import re, sys
bad = []
def digits(t):
    return re.sub(r'e.*|[-.]', '', t).lstrip('0')
num = re.compile(r'(?<![\w.-])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])')
for path in sys.argv[1:]:
    for line in open(path):
        if line.startswith('#'):
            continue
        for tok in num.findall(line):
            if tok.lstrip('-').isdigit():
                continue        # an integer (timestamps, counts) is exact
            # noise: 16 or more digits for a double a digit or two off a
            # short decimal (89.60000000000001); 39.21568627450981 is a rate
            if len(digits(tok)) >= 16 and len(digits('%.15g' % float(tok))) <= 12:
                bad.append('%s: %s' % (path.rsplit('/', 1)[1], tok))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
exit 0
