#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "Never silently wrong": real fio 3.33 outputs (tests/analysis/data/probe,
# from a hostile probe) where the numbers fiotab printed were not what fio
# did.  Each must be refused, exit 2 for a document (naming FILE:LINE:COL,
# the job and field) or 1 for a table, and nothing printed.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
P=$DATA/probe

# refused WANT_RC GREP_RE CMD...: CMD exits WANT_RC, says GREP_RE, prints nothing
refused() {
	local want=$1 re=$2 rc=0
	shift 2
	"$FIOTAB" "$@" > "$T/out" 2> "$T/err" || rc=$?
	[ "$rc" = "$want" ] || fail "fiotab $*: exit $rc, want $want: $(head -3 "$T/err")"
	[ ! -s "$T/out" ] || fail "fiotab $*: printed $(head -3 "$T/out")"
	grep -Eq -- "$re" "$T/err" || fail "fiotab $*: message does not match '$re': $(head -3 "$T/err")"
}

# P1: a fixed block size fiotab derives must agree with fio's io_bytes /
# total_ios, in every table (the check is where the job is read).
for cmd in summary perftest dd; do
	refused 2 "gr.json:[0-9]+:[0-9]+: job 'a': read: block size 65536 from bs \"64k\".*io_bytes 16777216 in total_ios 2176" $cmd "$P/gr.json"
done
refused 2 "job 'a': read: block size 65536 .*total_ios 2048" summary "$P/gr2.json"
refused 2 "kbo.json:.*job 'kb-in-job': read: block size 64000 from bs \"64k\" \(global options\) read with kb_base 1000 \(job options\)" summary "$P/kbo.json"
refused 2 "job 'l1000': read: block size 64000 .*kb_base 1000" perftest "$P/kb_base-cmdline.json"
refused 2 "job 'spacek': read: block size 16384 from bs \"16 k\".*total_ios 524288 \(16.0 bytes an I/O\)" summary "$P/bs-space.json"
gen_sweep "$T/sw" 1
"$FIOTAB" summary --keep-going "$T/sw/r00001.json" "$P/kbo.json" > "$T/out" 2> "$T/err" ||
	fail "--keep-going: $(cat "$T/err")"
grep -q "kbo.json:1:1: job 'kb-in-job': read: block size 64000 .*(document skipped)" "$T/err" || fail "--keep-going: $(cat "$T/err")"
grep -q INCOMPLETE "$T/out" || fail "--keep-going: no INCOMPLETE note"
# iozone: reclen from the name is the measured transfer size, or refused;
# names it does not know are not dropped silently
refused 1 "job 'iozone-write-4k' .*refused: reclen 4096 bytes from its name, but it moved 65536" iozone "$P/ioz.json"
"$JQ" '.jobs |= map(select(.jobname != "iozone-write-4k" and .jobname != "iozone-read-4k"))' "$P/ioz.json" > "$T/ioz2.json"
refused 1 "job 'iozone-re-read-4k' .*refused: its name is not iozone-<phase>-<reclen>" iozone "$T/ioz2.json"
"$JQ" '.jobs |= map(select(.jobname | test("^iozone-randread-4$|^myreread$")))' "$P/ioz.json" > "$T/ioz3.json"
refused 1 "job 'iozone-randread-4' .*refused: reclen 4 bytes from its name, but it moved 4096" iozone "$T/ioz3.json"
"$JQ" '.jobs |= map(select(.jobname == "Bonnie-putc"))' "$P/bon.json" > "$T/bon1.json"
refused 1 "job 'Bonnie-putc' .*refused: not bonnie-<phase>" bonnie "$T/bon1.json"
# a Bonnie phase is what its job moved, in one file size
"$JQ" '.jobs |= map(select(.jobname == "bonnie-getc"))' "$P/bon.json" > "$T/bon2.json"
refused 1 "job 'bonnie-getc' .*refused: its phase getc moved no read bytes \(rw=write\)" bonnie "$T/bon2.json"
"$JQ" '.jobs |= map(select(.jobname == "bonnie-write" or .jobname == "bonnie-read"))' "$P/bon.json" > "$T/bon3.json"
refused 1 "jobs 'bonnie-write' and 'bonnie-read' .* ran with different sizes \(8388608 and 33554432 bytes\): a Bonnie table has one file size" bonnie "$T/bon3.json"

# P2: duplicate keys with different values are refused, naming the object
# path and key, by either reader: simdjson takes a file's only document,
# jsonread.c one followed by another.  Equal duplicates are accepted.
for first in "" "$T/sw/r00001.json"; do
	cat $first "$P/dupbs.json" > "$T/dupbs.json"
	cat "$P/dupkey.json" $first > "$T/dupkey.json"
	refused 2 "dupbs.json:[0-9]+:1: job 'perftest-r-1': jobs\[0\]\.\"job options\": key \"bs\" twice with different values \(\"8k\", then \"64k\"\)" summary "$T/dupbs.json"
	refused 2 "dupkey.json:1:1: job 'w4k': jobs\[0\]\.write: key \"io_bytes\" twice with different values \(1677721600, then 16777216\)" perftest "$T/dupkey.json"
done
refused 2 "cg.json:10:1: \"global options\": key \"directory\" twice with different values" summary "$P/cg.json"
sed 's/"ioengine" : "null"/"ioengine" : "null", "ioengine" : "null"/' "$T/sw/r00001.json" > "$T/eqdup.json"
grep -q '"ioengine" : "null", "ioengine"' "$T/eqdup.json" || fail "premise: eqdup.json"
"$FIOTAB" summary "$T/eqdup.json" > /dev/null 2> "$T/err" || fail "equal duplicates refused: $(cat "$T/err")"

# P3: one fio run read twice: --status-interval's cumulative snapshots, a
# file given twice or copied.  Refused naming both documents and the job.
refused 2 "status-interval.json:[0-9]+:1: job 'perftest-r-64k-1': .*status-interval.json document 1 and .*status-interval.json document 2 are the same fio run.*a --status-interval snapshot or the same output given twice; keep fio's final output once" perftest "$P/status-interval.json"
refused 2 "base.json:1:1: job 'perftest-base-r-64k-1': .*base.json document 1 and .*base.json document 1 are the same fio run" \
	ratio --baseline-series base --candidate-series cand "$P/base.json" "$P/base.json" "$P/candrate.json" "$P/candrate.json"
cp "$P/base.json" "$T/copy.json"
refused 2 "copy.json:1:1: job 'perftest-base-r-64k-1': .*base.json document 1 and .*copy.json document 1 are the same fio run" perftest "$P/base.json" "$T/copy.json"
refused 2 "same fio run" summary "$P/base.json" "$P/base.json"
# --keep-going skips the second reading, and says so
"$FIOTAB" perftest --keep-going "$P/base.json" "$T/copy.json" > "$T/out" 2> "$T/err" || fail "--keep-going: $(cat "$T/err")"
grep -q "copy.json:1:1: .*same fio run.*(document skipped)" "$T/err" || fail "--keep-going: $(cat "$T/err")"
grep -q INCOMPLETE "$T/out" || fail "--keep-going: no INCOMPLETE note"
assert_eq "--keep-going: 3 iterations of one run" 3 "$(awk '/^blocksize/ { for (i = 1; i <= NF; i++) n += $i == "R"; print n - 1; exit }' "$T/out")"
# a run repeated a whole runtime later is a repeat
"$JQ" -c '.timestamp_ms += .jobs[0].job_runtime | .timestamp += 1' "$P/base.json" > "$T/later.json"
"$FIOTAB" perftest "$P/base.json" "$T/later.json" > "$T/out" 2> "$T/err" || fail "a later repeat refused: $(cat "$T/err")"

# P4: fio 3.x only: fio 2.x (other units), unknown or missing versions refused
refused 2 'fio2-shape.json:1:1: "fio version" is "fio-2.2.10": fiotab reads fio 3.x JSON only' summary "$P/fio2-shape.json"
sed 's/"fio version" : "fio-3.33"/"fio version" : "fio-4.0"/' "$T/sw/r00001.json" > "$T/v4.json"
refused 2 'v4.json:1:1: "fio version" is "fio-4.0": fiotab reads fio 3.x JSON only' perftest "$T/v4.json"
sed '/"fio version"/d' "$T/sw/r00001.json" > "$T/v0.json"
refused 2 'v0.json:1:1: no "fio version"' summary "$T/v0.json"

# P5: bytes in a direction the job's rw does not move (group_reporting over
# [a] rw=write and [b] rw=read, bs alike: record 'a' carries b's options);
# a write job's verify reads stay
refused 2 "gr-rw.json:1:1: job 'a': write: 1048576 bytes, but rw=read moves none there" summary "$P/gr-rw.json"
"$FIOTAB" summary "$P/wv.json" > "$T/out" 2> "$T/err" || fail "verify reads of a write job refused: $(cat "$T/err")"
# ... read back in the write's blocks (bs=4k,64k rw=write verify=crc32c)
"$FIOTAB" summary "$P/wv2.json" > "$T/out" 2> "$T/err" || fail "verify reads of bs=4k,64k refused: $(cat "$T/err")"
assert_eq "verify reads: the write's bs" "read 65536
write 65536" "$(awk '$1 == "wv" { print $4, $5 }' "$T/out")"

# P7: numjobs=3 without group_reporting: three records of one name in one
# run would be one series in InfluxDB and Prometheus (hist refuses it too)
for cmd in summary dd; do
	for fmt in prom influx; do
		refused 1 "^fiotab: $cmd: .*numjobs3-nogroup.json: two jobs named 'job' in one run on host [^ ]+, target /tmp/probe-fiotab, would be one series in the InfluxDB and Prometheus outputs; they differ in nothing but being separate jobs" \
			$cmd --format=$fmt "$P/numjobs3-nogroup.json"
	done
	"$FIOTAB" $cmd "$P/numjobs3-nogroup.json" > /dev/null 2> "$T/err" || fail "$cmd text of numjobs clones refused: $(cat "$T/err")"
done

# P6: two --series whose capture groups give one label would merge two
# series: refused naming both regexes and the label (folded or not, plot)
re1='^old-(.*)-[0-9]+$' re2='^new-(.*)-[0-9]+$'
for args in perftest "perftest --no-iterations" "plot -o $T/p.svg"; do
	refused 1 "^fiotab: --series '\\^old-\\(\\.\\*\\)-\\[0-9\\]\\+\\$' and --series '\\^new-.*' both label series 'r-64k'" \
		$args --series "$re1" --series "$re2" "$P/sc2.json"
done
[ ! -e "$T/p.svg" ] || fail "plot wrote $T/p.svg"
"$FIOTAB" perftest --series '^(old)-' --series '^(new)-' "$P/sc2.json" > /dev/null 2> "$T/err" ||
	fail "distinct labels refused: $(cat "$T/err")"
exit 0
