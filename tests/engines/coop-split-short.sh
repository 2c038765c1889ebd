#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A split request whose first part comes back short while a later part
# moves all its bytes: the residual fio requeues must start at the first
# byte not moved.  On a 1 MiB tmpfs with one free page, a file of 64 KiB
# whose first 8 KiB are a hole and the rest written takes rw=write bs=16k
# cut into 8 KiB parts: the first part writes one page and stops short
# (out of space), the second overwrites allocated pages.  fio's psync
# writes 4 KiB, requeues the 12 KiB after it and fails with ENOSPC (28);
# so must coop (psync and uring backends, 1, 2 and 5 workers, both fd
# modes).  The old engine summed the parts' shortfalls into a 4 KiB
# residual, fio requeued the request's last 4 KiB, which went through, and
# the job ended err= 0 with bytes 4096..8191 never written.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd "$JQ" od
mode=
coop_is_tsan && mode=--thread
n=0

# space FREE_PAGES: a fresh 1 MiB tmpfs at $m holding the file $m/f (hole
# at 0..8 KiB, bytes 8 KiB..64 KiB written) and a filler that leaves
# FREE_PAGES pages free.
space() {
	m=$T/tm$((n++))
	mkdir -p "$m"
	mount -t tmpfs -o size=1m tmpfs "$m" || fail "mount tmpfs"
	echo "$m" >>"$_pp_mounts"
	truncate -s 64k "$m/f"
	dd if=/dev/urandom of="$m/f" bs=4k seek=2 count=14 conv=notrunc status=none
	dd if=/dev/zero of="$m/fill" bs=4k status=none 2>/dev/null
	truncate -s "-$(($1 * 4))k" "$m/fill"
	[ "$(df -B4096 --output=avail "$m" | tail -n 1 | tr -d ' ')" = "$1" ] ||
		fail "tmpfs: expected $1 free pages: $(df -B4096 "$m" | tail -n 1)"
}

# job ENGINE-ARGS...: the 64 KiB write job on $m/f; sets $err and $rc.
job() {
	local out=$T/job$n.json
	run_fio $mode --output-format=json --output="$out" --name=short \
		--filename="$m/f" --rw=write --bs=16k --size=64k --fallocate=none \
		--buffer_pattern=0xab "$@" >/dev/null 2>&1
	rc=$?
	err=$(sed -n '/^{/,$p' "$out" | "$JQ" '.jobs[0].error' 2>/dev/null) ||
		fail "$*: no JSON (exit $rc): $(tail -n 5 "$out")"
}

# page_hex OFFSET: the first 4 bytes of $m/f at OFFSET, in hex.
page_hex() {
	od -An -tx1 -j "$1" -N 4 "$m/f" | tr -d ' '
}

space 1
job --ioengine=psync
assert_eq "psync: error" 28 "$err"
[ $rc != 0 ] || fail "psync: error 28 but exit 0"
note "ok: psync fails the job with ENOSPC"

for be in psync uring; do
	for threads in 1 2 5; do
		for fd in shared per-thread; do
			args=(--coop_backend=$be --coop_threads=$threads --coop_fd=$fd --coop_split_kb=8)
			space 1
			job --ioengine="external:$COOP_SO" "${args[@]}"
			assert_eq "coop ${args[*]}: error (bytes 4096.. $(page_hex 4096))" 28 "$err"
			[ $rc != 0 ] || fail "coop ${args[*]}: error 28 but exit 0"
		done
	done
	note "ok: coop_backend=$be, split 8 KiB, 1/2/5 workers, both fd modes: ENOSPC as psync"
done

# With the space the job needs, every byte is written and no error.
for be in psync uring; do
	space 2
	job --ioengine="external:$COOP_SO" --coop_backend=$be --coop_threads=2 --coop_split_kb=8
	assert_eq "coop $be, room enough: error" 0 "$err"
	[ $rc = 0 ] || fail "coop $be, room enough: exit $rc"
	for off in 0 4096 8192 61440; do
		assert_eq "coop $be, room enough: bytes at $off" abababab "$(page_hex $off)"
	done
done
note "ok: with room for it the same split job writes every byte"
