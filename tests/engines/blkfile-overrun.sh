#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# No I/O leaves the range that was checked (issue 12, holes 1 and 8).  fio
# 3.33 lets the last sequential I/O of a job whose size is not a multiple of
# bs start before offset+size and run a whole block past it, capped only at
# the file's real size.  The engine checks that tail too and permits it only
# if it passes; otherwise the I/O reaching into it fails, before any of its
# pieces is submitted, with a blkfile: line saying why.
#
# The hostile cases: the bytes past the job's range are shared with other
# files (an XFS reflink clone made by cp --reflink=always plus a file whose
# first 64 KiB were cloned from there, and a btrfs snapshot of a nodatacow
# file plus the same kind of clone).  Those files must be byte-identical
# afterwards, their first 4 KiB included.  Then an overrun into a hole (read
# and write) must say so, and an overrun into a tail that passes the checks
# must be allowed.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd xfs_io filefrag chattr btrfs mkfs.btrfs mkfs.xfs

M=$((1 << 20))
size=$((M + 4096))	# not a multiple of bs: the last I/O starts at 1 MiB, ends at 1 MiB + 64 KiB
job=(--name=w --bs=64k --rw=write --size=$size --blkfile_via=bdev
	--blkfile_allow_bdev_write=1 --direct=1 --iodepth=4)

# uncached FILE: drop FILE's page cache, so the next read comes from the
# device.  (O_DIRECT is not enough: btrfs served a reflinked file's O_DIRECT
# read from its stale cache here.)
uncached() {
	dd if="$1" iflag=nocache count=0 status=none || fail "dd nocache $1"
}

# sum_direct FILE: checksum of FILE as the device holds it.
sum_direct() {
	uncached "$1"
	sha256sum "$1" | cut -d' ' -f1
}

# head4k_direct FILE: checksum of the first 4 KiB of FILE as the device holds it.
head4k_direct() {
	uncached "$1"
	dd if="$1" bs=4k count=1 status=none | sha256sum | cut -d' ' -f1
}

# shared_at FILE OFFSET: is the extent of FILE holding byte OFFSET shared?
shared_at() {
	filefrag -v -b4096 "$1" | awk -v blk=$(($2 / 4096)) '
		$1 ~ /^[0-9]+:$/ { split($0, f, ":"); split(f[2], l, "\\.\\.")
			if (blk >= l[1] + 0 && blk <= l[2] + 0) { print ($0 ~ /shared/) ? "yes" : "no"; exit } }'
}

# overrun_refused WHAT FILE OTHER... : the job on FILE fails naming the
# offset of the last I/O and that its tail is shared, and every OTHER file
# (and its first 4 KiB) is unchanged.
overrun_refused() {
	local what=$1 file=$2 o i=0
	shift 2
	local -a before=() head=()
	for o; do
		before[i]=$(sum_direct "$o")
		head[i]=$(head4k_direct "$o")
		i=$((i + 1))
	done
	assert_eq "$what: tail of $file is shared before the job" yes "$(shared_at "$file" $size)"
	assert_eq "$what: job range of $file is its own" no "$(shared_at "$file" 0)"
	for submit in sync uring; do
		if bf_fio --filename="$file" "${job[@]}" --blkfile_submit=$submit &&
			echo "$BF_OUT" | grep -q "err= 0"; then
			fail "$what $submit: overrun into shared blocks not refused: $BF_OUT"
		fi
		assert_match "$what $submit: message" \
			"blkfile: $file: write at offset $M \(65536 bytes\) refused: file bytes $M\.\.$((M + 65536)) are outside the range checked at open, 0\.\.$size; past it, .*is shared with another file" \
			"$BF_OUT"
		note "$what $submit: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
		i=0
		for o; do
			assert_eq "$what $submit: $o unchanged" "${before[i]}" "$(sum_direct "$o")"
			assert_eq "$what $submit: first 4 KiB of $o unchanged" "${head[i]}" "$(head4k_direct "$o")"
			i=$((i + 1))
		done
	done
}

# --- XFS, reflink ----------------------------------------------------------------
bf_fs xfs 320 -m reflink=1
a=$BF_MNT/a
dd if=/dev/urandom of="$a" bs=1M count=2 conv=fsync status=none
cp --reflink=always "$a" "$BF_MNT/clone" || fail "cp --reflink=always"
# The job's range becomes a's own again (copy on write through the file);
# from $size on, a still shares its blocks with the clone.
dd if=/dev/urandom of="$a" bs=4k count=$((size / 4096)) conv=notrunc,fsync status=none
# A second file whose first 64 KiB are a's blocks just past the job's range.
xfs_io -f -c "reflink $a $size 0 65536" -c fsync "$BF_MNT/head" >/dev/null ||
	fail "xfs_io reflink"
sync
overrun_refused "xfs reflink" "$a" "$BF_MNT/clone" "$BF_MNT/head"

# --- btrfs, snapshot of a nodatacow file -------------------------------------------
bf_fs btrfs 512 -d single -m dup
btrfs -q subvolume create "$BF_MNT/sv" >/dev/null || fail "btrfs subvolume create"
a=$BF_MNT/sv/a
touch "$a" && chattr +C "$a" || fail "chattr +C"
dd if=/dev/urandom of="$a" bs=1M count=2 conv=notrunc,fsync status=none
btrfs -q subvolume snapshot "$BF_MNT/sv" "$BF_MNT/snap" >/dev/null || fail "btrfs subvolume snapshot"
dd if=/dev/urandom of="$a" bs=4k count=$((size / 4096)) conv=notrunc,fsync status=none
touch "$BF_MNT/head" && chattr +C "$BF_MNT/head" || fail "chattr +C head"
xfs_io -c "reflink $a $size 0 65536" -c fsync "$BF_MNT/head" >/dev/null || fail "xfs_io reflink (btrfs)"
sync
overrun_refused "btrfs snapshot" "$a" "$BF_MNT/snap/a" "$BF_MNT/head"

# --- overrun into a hole, and into a tail that may be written ------------------------
bf_fs ext4 64
h=$BF_MNT/holed
truncate -s $((2 * M)) "$h"
dd if=/dev/urandom of="$h" bs=4k count=$((size / 4096)) conv=notrunc,fsync status=none
for rw in write read; do
	if bf_fio --filename="$h" "${job[@]}" --rw=$rw && echo "$BF_OUT" | grep -q "err= 0"; then
		fail "hole $rw: overrun into a hole did not fail: $BF_OUT"
	fi
	assert_match "hole $rw: message" \
		"blkfile: $h: $rw at offset $M \(65536 bytes\) refused: file bytes $M\.\.$((M + 65536)) are outside the range checked at open, 0\.\.$size; past it, .*file offsets $size\.\.[0-9]+ are a hole" \
		"$BF_OUT"
	note "hole $rw: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
done

w=$BF_MNT/whole
dd if=/dev/urandom of="$w" bs=1M count=2 conv=fsync status=none
dd if="$w" of="$T/tail.before" bs=4k skip=$((size / 4096)) count=15 status=none
bf_fio_ok "overrun into a written, unshared tail" --filename="$w" "${job[@]}" --verify=crc32c --do_verify=0
drop_caches
dd if="$w" of="$T/tail.after" bs=4k skip=$((size / 4096)) count=15 status=none
! cmp -s "$T/tail.before" "$T/tail.after" || fail "the permitted tail $size..$((M + 65536)) was not written"
note "overrun into a checked tail: permitted, written"
