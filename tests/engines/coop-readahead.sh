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
