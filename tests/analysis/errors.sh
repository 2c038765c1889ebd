#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab's input handling: fio warnings before the JSON, concatenated
# documents, stdin; malformed or truncated JSON -> "fiotab: FILE:LINE:COL:",
# exit 2 and nothing on stdout; so do numbers and integer options no fio
# writes (named with job and field); --keep-going skips and says so; failed
# jobs and fio's "All clients" aggregate are never mixed in.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

head -3 "$DATA/seed000-block.txt" > "$T/rows"
seed_json "$T/rows" 134217728 /dev/sdx > "$T/good.json"
"$FIOTAB" perftest "$T/good.json" > "$T/good.out" || fail "good input rejected"

# concatenated documents (with text in between), a run and a later one:
# 6 iterations per direction, equal to the 3 given twice
{ cat "$T/good.json"; echo "fio: some warning between runs"; rerun "$T/good.json"; } > "$T/two.json"
"$FIOTAB" perftest "$T/two.json" > "$T/two.out" || fail "concatenated documents rejected"
# the header has one "W" per iteration plus the IOPS column's
witers() { awk '/^blocksize/ { n = -1; for (i = 1; i <= NF; i++) if ($i == "W") n++; printf "%s%d", s, n; s = " " }' "$1"; }
assert_eq "iterations of 2 documents" 6 "$(witers "$T/two.out")"
# stdin gives the same as the file
"$FIOTAB" perftest < "$T/good.json" > "$T/stdin.out" || fail "stdin rejected"
cmp -s "$T/good.out" "$T/stdin.out" || fail "stdin output differs from file output"

# CRLF line ends and a UTF-8 byte order mark (files edited on Windows)
{ printf '\xef\xbb\xbf'; sed -n '/^{/,$p' "$T/good.json" | sed 's/$/\r/'; } > "$T/crlf.json"
"$FIOTAB" perftest "$T/crlf.json" > "$T/crlf.out" || fail "CRLF/BOM input rejected"
cmp -s "$T/good.out" "$T/crlf.out" || fail "CRLF/BOM input gives another table"

# errorpos FILE LINE COL: expect exit 2, the position, and an empty stdout
expect_error() {
	local what=$1 file=$2 pos=$3 rc
	"$FIOTAB" perftest "$T/good.json" "$file" > "$T/out" 2> "$T/err"
	rc=$?
	assert_eq "$what: exit status" 2 "$rc"
	[ -s "$T/out" ] && fail "$what: printed a table: $(head -3 "$T/out")"
	assert_match "$what: message" "^fiotab: $file:$pos: " "$(cat "$T/err")"
}

# a missing comma after the first "error" member
awk '!done && sub(/"error" : 0,/, "\"error\" : 0") { done = 1 } { print }' "$T/good.json" > "$T/bad.json"
line=$(grep -n '"hostname"\|"job options"' "$T/bad.json" | head -1 | cut -d: -f1)
col=$(awk -v l="$line" 'NR == l { match($0, /[^ ]/); print RSTART }' "$T/bad.json")
expect_error "missing comma" "$T/bad.json" "$line:$col"
grep -q "invalid JSON at '\"job options\"" "$T/err" || fail "no context in: $(cat "$T/err")"

# truncated in the middle: the position is the end of the file
printf '%s' "$(head -c 3000 "$T/good.json")" > "$T/trunc.json"
expect_error "truncated" "$T/trunc.json" "$(awk 'END { print NR ":" length($0) + 1 }' "$T/trunc.json")"
grep -q "truncated" "$T/err" || fail "truncation not named: $(cat "$T/err")"

# JSON that is not fio output, and a file with no JSON at all
echo '{ "hello" : 1 }' > "$T/notfio.json"
expect_error "not fio" "$T/notfio.json" "1:1"
grep -q 'no "jobs"' "$T/err" || fail "not-fio not named: $(cat "$T/err")"
echo "fio: just a warning" > "$T/nojson.txt"
expect_error "no JSON" "$T/nojson.txt" "1:1"

# numbers no fio writes: the document is malformed, named with job and
# field (converting them was undefined: 1e300 bytes to uint64_t in iozone,
# atoi() of an iodepth beyond int); cJSON reads 1e999 as inf
job1="job 'perftest-w-67108864-1'"
# hostile FIELD VALUE MESSAGE_REGEX: the first job's FIELD (the first one
# in the file: write.io_bytes, io_kbytes, ...) set to VALUE
hostile() {
	sed "0,/\"$1\" : [0-9.]*/s//\"$1\" : $2/" "$T/good.json" > "$T/hostile.json"
	cmp -s "$T/good.json" "$T/hostile.json" && fail "hostile: no $1 in the input"
	expect_error "$1 = $2" "$T/hostile.json" "2:1"
	assert_match "$1 = $2: message" "$3" "$(cat "$T/err")"
}
hostile io_bytes 1e300 "$job1: \"read.io_bytes\" is 1e\+300, out of range"
hostile io_bytes 1e999 "$job1: \"read.io_bytes\" is inf, out of range"
hostile io_bytes -1 "$job1: \"read.io_bytes\" is -1, out of range"
hostile io_bytes 9007199254740992 "\"read.io_bytes\" is 9.0072e\+15, out of range"
hostile iops 1e999 "$job1: \"read.iops\" is inf, out of range"
hostile runtime -1e999 "$job1: \"read.runtime\" is -inf, out of range"
hostile 50.000000 1e999 "$job1: \"read.clat_ns.percentile.50.000000\" is inf"
hostile timestamp 1e999 "^fiotab: [^ ]*: \"timestamp\" is inf, out of range"
# io_kbytes counts when io_bytes is 0: its bytes must stay below 2^53 too
sed '0,/"io_bytes" : 134217728, "io_kbytes" : 131072/s//"io_bytes" : 0, "io_kbytes" : 1000000000000000/' \
	"$T/good.json" > "$T/hostile.json"
expect_error "io_kbytes = 1e15" "$T/hostile.json" "2:1"
assert_match "io_kbytes message" "$job1: \"write.io_kbytes\" is 1e\+15, out of range" "$(cat "$T/err")"
# 2^53 - 1 is still a byte count (of a job whose size lets it move them)
sed '0,/"io_bytes" : 134217728\(.*\)"total_ios" : 2,/s//"io_bytes" : 9007199254740991\1"total_ios" : 134217728,/
	s/"size" : "134217728"/"size" : "9007199254740991"/' \
	"$T/good.json" > "$T/big.json"
grep -q '"total_ios" : 134217728,' "$T/big.json" || fail "premise: big.json's total_ios"

"$FIOTAB" perftest "$T/big.json" > /dev/null || fail "2^53 - 1 bytes rejected"
# integer options: the whole string (a fio size), within 1..INT_MAX
for v in 99999999999 -3 abc 8x ""; do
	sed "0,/\"rw\" : \"write\"/s//\"rw\" : \"write\", \"iodepth\" : \"$v\"/" \
		"$T/good.json" > "$T/hostile.json"
	expect_error "iodepth '$v'" "$T/hostile.json" "2:1"
	assert_match "iodepth '$v': message" "$job1: iodepth \"$v\" is not a whole number" "$(cat "$T/err")"
done
sed '0,/"rw" : "write"/s//"rw" : "write", "numjobs" : "4294967297"/' "$T/good.json" > "$T/hostile.json"
expect_error "numjobs 2^32 + 1" "$T/hostile.json" "2:1"
assert_match "numjobs message" "$job1: numjobs \"4294967297\" is not a whole number" "$(cat "$T/err")"
sed 's/"rw" : "write"/"rw" : "write", "iodepth" : "32", "numjobs" : "2"/' "$T/good.json" > "$T/opts.json"
"$FIOTAB" summary --format=json "$T/opts.json" > "$T/out" || fail "iodepth 32 rejected"
assert_match "iodepth read" '"iodepth":[[:space:]]*32,' "$(cat "$T/out")"
# fio reads integer options as sizes: iodepth=1k is 1024, not malformed
sed 's/"rw" : "write"/"rw" : "write", "iodepth" : "1k"/' "$T/good.json" > "$T/opts.json"
"$FIOTAB" summary --format=json "$T/opts.json" > "$T/out" || fail "iodepth 1k rejected"
assert_match "iodepth 1k read" '"iodepth":[[:space:]]*1024,' "$(cat "$T/out")"
# ... and 0x prefixes a hexadecimal one (fio's HOWTO, int): iodepth=0x10 is
# 16 (the old fiotab refused the document: 'not a whole number')
sed 's/"rw" : "write"/"rw" : "write", "iodepth" : "0x10"/' "$T/good.json" > "$T/opts.json"
"$FIOTAB" summary --format=json "$T/opts.json" > "$T/out" 2> "$T/err" || fail "iodepth 0x10 rejected: $(cat "$T/err")"
assert_match "iodepth 0x10 read" '"iodepth":[[:space:]]*16,' "$(cat "$T/out")"
# --keep-going skips such a document like any malformed one
sed '0,/"io_bytes" : 134217728/s//"io_bytes" : 1e300/' "$T/good.json" > "$T/hostile.json"
"$FIOTAB" perftest --keep-going "$T/good.json" "$T/hostile.json" > "$T/kg.out" 2> "$T/err" ||
	fail "--keep-going failed on a hostile number"
grep -q "^# INCOMPLETE: 1 input document(s) skipped" "$T/kg.out" || fail "hostile document not noted"
assert_match "hostile --keep-going" "^fiotab: $T/hostile.json:2:1: $job1: .*\(document skipped\)$" \
	"$(cat "$T/err")"
diff <(grep -v '^#' "$T/good.out") <(grep -v '^#' "$T/kg.out") > /dev/null ||
	fail "--keep-going on a hostile number changed the good table"

"$FIOTAB" perftest "$T/missing.json" > "$T/out" 2> "$T/err"
assert_eq "missing file status" 2 "$?"
assert_match "missing file" "missing.json: No such file" "$(cat "$T/err")"

# --keep-going: the table of the good input, marked incomplete, the skip on stderr
"$FIOTAB" perftest --keep-going "$T/good.json" "$T/trunc.json" > "$T/kg.out" 2> "$T/err" ||
	fail "--keep-going failed"
grep -q "^# INCOMPLETE: 1 input document(s) skipped" "$T/kg.out" || fail "--keep-going not noted"
grep -q "document skipped" "$T/err" || fail "--keep-going did not say what it skipped"
diff <(grep -v '^#' "$T/good.out") <(grep -v '^#' "$T/kg.out") > /dev/null ||
	fail "--keep-going changed the good table"

# jobs with error != 0 are reported and left out
sed '0,/"error" : 0/s//"error" : 5/' "$T/good.json" > "$T/err5.json"
"$FIOTAB" summary "$T/err5.json" > "$T/out" 2> "$T/err" || fail "summary with a failed job"
grep -q "job 'perftest-w-67108864-1' failed (error 5), left out" "$T/err" || fail "failed job not reported"
grep -q "perftest-w-67108864-1 " "$T/out" && fail "failed job was kept"

# no usable jobs: said, exit 1, nothing printed
sed 's/"io_bytes" : 134217728/"io_bytes" : 0/g; s/"io_kbytes" : 131072/"io_kbytes" : 0/g' "$T/good.json" > "$T/empty.json"
"$FIOTAB" perftest "$T/empty.json" > "$T/out" 2> "$T/err"
assert_eq "no jobs status" 1 "$?"
[ -s "$T/out" ] && fail "printed something without usable jobs"
grep -q "no usable jobs" "$T/err" || fail "no usable jobs not said"

# unknown format / command
"$FIOTAB" perftest --format=xml "$T/good.json" > /dev/null 2>&1 && fail "accepted --format=xml"
"$FIOTAB" frobnicate "$T/good.json" > /dev/null 2>&1 && fail "accepted an unknown command"

# client/server: fio's "All clients" record (client.c) sums every job every
# server reported in the run (io_bytes added, runtime the longest) and has
# no options.  For a sweep in one run it is no configuration's aggregate: it
# is left out with a warning, never read as rw=read bs=4096 (which made the
# IOPS 40-64x too high), and each host keeps its rows.  (Its iterations,
# groups of one fio --client run, are refused as iterations: whether they
# ran one after another the JSON does not tell; group-overlap.sh.)
seed_json "$T/rows" 134217728 /dev/sdx hostA > "$T/a.json"
agg='{ jobname: "All clients", groupid: 0, error: 0, hostname: "hostB", port: 8765,
      read: (reduce .[] as $j ({io_bytes: 0, runtime: 0, total_ios: 0}; .io_bytes += $j.read.io_bytes | .total_ios += $j.read.total_ios | .runtime = ([.runtime, $j.read.runtime] | max)) | . + {io_kbytes: (.io_bytes / 1024), iops: 1, bw_bytes: 1}),
      write: (reduce .[] as $j ({io_bytes: 0, runtime: 0, total_ios: 0}; .io_bytes += $j.write.io_bytes | .total_ios += $j.write.total_ios | .runtime = ([.runtime, $j.write.runtime] | max)) | . + {io_kbytes: (.io_bytes / 1024), iops: 1, bw_bytes: 1}),
      trim: {io_bytes: 0, runtime: 0}, usr_cpu: 1, sys_cpu: 1 }'
jq ".client_stats += [.client_stats[] | .hostname = \"hostB\"] | .client_stats += [.client_stats | $agg]" \
	<(sed -n '/^{/,$p' "$T/a.json") > "$T/cs.json"
"$FIOTAB" summary --format=json "$T/cs.json" > "$T/cs.out" 2> "$T/cs.err" || fail "client/server summary"
assert_match "aggregate of a sweep refused" "'All clients' record left out: the per-host jobs it sums (differ in their options|ran in different groups)" "$(cat "$T/cs.err")"
assert_eq "rows per host" "18 hostA:8765
18 hostB:8765" "$("$JQ" -r '.tables[].rows[].host' "$T/cs.out" | sort | uniq -c | sed 's/^ *//')"
# one job per host (what the runner does: a run per section): the aggregate
# is that configuration's, with the hosts' bs and rw, and its own series
for h in hostA hostB; do
	jq --arg h "$h" '.client_stats[] | select(.jobname == "perftest-w-67108864-1") | .hostname = $h' \
		<(sed -n '/^{/,$p' "$T/a.json")
done | jq -s "{\"fio version\": \"fio-3.33\", timestamp: 1795980457,
	\"global options\": {filename: \"/dev/sdx\", size: \"134217728\"},
	client_stats: (. + [. | $agg])}" > "$T/one.json"
"$FIOTAB" perftest "$T/one.json" > "$T/one.out" 2> "$T/one.err" || fail "one-job client/server perftest: $(cat "$T/one.err")"
[ -s "$T/one.err" ] && fail "warning on a valid aggregate: $(cat "$T/one.err")"
assert_eq "aggregate series" "# series /dev/sdx on host hostA:8765
# series /dev/sdx on host hostB:8765
# series /dev/sdx on host All clients" "$(grep '^# series' "$T/one.out")"
# the aggregate row: the hosts' block size, twice the bytes in the longest time
t=$(jq '[.client_stats[] | select(.jobname != "All clients") | .write.runtime] | max / 1000' "$T/one.json")
want=$(awk -v t="$t" 'BEGIN { printf "%9d %8.3f %8.3f", 67108864, t, 2 * 134217728 / t / 1048576 }')
got=$(awk '/^# series .*All clients/ { a = 1 } a && $1 == 67108864 { printf "%9d %8.3f %8.3f", $1, $2, $3 }' "$T/one.out")
assert_eq "aggregate = sum of the hosts" "$want" "$got"
# hosts whose options are all global ones: the aggregate has those too
jq '.["global options"] += (.client_stats[0]["job options"] | del(.name)) | del(.client_stats[]["job options"])' \
	"$T/one.json" > "$T/glob.json"
"$FIOTAB" perftest "$T/glob.json" > "$T/glob.out" 2> "$T/glob.err" || fail "global-options aggregate: $(cat "$T/glob.err")"
[ -s "$T/glob.err" ] && fail "warning on a valid aggregate of global options: $(cat "$T/glob.err")"
cmp -s "$T/one.out" "$T/glob.out" || fail "global options give other tables: $(diff "$T/one.out" "$T/glob.out")"
# an aggregate that is not the sum of the hosts' bytes is refused
jq '(.client_stats[] | select(.jobname == "All clients") | .write.io_bytes) += 4096' "$T/one.json" > "$T/bad-agg.json"
"$FIOTAB" perftest "$T/bad-agg.json" > "$T/bad-agg.out" 2> "$T/bad-agg.err" || fail "bad aggregate: per-host tables lost"
assert_match "bad aggregate refused" "left out: its write bytes .* are not the sum of the hosts'" "$(cat "$T/bad-agg.err")"
grep -q 'All clients' "$T/bad-agg.out" && fail "a wrong aggregate was tabled"
# more labels than a sample holds (22 options that differ between two
# series, + target, host, mode, rw, ...): refused, never some labels dropped
"$JQ" -n '{"fio version": "fio-3.33", timestamp: 1, timestamp_ms: 1000, jobs: [("a", "b") as $v | {
	jobname: "j", groupid: (if $v == "a" then 0 else 1 end), error: 0, usr_cpu: 1, sys_cpu: 1,
	"job options": ({name: "j", rw: "read", bs: "4096"} + ([range(22) | {key: "opt\(.)", value: $v}] | from_entries)),
	read: {io_bytes: 4194304, io_kbytes: 4096, bw_bytes: 4194304, iops: 1024, runtime: 1000, total_ios: 1024,
	       clat_ns: {mean: 1000}},
	write: {io_bytes: 0, runtime: 0}, trim: {io_bytes: 0, runtime: 0}}]}' > "$T/labels.json"
"$FIOTAB" perftest "$T/labels.json" > /dev/null 2> "$T/err" || fail "many parameters: text refused: $(cat "$T/err")"
"$FIOTAB" perftest --format=prom "$T/labels.json" > "$T/labels.prom" 2> "$T/err" &&
	fail "prom with more labels than a sample holds printed (labels dropped): $(head -c 300 "$T/labels.prom")"
assert_match "too many labels named" 'perftest: more than 24 labels on one sample' "$(cat "$T/err")"
[ -s "$T/labels.prom" ] && fail "prom refusal wrote output: $(head -c 300 "$T/labels.prom")"
"$FIOTAB" perftest --format=influx "$T/labels.json" > "$T/labels.influx" 2> "$T/err" &&
	fail "influx with more labels than a sample holds printed (labels dropped)"
assert_match "influx: too many labels named" 'perftest: more than 24 labels on one sample' "$(cat "$T/err")"
[ -s "$T/labels.influx" ] && fail "influx refusal wrote output: $(head -c 300 "$T/labels.influx")"
exit 0
