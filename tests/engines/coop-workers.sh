#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pool's mechanisms, seen from outside the engine while a job runs:
#  - coop_threads workers exist, each its own kernel task (distinct tids,
#    none of them the job's thread), and with coop_dispatch=rr every one
#    of them served requests (coop_stats);
#  - coop_fd=per-thread gives every worker its own open file (kcmp says the
#    descriptors are different struct files), coop_fd=shared none;
#  - coop_ioctx=shared: an ioprio set on one worker (ionice) is seen by the
#    others, i.e. they share one io_context; with private it is not.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd ionice
probe=$B/tests/unit/coop-probe
[ -x "$probe" ] || fail "$probe not built"

n=5
truncate -s 64m "$T/target"

# start_job NAME ARGS...: run a job in the background until finish_job
# stops it (a fixed runtime could end before the checks on a loaded
# machine: the workers gone, their files closed); sets $pid.
start_job() {
	local name=$1
	shift
	coop_fio --thread --name="$name" --filename="$T/target" --size=64m \
		--rw=randread --bs=4k --iodepth=16 --time_based --runtime=120 \
		--coop_threads=$n --coop_dispatch=rr --coop_stats=1 "$@" \
		>"$T/$name.out" 2>&1 &
	bg=$!
	pid=$(coop_fio_pid $bg) || fail "$name: fio did not start: $(cat "$T/$name.out")"
	coop_wait_workers $pid $n || fail "$name: no $n coop workers in fio ($(cat "$T/$name.out"))"
}

# finish_job NAME: stop it as ^C does; fio ends the job cleanly (stats,
# coop_stats) and exits 128 for the interruption; the job had no error.
finish_job() {
	local rc=0
	kill -INT $pid
	wait $bg || rc=$?
	[ $rc = 0 ] || [ $rc = 128 ] || fail "$1: fio exited $rc: $(cat "$T/$1.out")"
	assert_match "$1: no job error" "err= 0:" "$(cat "$T/$1.out")"
}

# fds_on_target PID: descriptors of PID open on the target file.
fds_on_target() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd")" = "$T/target" ] && echo "${fd##*/}"
	done
}

for ioctx in private shared; do
	coop_is_tsan && [ $ioctx = shared ] && continue
	for fdmode in shared per-thread; do
		name=$ioctx-$fdmode
		start_job $name --coop_fd=$fdmode --coop_ioctx=$ioctx
		coop_worker_tids $pid >"$T/$name.tids"

		# Distinct tasks.
		assert_eq "$name: distinct worker tids" $n \
			"$(awk '{ print $2 }' "$T/$name.tids" | sort -u | wc -l)"
		grep -qw "$pid" <(awk '{ print $2 }' "$T/$name.tids") &&
			fail "$name: a worker runs on fio's own tid"

		# Separate opens.  The workers start at the engine's init, the
		# files are opened after it: on a loaded machine the opens may
		# still be on their way when the workers are seen.
		want=1
		[ $fdmode = per-thread ] && want=$((n + 1))
		for ((i = 0; i < 100; i++)); do
			[ "$(fds_on_target $pid | wc -l)" -ge $want ] && break
			sleep 0.05
		done
		mapfile -t fds < <(fds_on_target $pid)
		if [ $fdmode = per-thread ]; then
			assert_eq "$name: descriptors on the target" $((n + 1)) ${#fds[@]}
			for ((i = 1; i < ${#fds[@]}; i++)); do
				"$probe" kcmp $pid "${fds[0]}" "${fds[i]}" &&
					fail "$name: fd ${fds[i]} is the same open file as fd ${fds[0]}"
			done
		else
			assert_eq "$name: descriptors on the target" 1 ${#fds[@]}
		fi

		# io_context sharing through ioprio.
		w0=$(awk '$1 == "coop-w0" { print $2 }' "$T/$name.tids")
		w3=$(awk '$1 == "coop-w3" { print $2 }' "$T/$name.tids")
		ionice -c 2 -n 7 -p "$w0" || fail "$name: ionice on worker 0 failed"
		assert_match "$name: ioprio of worker 0" "best-effort: prio 7" "$(ionice -p "$w0")"
		seen=$(ionice -p "$w3")
		if [ $ioctx = shared ]; then
			assert_match "$name: worker 3 sees worker 0's ioprio" "best-effort: prio 7" "$seen"
		else
			echo "$seen" | grep -q "best-effort: prio 7" &&
				fail "$name: private io_context but worker 3 got worker 0's ioprio"
		fi
		finish_job $name

		# coop_stats agrees: the same tids, each served requests.
		for ((w = 0; w < n; w++)); do
			line=$(grep -E "coop: $name: worker=$w " "$T/$name.out") ||
				fail "$name: no stats for worker $w: $(cat "$T/$name.out")"
			tid=$(awk -v w="coop-w$w" '$1 == w { print $2 }' "$T/$name.tids")
			assert_match "$name: stats tid of worker $w" "tid=$tid " "$line"
			echo "$line" | grep -q " requests=0 " && fail "$name: worker $w served nothing: $line"
		done
		note "ok: $name"
	done
done
