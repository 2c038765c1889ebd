#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every refusal of blkfile_via=bdev: the job fails with a message naming the
# file and the reason, and nothing was written (the whole device, checked
# while its filesystem is frozen, and the file are unchanged).  Flags that
# ext4/XFS cannot be made to report (delalloc after sync, encoded,
# encrypted, tail, not aligned) are covered by tests/unit/blkfile-map.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd fsfreeze fallocate

read_job=(--name=r --bs=64k --rw=read --blkfile_via=bdev)
write_job=(--name=w --bs=64k --rw=write --blkfile_via=bdev --blkfile_allow_bdev_write=1)

# refused WHAT FILE REGEX FIO_ARGS...: the job on FILE is refused saying
# "blkfile: FILE: ...REGEX" ("blkfile: ...REGEX" for option errors found
# before any file is opened, with NAMED=0), and neither $BF_DEV nor FILE
# changed.
refused() {
	local what=$1 file=$2 re=$3 dev0 dev1 f0 f1
	shift 3
	f0=$(bf_sum_file "$file")
	bf_freeze "$BF_MNT"
	dev0=$(bf_sum_dev "$BF_DEV")
	if bf_fio --filename="$file" "$@" && echo "$BF_OUT" | grep -q "err= 0"; then
		bf_thaw
		fail "$what: not refused: $BF_OUT"
	fi
	dev1=$(bf_sum_dev "$BF_DEV")
	bf_thaw
	if [ "${NAMED:-1}" = 1 ]; then
		assert_match "$what: message" "blkfile: $file: .*$re" "$BF_OUT"
	else
		assert_match "$what: message" "blkfile: .*$re" "$BF_OUT"
	fi
	assert_eq "$what: device unchanged" "$dev0" "$dev1"
	f1=$(bf_sum_file "$file")
	assert_eq "$what: file unchanged" "$f0" "$f1"
	note "$what: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
}

# --- ext4 --------------------------------------------------------------------
bf_fs ext4 128
dd if=/dev/urandom of="$BF_MNT/data" bs=1M count=2 conv=fsync status=none

refused "device write without permission" "$BF_MNT/data" \
	"refused unless blkfile_allow_bdev_write=1" \
	--name=w --bs=64k --rw=write --blkfile_via=bdev --size=2m

fallocate -l 2M "$BF_MNT/prealloc"
refused "unwritten extent, read" "$BF_MNT/prealloc" "unwritten" "${read_job[@]}" --size=2m

truncate -s 2M "$BF_MNT/sparse"
dd if=/dev/urandom of="$BF_MNT/sparse" bs=1M count=1 conv=notrunc,fsync status=none
refused "hole" "$BF_MNT/sparse" "file offsets 1048576\.\.2097152 are a hole" \
	"${read_job[@]}" --size=2m
# with direct=1 too, and no second culprit: fio adds "destination does not
# support O_DIRECT" to an open that fails with EINVAL under direct=1, so a
# layout the device path cannot do is EOPNOTSUPP
refused "hole, direct=1" "$BF_MNT/sparse" "file offsets 1048576\.\.2097152 are a hole" \
	"${read_job[@]}" --size=2m --direct=1
echo "$BF_OUT" | grep -q "does not support O_DIRECT" &&
	fail "hole, direct=1: fio blames O_DIRECT for a refusal: $BF_OUT"

# A device that does not hold the file (blkfile_dev= is proven, not trusted;
# tests/engines/blkfile-dev-proof.sh writes with one).  The device-end check
# behind it is covered by tests/unit/blkfile-map.
make_loop 1 >"$T/.small"
refused "blkfile_dev not holding the file" "$BF_MNT/data" \
	"blkfile_dev=$(<"$T/.small") \\(loop[0-9]+, 7:[0-9]+\\) is not the device that holds the file: that is $(basename "$BF_DEV")" \
	"${read_job[@]}" --size=2m --blkfile_dev="$(<"$T/.small")"

NAMED=0 refused "trim" "$BF_MNT/data" "trim is not supported" \
	--name=t --bs=64k --rw=trim --blkfile_via=bdev --size=2m
# verify's trim_percentage= trims in a write job (fio 3.33 then asserted
# in fio_ro_check() after the job's device writes)
NAMED=0 refused "verify's trim_percentage" "$BF_MNT/data" "trim is not supported \\(.*trim_percentage=50" \
	"${write_job[@]}" --size=2m --verify=crc32c --trim_percentage=50 --trim_backlog=1
# fio's pre_read reads its own descriptor, the device, at the file's offsets
refused "pre_read" "$BF_MNT/data" "pre_read=1 with blkfile_via=bdev: fio would read the device at the file's offsets" \
	"${read_job[@]}" --size=2m --pre_read=1
# io_submit_mode=offload: fio's submit threads keep references on the file,
# so fio never called the engine's close: the device writes were not synced
# nor the file's stale page cache dropped (a verify_only read through the
# file after the job found the old bytes, 'bad magic header 0'), err= 0
refused "io_submit_mode=offload, write" "$BF_MNT/data" \
	"io_submit_mode=offload with blkfile_via=bdev: fio never closes the file" \
	"${write_job[@]}" --size=2m --io_submit_mode=offload --iodepth=4
refused "io_submit_mode=offload, read" "$BF_MNT/data" "io_submit_mode=offload with blkfile_via=bdev" \
	"${read_job[@]}" --size=2m --io_submit_mode=offload
# refused at open, a randwrite with verify at iodepth 8 hung in fio's submit threads
refused "io_submit_mode=offload, randwrite, verify" "$BF_MNT/data" "io_submit_mode=offload with blkfile_via=bdev" \
	"${write_job[@]}" --size=2m --rw=randwrite --verify=crc32c --io_submit_mode=offload --iodepth=8
# fio's write_hint= is an fcntl() on the job's descriptor, here the device's:
# it set the hint on the device's inode (F_GET_RW_HINT on a new descriptor
# of the device read 3 after the job, 0 before), never on the file's.
rw_hint() { # DEV [SET]: F_GET_RW_HINT, after F_SET_RW_HINT to SET if given
	python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
if len(sys.argv) > 2:
    fcntl.fcntl(fd, 1036, struct.pack("Q", int(sys.argv[2])))
print(struct.unpack("Q", fcntl.fcntl(fd, 1035, bytes(8)))[0])' "$@"
}
# a loop device's inode outlives losetup -d: an earlier run may have left one
if [ "$(rw_hint "$BF_DEV" 0 2>/dev/null)" = 0 ]; then
	for h in medium none; do
		refused "write_hint=$h" "$BF_MNT/data" \
			"write_hint= with blkfile_via=bdev: fio would set the hint on the block device's inode" \
			"${write_job[@]}" --size=2m --write_hint=$h
		refused "write_hint=$h, read" "$BF_MNT/data" "write_hint= with blkfile_via=bdev" \
			"${read_job[@]}" --size=2m --write_hint=$h
		assert_eq "write_hint=$h: the device's hint" 0 "$(rw_hint "$BF_DEV")"
	done
else
	note "no F_GET_RW_HINT here: write_hint= not tested"
fi

# An unknown enum value is refused by the engine, naming the option, the
# value and the valid ones (engines/common/opt.c's pp_opt_enum()).
NAMED=0 refused "unknown blkfile_via" "$BF_MNT/data" \
	"blkfile_via=dev: unknown value \\(valid: file, bdev\\)" \
	--name=r --bs=64k --rw=read --blkfile_via=dev --size=2m
NAMED=0 refused "unknown blkfile_submit" "$BF_MNT/data" \
	"blkfile_submit=urings: unknown value \\(valid: sync, uring\\)" \
	--name=r --bs=64k --rw=read --blkfile_submit=urings --size=2m

NAMED=0 refused "registered buffers without io_uring" "$BF_MNT/data" "need blkfile_submit=uring" \
	"${read_job[@]}" --size=2m --blkfile_fixedbufs=1

# --- direct I/O smaller than the device's logical block --------------------------
truncate -s 128M "$T/4k.img"
dev4k=$(losetup --find --show --sector-size 4096 "$T/4k.img") || fail "losetup --sector-size"
echo "$dev4k" >>"$_pp_loops"
BF_DEV=$dev4k
make_fs ext4 "$dev4k" -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 >"$T/.4k"
BF_MNT=$(<"$T/.4k")
dd if=/dev/urandom of="$BF_MNT/data" bs=1M count=1 conv=fsync status=none
refused "direct I/O below the logical block" "$BF_MNT/data" \
	"multiples of its 4096-byte logical blocks \(bs=512\)" \
	--name=r --bs=512 --rw=read --blkfile_via=bdev --direct=1 --size=1m
# the engine's sentence alone (EOPNOTSUPP, not EINVAL: see "hole, direct=1")
echo "$BF_OUT" | grep -q "does not support O_DIRECT" &&
	fail "direct I/O below the logical block: fio adds a second culprit: $BF_OUT"

# --- XFS: shared (reflinked) extents may be read but not written ---------------
bf_fs xfs 320
dd if=/dev/urandom of="$BF_MNT/orig" bs=1M count=2 conv=fsync status=none
if cp --reflink=always "$BF_MNT/orig" "$BF_MNT/clone" 2>/dev/null; then
	sync
	refused "shared extent, write" "$BF_MNT/clone" "shared with another file" \
		"${write_job[@]}" --size=2m
	bf_fio_ok "shared extent, read" --filename="$BF_MNT/clone" "${read_job[@]}" --size=2m
else
	note "no reflink on this XFS: shared-extent refusal not tested here"
fi
fallocate -l 2M "$BF_MNT/prealloc"
refused "unwritten extent, write" "$BF_MNT/prealloc" "unwritten" "${write_job[@]}" --size=2m

# --- ext4 inline data ----------------------------------------------------------
bf_fs ext4 64 -O inline_data
printf 'tiny file kept inside its inode\n' >"$BF_MNT/tiny"
sync
refused "inline data" "$BF_MNT/tiny" "inline data" --name=r --bs=32 --size=32 \
	--rw=read --blkfile_via=bdev

# --- ext4 data=journal -----------------------------------------------------------
MOUNT_OPTS=noatime,data=journal bf_fs ext4 64
dd if=/dev/urandom of="$BF_MNT/data" bs=1M count=1 conv=fsync status=none
refused "data journalling" "$BF_MNT/data" "data journalled" "${read_job[@]}" --size=1m

# --- no block device: tmpfs ----------------------------------------------------
mkdir -p "$T/tmpfs"
mount -t tmpfs -o size=8m tmpfs "$T/tmpfs" || fail "mount tmpfs"
echo "$T/tmpfs" >>"$_pp_mounts"
dd if=/dev/urandom of="$T/tmpfs/data" bs=1M count=1 status=none
f0=$(bf_sum_file "$T/tmpfs/data")
bf_fio --filename="$T/tmpfs/data" "${write_job[@]}" --size=1m &&
	echo "$BF_OUT" | grep -q "err= 0" && fail "tmpfs: not refused: $BF_OUT"
assert_match "tmpfs: message" "blkfile: $T/tmpfs/data: is on tmpfs" "$BF_OUT"
assert_eq "tmpfs: file unchanged" "$f0" "$(bf_sum_file "$T/tmpfs/data")"
note "tmpfs: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"

# --- a block filesystem whose FIEMAP is not trusted: erofs ------------------------
# erofs reports its compressed extents as plain ones: a device read of the
# first 256 KiB (one extent, aligned, inside the device) returned the
# compressed bytes and what follows them, with err= 0.
if command -v mkfs.erofs >/dev/null && grep -qw erofs /proc/filesystems; then
	mkdir -p "$T/erofs-src" "$T/erofs"
	python3 -c "import os, sys; sys.stdout.buffer.write(os.urandom(2048) * 2048)" >"$T/erofs-src/rep"
	mkfs.erofs -zlz4hc "$T/erofs.img" "$T/erofs-src" >/dev/null 2>&1 || fail "mkfs.erofs"
	truncate -s 64M "$T/erofs.img"
	edev=$(losetup --find --show --read-only "$T/erofs.img") || fail "losetup erofs"
	echo "$edev" >>"$_pp_loops"
	mount -t erofs -o ro "$edev" "$T/erofs" || fail "mount erofs"
	echo "$T/erofs" >>"$_pp_mounts"
	bf_fio --filename="$T/erofs/rep" "${read_job[@]}" --size=256k &&
		echo "$BF_OUT" | grep -q "err= 0" && fail "erofs: not refused: $BF_OUT"
	assert_match "erofs: message" "blkfile: $T/erofs/rep: is on erofs \\(statfs type 0xe0f5e1e2\\), whose FIEMAP is not known to flag" "$BF_OUT"
	note "erofs: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
else
	note "no mkfs.erofs or no erofs in this kernel: the untrusted-FIEMAP refusal not tested here"
fi
