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
# ... but two runs of a group_reporting numjobs=4 job, one after the
# other, are two: fio's job_runtime of the group is its four jobs' summed
# (2000 ms for 500 ms), which put the old fiotab's starts 1.5 s early and
# refused the second run as the first read twice
printf '[g]\nioengine=null\nbs=64k\nrw=read\nsize=1m\nrate=8m\ntime_based=1\nruntime=500ms\nnumjobs=4\ngroup_reporting=1\n' > "$T/g4.fio"
for i in 1 2; do
	(cd "$T" && "$FIO" --output-format=json --output=g4-$i.json g4.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
done
"$JQ" -e '.jobs[0].job_runtime >= 1900 and .jobs[0].read.runtime < 1000' "$T/g4-1.json" > /dev/null ||
	fail "premise: a group of four has job_runtime their sum: $("$JQ" -c '.jobs[0] | {job_runtime, r: .read.runtime}' "$T/g4-1.json")"
"$FIOTAB" summary "$T/g4-1.json" "$T/g4-2.json" > "$T/out" 2> "$T/err" ||
	fail "two runs of a group_reporting numjobs=4 job one after the other: $(cat "$T/err")"
# ... and of a group of four write+verify jobs: their job_runtime is summed
# too, and their write runtime leaves out verify's reads, which ran after
# the writes (the old fiotab kept the sum, ~3900 ms for ~1 s, and refused
# the second run, 1.5 s later, as the first read twice)
printf '[gv]\nioengine=psync\nbs=64k\nrw=write\nsize=2m\nrate=2m\nverify=crc32c\nnumjobs=4\ngroup_reporting=1\n' > "$T/gv.fio"
for i in 1 2; do
	(cd "$T" && "$FIO" --output-format=json --output=gv-$i.json gv.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
done
"$JQ" -e '.jobs[0] | .error == 0 and .job_runtime >= 3 * (.write.runtime + .read.runtime) and .read.io_bytes > 0' "$T/gv-1.json" > /dev/null ||
	fail "premise: a group of four write+verify jobs has job_runtime their sum: $("$JQ" -c '.jobs[0] | {error, job_runtime, w: .write.runtime, r: .read.runtime}' "$T/gv-1.json")"
"$FIOTAB" summary "$T/gv-1.json" "$T/gv-2.json" > "$T/out" 2> "$T/err" ||
	fail "two runs of a group_reporting numjobs=4 write+verify job one after the other: $(cat "$T/err")"
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
refused 1 "jobs 'bonnie-write' and 'bonnie-read' .* ran with different file sizes \(8388608 and 33554432 bytes\): a Bonnie table has one file size" bonnie "$T/bon3.json"
# ... and a job left out of an iozone or Bonnie table is named with its
# file and run, as a refused one is (the job name alone may be in each input)
left_out() {
	local re=$1
	shift
	"$FIOTAB" "$@" > "$T/out" 2> "$T/err" || fail "fiotab $*: $(cat "$T/err")"
	grep -Eq -- "$re" "$T/err" || fail "fiotab $*: message does not match '$re': $(cat "$T/err")"
}
"$JQ" '.jobs |= (map(select(.jobname == "bonnie-write")) | . + [(.[0] | .jobname = "other")])' "$P/bon.json" > "$T/bon6.json"
left_out "bonnie: job 'other' \($T/bon6.json, run 1\) left out \(not named bonnie-<phase>\)" bonnie "$T/bon6.json"
"$JQ" '.jobs |= map(select(.jobname | test("write|randread"))) | .jobs += [(.jobs[0] | .jobname = "other")]' "$P/ioz-size.json" > "$T/ioz6.json"
left_out "iozone: job 'other' \($T/ioz6.json, run 1\) left out \(not named iozone-<phase>-<reclen>" iozone "$T/ioz6.json"
"$JQ" '.jobs |= map(select(.jobname | test("write|randread")) | .jobname |= sub("iozone-"; "z-"))
	| .jobs += [(.jobs[0] | .jobname = "mix" | .["job options"].rw = "randrw"
	| .read = (.write | .io_bytes /= 2 | .io_kbytes /= 2 | .total_ios /= 2) | .write = .read)]' "$P/ioz-size.json" > "$T/ioz7.json"
left_out "iozone: job 'mix' \($T/ioz7.json, run 1\) left out \(mixed read/write: no iozone phase\)" iozone "$T/ioz7.json"
# iozone's KB and Bonnie's MB are the file size, not the bytes moved:
# io_size= without size (the existing file's size), size=50%, refused;
# size=8m io_size=4m is an 8 MiB file (ioz-size.fio: filename=ioz.dat)
refused 1 "iozone: job 'iozone-read-64k' .*refused: KB is the file size, and no size option" iozone "$P/ioz-size.json"
"$JQ" '.jobs |= map(select(.jobname != "iozone-read-64k"))' "$P/ioz-size.json" > "$T/ioz4.json"
refused 1 "iozone: job 'iozone-reread-64k' .*refused: KB is the file size, and size \"50%\" is not a size in bytes" iozone "$T/ioz4.json"
"$JQ" '.jobs |= map(select(.jobname | test("write|randread")))' "$P/ioz-size.json" > "$T/ioz5.json"
"$FIOTAB" iozone --format=csv "$T/ioz5.json" > "$T/out" 2> "$T/err" || fail "iozone size=8m io_size=4m: $(cat "$T/err")"
assert_eq "iozone KB of size=8m, io_size=4m" "8192" "$("$JQ" -r '.tables[0].rows[].KB' <("$FIOTAB" iozone --format=json "$T/ioz5.json"))"
"$JQ" '.jobs |= map(select(.jobname == "iozone-reread-64k") | .jobname = "bonnie-read")' "$P/ioz-size.json" > "$T/bon4.json"
refused 1 "bonnie: job 'bonnie-read' .*refused: MB is the file size, and size \"50%\"" bonnie "$T/bon4.json"
# ... in iozone's whole KiB and Bonnie's whole MiB: kb_base=1000's bs=64k
# is 62.5 KiB, its size=4m 3906.25 KiB (kb1000-iozone.json), not 62 and 3906
refused 1 "iozone: job 'kb' .*refused: its record length 64000 bytes is not a whole number of KiB" iozone "$P/kb1000-iozone.json"
"$JQ" '.jobs[0].jobname = "bonnie-read"' "$P/kb1000-iozone.json" > "$T/bon5.json"
refused 1 "bonnie: job 'bonnie-read' .*refused: its file size 4000000 bytes is not a whole number of MiB" bonnie "$T/bon5.json"
# ... and one process a phase: numjobs=4 clones under group_reporting are
# one record of four jobs' bytes, which the old fiotab printed as the rate
# of one 4096 KB file (iozone write 66065 KiB/s for 16 MiB/s a job; Bonnie's
# block write beside a one-job read); Bonnie's seeks run several (its header)
printf '[global]\nioengine=null\nsize=4m\nbs=64k\nrate=16m\nstonewall\n[iozone-write-64k]\nrw=write\nnumjobs=4\ngroup_reporting=1\n[iozone-read-64k]\nrw=read\n[bonnie-write]\nrw=write\nnumjobs=4\ngroup_reporting=1\n[bonnie-read]\nrw=read\n[bonnie-seeks]\nrw=randread\nnumjobs=3\ngroup_reporting=1\n' > "$T/nj.fio"
(cd "$T" && "$FIO" --output-format=json --output=nj.json nj.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
refused 1 "iozone: job 'iozone-write-64k' \($T/nj.json, run 1\) refused: numjobs=4, so its rate is 4 jobs'" iozone "$T/nj.json"
refused 1 "bonnie: job 'bonnie-write' \($T/nj.json, run 1\) refused: numjobs=4, so its phase write is 4 jobs'" bonnie "$T/nj.json"
"$JQ" '.jobs |= map(select(.jobname != "bonnie-write"))' "$T/nj.json" > "$T/nj3.json"
"$FIOTAB" bonnie "$T/nj3.json" > "$T/out" 2> "$T/err" || fail "Bonnie's seeks in 3 jobs: $(cat "$T/err")"
grep -q -- '--64k (03)-' "$T/out" || fail "Bonnie's seek header: $(cat "$T/out")"
# ... and the CPU fio writes for such a record: its jobs' CPU time over their
# runtimes added (stat.c), the mean job's share of one CPU, which the old
# fiotab labelled the job's "fraction of one CPU" (four jobs each keeping a
# CPU busy read 100 %): said in every output that has labels
want="a group_reporting record's is its jobs' CPU time over their runtimes added, the mean job's share of one CPU, not the group's"
for cmd in summary dd bonnie; do
	for fmt in text markdown json prom; do
		"$FIOTAB" $cmd --format=$fmt "$T/nj3.json" > "$T/out" 2> "$T/err" || fail "$cmd --format=$fmt: $(cat "$T/err")"
		sed 's/\\_/_/g' "$T/out" | grep -qF "$want" || fail "$cmd --format=$fmt does not say what its CPU of a group_reporting record is: $(grep -i cpu "$T/out" | head -3)"
	done
done

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
# fio 3.33 on a job file with [global] bs=4k, [a], [global] bs=64k, [b]: one
# "global options" object holds both, and the message names that cause
refused 2 "globals2.json:1:1: \"global options\": key \"bs\" twice with different values \(\"4k\", then \"64k\"\).*the \[global\] sections of a job file that has several" summary "$P/globals2.json"
sed 's/"ioengine" : "null"/"ioengine" : "null", "ioengine" : "null"/' "$T/sw/r00001.json" > "$T/eqdup.json"
grep -q '"ioengine" : "null", "ioengine"' "$T/eqdup.json" || fail "premise: eqdup.json"
"$FIOTAB" summary "$T/eqdup.json" > /dev/null 2> "$T/err" || fail "equal duplicates refused: $(cat "$T/err")"

# P3: one fio run read twice: --status-interval's cumulative snapshots, a
# file given twice or copied.  Refused naming both documents and the job.
refused 2 "status-interval.json:[0-9]+:1: job 'perftest-r-64k-1': .*status-interval.json document 1 and .*status-interval.json document 2 are the same fio run.*a --status-interval snapshot or the same output given twice; keep fio's final output once" perftest "$P/status-interval.json"
# ... a time_based job's first snapshot is a run shorter than its runtime,
# refused as such: naming the snapshot (the old message blamed only
# another job's exitall, exit_what or a signal)
printf '[si]\nioengine=null\nbs=4k\nrw=read\nsize=4m\nrate=8m\ntime_based=1\nruntime=400ms\n' > "$T/si.fio"
# (premise: the first snapshot is after the job's first ms, else its 1 ms
# runtime is refused first, as any; a loaded machine may take it sooner)
for i in 1 2 3; do
	(cd "$T" && "$FIO" --output-format=json --status-interval=100ms --output=si.json si.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
	"$JQ" -se 'length >= 3 and (.[0].jobs[0] | .job_runtime >= 20 and .job_runtime < 300 and (.read.runtime == 0 or .read.runtime > 1))' "$T/si.json" > /dev/null && break
	[ $i = 3 ] && fail "premise: si.json's first snapshot: $("$JQ" -sc '[.[] | .jobs[0] | {job_runtime, r: .read.runtime}]' "$T/si.json")"
done
refused 2 "si.json:1:1: job 'si': time_based with runtime \"400ms\" \(400 ms\), but it ran [0-9]+ ms .*or it is a --status-interval snapshot, written while it ran \(keep fio's final output\)" summary "$T/si.json"
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
# [a] rw=write and [b] rw=read, bs alike: record 'a' carries b's options)
refused 2 "gr-rw.json:1:1: job 'a': write: 1048576 bytes, but rw=read moves none there" summary "$P/gr-rw.json"
# ... or of one rw and bs (gr-volume.json: [a] and [b] size=4m, b with
# iodepth=4, one group, group_reporting: record 'a', b's options, 8 MiB):
# more bytes than size x loops x numjobs of its options
for cmd in summary perftest; do
	refused 2 "gr-volume.json:1:1: job 'a': moved 8388608 bytes, more than its options let it \(4259839: io_size or size and the I/O that reaches it, times loops and numjobs\)" $cmd "$P/gr-volume.json"
done
# ... where the I/O that reaches size may go past it: kb_base=1024's
# "4KiB" is 4000 bytes (fio's compatibility mode), and size=1m took 263 of
# them from a larger file, 1052000 bytes, two loops 2104000 (the old fiotab
# refused these runs as more than their options let them move)
truncate -s 4m "$T/over.dat"
for kb in 1024 1000; do
	printf '[global]\nkb_base=%s\nfilename=over.dat\nrate=8m\nsize=1m\nbs=4KiB\nrw=read\n[over]\n[loop2]\nloops=2\n' $kb > "$T/over.fio"
	(cd "$T" && "$FIO" --output-format=json --output=over.json over.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
	"$JQ" -e '.jobs[0].read.io_bytes > 1048576 or .jobs[0].read.io_bytes == 1003520' "$T/over.json" > /dev/null ||
		fail "premise: fio's last I/O does not pass size (kb_base=$kb): $(jq -c '[.jobs[].read.io_bytes]' "$T/over.json")"
	"$FIOTAB" summary --format=json "$T/over.json" > "$T/out" 2> "$T/err" || fail "kb_base=$kb size=1m bs=4KiB: $(cat "$T/err")"
	assert_eq "bytes an I/O as fio moved them (kb_base=$kb)" \
		"$("$JQ" -r '.jobs[].read | .io_bytes / .total_ios' "$T/over.json")" \
		"$("$JQ" -r '.tables[0].rows[].bs' "$T/out")"
done
# ... but not by more than that I/O
"$JQ" '.jobs[0]."job options".size = "990000"' "$T/over.json" > "$T/over2.json"
refused 2 "over2.json:1:1: job 'over': moved 1003520 bytes, more than its options let it \(994095: " summary "$T/over2.json"
# ... and a job file's bare 'time_based' (no =1), which fio 3.33's JSON
# leaves out of "global options" and "job options": the refusal says so and
# how to mend it (the old message named group_reporting and kb_base only)
printf '[global]\nioengine=null\nsize=1m\nrate=8m\nbs=64k\nrw=read\ntime_based\nruntime=1\n[tb]\n' > "$T/tb.fio"
(cd "$T" && "$FIO" --output-format=json tb.fio > tb.json 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
"$JQ" -e '."global options" | has("time_based") | not' "$T/tb.json" > /dev/null ||
	fail "premise: fio records a bare time_based"
refused 2 "tb.json:1:1: job 'tb': moved [0-9]+ bytes, more than its options let it .*or it ran time_based written bare \('time_based' without =1: fio's JSON then records no time_based; write time_based=1, or add \"time_based\" : \"1\" to this job's \"job options\"\)" summary "$T/tb.json"
"$JQ" '.jobs[0]."job options".time_based = "1"' "$T/tb.json" > "$T/tb1.json"
"$FIOTAB" summary "$T/tb1.json" > /dev/null 2> "$T/err" || fail "the mend the message names is refused: $(cat "$T/err")"
# ... and a fio stopped by a signal (^C, SIGTERM): it still writes its whole
# JSON, error 0, its jobs cut short where the signal found them; only its
# "fio: terminating on signal N" before the document tells (the old code
# tabled a 64 MiB job that moved 1 MiB as a complete run, nothing on stderr)
printf '[global]\nioengine=null\nsize=64m\nrate=1m\nbs=64k\n[sig]\nrw=read\n' > "$T/sig.fio"
for s in INT TERM; do
	(cd "$T" && exec "$FIO" --output-format=json --output=sig-$s.json sig.fio > fio.out 2> fio.err) &
	sleep 1.5
	kill -$s $!
	wait $! && fail "premise: fio exited 0 after SIG$s"
	"$JQ" -e '.jobs[0] | .error == 0 and .read.io_bytes < 67108864' <(sed '/^{/,$!d' "$T/sig-$s.json") > /dev/null ||
		fail "premise: fio's JSON after SIG$s is not a cut-short job with error 0: $(head -5 "$T/sig-$s.json")"
	n=$(kill -l $s)
	for cmd in summary perftest dd; do
		refused 2 "sig-$s.json:[0-9]+:1: fio was stopped by signal $n before it wrote this document \('fio: terminating on signal $n' at line 2\)" $cmd "$T/sig-$s.json"
	done
done
# ... after an earlier run in one file (the signal's line is the later
# document's), and said by a server through its client ('<host> ' before it)
"$FIOTAB" summary "$T/tb1.json" > "$T/out1" 2> "$T/err" || fail "tb1.json: $(cat "$T/err")"
cat "$T/tb1.json" "$T/sig-INT.json" > "$T/sig2.json"
refused 2 "sig2.json:[0-9]+:1: fio was stopped by signal 2 " summary "$T/sig2.json"
"$FIOTAB" summary --keep-going "$T/sig2.json" > "$T/out" 2> "$T/err" || fail "--keep-going: $(cat "$T/err")"
grep -q "fio was stopped by signal 2 .*(document skipped)" "$T/err" || fail "--keep-going: $(cat "$T/err")"
grep -q INCOMPLETE "$T/out" || fail "--keep-going: no INCOMPLETE note"
[ "$(grep -c '^tb ' "$T/out")" = 1 ] && ! grep -q '^sig ' "$T/out" || fail "--keep-going: $(cat "$T/out")"
{ printf '<127.0.0.1> \nfio: terminating on signal 15\n'; sed '/^{/,$!d' "$T/sig-INT.json"; } > "$T/sig3.json"
refused 2 "sig3.json:3:1: fio was stopped by signal 15 .* at line 2\)" summary "$T/sig3.json"
# ... and fio --client's lost server ("fio: client HOST timed out" after a
# minute without its answers; client-logs.sh has one never reached)
{ printf 'fio: client 10.0.0.2, timeout on cmd SEND_ETA\nfio: client 10.0.0.2 timed out\n\n'; sed '/^{/,$!d' "$T/sig-INT.json"; } > "$T/lost.json"
refused 2 "lost.json:4:1: fio --client lost server 10.0.0.2 during the run \('fio: client 10.0.0.2 timed out' at line 2\)" summary "$T/lost.json"
# ... and a time_based job stopped before its runtime by what its record
# does not show: another job's bare exitall (fio's JSON leaves it out) ended
# 'long' (runtime=10) after ~125 ms, error 0 (the old fiotab tabled it as
# a 10 s run); time_based jobs that ran their runtime (500ms: fio's units)
# are tabled, and a steadystate job fio ends early on purpose is not refused
printf '[global]\nioengine=null\nbs=64k\nrw=read\nrate=8m\n[long]\ntime_based=1\nruntime=10\nsize=1m\n[short]\nsize=1m\nexitall\n' > "$T/ea.fio"
(cd "$T" && timeout 60 "$FIO" --output-format=json --output=ea.json ea.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
"$JQ" -e '.jobs[0] | .jobname == "long" and .error == 0 and .job_runtime < 5000' "$T/ea.json" > /dev/null ||
	fail "premise: exitall did not stop 'long' early: $("$JQ" -c '[.jobs[] | {jobname, job_runtime}]' "$T/ea.json")"
for cmd in summary perftest dd; do
	refused 2 "ea.json:1:1: job 'long': time_based with runtime \"10\" \(10000 ms\), but it ran [0-9]+ ms \(job_runtime[^)]*\), error 0: something stopped it that its record does not show \(another job's exitall" $cmd "$T/ea.json"
done
printf '[half]\nioengine=null\nbs=64k\nrw=read\nrate=8m\ntime_based=1\nsize=1m\nruntime=500ms\n' > "$T/tbok.fio"
(cd "$T" && "$FIO" --output-format=json --output=tbok.json tbok.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
"$FIOTAB" summary "$T/tbok.json" > "$T/out" 2> "$T/err" || fail "a time_based job that ran its runtime=500ms: $(cat "$T/err")"
# ... also a group_reporting record, whose job_runtime is its jobs' sum:
# four clones of 'long' stopped after ~400 ms by a job of another group
# (exit_what=all) add up to more than their runtime=1 (the old fiotab tabled
# them); a direction's runtime is the longest job's
printf '[global]\nioengine=null\nrw=read\n[long]\nbs=64k\nrate=8m\ntime_based=1\nruntime=1\nsize=1m\nnumjobs=4\ngroup_reporting=1\n[short]\nnew_group\nbs=4k\nrate=1m\nsize=400k\nexitall\nexit_what=all\n' > "$T/eag.fio"
(cd "$T" && timeout 60 "$FIO" --output-format=json --output=eag.json eag.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
"$JQ" -e '.jobs[0] | .jobname == "long" and .error == 0 and .job_runtime >= 1000 and .read.runtime < 900' "$T/eag.json" > /dev/null ||
	fail "premise: a group stopped early with job_runtime over its runtime: $("$JQ" -c '[.jobs[] | {jobname, job_runtime, r: .read.runtime}]' "$T/eag.json")"
refused 2 "eag.json:1:1: job 'long': time_based with runtime \"1\" \(1000 ms\), but it ran [0-9]+ ms" summary "$T/eag.json"
"$JQ" '.jobs |= map(select(.jobname == "long") | ."job options".steadystate = "bw:50%")' "$T/ea.json" > "$T/ss.json"
"$FIOTAB" summary "$T/ss.json" > "$T/out" 2> "$T/err" || fail "a steadystate job fio ended early: $(cat "$T/err")"
# ... and an iodepth a synchronous engine does not run: fio caps psync's
# queue depth at 1 (saying so on its stdout only), the record keeps
# iodepth=8: the old fiotab tabled a psync 'sweep' over iodepth 1 and 8 as
# two depths (--x iodepth), and tagged iodepth=8 in Influx
truncate -s 1m "$T/qd.dat"
for qd in 1 8; do
	printf '[qd]\nfilename=qd.dat\nioengine=psync\niodepth=%s\nrate=8m\nsize=1m\nbs=64k\nrw=read\n' $qd > "$T/qd.fio"
	(cd "$T" && "$FIO" --output-format=json --output=qd$qd.json qd.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
done
for cmd in "perftest --x iodepth" summary "summary --format=influx" dd; do
	refused 2 "qd8.json:1:1: job 'qd': iodepth 8 with ioengine=psync, a synchronous engine: fio caps its queue depth at 1" $cmd "$T/qd1.json" "$T/qd8.json"
done
"$JQ" '.jobs[0]."job options".ioengine = "libaio"' "$T/qd8.json" > "$T/qd8a.json"
"$FIOTAB" summary "$T/qd8a.json" > "$T/out" 2> "$T/err" || fail "iodepth 8 with libaio: $(cat "$T/err")"
# ... nor one latency_target searches: fio ran the job at depths from 1 up
# to its iodepth=8, the record keeping 8 (the old fiotab tagged iodepth=8);
# latency_target at iodepth 1 is one depth (latency_window=5ms: without one
# fio ends the job after its first I/O, in under 1 ms, which is refused)
for qd in 1 8; do
	printf '[lt]\nfilename=qd.dat\nioengine=libaio\niodepth=%s\nlatency_target=1s\nlatency_window=5ms\nsize=1m\nbs=4k\nrw=randread\n' $qd > "$T/lt.fio"
	(cd "$T" && "$FIO" --output-format=json --output=lt$qd.json lt.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
done
"$JQ" -e '.jobs[0] | .latency_target > 0 and .error == 0' "$T/lt8.json" > /dev/null || fail "premise: latency_target in lt8.json's record"
for cmd in "perftest --x iodepth" summary "summary --format=influx"; do
	refused 2 "lt8.json:1:1: job 'lt': iodepth 8 with latency_target=1s: fio searched the queue depth from 1 up to 8" $cmd "$T/lt1.json" "$T/lt8.json"
done
"$FIOTAB" summary "$T/lt1.json" > "$T/out" 2> "$T/err" || fail "latency_target at iodepth 1: $(cat "$T/err")"
# ... and trims, which perftest, ratio and plot have no column for: left
# out and said, naming the job (the old code dropped them silently)
printf '[global]\nioengine=null\nsize=1m\nrate=8m\nbs=64k\nstonewall\n[r]\nrw=randread\n[t]\nrw=randtrim\n[tw]\nrw=trimwrite\n' > "$T/tr.fio"
(cd "$T" && "$FIO" --output-format=json tr.fio > tr.json 2> fio.err) ||
	fail "fio: $(cat "$T/fio.err")"
for cmd in perftest "plot -o $T/tr.svg" "ratio --baseline-series ^r$ --candidate-series ^tw$"; do
	"$FIOTAB" $cmd "$T/tr.json" > /dev/null 2> "$T/err" || true
	for j in t tw; do
		grep -q "tr.json: job '$j': its trim record (1048576 bytes) left out: perftest, ratio and plot table reads and writes" "$T/err" ||
			fail "fiotab $cmd: job $j's trims left out unsaid: $(cat "$T/err")"
	done
done
# ... but verify's reads, which fio counts as the job's reads: not reads the
# user measured (alone with rw=write, with the measured ones with randrw,
# with the writes in unified_rw_reporting's mixed), left out and said, in
# every table; the writes stand (fio times them apart); do_verify=0 reads none
for f in wv wv2; do
	"$FIOTAB" summary "$P/$f.json" > "$T/out" 2> "$T/err" || fail "verify reads of a write job refused: $(cat "$T/err")"
	assert_eq "$f: verify reads left out" "write" "$(awk '$1 == "wv" { print $4 }' "$T/out")"
	grep -q "job 'wv': its read record ([0-9]* bytes) counts verify's reads (verify=crc32c): not reads rw=write measured, left out" "$T/err" ||
		fail "$f: verify reads not said: $(cat "$T/err")"
done
# ... on two fio servers (verify-clients.json: fio --client to two local
# servers, verify=crc32c): each host's said once, and fio's 'All clients'
# sum as that, not as a third job 'All clients' on host 'All clients'
"$FIOTAB" summary "$P/verify-clients.json" > "$T/out" 2> "$T/err" || fail "verify-clients.json: $(cat "$T/err")"
for h in 8911 8912; do
	assert_eq "verify reads said once for host :$h" 1 "$(grep -c "job 'w' on host 127.0.0.1:$h: its read record (4194304 bytes) counts verify's reads" "$T/err")"
done
assert_eq "the aggregate's verify reads said as its own" 1 \
	"$(grep -c "fio's 'All clients' record: its read record (8388608 bytes) sums the hosts' verify reads (verify=crc32c), left out as theirs are" "$T/err")"
grep -q "job 'All clients' on host All clients" "$T/err" && fail "the aggregate named as a job on a host: $(cat "$T/err")"
"$FIOTAB" summary --format=json "$P/verify.json" > "$T/out" 2> "$T/err" || fail "verify.json: $(cat "$T/err")"
assert_eq "verify.json: the directions tabled" "verify-write,write
verify-randrw,write
noverify-write,write" "$("$JQ" -r '.tables[].rows[] | "\(.job),\(.dir)"' "$T/out")"
for m in "'verify-write': its read record" "'verify-randrw': its read record \(4194304 bytes\).*rw=randrw" \
	"'verify-unified': its mixed record \(8388608 bytes\)"; do
	grep -Eq "$m" "$T/err" || fail "verify.json: no '$m': $(cat "$T/err")"
done
"$FIOTAB" dd --format=json "$P/verify.json" 2> /dev/null | "$JQ" -e '[.tables[].rows[].dir] | unique == ["write"]' > /dev/null ||
	fail "dd tables verify reads"
for cmd in perftest "perftest --no-iterations"; do
	"$FIOTAB" $cmd --format=json "$P/verify.json" 2> /dev/null |
		"$JQ" -e '[.tables[].rows[] | .R_avg_MBps == 0 and .W_avg_MBps > 0] | all and length == 3' > /dev/null ||
		fail "$cmd tables verify reads"
done

# P8: what fio writes as a number must be one: "error": "5" is no job fio
# ran without error, "io_bytes": "4096" no direction without bytes
"$JQ" '.jobs[0].error = "5"' "$P/verify.json" > "$T/estr.json"
refused 2 "estr.json:1:1: job 'verify-write': \"error\" is a string \"5\", not a number" summary "$T/estr.json"
"$JQ" '.jobs[3].write.io_bytes = "4194304"' "$P/verify.json" > "$T/bstr.json"
refused 2 "bstr.json:1:1: job 'noverify-write': \"write.io_bytes\" is a string \"4194304\", not a number" perftest "$T/bstr.json"

# P9: bytes moved in runtime 0 (fio counts whole ms) or less than 1 ms have
# no rate: refused, not left out of a mean or printed as inf
for rt in 0 1; do
	"$JQ" ".jobs[3].write.runtime = $rt" "$P/verify.json" > "$T/rt0.json"
	for cmd in summary perftest dd; do
		refused 2 "rt0.json:1:1: job 'noverify-write': \"write.runtime\" is $rt ms for 4194304 bytes: fio rounds a direction's runtime up to whole ms, so the run took up to 1 ms, how much less is unknown" $cmd "$T/rt0.json"
	done
done
# ... nor has a real run under 1 ms, which fio 3.33 writes as runtime 1 ms
# (rounded up) and job_runtime 0 (rounded down), alone or as a
# group_reporting record of such jobs (its longest runtime, its summed
# job_runtime): bytes over 1 ms are not its rate (fiotab tabled a 256 KiB
# write at 250 MB/s, whatever it took)
printf '[global]\nioengine=null\nbs=4k\nsize=256k\nrw=write\n[one]\n[four]\nnew_group\nnumjobs=4\ngroup_reporting=1\n' > "$T/short.fio"
# (a loaded machine may stretch a run past 1 ms: a few tries)
for _ in 1 2 3 4 5; do
	(cd "$T" && "$FIO" --output-format=json --output=short.json short.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
	[ "$("$JQ" -r '[.jobs[] | .jobname, .job_runtime, .write.runtime] | join(" ")' "$T/short.json")" = "one 0 1 four 0 1" ] && break
done
assert_eq "premise: fio's runtimes of a 256 KiB null write (job_runtime, write.runtime)" "one 0 1 four 0 1" \
	"$("$JQ" -r '[.jobs[] | .jobname, .job_runtime, .write.runtime] | join(" ")' "$T/short.json")"
for k in 0 1; do
	"$JQ" ".jobs |= [.[$k]]" "$T/short.json" > "$T/short$k.json"
	job=$("$JQ" -r '.jobs[0].jobname' "$T/short$k.json")
	for cmd in summary perftest dd; do
		refused 2 "short$k.json:1:1: job '$job': \"write.runtime\" is 1 ms for $((262144 * (1 + 3 * k))) bytes: fio rounds a direction's runtime up to whole ms, so the run took up to 1 ms, how much less is unknown, and so is its rate .*; run it longer \(a larger size=, or time_based with runtime=\)" $cmd "$T/short$k.json"
	done
done
# ... and a job_runtime of 0 beside longer directions, which fio does not write
"$JQ" '.jobs[0].write.runtime = 5' "$T/short0.json" > "$T/jrt0.json"
refused 2 "jrt0.json:1:1: job 'one': \"job_runtime\" is 0 ms with 262144 bytes moved: fio writes 0 for a job that ran under 1 ms" summary "$T/jrt0.json"

# P10: fio's "All clients" sum is in client_stats alone: a local job of that
# name is a job (its rate tabled), two in client_stats cannot be told apart
"$FIOTAB" summary "$P/allclients-local.json" > "$T/out" 2> "$T/err" || fail "allclients-local: $(cat "$T/err")"
want=$("$JQ" -r '.jobs[0].write | "\(.io_bytes / .runtime * 1000 / 1048576)"' "$P/allclients-local.json")
assert_eq "a local job named All clients" "All clients - write $(printf '%.3f' "$want")" \
	"$(awk -F'  +' '$1 == "All clients" { print $1, $2, $4, $6 }' "$T/out")"
"$JQ" '{"fio version": ."fio version", timestamp, timestamp_ms, "global options": ."global options",
	client_stats: ([.jobs[] | .hostname = "h" | .port = 8765] + [.jobs[] | .jobname = "All clients" | .hostname = "h" | .port = 8765])}' \
	"$P/allclients-local.json" > "$T/ac2.json"
refused 2 "ac2.json:1:1: two records named 'All clients' in \"client_stats\"" summary "$T/ac2.json"

# P11: bs=R,W: a point of the bs axis is one direction's block size.  A
# randrw job's other direction ran beside it: bs=4k,64k and bs=8k,64k are
# two configurations on the 64k write point, refused; rw=write jobs of
# those bs move writes alone, one configuration: pooled
for args in perftest "perftest --no-iterations" "plot -o $T/p.svg"; do
	refused 1 "^fiotab: jobs 'a1' \([^ ]*/rwbs.json, bs 4096,65536\) and 'b1' \([^ ]*/rwbs.json, bs 8192,65536\) would be one write point at block size 65536" $args "$P/rwbs.json"
done
# ratio's note compared each side's first job and left the axis out:
# randrw bs=4k,64k against 8k,64k "differ in nothing"; now point by point
"$FIOTAB" ratio --baseline-series '^(a)' --candidate-series '^(b)' "$P/rwbs.json" > "$T/out" 2> "$T/err" ||
	fail "ratio of rwbs: $(cat "$T/err")"
assert_eq "ratio note: what differs beside the point" \
	"# baseline / candidate configurations differ in: bs 4096,65536 / 8192,65536" \
	"$(grep 'configurations differ in' "$T/out")"
# ... a job both sides' patterns take would be compared with itself (ratio
# 1.00, p 1.000): refused, naming the job and both labels
refused 1 "^fiotab: ratio: job 'a1' \([^ ]*/rwbs.json, run 1\) is taken by --baseline-series \(as 'a'\) and by --candidate-series \(as 'a1'\)" \
	ratio --baseline-series '^(a)' --candidate-series 'a1' "$P/rwbs.json"
refused 1 "is taken by --baseline-series \(as '1'\) and by --candidate-series \(as '1'\)" \
	ratio --baseline-series '(1)' --candidate-series '(1)' "$P/rwbs.json"
# ... and what differs at some points only is named with them
gen_sweep "$T/rs" 2
"$JQ" '(.jobs[] | select(.["job options"].bs == "4096") | .["job options"].iodepth) = "4"' \
	"$T/rs/r00002.json" > "$T/rs/c.json"
"$FIOTAB" ratio --baseline-series memdisk1 --candidate-series memdisk2 "$T/rs/r00001.json" "$T/rs/c.json" \
	> "$T/out" 2> "$T/err" || fail "ratio of a sweep: $(cat "$T/err")"
assert_eq "ratio note: a difference at one point" \
	"# baseline / candidate configurations differ in: iodepth 1 / 4 at bs 4096, filename /dev/memdisk1 / /dev/memdisk2" \
	"$(grep 'configurations differ in' "$T/out")"
"$FIOTAB" perftest --format=json "$P/rwbs-write.json" > "$T/out" 2> "$T/err" || fail "rwbs-write: $(cat "$T/err")"
want=$("$JQ" -r '[.jobs[].write | .io_bytes / .runtime * 1000] | add / length / 1048576 | . * 1000 | round / 1000' "$P/rwbs-write.json")
assert_eq "rw=write bs=4k,64k and 8k,64k: one point of 4 iterations" "65536 $want" \
	"$("$JQ" -r '.tables[0].rows[] | "\(.blocksize) \(.W_avg_MBps * 1000 | round / 1000)"' "$T/out")"

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
# ... nor may two take one job: it went to the first one's series, and the
# second's printed its direction as not run ('no write job in this series')
for args in perftest "perftest --no-iterations" "plot -o $T/p.svg"; do
	refused 1 "^fiotab: --series '\\^\\(old\\)-' and '\\(r-64k\\)' both take job 'old-r-64k-1' \\([^ ]*/sc2.json, run 1\\): a job is in one series" \
		$args --series '^(old)-' --series '(r-64k)' "$P/sc2.json"
done
[ ! -e "$T/p.svg" ] || fail "plot wrote $T/p.svg"

# P12: fio writes names and options unescaped (ctlname.json: fio
# --name=$'new\nline|p'): a control character no table row, Markdown cell,
# InfluxDB tag or SVG text can carry as it is is refused, named; so in
# --tag and --host
for cmd in summary perftest "plot -o $T/c.svg" "summary --format=influx" "summary --format=markdown"; do
	refused 2 "ctlname.json:[0-9]+:[0-9]+: job name \"new\\\\nline\|p\" holds a control character \(0x0a\)" $cmd "$P/ctlname.json"
done
"$JQ" '.jobs[0]["job options"].description = "a\tb"' "$P/verify.json" > "$T/ctlopt.json"
refused 2 "ctlopt.json:1:1: job 'verify-write': option description \"a\\\\tb\" holds a control character \(0x09\)" perftest "$T/ctlopt.json"
refused 1 "--tag 'x=a" summary --tag $'x=a\nb' "$P/verify.json"
# names the consumers keep for themselves, before any output (influxd
# answered a tag named time with 400 "invalid tag key" for the whole write)
for k in job instance le quantile fio_job time _measurement _field; do
	refused 1 "--tag '$k=x': '$k' is a label fiotab, Prometheus or InfluxDB keeps for itself" \
		summary --format=influx --tag "$k=x" "$P/verify.json"
done
refused 1 "--host: a control character" summary --host $'h\nx' "$P/verify.json"
# a --tag named like a CSV column replaces its cells: one of figures (the old
# CSV wrote --tag IOPS=1's 1 where fio measured 5818), one taking more than one
# value (rw=x made a write and a randrw job one) and CSV's own table and
# series columns (a second header of that name) are refused; a one-valued
# label is replaced, as in the dashboards
for k in IOPS MBps clat_p99_us; do
	refused 1 "^fiotab: --tag $k=1 would replace the CSV column $k of table summary, whose cells are figures, not a label" \
		summary --format=csv --tag "$k=1" "$P/verify.json"
done
refused 1 "^fiotab: --tag W_avg_MBps=1 would replace the CSV column W_avg_MBps of table perftest" \
	perftest --format=csv --tag W_avg_MBps=1 "$P/rwbs-write.json"
refused 1 "^fiotab: --tag rw=x would replace the CSV column rw, which takes more than one value here \('write', 'randrw'\)" \
	summary --format=csv --tag rw=x "$P/verify.json"
for k in table series; do
	refused 1 "^fiotab: --tag $k=x would be a second CSV column $k" summary --format=csv --tag "$k=x" "$P/verify.json"
done
# ... and in line protocol a --tag named like a field of its line: influxd
# kept the tag beside the field iops (SELECT * named it iops_1)
refused 1 "^fiotab: summary --format=influx: label iops='1' is named like the field iops of fiotab_summary" \
	summary --format=influx --tag iops=1 "$P/verify.json"
refused 1 "label iteration_seconds='1' is named like the field iteration_seconds of fiotab_perftest" \
	perftest --format=influx --tag iteration_seconds=1 "$P/rwbs-write.json"
"$FIOTAB" summary --format=csv --tag target=t --tag variant=v "$P/verify.json" > "$T/out" 2> "$T/err" ||
	fail "--tag target=t: $(cat "$T/err")"
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows and all(r["target"] == "t" and r["variant"] == "v" and float(r["IOPS"]) > 1 for r in rows), rows
' "$T/out" || fail "--tag target=t, variant=v: not the CSV's labels"
# ... and a one-valued option given twice with two values (getopt kept the
# last: --format=csv --format=json printed JSON, --x bs --x iodepth an
# iodepth axis); the same value twice is one option
refused 1 "^fiotab: --format given twice \('csv', then 'json'\): give it once" summary --format=csv -f json "$P/verify.json"
refused 1 "^fiotab: --x given twice \('bs', then 'iodepth'\)" perftest --x bs --x iodepth "$P/verify.json"
refused 1 "^fiotab: --host given twice \('a', then 'b'\)" summary --host a --host b "$P/verify.json"
refused 1 "^fiotab: --alpha given twice" ratio --alpha=0.05 --alpha 0.01 "$P/verify.json" "$P/verify.json"
refused 1 "^fiotab: -o given twice \('$T/a.svg', then '$T/b.svg'\)" plot -o "$T/a.svg" --output="$T/b.svg" "$P/verify.json"
[ -e "$T/a.svg" ] || [ -e "$T/b.svg" ] && fail "plot with -o twice wrote a file"
refused 1 "^fiotab: --start given twice" series --start=1700000000000 --start=1700000000001 "$P/verify.json"
"$FIOTAB" summary --format=csv -f csv "$P/verify.json" > /dev/null 2> "$T/err" || fail "--format=csv twice: $(cat "$T/err")"
# ... and bytes that are not UTF-8: fio writes a Latin-1 job file's
# 'caf\xe9' as it is, and every format fiotab writes is UTF-8 text (the
# old fiotab wrote the byte into the tables, Influx tags, Prometheus labels,
# JSON strings and SVG text, which their consumers refuse); valid UTF-8 stays
printf '[r]\nioengine=null\nsize=1m\nrate=100m\nbs=64k\nrw=read\n[caf\xe9]\nioengine=null\nsize=1m\nrate=100m\nbs=64k\nrw=read\n' > "$T/l1.fio"
(cd "$T" && "$FIO" --output-format=json --output=l1.json l1.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
grep -aq "\"caf$(printf '\xe9')\"" "$T/l1.json" || fail "premise: fio wrote 'caf\\xe9' as it is"
for cmd in summary perftest "plot -o $T/l.svg" "summary --format=influx" "summary --format=prom" "summary --format=json" dd; do
	refused 2 "l1.json:[0-9]+:[0-9]+: job name \"caf\\\\xe9\" holds a byte that is not UTF-8 \(0xe9\).*another encoding than UTF-8" $cmd "$T/l1.json"
done
sed -i "s/caf$(printf '\xe9')/caf$(printf '\xc3\xa9')/" "$T/l1.json"
"$JQ" '.jobs[0]["job options"].description = "a\u00e9b" | .jobs[1]["job options"].filename = "/mnt/\u00e9t\u00e9/\u2192"' "$T/l1.json" > "$T/l2.json" ||
	fail "jq on l1.json"
"$FIOTAB" summary --format=csv "$T/l2.json" > "$T/out" 2> "$T/err" || fail "a UTF-8 job name refused: $(cat "$T/err")"
grep -q "^summary,.*,café,-,/mnt/été/→," "$T/out" || fail "a UTF-8 job name or target not as it is: $(cat "$T/out")"
printf '{\n  "fio version" : "fio-3.33",\n  "jobs" : [ { "jobname" : "a", "job options" : { "filename" : "/x/\xed\xa0\x80" } } ]\n}\n' > "$T/l3.json"
refused 2 "l3.json:1:1: job 'a': option filename \"/x/\\\\xed\\\\xa0\\\\x80\" holds a byte that is not UTF-8 \(0xed\)" summary "$T/l3.json"
# ... and a backslash in a Markdown cell: GFM splits a row at every '|' a
# backslash does not escape, '\\' escaping a backslash: the old fiotab wrote
# job 'x\|y' as 'x\\|y', two cells, every figure after it one column right
# (its MB/s cell held the block size). Rows split as cmark-gfm splits them:
gfm_rows() {
	python3 -c '
import sys
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.startswith("|"):
        continue
    cells, cur, i = [], "", 1
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            cur, i = cur + line[i + 1], i + 2
        elif line[i] == "|":
            cells, cur, i = cells + [cur.strip()], "", i + 1
        else:
            cur, i = cur + line[i], i + 1
    print("\t".join(cells))'
}
printf '[global]\nioengine=null\nrate=8m\nbs=64k\nrw=read\n[x\\|y]\nsize=1m\n[z\\]\nsize=2m\n' > "$T/bsl.fio"
(cd "$T" && "$FIO" --output-format=json --output=bsl.json bsl.fio > fio.out 2> fio.err) || fail "fio: $(cat "$T/fio.err")"
"$FIOTAB" summary --format=markdown "$T/bsl.json" | gfm_rows > "$T/md" || fail "summary --format=markdown"
assert_eq "Markdown cells per row (job names with a backslash)" 11 "$(awk -F'\t' '{ print NF }' "$T/md" | sort -u)"
assert_eq "Markdown job cells" 'x\|y z\' "$(awk -F'\t' 'NR > 2 { printf "%s%s", s, $1; s = " " }' "$T/md")"
assert_eq "Markdown MB/s cells = jq's io_bytes / runtime" \
	"$("$JQ" -r '.jobs[] | .read.io_bytes / .read.runtime * 1000 / 1048576 * 1000 | round / 1000' "$T/bsl.json" | tr '\n' ' ')" \
	"$(awk -F'\t' 'NR > 2 { printf "%s ", $6 + 0 }' "$T/md")"
# ... and every byte with a meaning inline (emphasis, links, HTML, code
# spans, entities, strikethrough) is escaped: read back by the same rule the
# names are fio's, and none of those bytes stands unescaped
"$FIO" --output-format=json --output="$T/mdn.json" --ioengine=null --size=1m --rate=100m --bs=64k --rw=read \
	--name=a_b_c --name='<b>' --name='x&amp;y' --name='*s*' --name='[l](u)' --name='c`d' \
	--name='~~t~~' > /dev/null 2> "$T/fio.err" || fail "fio: $(cat "$T/fio.err")"
"$FIOTAB" summary --format=markdown "$T/mdn.json" > "$T/mdn.md" || fail "summary --format=markdown"
assert_eq "Markdown job cells (names with inline syntax)" 'a_b_c <b> x&amp;y *s* [l](u) c`d ~~t~~' \
	"$(gfm_rows < "$T/mdn.md" | awk -F'\t' 'NR > 2 { printf "%s%s", s, $1; s = " " }')"
left=$(python3 -c 'import re, sys
for line in sys.stdin:
    if re.search(r"[*_\[\]<>`&~]", re.sub(r"\\.", "", line)):
        print(line.rstrip())' < "$T/mdn.md")
[ -z "$left" ] || fail "Markdown with inline syntax unescaped: $left"
refused 1 "--host: a byte that is not UTF-8" summary --host $'h\xffx' "$P/verify.json"
refused 1 "VALUE not empty, UTF-8 and without control characters" summary --tag $'x=a\xc0\xafb' "$P/verify.json"

# P13: bssplit (bsrange alike): each run's mean transfer size is another
# number (bssplit.json: two repeats of 4k/50:64k/50, means 18641 and
# 23831), which split the repeats into two "block size" points: refused by
# the tables that go by block size; summary shows each run
for args in perftest "perftest --no-iterations" "plot -o $T/b.svg" "perftest --x iodepth" \
	"ratio --baseline-series it1 --candidate-series it2"; do
	refused 1 "^fiotab: [^ ]*/bssplit.json: job 'it1' ran bssplit=4k/50:64k/50: its transfer size varies from I/O to I/O \(this run's mean: 18641 bytes\)" \
		$args "$P/bssplit.json"
done
"$FIOTAB" summary "$P/bssplit.json" > /dev/null 2> "$T/err" || fail "summary of bssplit refused: $(cat "$T/err")"
# ... and so is unified_rw_reporting's mixed record of randrw bs=4k,64k
# (unified-rwbs.json: two repeats, means 35875 and 36252 bytes)
refused 1 "^fiotab: [^ ]*/unified-rwbs.json: job 'it1': its mixed record \(unified_rw_reporting\) sums reads and writes of block sizes 4096 and 65536 \(this run's mean: 35875 bytes\)" \
	perftest "$P/unified-rwbs.json"

# P14: an option the command does not read is refused, not ignored:
# summary -o FILE wrote no FILE (the table went to stdout), --series did
# not select summary's rows, plot --format=csv wrote an SVG
refused 1 "^fiotab: summary: -o is not an option of this command" summary -o "$T/s.txt" "$P/verify.json"
[ ! -e "$T/s.txt" ] || fail "summary -o wrote $T/s.txt"
refused 1 "^fiotab: dd: --series is not an option of this command" dd --series verify "$P/verify.json"
refused 1 "^fiotab: summary: --x is not an option" summary --x iodepth "$P/verify.json"
refused 1 "^fiotab: plot: --format is not an option of this command with -o" plot --format=csv -o "$T/p.svg" "$P/rwbs-write.json"
[ ! -e "$T/p.svg" ] || fail "plot --format=csv wrote $T/p.svg"
refused 1 "^fiotab: iozone: --alpha is not an option" iozone --alpha 0.01 "$P/ioz-size.json"
refused 1 "^fiotab: perftest: --start/--unix-epoch is not an option" perftest --unix-epoch "$P/rwbs-write.json"
# ... what the runner gives every command still goes (--tag, --host, --format=csv)
"$FIOTAB" plot -o "$T/p.svg" --tag profile=x --host h "$P/rwbs-write.json" 2> "$T/err" || fail "plot --tag: $(cat "$T/err")"

# P15: fio --client with two servers: two hosts' jobs of one name, where
# dd's line and the iostat view showed no host (two lines alike but for
# their figures); each line names its host then, and one host's stay dd's
twohost() {	# twohost FILE: rwbs-write.json's first job, on hosts h1 and h2
	"$JQ" '{"fio version", timestamp, timestamp_ms, "global options",
		client_stats: [.jobs[0] as $j | ("h1", "h2") as $h | $j + {hostname: $h, port: 8765}]}' \
		"$P/rwbs-write.json" > "$1"
}
twohost "$T/2h.json"
"$FIOTAB" dd "$T/2h.json" > "$T/out" 2> "$T/err" || fail "dd of two hosts: $(cat "$T/err")"
assert_eq "dd lines name their host" "h1:8765 h2:8765" \
	"$(awk '/ copied, / { printf "%s%s", s, $1; s = " " }' "$T/out")"
assert_eq "iostat rows name their host" "h1:8765 h2:8765" \
	"$(awk '$1 == "a1" { printf "%s%s", s, $3; s = " " }' "$T/out")"
"$FIOTAB" dd "$P/rwbs-write.json" > "$T/out" 2> "$T/err" || fail "dd: $(cat "$T/err")"
grep -Eq '^[0-9]+ bytes \(' "$T/out" || fail "dd of one host: not dd's line: $(head -4 "$T/out")"
grep -q ' host ' "$T/out" && fail "iostat of one host: a host column: $(cat "$T/out")"

# P16: messages named client jobs without their host ("jobs 'job' and
# 'job' ran side by side"): several servers' jobs share names, so each
# names its host too
client() {	# client JQ-HOSTS IN OUT: IN's jobs as fio --client's client_stats
	"$JQ" "{\"fio version\", timestamp, timestamp_ms, \"global options\", client_stats: [$1]}" "$2" > "$3"
}
client '.jobs[] as $j | ("h1", "h2") as $h | $j + {hostname: $h, port: 8765}' "$P/numjobs3-nogroup.json" "$T/njc.json"
refused 1 "njc.json: jobs 'job' on host h1:8765 and 'job' on host h1:8765 ran side by side" perftest "$T/njc.json"
client '(.jobs[0] + {hostname: "h1", port: 8765}), (.jobs[2] + {hostname: "h2", port: 8765, groupid: 0}),
	{jobname: "All clients", groupid: 0, hostname: "h1", port: 8765}' "$P/rwbs.json" "$T/aggc.json"
"$FIOTAB" summary "$T/aggc.json" > /dev/null 2> "$T/err" || fail "summary of aggc.json: $(cat "$T/err")"
assert_match "the aggregate's hosts named" "aggc.json: fio's 'All clients' record left out: the per-host jobs it sums differ in their options \('a1' on host h1:8765 and 'b1' on host h2:8765\)" \
	"$(cat "$T/err")"
client '.jobs[] + {hostname: "h1", port: 8765}' "$P/gr.json" "$T/grc.json"
refused 2 "grc.json:1:1: job 'a' on host h1:8765: read: block size 65536" summary "$T/grc.json"
exit 0
