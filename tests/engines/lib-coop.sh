# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for the coop engine's tests; source after tests/lib.sh.

COOP_SO=$(engine coop)

# fio drops files in its working directory (verify state of write jobs):
# keep them in the scratch directory, not in the tree.
cd "$T" || fail "cannot cd to $T"

# coop_fio ARGS...: fio with the coop engine.
coop_fio() {
	run_fio --ioengine="external:$COOP_SO" "$@"
}

# coop_is_tsan: true in a ThreadSanitizer build (coop_ioctx=shared is
# refused there: raw clone threads are invisible to TSan).
coop_is_tsan() {
	[[ ${SANITIZE:-} == *thread* ]]
}

# coop_worker_tids PID: "name tid" of every coop worker of process PID.
coop_worker_tids() {
	local t
	for t in /proc/"$1"/task/*; do
		local c
		c=$(cat "$t/comm" 2>/dev/null) || continue
		[[ $c == coop-w* ]] && echo "$c ${t##*/}"
	done
}

# coop_fio_pid PID: the fio process started by `coop_fio ... &` (whose $! is
# PID: a subshell running the wrapper, or fio itself).
coop_fio_pid() {
	local i c
	for ((i = 0; i < 100; i++)); do
		[ "$(cat /proc/"$1"/comm 2>/dev/null)" = fio ] && { echo "$1"; return 0; }
		c=$(pgrep -P "$1" -x fio | head -n 1)
		[ -n "$c" ] && { echo "$c"; return 0; }
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# coop_wait_workers PID N: wait (≤ 20 s) until process PID runs N coop workers.
coop_wait_workers() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(coop_worker_tids "$1" | wc -l)" -ge "$2" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# coop_dev_stat DEV: "reads read_sectors" of a block device (sysfs stat).
coop_dev_stat() {
	awk '{ print $1, $3 }' "/sys/block/$(basename "$1")/stat"
}

# coop_failing_loop SIZE_MB: a loop device whose writeback fails.  Its
# backing file is sparse, on a 1 MiB tmpfs that a filler file has filled:
# buffered writes to the device succeed (page cache), writing them back
# fails in the loop driver (ENOSPC from tmpfs, EIO on the device), so
# fsync/fdatasync return EIO and direct writes fail.  Prints the device.
coop_failing_loop() {
	local mnt dev
	mnt=$(mktemp -d "$T/full.XXXXXX")
	mount -t tmpfs -o size=1m tmpfs "$mnt" || fail "cannot mount a tmpfs on $mnt"
	echo "$mnt" >>"$_pp_mounts"
	truncate -s "${1}M" "$mnt/img" || fail "cannot create $mnt/img"
	dd if=/dev/zero of="$mnt/fill" bs=64k 2>/dev/null	# until ENOSPC
	[ "$(df --output=avail "$mnt" | tail -n 1)" -eq 0 ] || fail "$mnt is not full"
	dev=$(losetup --find --show "$mnt/img") || fail "losetup failed for $mnt/img"
	echo "$dev" >>"$_pp_loops"
	echo "$dev"
}
