#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A buffered device write that fails only when it is written back is not
# lost: the engine's fsync of the device at close gets the error, and since
# fio 3.33 ignores what close_file returns, the engine fails the job itself
# (error 5) and says so.  The device is a loop device over an image on a
# full tmpfs with the file's blocks punched out of it, so writing them back
# fails; sync and uring submission.  Both reported success, 8 MiB written,
# while nothing reached the disk.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd filefrag fallocate

mkdir -p "$T/tmpfs"
mount -t tmpfs -o size=48m blkfile-close "$T/tmpfs" || fail "mount tmpfs"
echo "$T/tmpfs" >>"$_pp_mounts"
truncate -s 64M "$T/tmpfs/img"
dev=$(losetup --find --show "$T/tmpfs/img") || fail "losetup"
echo "$dev" >>"$_pp_loops"
mnt=$(make_fs ext4 "$dev" -b 4096 -E lazy_itable_init=0,lazy_journal_init=0) || exit 1
f=$mnt/f
head -c 8388608 /dev/urandom >"$f" && sync
# the file's blocks out of the image, and no room left to put them back
filefrag -v -b4096 "$f" | awk '$1 ~ /^[0-9]+:$/ { print $4, $6 }' | while read -r p l; do
	p=${p%%[!0-9]*} l=${l%%[!0-9]*}
	fallocate -p -o $((p * 4096)) -l $((l * 4096)) "$T/tmpfs/img" || fail "punch"
done
dd if=/dev/zero of="$T/tmpfs/fill" bs=1M status=none 2>/dev/null

for submit in sync uring; do
	bf_fio --name=w --filename="$f" --rw=randwrite --bs=16k --size=8m --iodepth=16 \
		--blkfile_via=bdev --blkfile_allow_bdev_write=1 --blkfile_submit=$submit --direct=0
	rc=$?
	[ $rc != 0 ] || fail "$submit: fio exited 0 although the writes never reached the disk: $BF_OUT"
	assert_match "$submit: job error" "err= *5" "$BF_OUT"
	assert_match "$submit: message" "blkfile: $f: the job's writes to [^ ]* did not reach the disk: fsync at close" "$BF_OUT"
done

# fsync=N and fdatasync=N get the write-back error first: the job fails
# naming the file and the sync, as psync names it (submit=uring said only
# 'err= 5 (func=td_io_queue)').
for sync in --fsync=4 --fdatasync=4; do
	for submit in sync uring; do
		bf_fio --name=w --filename="$f" --rw=randwrite --bs=16k --size=8m --iodepth=16 \
			--blkfile_via=bdev --blkfile_allow_bdev_write=1 --blkfile_submit=$submit --direct=0 $sync
		[ $? != 0 ] || fail "$submit $sync: fio exited 0 although the writes never reached the disk: $BF_OUT"
		assert_match "$submit $sync: job error" "err= *5" "$BF_OUT"
		assert_match "$submit $sync: the failed sync named" \
			"io_u error on file $f: Input/output error: (sync|datasync) offset=" "$BF_OUT"
	done
done
exit 0
