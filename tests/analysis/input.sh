#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every document of a file is read, however they are concatenated: "}{" as
# json.dump() writes them, blanks or newlines between them; fio's warnings
# before the JSON still work, silently; any other text between or after
# documents is a warning naming FILE:LINE:COL (never silently dropped);
# --keep-going is linear in the number of broken documents; json+ latency
# bins, read or not, are still checked as JSON.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

head -3 "$DATA/seed000-block.txt" > "$T/rows"
seed_json "$T/rows" 134217728 /dev/sdx > "$T/good.json"
"$FIOTAB" perftest "$T/good.json" > "$T/good.out" 2> "$T/err" || fail "good input rejected"
# fio's warning before the JSON is fio's, not ours to repeat
[ -s "$T/err" ] && fail "warning on fio's text before the document: $(cat "$T/err")"
sed -n '/^{/,$p' "$T/good.json" | "$JQ" -c . > "$T/compact.json"
doc=$(cat "$T/compact.json")
# the second document: a later run of the same jobs (the same run twice is refused)
rerun "$T/good.json" > "$T/good2.json"
doc2=$(sed -n '/^{/,$p' "$T/good2.json" | "$JQ" -c .)
# the jobs and a later run of them: 6 iterations per direction, equal to the two files
witers() { awk '/^blocksize/ { n = -1; for (i = 1; i <= NF; i++) if ($i == "W") n++; printf "%s%d", s, n; s = " " }' "$1"; }
twice() {	# twice WHAT FILE: both documents read, nothing said
	"$FIOTAB" perftest "$2" > "$T/out" 2> "$T/err" || fail "$1: rejected: $(cat "$T/err")"
	assert_eq "$1: iterations" 6 "$(witers "$T/out")"
	[ -s "$T/err" ] && fail "$1: said something: $(cat "$T/err")"
	"$FIOTAB" perftest "$T/good.json" "$T/good2.json" > "$T/two.out"
	cmp -s "$T/out" "$T/two.out" || fail "$1: not the table of both documents"
}
printf '%s%s\n' "$doc" "$doc2" > "$T/adjacent.json"
twice '"}{"' "$T/adjacent.json"
printf '%s %s' "$doc" "$doc2" > "$T/blank.json"
twice '"} {" and no final newline' "$T/blank.json"
printf '%s\n\n%s\n' "$doc" "$doc2" > "$T/lines.json"
twice 'one document a line' "$T/lines.json"
{ sed -n '/^{/,$p' "$T/good.json"; printf '%s' "$doc2"; } > "$T/mixed.json"
twice 'fio layout then compact' "$T/mixed.json"
# three documents, pretty-printed ones with "}{" between them
{ sed -n '/^{/,$p' "$T/good.json" | sed '$s/}$/}{/'; sed -n '/^{/,$p' "$T/good2.json" | sed '1s/^{//'; } \
	> "$T/pretty.json"
twice 'pretty "}{"' "$T/pretty.json"

# text after a document: a warning with its line, the table still right
{ sed -n '/^{/,$p' "$T/good.json"; echo "fio: trailing garbage"; } > "$T/trail.json"
"$FIOTAB" perftest "$T/trail.json" > "$T/out" 2> "$T/err" || fail "trailing text rejected"
line=$(grep -n 'trailing garbage' "$T/trail.json" | cut -d: -f1)
assert_match "trailing text warning" "^fiotab: $T/trail.json:$line:1: warning: .*not JSON.*'fio: trailing garbage'" \
	"$(cat "$T/err")"
diff <(grep -v '^#' "$T/good.out") <(grep -v '^#' "$T/out") > /dev/null || fail "trailing text changed the table"
# right after the closing brace, on its line
printf '%s garbage\n' "$doc" > "$T/trail2.json"
"$FIOTAB" perftest "$T/trail2.json" > "$T/out" 2> "$T/err" || fail "trailing text on the line rejected"
assert_match "same-line warning" "^fiotab: $T/trail2.json:1:$((${#doc} + 2)): warning: .*'garbage'" "$(cat "$T/err")"
# text between documents: a warning, and the document after it is read
{ printf '%s\n' "$doc"; echo "fio: some warning between runs"; printf '%s\n' "$doc2"; } > "$T/between.json"
"$FIOTAB" perftest "$T/between.json" > "$T/out" 2> "$T/err" || fail "text between documents rejected"
assert_match "text between warning" "^fiotab: $T/between.json:2:1: warning: .*'fio: some warning betwe'" "$(cat "$T/err")"
assert_eq "text between: iterations" 6 "$(witers "$T/out")"

# a document whose '{' follows other text on its line (a message written
# without its newline, 2>&1 into the file) is refused at its '{', naming the
# text: the old fiotab dropped a second run with a warning about text that is
# not JSON (exit 0, a table without it), and a first one as 'no document found'
msg='fio: no newline here'
glued() {	# glued WHAT FILE LINE: refused at LINE, column after $msg; --keep-going skips it
	"$FIOTAB" perftest "$2" > "$T/out" 2> "$T/err"
	assert_eq "$1: status" 2 "$?"
	[ -s "$T/out" ] && fail "$1: a table was printed: $(cat "$T/out")"
	assert_match "$1" "^fiotab: $2:$3:$((${#msg} + 1)): a fio JSON document starts here, after other text on its line \\('$msg'\\)" \
		"$(cat "$T/err")"
	"$FIOTAB" perftest --keep-going "$2" > "$T/out" 2> "$T/err" || fail "$1: --keep-going: $(cat "$T/err")"
	grep -q "^# INCOMPLETE: 1 input document(s) skipped" "$T/out" || fail "$1: --keep-going: not noted"
}
{ printf '%s\n%s' "$doc" "$msg"; sed -n '/^{/,$p' "$T/good2.json"; } > "$T/glued2.json"
glued 'a glued second document' "$T/glued2.json" 2
{ printf '%s' "$msg"; sed -n '/^{/,$p' "$T/good.json"; printf '%s\n' "$doc2"; } > "$T/glued1.json"
glued 'a glued first document' "$T/glued1.json" 1
{ printf '%s\n%s%s\n' "$doc" "$msg" "$doc2"; } > "$T/gluedc.json"
glued 'a glued compact document' "$T/gluedc.json" 2

# a document cut short (fio killed while writing it) and another run's
# after it: the error is where the next one starts in column 1, named so, and
# --keep-going reads that one; the old fiotab read the next document's first
# lines into the cut job name (a string holding newlines, as fio writes them)
# or as a job, said 'invalid JSON at 'fio version" ...'' there, and
# --keep-going resumed after it, losing the complete run too
for cut in '$s/: ".*/: "perf/' '$s/: ".*/:/' '$s/"jobname".*//'; do
	sed -n '/^{/,$p' "$T/good.json" | sed -n '1,/"jobname"/p' | sed "$cut" > "$T/cut.json"
	line=$(($(wc -l < "$T/cut.json") + 1))
	sed -n '/^{/,$p' "$T/good2.json" >> "$T/cut.json"
	"$FIOTAB" perftest "$T/cut.json" > "$T/out" 2> "$T/err"
	assert_eq "cut short ($cut): status" 2 "$?"
	assert_match "cut short ($cut)" "^fiotab: $T/cut.json:$line:1: the JSON document from line 1 ends unfinished before this line, where another fio document starts" \
		"$(cat "$T/err")"
	"$FIOTAB" perftest --keep-going "$T/cut.json" > "$T/out" 2> "$T/err" ||
		fail "cut short ($cut): --keep-going: $(cat "$T/err")"
	assert_eq "cut short ($cut): --keep-going: iterations" 3 "$(witers "$T/out")"
	grep -q "^# INCOMPLETE: 1 input document(s) skipped" "$T/out" || fail "cut short ($cut): not noted"
done

# a UTF-16 file (Windows PowerShell 5's > writes one, byte order mark first)
# is named so: the old message was 'no fio JSON document found (no '{' in
# column 1)', of a file whose '{' is there, in UTF-16
for enc in UTF-16 UTF-16BE; do
	{ [ $enc = UTF-16BE ] && printf '\xfe\xff'; sed -n '/^{/,$p' "$T/good.json" | iconv -f UTF-8 -t $enc; } > "$T/u16.json" ||
		fail "iconv -t $enc"
	"$FIOTAB" perftest "$T/u16.json" > "$T/out" 2> "$T/err"
	assert_eq "$enc: status" 2 "$?"
	assert_match "$enc" "^fiotab: $T/u16.json:1:1: the file is UTF-16 text .*convert it \\(iconv -f UTF-16 -t UTF-8\\)$" "$(cat "$T/err")"
done

# a broken second document after "}{" is an error at its position
printf '%s%s' "$doc" "${doc:0:100}" > "$T/adjbad.json"
"$FIOTAB" perftest "$T/adjbad.json" > "$T/out" 2> "$T/err"
assert_eq "broken second document: status" 2 "$?"
assert_match "broken second document" "^fiotab: $T/adjbad.json:1:$((${#doc} + 101)): unexpected end" "$(cat "$T/err")"

# --keep-going is linear: 300,000 broken documents, each reported with its line
awk 'BEGIN { for (i = 0; i < 300000; i++) print "{ broken" }' > "$T/broken.json"
cat "$T/good.json" >> "$T/broken.json"
start=$(date +%s.%N)
timeout 60 "$FIOTAB" perftest --keep-going "$T/broken.json" > "$T/out" 2> "$T/err"
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
assert_eq "300k broken: status" 0 "$rc"
assert_eq "300k broken: messages" 300000 "$(grep -c 'invalid JSON at .*(document skipped)$' "$T/err")"
assert_match "300k broken: the last one's line" "^fiotab: $T/broken.json:300000:3: " "$(grep -m1 ':300000:' "$T/err")"
grep -q "^# INCOMPLETE: 300000 input document(s) skipped" "$T/out" || fail "300k broken: not noted"
note "300,000 broken documents: ${took}s"
# linear, not quadratic: the old reader took over 60 s; allow a loaded machine
# (and sanitizers) 15 s
awk -v t="$took" 'BEGIN { exit !(t < 15) }' || fail "--keep-going on 300k broken documents took ${took}s"

# json+ latency bins are not built for the tables, but still checked
bins='"bins" : { "4096" : 1, "8192" : 2 }'
sed "s/\"percentile\" : {/$bins, &/" "$T/good.json" > "$T/jp.json"
grep -q '"bins"' "$T/jp.json" || fail "no bins in the json+ input"
"$FIOTAB" perftest "$T/jp.json" > "$T/out" || fail "json+ bins rejected"
cmp -s "$T/good.out" "$T/out" || fail "json+ bins changed the table"
sed '0,/"4096" : 1/s//"4096" : 1x/' "$T/jp.json" > "$T/jpbad.json"
line=$(grep -n '"4096" : 1x' "$T/jpbad.json" | cut -d: -f1)
col=$(awk -v l="$line" 'NR == l { print index($0, "1x") + 1 }' "$T/jpbad.json")
"$FIOTAB" perftest "$T/jpbad.json" > "$T/out" 2> "$T/err"
assert_eq "malformed bin: status" 2 "$?"
assert_match "malformed bin: position" "^fiotab: $T/jpbad.json:$line:$col: invalid JSON at 'x" "$(cat "$T/err")"
# fio's --output-format=normal,json about a job named "{x": its lines
# "{x: (g=0): rw=..." before the JSON and "{x: (groupid=0, jobs=1): ..." after
# it are fio's text, not documents (they were read as JSON: "invalid JSON at
# 'x: (g=0): rw=read..."); a "{" line that is neither JSON nor fio's is still one
"$FIO" --output-format=normal,json --name='{x' --ioengine=null --size=1m \
	--time_based=1 --runtime=20ms > "$T/brace.txt" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
grep -q '^{x: (g=0): rw=' "$T/brace.txt" || fail "fio wrote no '{x: (g=0)' line"
"$FIOTAB" summary "$T/brace.txt" > "$T/out" 2> "$T/err" || fail "job named '{x': $(cat "$T/err")"
assert_match "job named '{x': its row" '^\{x +' "$(grep '^{x' "$T/out")"
line=$(grep -n '^{x: (groupid=0' "$T/brace.txt" | cut -d: -f1)
assert_match "job named '{x': fio's text after the JSON" \
	"^fiotab: $T/brace.txt:$line:1: warning: text after a JSON document is not JSON.*'\\{x: \\(groupid=0" "$(cat "$T/err")"
{ echo '{x: something else'; cat "$T/brace.txt"; } > "$T/brace2.txt"
"$FIOTAB" summary "$T/brace2.txt" > "$T/out" 2> "$T/err"
assert_eq "a '{' line fio did not write: status" 2 "$?"
assert_match "a '{' line fio did not write" "^fiotab: $T/brace2.txt:1:2: invalid JSON at 'x: something else'" "$(cat "$T/err")"
exit 0
