#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Several buffered blkfile_via=bdev jobs of one file at once (numjobs=,
# threads or processes), as psync runs them.  Each job drops the device's
# cached pages under the file at open (invalidate=1, and always before
# buffered device writes), and a page that stays refused the job: but the
# other jobs' reads, in flight while it drops, come back cached, and their
# writes are dirty, so the second and third job were refused, "stays in the
# page cache when dropped (mapped by another process, or busy filesystem
# metadata)", a process that did not exist (numjobs=3 readers: two of the
# three failed, EBUSY).  Those pages are the other jobs', read from the disk
# or written by them after they dropped the stale ones at their own open;
# every via=bdev job now holds a lock on a byte of the file no other
# program locks, and a page that stays while another holds it is taken as
# that job's.  The readers verify fio's pattern written through the file
# while the device's cache held the file's old bytes; two writers on
# halves of the file verify, through the device and through the file.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 128
f=$BF_MNT/data
pattern=(--bs=4k --size=8m --verify=crc32c)

for mode in --thread ""; do
	# The file's old bytes in the device's cache, the file rewritten
	# through the filesystem: stale device pages under the whole file.
	rm -f "$f"
	dd if=/dev/urandom of="$f" bs=1M count=8 conv=fsync status=none
	dd if="$BF_DEV" of=/dev/null bs=1M status=none
	run_fio --name=w --ioengine=psync --filename="$f" --rw=write "${pattern[@]}" \
		--do_verify=0 --end_fsync=1 >/dev/null 2>&1 || fail "write through the file failed"
	bf_fio_ok "${mode:-fork}: three buffered device readers at once" --filename="$f" --name=r \
		--blkfile_via=bdev --rw=randread "${pattern[@]}" --verify_only=1 --invalidate=1 \
		--numjobs=3 $mode
	[ "$(echo "$BF_OUT" | grep -c "err= 0")" = 3 ] || fail "${mode:-fork}: readers: $BF_OUT"
	echo "$BF_OUT" | grep -q "stays in the page cache" && fail "${mode:-fork}: readers: $BF_OUT"

	rm -f "$f"
	dd if=/dev/urandom of="$f" bs=1M count=8 conv=fsync status=none
	bf_fio_ok "${mode:-fork}: two buffered device writers at once" --filename="$f" --name=w \
		--blkfile_via=bdev --blkfile_allow_bdev_write=1 --rw=randwrite --bs=4k --size=4m \
		--offset_increment=4m --numjobs=2 --verify=crc32c $mode
	[ "$(echo "$BF_OUT" | grep -c "err= 0")" = 2 ] || fail "${mode:-fork}: writers: $BF_OUT"
	out=$(run_fio --name=v --ioengine=psync --filename="$f" --rw=randread --bs=4k --size=4m \
		--offset_increment=4m --numjobs=2 --verify=crc32c --verify_only=1 2>&1) ||
		fail "${mode:-fork}: the writers' bytes through the file: $out"
	[ "$(echo "$out" | grep -c "err= 0")" = 2 ] || fail "${mode:-fork}: the writers' bytes through the file: $out"
	note "ok: ${mode:-fork}: three readers and two writers of one file at once run and verify"
done
