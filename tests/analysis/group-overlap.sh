#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Iterations of one fio run in groups that ran side by side: new_group
# without stonewall gives each its own groupid, as stonewall does, and
# both are bare flags fio's JSON leaves out; the records alone read as
# iterations one after the other.  fio's "elapsed" (the run's seconds)
# tells: groups one after another take no longer than the run.  Refused
# by perftest and plot; stonewalled iterations are read.
# fio --client's JSON has no "elapsed" (nor any start time): there, records
# of one point in groups of one run are refused either way, said (the old
# code tabled side by side iterations as one after the other); a sweep in
# one client run (one record a point) is read.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
printf '[global]\nioengine=null\nbs=4k\nrw=read\nsize=4m\nrate=8m\ntime_based=1\nruntime=700ms\n[it-1]\n[it-2]\nnew_group\n[it-3]\nnew_group\n' > side.fio
sed 's/^new_group$/stonewall/' side.fio > seq.fio
for f in side seq; do
	run_fio --output-format=json $f.fio > $f.json 2> fio.err || fail "fio: $(cat fio.err)"
	"$JQ" -e '[.jobs[].groupid] == [0, 1, 2] and ([.jobs[]["job options"] // {} | keys[]] | index("new_group", "stonewall") == null)' $f.json > /dev/null ||
		fail "premise ($f): three groups, no flag in the records: $("$JQ" -c '[.jobs[] | {groupid, o: .["job options"]}]' $f.json)"
done
"$JQ" -e '([.jobs[].read.runtime] | add) > 1000 * .jobs[0].elapsed' side.json > /dev/null ||
	fail "premise: side by side, the groups' runtimes add up to more than the run: $("$JQ" -c '[.jobs[] | {elapsed, r: .read.runtime}]' side.json)"

"$FIOTAB" perftest --series it seq.json > out 2> err || fail "stonewalled iterations refused: $(cat err)"
assert_eq "three iterations" 3 "$(awk '/^blocksize/ { for (i = 1; i <= NF; i++) n += $i == "R"; print n - 1; exit }' out)"
for cmd in "perftest --series it" "perftest --no-iterations --series it" "plot -o p.svg --series it"; do
	$FIOTAB $cmd side.json > out 2> err && fail "$cmd: iterations that ran side by side read as one after the other: $(tail -1 out)"
	[ -s out ] && fail "$cmd: output beside the refusal"
	[ -e p.svg ] && fail "$cmd: p.svg written"
	assert_match "$cmd: refused" "^fiotab: side.json: jobs 'it-1' and 'it-2' ran side by side \(groups of one fio run that overlapped: their longest runtimes add up to [0-9]+ ms, more than the run's elapsed [0-9]+ s; new_group without stonewall\)" "$(cat err)"
done

# the same under fio --client (one server on loopback)
loopback_servers
client_run() {	# client_run JOBFILE OUT
	local i
	for i in $(seq 20); do
		"$FIO" --output-format=json --client=ip:127.0.0.1,$base "$1" > "$2" 2> fio.err && return 0
		sleep 0.2
	done
	fail "fio --client $1: $(cat fio.err)"
}
printf '[global]\nioengine=null\nrw=read\nsize=4m\nrate=8m\ntime_based=1\nruntime=300ms\n[sw-4k]\nbs=4k\n[sw-8k]\nstonewall\nbs=8k\n' > sweep.fio
for f in side seq sweep; do
	client_run $f.fio c-$f.json
	sed -n '/^{/,$p' c-$f.json | "$JQ" -e 'all(.client_stats[]; has("elapsed") | not)' > /dev/null ||
		fail "premise ($f): fio --client wrote elapsed: $(sed -n '/^{/,$p' c-$f.json | "$JQ" -c '[.client_stats[].elapsed]')"
done
for f in side seq; do
	for cmd in "perftest --series it" "perftest --no-iterations --series it" "plot -o p.svg --series it"; do
		$FIOTAB $cmd c-$f.json > out 2> err && fail "$cmd c-$f.json: fio --client iterations read as one after the other: $(tail -1 out)"
		[ -s out ] && fail "$cmd c-$f.json: output beside the refusal"
		[ -e p.svg ] && fail "$cmd c-$f.json: p.svg written"
		assert_match "$cmd c-$f.json: refused" "^fiotab: c-$f.json: jobs 'it-1' on host 127.0.0.1:$base and 'it-2' on host 127.0.0.1:$base are in groups of one fio --client run, one configuration: its JSON records no elapsed time, so whether they ran one after the other \(stonewall\) or side by side \(new_group without stonewall\) is unknown" "$(cat err)"
	done
done
"$FIOTAB" perftest c-sweep.json > out 2> err || fail "a bs sweep in one fio --client run refused: $(cat err)"
assert_eq "the sweep's block sizes (descending, as blockdev-perftest)" "8192 4096" "$(awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $1; s = " " }' out)"
exit 0
