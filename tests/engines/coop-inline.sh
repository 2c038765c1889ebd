#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Caller-runs (coop_inline, engines/coop/pool.c run_inline()): the job's
# thread runs a command itself only where a worker doing it would be
# indistinguishable to the block layer: one io_context and one struct file
# do the job's I/O either way, with the same system call
# (coop_backend=psync), one command per request (no coop_split_kb cut, no
# coop_ra=context window), and no other command beside or before it.
# That is coop_ioctx=shared with coop_fd=shared at iodepth 1, or one worker
# (its own descriptor with coop_fd=per-thread) at any iodepth: then the
# job's thread runs every command, one at a time in fio's order, when it
# waits (run_lazy()).  coop_stats counts inline commands (stream inline=)
# apart from the workers' (worker requests=):
#  - where it applies, every I/O of the job is inline and no worker ran one,
#    and with coop_fd=per-thread every read is on the worker's descriptor
#    (strace), not fio's;
#  - with one worker at iodepth 16 the reads reach the kernel in fio's
#    issue order (strace against write_iolog), from one thread, fio's
#    latency still counts the wait behind the 15 queued before (median
#    clat at least 4x iodepth 1's), and a job that reaps without waiting
#    (iodepth_batch_complete_min=0) completes; the worker is not started
#    (the job process is one thread, coop_stats says so), while with
#    coop_inline=0 it is;
#  - with each option that makes a worker differ (coop_ioctx=private with
#    two workers, or with one split or coop_coalesce=1, coop_fd=per-thread
#    with two workers, coop_backend=uring, coop_split_kb below bs,
#    coop_ra=context), with
#    shared io_contexts at iodepth 16 and with coop_inline=0, none is;
#  - inline writes read back (verify=crc32c, fsyncs between), and an
#    inline fsync's EIO (a loop device whose writeback fails) is the job's
#    error, as psync's: one private worker at iodepth 1 and 16, and shared
#    io_contexts and fd at iodepth 1.
# Under TSan (which refuses coop_ioctx=shared) only the private cases run.
# Scratch files on tmpfs (the loop device's backing file too).
export TMPDIR=${COOP_TEST_TMPDIR:-/dev/shm}
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd "$JQ"

dd if=/dev/urandom of="$T/data" bs=1M count=16 status=none

# counts LABEL FIO_ARGS...: one randread job with coop_stats; sets $ios
# (fio's total_ios), $inl (stream inline=) and $wrk (the workers' requests).
counts() {
	local label=$1
	shift
	coop_fio --thread --output-format=json --output="$T/$label.json" --name=inl \
		--filename="$T/data" --size=16m --rw=randread --bs=4k --number_ios=2000 \
		--coop_stats=1 "$@" 2>"$T/$label.err" ||
		fail "$label: fio failed: $(cat "$T/$label.err")"
	ios=$(sed -n '/^{/,$p' "$T/$label.json" | "$JQ" '.jobs[0].read.total_ios') ||
		fail "$label: no JSON"
	inl=$(grep -o 'stream .*' "$T/$label.err" | grep -o ' inline=[0-9]*' | cut -d= -f2)
	[ -n "$inl" ] || fail "$label: no inline= in coop_stats: $(grep coop: "$T/$label.err")"
	wrk=$(grep -o 'worker=[0-9]* tid=[0-9]* requests=[0-9]*' "$T/$label.err" |
		awk -F= '{ s += $NF } END { print s + 0 }')
}

# all_inline LABEL FIO_ARGS...: every I/O inline, none by a worker.
all_inline() {
	local label=$1
	shift
	counts "$label" --iodepth=1 "$@"
	[ "$ios" -gt 0 ] || fail "$label: no I/O"
	assert_eq "$label: inline commands = fio's I/Os" "$ios" "$inl"
	assert_eq "$label: commands the workers ran" 0 "$wrk"
	note "ok: $label: $inl of $ios I/Os inline, none by a worker"
}

# none_inline LABEL FIO_ARGS...: every I/O by a worker.
none_inline() {
	local label=$1
	shift
	counts "$label" "$@"
	assert_eq "$label: inline commands" 0 "$inl"
	[ "$wrk" -ge "$ios" ] || fail "$label: the workers ran $wrk commands for $ios I/Os"
	note "ok: $label: no inline command, the workers ran $wrk"
}

# One private worker: inline only when all of the job's commands are.
private1=(--coop_ioctx=private --coop_fd=shared --coop_backend=psync --coop_threads=1)
all_inline private-1 "${private1[@]}"
all_inline private-1-per-thread "${private1[@]}" --coop_fd=per-thread
all_inline private-1-qd16 "${private1[@]}" --iodepth=16
all_inline private-1-qd16-per-thread "${private1[@]}" --iodepth=16 --coop_fd=per-thread
all_inline private-1-qd16-nowait "${private1[@]}" --iodepth=16 --iodepth_batch_complete_min=0
none_inline private-2 "${private1[@]}" --iodepth=1 --coop_threads=2
none_inline private-2-qd16 "${private1[@]}" --iodepth=16 --coop_threads=2
none_inline private-1-split "${private1[@]}" --iodepth=1 --coop_split_kb=2
none_inline private-1-qd16-split "${private1[@]}" --iodepth=16 --coop_split_kb=2
none_inline private-1-qd16-coalesce "${private1[@]}" --iodepth=16 --coop_coalesce=1
none_inline private-1-per-thread-2 "${private1[@]}" --iodepth=1 --coop_fd=per-thread --coop_threads=2

# Where the job's thread runs every command, the worker is not started:
# no coop worker thread, fio's job process stays one thread (the kernel
# then takes no reference on the file per read), and coop_stats says so.
# With coop_inline=0 the same job has its worker.  Under TSan the job is a
# thread of fio's process (TSan cannot start threads in a child forked
# from a multithreaded process), so only the workers are counted there.
# tasks LABEL FIO_ARGS...: "WORKERS THREADS" of the job while it reads.
tasks() {
	local label=$1 bg pid i job= mode=()
	shift
	coop_is_tsan && mode=(--thread)
	coop_fio "${mode[@]}" --name="$label" --filename="$T/data" --size=16m --rw=randread \
		--bs=4k --iodepth=16 --time_based --runtime=4 --coop_stats=1 "$@" \
		>"$T/$label.out" 2>&1 &
	bg=$!
	pid=$(coop_fio_pid $bg) || fail "$label: fio did not start: $(cat "$T/$label.out")"
	# Without --thread the job is fio's child: wait until it reads.  With
	# it, fio's process reads at once (its options): wait for a worker,
	# at most 2 s.
	for ((i = 0; i < 200; i++)); do
		if coop_is_tsan; then
			job=$pid
			[ $i -ge 40 ] || [ -n "$(coop_worker_tids "$job")" ] && break
		else
			job=$(pgrep -P "$pid" -x fio | head -n 1)
			[ -n "$job" ] && grep -q '^rchar: [1-9]' /proc/"$job"/io 2>/dev/null && break
		fi
		sleep 0.05
	done
	[ -n "$job" ] || fail "$label: no job process under fio $pid: $(cat "$T/$label.out")"
	echo "$(coop_worker_tids "$job" | wc -l) $(ls /proc/"$job"/task | wc -l)"
	# Not ^C: fio's SIGINT handler formats its message (vasprintf), which
	# ThreadSanitizer reports as a signal-unsafe call.
	wait $bg || fail "$label: fio failed: $(cat "$T/$label.out")"
}
read -r w n <<<"$(tasks lone "${private1[@]}")"
assert_eq "one worker, caller-runs: coop workers running" 0 "$w"
coop_is_tsan || assert_eq "one worker, caller-runs: threads of the job process" 1 "$n"
assert_match "one worker, caller-runs: coop_stats" "worker=0 not started" "$(cat "$T/lone.out")"
read -r w n <<<"$(tasks lone-ho "${private1[@]}" --coop_inline=0)"
assert_eq "one worker, coop_inline=0: coop workers running" 1 "$w"
note "ok: caller-runs starts no worker; coop_inline=0 does"

# With coop_fd=per-thread the inline reads use the sole worker's own
# descriptor (the engine's O_CLOEXEC open of the target), never fio's.
if command -v strace >/dev/null; then
	san_env
	strace -f -qq -y -e trace=openat,pread64 -o "$T/strace.txt" \
		env "${SAN_ENV[@]}" "$FIO" --thread --ioengine="external:$COOP_SO" --name=pt --filename="$T/data" --size=16m \
		--rw=randread --bs=4k --number_ios=200 --iodepth=1 "${private1[@]}" \
		--coop_fd=per-thread >"$T/strace.out" 2>&1 || fail "strace run: $(cat "$T/strace.out")"
	wfd=$(grep -F "\"$T/data\"" "$T/strace.txt" | grep O_CLOEXEC | grep -o '= [0-9]*' | cut -c3- | head -1)
	[ -n "$wfd" ] || fail "strace: no O_CLOEXEC open of the target: $(grep -F "$T/data" "$T/strace.txt")"
	reads=$(grep -cF "pread64($wfd<$T/data>, " "$T/strace.txt")
	others=$(grep -F "<$T/data>, " "$T/strace.txt" | grep -c pread64)
	assert_eq "per-thread inline: reads on the worker's descriptor $wfd" 200 "$reads"
	assert_eq "per-thread inline: reads of the target on any descriptor" 200 "$others"
	note "ok: per-thread inline: all 200 reads on the worker's fd $wfd"

	# One worker at iodepth 16: fio's issue order, one thread, one at a time.
	strace -f -qq -y -e trace=pread64 -o "$T/order.txt" \
		env "${SAN_ENV[@]}" "$FIO" --thread --ioengine="external:$COOP_SO" --name=ord --filename="$T/data" --size=16m \
		--rw=randread --bs=4k --number_ios=300 --iodepth=16 "${private1[@]}" \
		--write_iolog="$T/order.log" >"$T/order.out" 2>&1 || fail "strace order run: $(cat "$T/order.out")"
	grep -F "<$T/data>, " "$T/order.txt" | grep pread64 |
		sed 's/.*, \([0-9]*\)) *= .*/\1/' >"$T/order.kernel"
	awk '{ for (i = 1; i < NF; i++) if ($i == "read") print $(i + 1) }' "$T/order.log" >"$T/order.fio"
	assert_eq "iodepth 16: reads the kernel saw" 300 "$(wc -l <"$T/order.kernel")"
	cmp -s "$T/order.fio" "$T/order.kernel" ||
		fail "iodepth 16: the kernel's read order is not fio's issue order: $(diff "$T/order.fio" "$T/order.kernel" | head -5)"
	tids=$(grep -F "<$T/data>, " "$T/order.txt" | grep pread64 | awk '{ print $1 }' | sort -u | wc -l)
	assert_eq "iodepth 16: threads that read" 1 "$tids"
	note "ok: iodepth 16: 300 reads in fio's issue order, from one thread"
else
	note "no strace: the per-thread descriptor and order checks are not run"
fi

# fio's latency at iodepth 16 still counts the wait behind the commands
# queued before (a worker would have run them first).
p50() {
	sed -n '/^{/,$p' "$T/$1.json" | "$JQ" '.jobs[0].read.clat_ns.percentile["50.000000"]'
}
counts lat1 "${private1[@]}" --iodepth=1 --number_ios=20000
counts lat16 "${private1[@]}" --iodepth=16 --number_ios=20000
l1=$(p50 lat1)
l16=$(p50 lat16)
[ "$l16" -ge $((4 * l1)) ] ||
	fail "iodepth 16: median clat $l16 ns, not >= 4x iodepth 1's $l1 ns: the queueing is not counted"
note "ok: median clat $l1 ns at iodepth 1, $l16 ns at iodepth 16"

# written LABEL QD POOL_ARGS...: inline writes are the file's content
# (verify reads them back, fsyncs between), and an inline fsync's error is
# the job's error.
written() {
	local label=$1 qd=$2 v dev rc err
	shift 2
	coop_fio --thread --output-format=json --output="$T/verify-$label.json" --name=v \
		--filename="$T/vfile-$label" --size=4m --rw=randwrite --bs=4k --iodepth=$qd --fsync=7 \
		--verify=crc32c --do_verify=1 --coop_stats=1 "$@" 2>"$T/verify-$label.err" ||
		fail "verify $label: fio failed: $(cat "$T/verify-$label.err")"
	v=$(grep -o ' inline=[0-9]*' "$T/verify-$label.err" | cut -d= -f2)
	[ "${v:-0}" -gt 0 ] || fail "verify $label: nothing ran inline: $(grep coop: "$T/verify-$label.err")"
	note "ok: $label: $v inline writes and reads verified"
	if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
		note "not root: the failing-device case is not run"
		return
	fi
	dev=$(coop_failing_loop 64)
	run_fio --thread --output-format=json --output="$T/eio-$label.json" --name=eio --filename="$dev" \
		--rw=write --bs=64k --size=1m --iodepth=$qd --end_fsync=1 \
		--ioengine="external:$COOP_SO" "$@" --coop_stats=1 >/dev/null 2>"$T/eio-$label.err"
	rc=$?
	err=$(sed -n '/^{/,$p' "$T/eio-$label.json" | "$JQ" '.jobs[0].error') || fail "eio $label: no JSON"
	assert_eq "$label: inline end_fsync on a failing device: job error" 5 "$err"
	[ $rc != 0 ] || fail "eio $label: error $err but fio exited 0"
	v=$(grep -o ' inline=[0-9]*' "$T/eio-$label.err" | cut -d= -f2)
	[ "${v:-0}" -gt 0 ] || fail "eio $label: nothing ran inline: $(grep coop: "$T/eio-$label.err")"
	note "ok: $label: inline fsync's EIO reported (error $err, exit $rc)"
}
written private-1-qd1 1 "${private1[@]}"
written private-1-qd16 16 "${private1[@]}"

# The same with shared io_contexts: refused under TSan (raw clone threads).
if coop_is_tsan; then
	note "TSan: coop_ioctx=shared is refused, its cases are not run"
	exit 0
fi
shared=(--coop_ioctx=shared --coop_fd=shared --coop_backend=psync --coop_threads=2)
all_inline eligible "${shared[@]}"
all_inline shared-1-per-thread "${shared[@]}" --coop_threads=1 --coop_fd=per-thread
all_inline shared-1-qd16 "${shared[@]}" --coop_threads=1 --iodepth=16
written shared-2-qd1 1 "${shared[@]}"

for v in --coop_ioctx=private --coop_fd=per-thread --coop_backend=uring \
	"--coop_split_kb=2" --coop_ra=context --iodepth=16 --coop_inline=0; do
	none_inline "not${v//[^a-z0-9]/_}" "${shared[@]}" --iodepth=1 $v
done
