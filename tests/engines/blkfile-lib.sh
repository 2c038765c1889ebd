# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for the blkfile tests (sourced after tests/lib.sh): filesystems on
# loop devices, deliberately fragmented files, the device's bytes outside a
# file's extents, and fio with the engine.
#
# The extents used to check the engine come from filefrag (e2fsprogs), not
# from the engine's own FIEMAP code, so a bug there cannot hide itself.

BF_ENGINE=$(engine blkfile)
# fio leaves verify state files in its working directory: keep them in $T.
cd "$T" || exit 1

# bf_fs TYPE SIZE_MB [mkfs options...]: sets BF_DEV and BF_MNT.
bf_fs() {
	local type=$1 size=$2
	shift 2
	BF_DEV=$(make_loop "$size") || exit 1
	case $type in
	# No lazy init: ext4 would otherwise write to the device in the
	# background while a test compares it before and after.
	ext*) set -- -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$@" ;;
	esac
	BF_MNT=$(MOUNT_OPTS=${MOUNT_OPTS:-noatime} make_fs "$type" "$BF_DEV" "$@") || exit 1
}

# bf_fio ARGS...: fio with the blkfile engine; output in $BF_OUT, status returned.
bf_fio() {
	BF_OUT=$(run_fio --ioengine="$BF_ENGINE" "$@" 2>&1)
}

# bf_fio_ok WHAT ARGS...: fio must succeed with no job error.
bf_fio_ok() {
	local what=$1
	shift
	bf_fio "$@" || fail "$what: fio failed: $BF_OUT"
	echo "$BF_OUT" | grep -q "err= 0" || fail "$what: job error: $BF_OUT"
	! echo "$BF_OUT" | grep -Eiq "verify:|bad magic|crc32c: verify failed" ||
		fail "$what: verify mismatch: $BF_OUT"
}

# bf_fragment FILE CHUNK_KB N: FILE of N chunks, each allocated between two
# chunks of a companion file and synced, so its extents interleave with the
# companion's and the file has ~N extents.
bf_fragment() {
	local file=$1 kb=$2 n=$3 i
	for ((i = 0; i < n; i++)); do
		dd if=/dev/zero of="$file" bs=${kb}k count=1 seek=$i conv=notrunc,fsync \
			status=none || fail "bf_fragment: dd $file"
		dd if=/dev/zero of="$file.gap" bs=${kb}k count=1 seek=$i conv=notrunc,fsync \
			status=none || fail "bf_fragment: dd $file.gap"
	done
}

# bf_extents FILE: "OFFSET LENGTH" in bytes on the device, one extent a line.
bf_extents() {
	sync
	filefrag -v -b512 "$1" | awk '
		$1 ~ /^[0-9]+:$/ {
			split($0, f, ":")
			split(f[3], p, "\\.\\.")
			printf "%d %d\n", p[1] * 512, (p[2] - p[1] + 1) * 512
		}'
}

# bf_nextents FILE: how many extents filefrag sees.
bf_nextents() {
	bf_extents "$1" | wc -l
}

# bf_sum_outside DEV EXTENTS_FILE: checksum of DEV with the listed extents
# zeroed, i.e. of every byte outside them.  Read with O_DIRECT so a stale
# page cache of the device cannot hide a write.
bf_sum_outside() {
	local dev=$1 ext=$2 snap=$T/.bf-snap off len
	dd if="$dev" of="$snap" bs=1M iflag=direct status=none || fail "bf_sum_outside: read $dev"
	while read -r off len; do
		dd if=/dev/zero of="$snap" bs=512 seek=$((off / 512)) count=$((len / 512)) \
			conv=notrunc status=none || fail "bf_sum_outside: zero $off"
	done <"$ext"
	sha256sum "$snap" | cut -d' ' -f1
	rm -f "$snap"
}

# bf_sum_dev DEV: checksum of the whole device (O_DIRECT).
bf_sum_dev() {
	dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1
}

# bf_sum_file FILE: checksum of a file's contents as the filesystem reads them.
bf_sum_file() {
	sha256sum "$1" | cut -d' ' -f1
}

# bf_freeze MNT / bf_thaw: freeze a filesystem so that only the engine can
# write to its device while a test compares the device before and after.
# A watchdog thaws it after four minutes (a frozen phase took over one on a
# loaded machine), so a job stuck on the frozen filesystem cannot hang the
# test (its writes then show up as a failure).
BF_FROZEN=
BF_WATCHDOG=
bf_freeze() {
	fsfreeze -f "$1" || fail "fsfreeze -f $1"
	BF_FROZEN=$1
	(
		sleep 240 &
		echo $! >"$T/.bf-watchdog"
		wait $!
		fsfreeze -u "$1"
	) >/dev/null 2>&1 </dev/null &
	BF_WATCHDOG=$!
}

bf_thaw() {
	if [ -n "$BF_WATCHDOG" ]; then
		kill "$BF_WATCHDOG" 2>/dev/null
		[ -s "$T/.bf-watchdog" ] && kill "$(<"$T/.bf-watchdog")" 2>/dev/null
		rm -f "$T/.bf-watchdog"
	fi
	[ -n "$BF_FROZEN" ] && fsfreeze -u "$BF_FROZEN" 2>/dev/null
	BF_FROZEN= BF_WATCHDOG=
}
trap 'bf_thaw; _pp_teardown' EXIT
