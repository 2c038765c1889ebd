#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Ordering on the same blocks (engines/coop/README.md, "Ordering"): fio's
# rw=trimwrite trims a block and then writes it, without waiting for the
# trim; with verify=md5 every block must read back as written.  Workers
# that ran a block's write before its trim left zeros (verify: bad magic
# header 0).  On a loop device (BLKDISCARD: fio's trim, which a regular
# file refuses, as under psync: coop-rw.sh), thread and fork mode, buffered
# and direct=1, at 1, 2, 5 and 16 workers, psync and uring backends, whole
# and split (coop_split_kb=4) commands; and, on a scratch file and the
# device, random overwrites of a few blocks (norandommap, many writes of a
# block in flight at once) must verify as the last one written.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd losetup "$JQ"

dev=$(make_loop 64)
truncate -s 8m "$T/file"

# check NAME OUT [VERIFIED]: no error, and VERIFIED bytes (default: all it
# wrote) were read back and verified.
check() {
	local w r want
	"$JQ" -e '.jobs[0].error == 0' "$2" >/dev/null ||
		fail "$1: job error $("$JQ" '.jobs[0].error' "$2" 2>/dev/null): $(grep -m 3 verify: "$2.err")"
	w=$("$JQ" '.jobs[0].write.io_bytes' "$2")
	r=$("$JQ" '.jobs[0].read.io_bytes' "$2")
	want=${3:-$w}
	[ "$w" -gt 0 ] && [ "$r" -ge "$want" ] || fail "$1: wrote $w bytes, verified $r, not $want"
}

# job NAME TARGET VERIFIED ARGS...: one coop job with verify=md5 (VERIFIED:
# as for check, "" for all).
job() {
	local name=$1 target=$2 want=$3 out=$T/$1.json
	shift 3
	coop_fio --output-format=json --output="$out" --name="$name" \
		--filename="$target" --verify=md5 --iodepth=16 "$@" 2>"$out.err" ||
		fail "$name exited $?, job error $("$JQ" '.jobs[0].error' "$out" 2>/dev/null): $(grep -m 3 verify: "$out" "$out.err")"
	check "$name" "$out" "$want"
}

n=0
for target in "$T/file" "$dev"; do
	kind=$([ "$target" = "$dev" ] && echo dev || echo file)
	for threads in 1 2 5 16; do
		[ "$kind" = dev ] || break
		for be in psync uring; do
			# half of them direct, half in thread mode (all under TSan)
			extra=(--direct=$((n % 2)))
			{ coop_is_tsan || [ $((n / 2 % 2)) = 1 ]; } && extra+=(--thread)
			[ $((n++ % 3)) = 2 ] && extra+=(--coop_split_kb=4)
			name=$kind-trimwrite-$threads-$be
			job "$name" "$target" "" --rw=trimwrite --bs=16k --size=8m \
				--coop_threads=$threads --coop_backend=$be "${extra[@]}"
			[ "$("$JQ" '.jobs[0].trim.io_bytes' "$T/$name.json")" -gt 0 ] ||
				fail "$name: nothing trimmed"
		done
	done
	[ "$kind" = dev ] && note "ok: trimwrite verify=md5 on $kind at 1, 2, 5, 16 workers"
	for threads in 2 16; do
		# Only the last write of each block is verified: all 64 KiB.
		job "$kind-overwrite-$threads" "$target" 65536 --rw=randwrite --norandommap=1 \
			--bs=4k --size=64k --io_size=4m --coop_threads=$threads \
			--coop_backend=uring --thread
	done
	note "ok: overlapping random writes verify on $kind"
done
