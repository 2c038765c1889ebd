#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# coop_ra seen by the device: request sizes of a loop device from
# /sys/block/loopN/stat deltas while 5 workers read one 16 KiB stream.
#  - off really disables readahead: every request is one 16 KiB read, even
#    with read_ahead_kb=128, where kernel readahead makes them large;
#  - context restores large requests with per-thread fds and a small
#    read_ahead_kb (16), where kernel readahead stays at 16 KiB.
# fio invalidates the device's page cache before each job (invalidate=1).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd losetup

size=32
dev=$(make_loop $size)
name=$(basename "$dev")
dd if=/dev/urandom of="$dev" bs=1M count=$size oflag=direct status=none ||
	fail "cannot fill $dev"

# avg_req_kb READ_AHEAD_KB ARGS...: average device read request (KiB) of a
# sequential 16 KiB read through 5 workers.
avg_req_kb() {
	local rakb=$1 a b
	shift
	echo "$rakb" >"/sys/block/$name/queue/read_ahead_kb"
	a=($(coop_dev_stat "$dev"))
	coop_fio --name=ra --filename="$dev" --size=${size}m --rw=read --bs=16k \
		--coop_threads=5 --invalidate=1 "$@" >"$T/ra.out" 2>&1 ||
		fail "fio $* exited $?: $(cat "$T/ra.out")"
	b=($(coop_dev_stat "$dev"))
	[ $((b[0] - a[0])) -gt 0 ] || fail "no reads reached $dev with $*"
	echo $(( (b[1] - a[1]) / 2 / (b[0] - a[0]) ))
}

kernel=$(avg_req_kb 128 --coop_ra=kernel --coop_fd=shared)
off=$(avg_req_kb 128 --coop_ra=off --coop_fd=shared)
note "read_ahead_kb=128, shared fd: kernel ${kernel} KiB, off ${off} KiB per request"
[ "$kernel" -ge 64 ] || fail "kernel readahead should give large requests, got ${kernel} KiB"
[ "$off" -le 20 ] || fail "coop_ra=off still reads ahead: ${off} KiB per request"

kern_pt=$(avg_req_kb 16 --coop_ra=kernel --coop_fd=per-thread)
ctx_pt=$(avg_req_kb 16 --coop_ra=context --coop_ra_kb=512 --coop_fd=per-thread)
note "read_ahead_kb=16, per-thread fds: kernel ${kern_pt} KiB, context ${ctx_pt} KiB per request"
[ "$ctx_pt" -ge 128 ] && [ "$ctx_pt" -ge $((4 * kern_pt)) ] ||
	fail "coop_ra=context did not restore large requests: ${ctx_pt} KiB vs kernel ${kern_pt} KiB"

# fio's fadvise_hint reaches the workers' own descriptors: fio advises only
# the descriptor it opened, after the engine's open, so with per-thread fds
# fadvise_hint=random left the workers reading ahead (128 KiB requests where
# psync with the same hint reads 16 KiB ones).
psync_rnd() {
	local a b
	echo 128 >"/sys/block/$name/queue/read_ahead_kb"
	a=($(coop_dev_stat "$dev"))
	run_fio --name=ra --ioengine=psync --filename="$dev" --size=${size}m --rw=read --bs=16k \
		--invalidate=1 --fadvise_hint=random >"$T/ra.out" 2>&1 ||
		fail "psync fadvise_hint=random exited $?: $(cat "$T/ra.out")"
	b=($(coop_dev_stat "$dev"))
	echo $(( (b[1] - a[1]) / 2 / (b[0] - a[0]) ))
}
p_rnd=$(psync_rnd)
for th in 1 2 5; do
	pt_rnd=$(avg_req_kb 128 --coop_ra=kernel --coop_fd=per-thread --fadvise_hint=random --coop_threads=$th)
	note "fadvise_hint=random, read_ahead_kb=128, per-thread fds, $th workers: ${pt_rnd} KiB per request (psync ${p_rnd} KiB)"
	[ "$p_rnd" -le 20 ] || fail "psync with fadvise_hint=random read ahead: ${p_rnd} KiB per request"
	[ "$pt_rnd" -le 20 ] ||
		fail "fadvise_hint=random did not reach the workers' descriptors ($th workers): ${pt_rnd} KiB per request, psync ${p_rnd} KiB"
done
