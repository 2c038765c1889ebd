#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bytes written through a fragmented file with fio's verify pattern read back
# through the block device (blkfile_via=bdev, verify_only) with zero
# mismatches: ext4 and XFS, buffered and direct, sync and uring (plus
# registered buffers and files), requests crossing extent boundaries.
# A control run after the file's first extent was zeroed on the device must
# fail, so a check that cannot fail is caught.  (It used to point
# blkfile_dev= at a blank device; that is refused now: blkfile-dev-proof.sh.)
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd filefrag losetup

size=$((3 << 20))	# 48 chunks of 64 KiB
# 24 KiB requests: one in three straddles a 64 KiB chunk, i.e. two extents.
job=(--name=v --filename=F --size=$size --bs=24k --rw=randwrite --verify=crc32c)

for fs in ext4 xfs; do
	bf_fs $fs $([ $fs = xfs ] && echo 320 || echo 128)
	f=$BF_MNT/file
	bf_fragment "$f" 64 48
	n=$(bf_nextents "$f")
	[ "$n" -ge 8 ] || fail "$fs: only $n extents after fragmenting"
	note "$fs: $f has $n extents"

	bf_fio_ok "$fs write via=file" "${job[@]/#--filename=F/--filename=$f}" \
		--do_verify=0 --blkfile_via=file
	for direct in 0 1; do
		for submit in sync uring; do
			bf_fio_ok "$fs verify via=bdev direct=$direct submit=$submit" \
				"${job[@]/#--filename=F/--filename=$f}" --verify_only=1 \
				--blkfile_via=bdev --direct=$direct --blkfile_submit=$submit --iodepth=8
			io=$(echo "$BF_OUT" | grep -Eo 'READ: bw=[^,]*, [^,]*, io=[0-9.]+[KMG]iB' | grep -Eo 'io=.*')
			assert_eq "$fs direct=$direct $submit: bytes verified" "io=3072KiB" "$io"
		done
	done
	bf_fio_ok "$fs verify via=bdev uring fixedbufs registerfiles" \
		"${job[@]/#--filename=F/--filename=$f}" --verify_only=1 --blkfile_via=bdev \
		--direct=1 --blkfile_submit=uring --iodepth=16 \
		--blkfile_fixedbufs=1 --blkfile_registerfiles=1 --debug=file
	# Discovery: st_dev -> /sys/dev/block -> the loop device under the mount.
	# (XFS may trim speculative preallocation meanwhile: the count can drift by one.)
	assert_match "$fs: device found" "blkfile: $f on $BF_DEV \(found from the file's st_dev [0-9]+:[0-9]+\), [0-9]+ extents" "$BF_OUT"

	# Control: zero the file's first extent on the device (filefrag's
	# extents, not ours): the verify through the device must now fail.
	bf_extents "$f" | head -n 1 >"$T/.ctl"
	read -r off len <"$T/.ctl"
	dd if=/dev/zero of="$BF_DEV" bs=512 seek=$((off / 512)) count=$((len / 512)) \
		oflag=direct conv=notrunc status=none || fail "$fs: zero the first extent"
	if bf_fio "${job[@]/#--filename=F/--filename=$f}" --verify_only=1 --blkfile_via=bdev \
		--direct=1 && echo "$BF_OUT" | grep -q "err= 0"; then
		fail "$fs: verify over a zeroed extent passed: the check cannot fail"
	fi
	assert_match "$fs control: verify error" "verify|bad magic" "$BF_OUT"
done
