#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every integer field fiotab reads is one as fio writes it (digits alone,
# json_object_add_value_int()): a hand-edited 12.5, or the same value
# written 1.2e1 or 12.0, makes the document malformed, exit 2, nothing on
# stdout, the job and the field named, for each field alike (the old code
# took total_ios 12.5 and 1e3, and refused 1e999 only).  Real fio json+
# output, one field changed at a time.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

run_fio --output-format=json+ --name=w --ioengine=null --size=8m --bs=4k --rw=write \
	--rate=1g > "$T/fio.out" 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
# the document alone, compact: one line, so that every message is at 1:1
sed -n '/^{/,$p' "$T/fio.out" | "$JQ" -c . > "$T/local.json" || fail "fio wrote no JSON"
# the same job as fio --client writes it (hostname, port)
"$JQ" -c '{"fio version", timestamp, timestamp_ms, "global options",
	client_stats: [.jobs[0] + {hostname: "h", port: 8765}]}' "$T/local.json" > "$T/client.json"
for f in local client; do
	"$FIOTAB" hist "$T/$f.json" > /dev/null 2> "$T/err" || fail "premise: $f.json refused: $(cat "$T/err")"
done

# check FILE COMMAND PATH NAME WHO: the number at jq PATH (named NAME in
# fiotab's messages, in job WHO or the document when empty) written in
# each form fio never writes, its value kept where it can be
check() {
	local file=$1 cmd=$2 path=$3 name=$4 who=$5 v form
	v=$("$JQ" "$path" "$T/$file.json")
	[[ $v =~ ^[0-9]+$ ]] || fail "premise: $file.json $path is '$v', not fio's integer"
	for form in "$v.5" "${v}e0" "$v.0" "\"$v\""; do
		"$JQ" -c "$path = \"@@\"" "$T/$file.json" | sed "s/\"@@\"/$form/" > "$T/hostile.json"
		"$FIOTAB" "$cmd" "$T/hostile.json" > "$T/out" 2> "$T/err"
		assert_eq "$name = $form: exit status" 2 "$?"
		[ -s "$T/out" ] && fail "$name = $form: printed $(head -2 "$T/out")"
		assert_match "$name = $form: message" \
			"^fiotab: $T/hostile.json:1:1: ${who:+job $who: }\"$name\" is .*(not a whole number|written with a fraction or an exponent|not a number)" \
			"$(cat "$T/err")"
	done
}

w="'w'"
for field in io_bytes io_kbytes bw_bytes bw runtime total_ios; do
	check local summary ".jobs[0].write.$field" "write.$field" "$w"
done
check local summary '.jobs[0].write.clat_ns.percentile["50.000000"]' \
	"write.clat_ns.percentile.50.000000" "$w"
for field in job_runtime error groupid elapsed; do
	check local summary ".jobs[0].$field" "$field" "$w"
done
check local summary .timestamp timestamp ""
check local summary .timestamp_ms timestamp_ms ""
check client summary .client_stats[0].port port "$w"
# json+'s latency samples and bucket counts, read by hist
check local hist .jobs[0].write.clat_ns.N write.clat_ns.N "$w"
bin=$("$JQ" -r '.jobs[0].write.clat_ns.bins | keys_unsorted[0]' "$T/local.json")
path=".jobs[0].write.clat_ns.bins[\"$bin\"]"
v=$("$JQ" "$path" "$T/local.json")
for form in "$v.0" "${v}e0"; do
	"$JQ" -c "$path = \"@@\"" "$T/local.json" | sed "s/\"@@\"/$form/" > "$T/hostile.json"
	"$FIOTAB" hist "$T/hostile.json" > "$T/out" 2> "$T/err"
	assert_eq "bin count $form: exit status" 2 "$?"
	assert_match "bin count $form: message" \
		"job $w: \"write.clat_ns.bins\": entry \"$bin\" is not a bucket value and a count" \
		"$(cat "$T/err")"
done

# what fio writes as a float stays one: iops 1024.5 is read as it is
"$JQ" -c '.jobs[0].write.iops = "@@"' "$T/local.json" | sed 's/"@@"/1024.5/' > "$T/float.json"
"$FIOTAB" summary "$T/float.json" > /dev/null 2> "$T/err" || fail "iops 1024.5 refused: $(cat "$T/err")"
