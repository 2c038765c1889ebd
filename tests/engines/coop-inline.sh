#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Caller-runs (coop_inline, engines/coop/pool.c run_inline()): at iodepth 1
# the job's thread runs a command itself only where a worker doing it
# would be indistinguishable: coop_ioctx=shared (the workers share its
# io_context), coop_fd=shared (its struct file), coop_backend=psync (the
# same system call), one command per request (no coop_split_kb cut, no
# coop_ra=context window), nothing in flight.  coop_stats counts inline
# commands (stream inline=) apart from the workers' (worker requests=):
#  - where it applies, every I/O of the job is inline and no worker ran one;
#  - with each option that makes a worker differ (coop_ioctx=private,
#    coop_fd=per-thread, coop_backend=uring, coop_split_kb below bs,
#    coop_ra=context), with iodepth 16 and with coop_inline=0, none is;
#  - inline writes read back (verify=crc32c), and an inline fsync's EIO
#    (a loop device whose writeback fails) is the job's error, as psync's.
# Scratch files on tmpfs (the loop device's backing file too).
export TMPDIR=${COOP_TEST_TMPDIR:-/dev/shm}
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd "$JQ"
# coop_ioctx=shared is refused under TSan (raw clone threads).
coop_is_tsan && skip "coop_ioctx=shared is refused under TSan"

dd if=/dev/urandom of="$T/data" bs=1M count=16 status=none

# counts LABEL FIO_ARGS...: one randread job with coop_stats; sets $ios
# (fio's total_ios), $inl (stream inline=) and $wrk (the workers' requests).
counts() {
	local label=$1
	shift
	coop_fio --output-format=json --output="$T/$label.json" --name=inl \
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

shared=(--coop_ioctx=shared --coop_fd=shared --coop_backend=psync --coop_threads=2)
counts eligible "${shared[@]}" --iodepth=1
[ "$ios" -gt 0 ] || fail "eligible: no I/O"
assert_eq "eligible: inline commands = fio's I/Os" "$ios" "$inl"
assert_eq "eligible: commands the workers ran" 0 "$wrk"
note "ok: iodepth 1, shared io_context and fd: $inl of $ios I/Os inline, none by a worker"

for v in --coop_ioctx=private --coop_fd=per-thread --coop_backend=uring \
	"--coop_split_kb=2" --coop_ra=context --iodepth=16 --coop_inline=0; do
	counts "not${v//[^a-z0-9]/_}" "${shared[@]}" --iodepth=1 $v
	assert_eq "$v: inline commands" 0 "$inl"
	[ "$wrk" -ge "$ios" ] || fail "$v: the workers ran $wrk commands for $ios I/Os"
	note "ok: $v: no inline command, the workers ran $wrk"
done

# Inline writes are the file's content: verify reads them back.
coop_fio --output-format=json --output="$T/verify.json" --name=v --filename="$T/vfile" \
	--size=4m --rw=randwrite --bs=4k --iodepth=1 --verify=crc32c --do_verify=1 \
	--coop_stats=1 "${shared[@]}" 2>"$T/verify.err" ||
	fail "verify: fio failed: $(cat "$T/verify.err")"
v=$(grep -o ' inline=[0-9]*' "$T/verify.err" | cut -d= -f2)
[ "${v:-0}" -gt 0 ] || fail "verify: nothing ran inline: $(grep coop: "$T/verify.err")"
note "ok: $v inline writes and reads verified"

# An inline fsync's error is the job's error.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	dev=$(coop_failing_loop 64)
	run_fio --output-format=json --output="$T/eio.json" --name=eio --filename="$dev" \
		--rw=write --bs=64k --size=1m --iodepth=1 --end_fsync=1 \
		--ioengine="external:$COOP_SO" "${shared[@]}" --coop_stats=1 >/dev/null 2>"$T/eio.err"
	rc=$?
	err=$(sed -n '/^{/,$p' "$T/eio.json" | "$JQ" '.jobs[0].error') || fail "eio: no JSON"
	assert_eq "inline end_fsync on a failing device: job error" 5 "$err"
	[ $rc != 0 ] || fail "eio: error $err but fio exited 0"
	v=$(grep -o ' inline=[0-9]*' "$T/eio.err" | cut -d= -f2)
	[ "${v:-0}" -gt 0 ] || fail "eio: nothing ran inline: $(grep coop: "$T/eio.err")"
	note "ok: inline fsync's EIO reported (error $err, exit $rc)"
else
	note "not root: the failing-device case is not run"
fi
