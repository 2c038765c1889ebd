#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab at the limits of its input: a series of more jobs than an array on
# the stack can hold (the per-iteration rates, the text column widths and
# the CSV column map were VLAs, and 1.1M jobs overflowed an 8 MB stack).
# Run against a 64 KB stack so that 20,000 jobs are enough.  And cells
# longer than the 255 bytes the text, Markdown and CSV outputs cut them to.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

# many_jobs N: one fio document of N identical jobs on one target, each
# writing 4 KiB with bs=4k in 4 ms (1024000 B/s = 0.977 MB/s, 250 IOPS)
many_jobs() {
	awk -v n="$1" 'BEGIN {
		print "{\"fio version\" : \"fio-3.33\", \"timestamp\" : 1795980457, \"jobs\" : ["
		for (i = 0; i < n; i++)
			printf "%s{\"jobname\":\"j\",\"error\":0,\"job options\":{\"bs\":\"4k\",\"rw\":\"write\"},\"write\":{\"io_bytes\":4096,\"runtime\":4,\"total_ios\":1}}\n", i ? "," : ""
		print "]}"
	}'
}

# small_stack CMD...: fiotab with a 64 KB stack, output to $T/out
small_stack() {
	(ulimit -s 64 && exec "$FIOTAB" "$@") > "$T/out" 2> "$T/err"
}

n=20000
many_jobs $n > "$T/many.json"

small_stack perftest "$T/many.json" || fail "perftest of $n jobs: exit $?: $(head -3 "$T/err")"
# W: n times, avg, std, IOPS; then the R half the script prints as n + 3 zeros
assert_eq "perftest row of $n iterations" "$((2 * n + 7)) 4096 0.977 0.000 250.000 0.000" \
	"$(awk -v n=$n '$1 == 4096 { print NF, $1, $(n + 2), $(n + 3), $(n + 4), $NF }' "$T/out")"

small_stack perftest --format=csv "$T/many.json" || fail "csv of $n jobs: exit $?: $(head -3 "$T/err")"
# table, series, blocksize, W1_s..Wn_s, avg, std, IOPS, the same for R (zeros)
assert_eq "csv fields" "$((2 * n + 9)) $((2 * n + 9))" \
	"$(awk -F, '{ printf "%s%d", s, NF; s = " " }' "$T/out")"

small_stack perftest --format=markdown "$T/many.json" || fail "markdown of $n jobs: exit $?"
small_stack perftest --format=json "$T/many.json" || fail "json of $n jobs: exit $?"

# against a rerun of the same numbers an hour later (one run given as both
# sides is refused: samerun.c)
rerun "$T/many.json" > "$T/many2.json"
small_stack ratio "$T/many.json" "$T/many2.json" || fail "ratio of $n jobs: exit $?: $(head -3 "$T/err")"
assert_eq "ratio of a run with its rerun" "4096 1.00" "$(awk '$1 == 4096 { print $1, $2 }' "$T/out")"

small_stack plot -o "$T/many.svg" "$T/many.json" || fail "plot of $n jobs: exit $?: $(head -3 "$T/err")"
assert_eq "polylines" 2 "$(grep -c '<polyline' "$T/many.svg")"

# a 300-character job name, and 2^53 bytes less one I/O written in 2 ms:
# ~4.3e12 MB/s, the widest rate fio's counts can give that fiotab tables
# (1 ms is any run up to 1 ms: refused)
name=$(printf '%0300d' 0 | tr 0 n)
cat > "$T/long.json" <<EOF
{ "fio version" : "fio-3.33", "timestamp" : 1795980457, "jobs" : [ { "jobname" : "$name", "error" : 0,
  "job options" : { "bs" : "4k", "rw" : "write" },
  "write" : { "io_bytes" : 9007199254736896, "runtime" : 2, "total_ios" : 2199023255551 } } ] }
EOF
mbps=$(awk 'BEGIN { printf "%.3f", 9007199254736896 / (2 / 1000) / 1048576 }')
"$FIOTAB" summary "$T/long.json" > "$T/out" || fail "summary of a long job name"
assert_eq "text: job and MB/s cells" "$name $mbps" \
	"$(awk '!/^#/ && $1 != "job" { print $1, $6 }' "$T/out")"
"$FIOTAB" summary --format=markdown "$T/long.json" > "$T/out" || fail "markdown of a long job name"
grep -qF "| $name | - | write | write | 4096 | $mbps |" "$T/out" ||
	fail "markdown cells cut: $(grep -F "| n" "$T/out" | cut -c 1-80)..."
"$FIOTAB" summary --format=csv "$T/long.json" > "$T/out" || fail "csv of a long job name"
grep -qF ",$name,-," "$T/out" || fail "csv job field cut: $(sed -n 2p "$T/out" | cut -c 1-80)..."

# fio versions (from the input) of 300 characters each, two of them
v1=fio-3.33-$(printf '%0300d' 0 | tr 0 a)
v2=fio-3.33-$(printf '%0300d' 0 | tr 0 b)
{ sed "s/fio-3.33/$v1/" "$T/long.json"; rerun "$T/long.json" | sed "s/fio-3.33/$v2/"; } > "$T/vers.json"
"$FIOTAB" summary "$T/vers.json" > "$T/out" || fail "summary of long fio versions"
assert_eq "versions note" "# fio versions: $v1, $v2" "$(grep '^# fio version' "$T/out")"

# more distinct fio versions than a fixed list holds: every one is named
want=
for k in $(seq 1 40); do
	sed "s/fio-3.33/fio-3.$k/; s/\"timestamp\" : 1795980457/\"timestamp\" : $((1795980457 + k * 3600))/" "$T/long.json"
	want="$want${want:+, }fio-3.$k"
done > "$T/manyvers.json"
"$FIOTAB" summary "$T/manyvers.json" > "$T/out" || fail "summary of 40 fio versions"
assert_eq "40 versions in the note" "# fio versions: $want" "$(grep '^# fio version' "$T/out")"
exit 0
