#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkfile_dev= is proven, not trusted (issue 12, hole 2): it must be the very
# device that holds the file (same st_rdev as the file's st_dev, or on btrfs
# as the one device BTRFS_IOC_DEV_INFO names), else the job is refused with a
# message naming both devices, and the unrelated device is byte-identical
# afterwards.  The right device, also through another node of it, is accepted.
# (Partitions and device-mapper: tests/engines/blkfile-partition.sh and
# blkfile-dm.sh, which skip on kernels without them.)
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd btrfs mkfs.btrfs

job=(--name=w --bs=64k --rw=randwrite --size=2m --blkfile_via=bdev --blkfile_allow_bdev_write=1)

# A device the file is not on, full of data that must survive.
other=$(make_loop 64)
dd if=/dev/urandom of="$other" bs=1M count=64 oflag=direct status=none || fail "fill $other"
other_sum=$(bf_sum_dev "$other")

# refused_dev WHAT FILE HOLDER_RE: a device write job with blkfile_dev=$other is
# refused naming both, and $other is unchanged.
refused_dev() {
	local what=$1 file=$2 holder=$3
	if bf_fio --filename="$file" "${job[@]}" --blkfile_dev="$other" && echo "$BF_OUT" | grep -q "err= 0"; then
		fail "$what: write with an unrelated blkfile_dev= not refused: $BF_OUT"
	fi
	assert_match "$what: message" \
		"blkfile: $file: blkfile_dev=$other \($(basename "$other"), [0-9]+:[0-9]+\) is not the device that holds the file: that is $holder" \
		"$BF_OUT"
	assert_eq "$what: $other unchanged" "$other_sum" "$(bf_sum_dev "$other")"
	note "$what: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
}

# --- ext4: st_dev ------------------------------------------------------------------
bf_fs ext4 64
f=$BF_MNT/data
dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
refused_dev "ext4" "$f" "$(basename "$BF_DEV") \([0-9]+:[0-9]+\), found from the file's st_dev"
bf_fio_ok "ext4, blkfile_dev= the right device" --filename="$f" "${job[@]}" --blkfile_dev="$BF_DEV"
# Another node of the same device is the same device.
mknod "$T/alias" b "$((16#$(stat -c '%t' "$BF_DEV")))" \
	"$((16#$(stat -c '%T' "$BF_DEV")))" || fail "mknod"
bf_fio_ok "ext4, blkfile_dev= another node of the device" --filename="$f" "${job[@]}" --blkfile_dev="$T/alias"

# --- btrfs: BTRFS_IOC_DEV_INFO (st_dev is anonymous) ----------------------------------------
bf_fs btrfs 256 -d single -m dup
f=$BF_MNT/data
touch "$f" && chattr +C "$f" || fail "chattr +C"
dd if=/dev/urandom of="$f" bs=1M count=2 conv=notrunc,fsync status=none
refused_dev "btrfs" "$f" "$(basename "$BF_DEV") \([0-9]+:[0-9]+\), found as btrfs device id 1, "
bf_fio_ok "btrfs, blkfile_dev= its device" --filename="$f" "${job[@]}" --blkfile_dev="$BF_DEV"
