#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab's input handling: fio warnings before the JSON, concatenated
# documents, stdin; malformed or truncated JSON -> "fiotab: FILE:LINE:COL:",
# exit 2 and nothing on stdout; --keep-going skips and says so; failed jobs
# and fio's "All clients" aggregate are never mixed in.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

head -3 "$DATA/seed000-block.txt" > "$T/rows"
seed_json "$T/rows" 134217728 /dev/sdx > "$T/good.json"
"$FIOTAB" perftest "$T/good.json" > "$T/good.out" || fail "good input rejected"

# concatenated documents (with text in between) = the same jobs twice:
# 6 iterations per direction, equal to the 3 given twice
{ cat "$T/good.json"; echo "fio: some warning between runs"; cat "$T/good.json"; } > "$T/two.json"
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

# client/server: "All clients" is its own series, never added to a host's
seed_json "$T/rows" 134217728 /dev/sdx hostA > "$T/a.json"
jq '.client_stats += [.client_stats[] | .hostname = "hostB"] |
    .client_stats += [.client_stats[] | select(.hostname == "hostA") | .jobname = "All clients" | del(.hostname)]' \
	<(sed -n '/^{/,$p' "$T/a.json") > "$T/cs.json"
"$FIOTAB" perftest "$T/cs.json" > "$T/cs.out" || fail "client/server perftest"
assert_eq "client/server series" "# series /dev/sdx on host hostA:8765
# series /dev/sdx on host hostB:8765
# series /dev/sdx on host All clients" "$(grep '^# series' "$T/cs.out")"
# each table still has 3 iterations (nothing double-counted)
assert_eq "iterations per host" "3 3 3" "$(witers "$T/cs.out")"
exit 0
