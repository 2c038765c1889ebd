#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every rw= kind through the pool, on a scratch file (thread mode, psync)
# and a loop device (fork mode, numjobs=2, direct=1, uring): reads, writes, mixes,
# trims (BLKDISCARD on the device), fsync, fdatasync and sync_file_range
# every few writes.  Each job must do the I/O fio planned, without error.
# Trims of the file fail as under fio's psync (BLKDISCARD on a regular
# file: ENOTTY), with psync's job error and the file unchanged: coop
# punched holes there instead, and reported the trims done where psync
# fails the job.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd losetup "$JQ"

dev=$(make_loop 64)
truncate -s 8m "$T/file"
mode=
coop_is_tsan && mode=--thread

# run NAME TARGET ARGS...: one job, error-free, with I/O in every direction
# its rw= asks for.
run() {
	local name=$1 target=$2 out=$T/$1.json
	shift 2
	coop_fio $mode --output-format=json --output="$out" --name="$name" \
		--filename="$target" --size=8m --bs=16k --iodepth=8 --coop_threads=3 \
		--coop_split_kb=4 "$@" || fail "$name exited $?: $(tail -n 20 "$out")"
	"$JQ" -e '[.jobs[] | select(.error != 0)] | length == 0' "$out" >/dev/null ||
		fail "$name: job error: $("$JQ" -c '[.jobs[] | .error]' "$out")"
	echo "$out"
}

# trim_fails NAME TARGET ARGS...: psync and coop both fail the job, with
# the same error, and the target's bytes are unchanged.
trim_fails() {
	local name=$1 target=$2 out=$T/$1.json ctl=$T/$1-psync.json want got sum
	shift 2
	sum=$(sha256sum <"$target")
	run_fio $mode --ioengine=psync --output-format=json --output="$ctl" --name="$name" \
		--filename="$target" --size=8m --bs=16k "$@" &&
		fail "$name: control: psync did not fail: $(tail -n 20 "$ctl")"
	want=$("$JQ" '.jobs[0].error' "$ctl")
	[ "$want" != 0 ] || fail "$name: control: psync's job error is 0"
	coop_fio $mode --output-format=json --output="$out" --name="$name" \
		--filename="$target" --size=8m --bs=16k --iodepth=8 --coop_threads=3 \
		--coop_split_kb=4 "$@" && fail "$name: coop exited 0 where psync failed (error $want)"
	got=$("$JQ" '.jobs[0].error' "$out")
	assert_eq "$name: job error as psync's" "$want" "$got"
	assert_eq "$name: the file's bytes" "$sum" "$(sha256sum <"$target")"
	note "$name: job error $got, as psync's; the file unchanged"
}

# bytes OUT DIR: total bytes of direction DIR (read, write, trim).
bytes() {
	"$JQ" "[.jobs[].$2.io_bytes] | add" "$1"
}

for target in "$T/file" "$dev"; do
	extra=()
	# The device also runs the uring backend (its trims are synchronous).
	[ "$target" = "$dev" ] &&
		extra=(--direct=1 --numjobs=2 --offset_increment=32m --size=8m --coop_backend=uring)
	kind=$([ "$target" = "$dev" ] && echo dev || echo file)
	for rw in read write randread randwrite rw randrw trim randtrim trimwrite; do
		if [ "$kind" = file ] && [[ $rw == *trim* ]]; then
			trim_fails "$kind-$rw" "$target" --rw=$rw "${extra[@]}"
			continue
		fi
		out=$(run "$kind-$rw" "$target" --rw=$rw "${extra[@]}")
		case $rw in
		*trim*) [ "$(bytes "$out" trim)" -gt 0 ] || fail "$kind-$rw: nothing trimmed" ;;
		esac
		case $rw in
		*read|rw|randrw) [ "$(bytes "$out" read)" -gt 0 ] || fail "$kind-$rw: nothing read" ;;
		esac
		case $rw in
		*write|rw|randrw) [ "$(bytes "$out" write)" -gt 0 ] || fail "$kind-$rw: nothing written" ;;
		esac
	done
	for sync in fsync=4 fdatasync=4 sync_file_range=write:4; do
		out=$(run "$kind-${sync%%=*}" "$target" --rw=randwrite --"$sync" "${extra[@]}")
		[ "$(bytes "$out" write)" -gt 0 ] || fail "$kind-$sync: nothing written"
	done
	note "ok: every rw= on $kind"
done
