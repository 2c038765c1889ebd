#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio's nice= and cgroup= reach the threads that do the job's I/O.  fio
# applies both to the job's thread alone (nice() is per thread on Linux;
# cgroup v1's "tasks" file takes one thread) after the engine's init
# started the workers: they kept nice 0 and their groups, so a nice=7
# job did its I/O at nice 0, and a cgroup= job's I/O ran outside the
# group and its blkio weight and limits, with err= 0.  Checked while the
# job runs, every backend and io_context mode: the job's thread has
# fio's nice and group (the control), and so does every worker.  The
# group part needs a cgroup v1 blkio hierarchy (fio's cgroup= takes the
# first of blkio v1 and cgroup2 it finds, and v2 groups whole processes).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root

n=3
truncate -s 16m "$T/target"
group=perfpack-coop-$$
cg=()
v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit } $3 == "cgroup2" { exit }' /proc/mounts)
if [ -n "$v1" ]; then
	cg=(--cgroup="$group")
else
	note "no cgroup v1 blkio hierarchy first in /proc/mounts: nice= only"
fi

# Jobs run until the checks are done, then stop when fio finds its
# trigger file (no signal: fio's SIGINT handler is not signal-safe, which
# TSan reports).  A failed check leaves its job running: stop it too, and
# remove fio's group.
stop=$T/stop
bg=
trap '[ -n "$bg" ] && touch "$stop" && wait $bg; [ -n "$v1" ] && rmdir "$v1/$group" 2>/dev/null; _pp_teardown' EXIT

# nice_of PID TID: the task's nice (field 19 of its stat).
nice_of() {
	awk '{ print $19 }' "/proc/$1/task/$2/stat"
}

# blkio_of PID TID: the task's group in the blkio v1 hierarchy.
blkio_of() {
	awk -F: '$2 ~ /(^|,)blkio(,|$)/ { print $3 }' "/proc/$1/task/$2/cgroup"
}

# settled CMD...: CMD succeeds within 5 s.
settled() {
	local i
	for ((i = 0; i < 100; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

is_job_thread() {
	[ "$(nice_of $pid $1)" = 7 ] && { [ -z "$v1" ] || [ "$(blkio_of $pid $1)" = "/$group" ]; }
}

modes=("--coop_ioctx=private" "--coop_backend=uring")
coop_is_tsan || modes+=("--coop_ioctx=shared")
for mode in "${modes[@]}"; do
	name=${mode#--coop_}
	name=${name/=/-}
	pid=
	rm -f "$stop"
	coop_fio --thread --trigger-file="$stop" --name="$name" --filename="$T/target" --rw=randread --bs=4k \
		--iodepth=8 --time_based --runtime=120 --rate_iops=200 --nice=7 "${cg[@]}" \
		--coop_threads=$n "$mode" >"$T/$name.out" 2>&1 &
	bg=$!
	pid=$(coop_fio_pid $bg) || fail "$name: fio did not start: $(cat "$T/$name.out")"
	coop_wait_workers $pid $n || fail "$name: no $n coop workers in fio ($(cat "$T/$name.out"))"
	# The control: the job's thread, a task that is no worker, has fio's settings.
	job=
	find_job() {
		local t
		for t in /proc/$pid/task/*; do
			[[ $(cat "$t/comm") == coop-w* ]] && continue
			is_job_thread ${t##*/} && job=${t##*/} && return 0
		done
		return 1
	}
	settled find_job || fail "$name: no thread of fio took nice=7${v1:+ and group /$group} (control)"
	# The workers, from the job's first open on.
	while read -r comm tid; do
		settled is_job_thread $tid
		assert_eq "$name: nice of $comm (tid $tid; the job's thread $job has 7)" 7 \
			"$(nice_of $pid $tid)"
		[ -n "$v1" ] && assert_eq "$name: blkio group of $comm (tid $tid; the job's thread $job's)" \
			"/$group" "$(blkio_of $pid $tid)"
	done < <(coop_worker_tids $pid)
	touch "$stop"
	wait $bg || fail "$name: fio exited $?: $(cat "$T/$name.out")"
	bg=
	assert_match "$name: no job error" "err= 0:" "$(cat "$T/$name.out")"
	note "ok: $name: the job's thread and its $n workers at nice 7${v1:+, in blkio group /$group}"
done
[ -n "$v1" ] && [ -d "$v1/$group" ] && fail "fio left its group $v1/$group behind"
exit 0
