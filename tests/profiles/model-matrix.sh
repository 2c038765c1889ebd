#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# profiles/scst-coop/run-model-matrix (perfpack model-matrix): the
# calibration half runs end to end (64 MiB jobs, scale 5) and writes its
# report; bad options are refused (exit 1, the runner's) before anything
# runs; an existing directory is not replaced without --overwrite, nor one
# that is no run directory even with it; a stopped run leaves no fio behind
# and stays DIR.partial.XXXXXX, "status: incomplete" in its run.txt.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"

RMM=$TOP/profiles/scst-coop/run-model-matrix
export FIO FIOTAB ENGDIR

# refused ARGS...: exit 1 at once with a message naming the culprit
refused() {
	local re=$1 out rc
	shift
	out=$(cd "$T" && timeout 20 "$RMM" "$@" 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "run-model-matrix $* exited $rc, not 1: $out"
	assert_match "message for $*" "$re" "$out"
}
refused "-j '0': not a whole number" -j 0
refused "--scale 'abc': not a whole number" --scale abc
refused '-o needs a value' -o
refused '--size 1000: at least 67108864' --size 1000
mkdir "$T/old"
echo keep >"$T/old/notes"
refused 'old: exists and is not empty' -o "$T/old"
refused 'old: not a perfpack run directory' -o "$T/old" --overwrite
assert_eq "nothing replaced" keep "$(cat "$T/old/notes")"
refused "unknown argument '--bogus'" --bogus
# ... and what the old parser took the last of: --calibration --later ran
# the later matrix alone, --scale 5 --scale 20 at 20
refused "--calibration and --later exclude each other: give one, or neither for both" --calibration --later
refused "--scale given twice \('5', then '20'\): give it once" --scale 5 --scale 20
refused "-o given twice" -o "$T/m1" -o "$T/m2"

# the calibration half, small: every case reported, an MAE, complete.  All
# eleven fio at once: each spends most of its time in fio's own waits
# between stonewalled jobs (100 ms polls), not on the CPU
o=$T/out
timeout 600 "$RMM" --calibration --size 67108864 --scale 5 -j 11 -o "$o" >"$T/run.out" 2>"$T/run.err" ||
	fail "run-model-matrix failed: $(tail -5 "$T/run.err")"
assert_eq "cases in the report" 11 "$(grep -c '^| [0-9]* | ' "$o/tables/calibration.md")"
assert_match "mean absolute error" 'mean absolute error: [0-9.]+ %' "$(cat "$o/tables/calibration.md")"
assert_eq "model reports" 11 "$(ls "$o"/raw/case*.model | wc -l)"
assert_match "run.txt says complete" '^status: complete$' "$(grep '^status:' "$o/run.txt")"
[ -z "$(ls -d "$T"/out.partial.* 2>/dev/null)" ] || fail "a finished run left a .partial directory"
# perfpack tables renders a perfpack run's directory, and says this is none
# (the old runner: "run.txt names no variants (no \"variants:\" line)")
msg=$("$PERFPACK" tables "$o" 2>&1) && fail "perfpack tables rendered a model-matrix directory: $msg"
assert_match "perfpack tables on the model matrix" "$o is a perfpack model-matrix directory: its tables are made as it runs, in $o/tables" "$msg"

# The later half: every series of the five files tabled.  Its files hold many
# series; each [global] of its own made fio's JSON hold keys twice with
# different values, which fiotab refuses, so the half never ran to the end.
timeout 600 "$RMM" --later --size 67108864 --later-scale 5 -o "$T/later" >"$T/later.out" 2>"$T/later.err" ||
	fail "run-model-matrix --later failed: $(tail -3 "$T/later.err")"
for f in later-cfq-threads:14 later-deadline:21 later-inorder:12 later-client-sched:12 later-noop:6; do
	assert_eq "series in ${f%:*}.summary.md" "${f#*:}" \
		"$(grep -c '^| t[0-9]*\.[^ ]* | [0-9.]* |$' "$T/later/tables/${f%:*}.summary.md")"
done

# stopped, and with --overwrite over the run above: fio goes too, the new
# directory says it is partial, and the earlier run stays whole (--overwrite
# replaces it only once the new one is complete; that a complete one does
# replace it is runner-errors.sh's, the same code for every command)
# writers_in DIR: processes whose stdout is a file under DIR (fio's JSON)
writers_in() {
	local p f

	for p in /proc/[0-9]*; do
		f=$(readlink "$p/fd/1" 2>/dev/null) || continue
		case $f in "$1"*/*) echo "${p#/proc/}" ;; esac
	done
}
timeout 120 "$RMM" --calibration --size 1073741824 --scale 1 -o "$o" --overwrite \
	>/dev/null 2>"$T/stop.err" &
pid=$!
for _ in $(seq 100); do
	[ -n "$(writers_in "$T/out.partial.")" ] && break
	sleep 0.1
done
[ -n "$(writers_in "$T/out.partial.")" ] || fail "no fio started for the stop test"
kill -TERM "$pid"
wait "$pid"
rc=$?
assert_eq "exit status after SIGTERM" 143 "$rc"
for _ in $(seq 50); do
	[ -z "$(writers_in "$T/out.partial.")" ] && break
	sleep 0.1
done
left=$(writers_in "$T/out.partial.")
if [ -n "$left" ]; then
	kill -KILL $left 2>/dev/null
	fail "fio left running after SIGTERM: $left"
fi
assert_eq "the earlier run's reports after a stopped --overwrite" 11 "$(ls "$o"/raw/case*.model | wc -l)"
assert_match "the earlier run still complete" '^status: complete$' "$(grep '^status:' "$o/run.txt")"
part=$(ls -d "$T"/out.partial.* 2>/dev/null)
[ -n "$part" ] || fail "a stopped run left no out.partial.* directory"
assert_match "partial run marked" '^status: incomplete' "$(grep '^status:' "$part/run.txt")"
assert_match "the stop said so" 'incomplete run' "$(cat "$T/stop.err")"
# ... and what it says to do with it works: perfpack tables renders a perfpack
# run's directory, not the model matrix's, whose tables/ the run itself writes
if grep -q 'perfpack tables' "$T/stop.err"; then
	"$PERFPACK" tables --partial "$part" >"$T/tables.out" 2>&1 ||
		fail "the stop suggests perfpack tables --partial, which fails on $part: $(cat "$T/tables.out")"
fi
assert_match "the stop names the tables made" "what it produced is in $part \(the tables of the cases done are in its tables/\)" \
	"$(cat "$T/stop.err")"
exit 0
