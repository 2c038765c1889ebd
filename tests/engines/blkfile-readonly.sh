#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A read-only filesystem is not written under (issue 12, hole 3).  Before the
# job: a read-only remount (statvfs ST_RDONLY and the superblock's "ro" in
# /proc/self/mountinfo) and a read-only bind mount refuse device writes, and
# leave the device byte-identical; reads through the device still run.
# During the job: a remount,ro is noticed at the next re-verification
# (blkfile_recheck_msec, 100 ms here; the job is rate-limited so that no
# end-of-pass re-verification comes first) and stops the writes: the device does
# not change from a second after the remount to the end of the job, and the
# job fails saying why.  (A frozen filesystem is not refused: Linux cannot
# be asked whether one is frozen, and blkfile-bdev-write.sh and
# blkfile-refuse.sh freeze it on purpose so that only the engine writes.)
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

job=(--name=w --bs=64k --rw=randwrite --blkfile_via=bdev --blkfile_allow_bdev_write=1)

bf_fs ext4 128
f=$BF_MNT/data
dd if=/dev/urandom of="$f" bs=1M count=16 conv=fsync status=none

# --- read-only before the job ---------------------------------------------------------
mount -o remount,ro "$BF_MNT" || fail "remount,ro"
dev0=$(bf_sum_dev "$BF_DEV")
if bf_fio --filename="$f" "${job[@]}" --size=2m && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "device write under a read-only remount not refused: $BF_OUT"
fi
assert_match "remount,ro: message" "blkfile: $f: is on a read-only mount \(statvfs ST_RDONLY\)" "$BF_OUT"
assert_eq "remount,ro: device unchanged" "$dev0" "$(bf_sum_dev "$BF_DEV")"
note "remount,ro: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
bf_fio_ok "remount,ro: reads through the device still run" --filename="$f" --name=r --bs=64k \
	--rw=randread --size=2m --blkfile_via=bdev
mount -o remount,rw "$BF_MNT" || fail "remount,rw"

# A read-only bind mount of a writable filesystem: its own flags say ro.
ro=$T/ro-bind
mkdir -p "$ro"
mount --bind "$BF_MNT" "$ro" || fail "mount --bind"
echo "$ro" >>"$_pp_mounts"
mount -o remount,bind,ro "$ro" || fail "remount,bind,ro"
dev0=$(bf_sum_dev "$BF_DEV")
if bf_fio --filename="$ro/data" "${job[@]}" --size=2m && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "device write through a read-only bind mount not refused: $BF_OUT"
fi
assert_match "ro bind mount: message" "blkfile: $ro/data: is on a read-only mount" "$BF_OUT"
assert_eq "ro bind mount: device unchanged" "$dev0" "$(bf_sum_dev "$BF_DEV")"
umount "$ro" || fail "umount $ro"

# --- read-only during the job ----------------------------------------------------------
for submit in sync uring; do
	mount -o remount,rw "$BF_MNT" 2>/dev/null
	# 4 KiB at 500 IOPS: a pass over the 16 MiB takes 8 s, longer than the
	# job, so only the 100 ms interval can notice the remount.
	run_fio --ioengine="$BF_ENGINE" --filename="$f" "${job[@]}" --bs=4k --rate_iops=500 \
		--size=16m --time_based --runtime=6 --direct=1 --iodepth=4 --blkfile_submit=$submit \
		--blkfile_recheck_msec=100 >"$T/fio.out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -0 $pid 2>/dev/null || fail "$submit: the job ended early: $(<"$T/fio.out")"
	mount -o remount,ro "$BF_MNT" || fail "$submit: remount,ro during the job"
	sleep 1
	dev1=$(bf_sum_dev "$BF_DEV")
	kill -0 $pid 2>/dev/null && note "$submit: the job still runs 1 s after the remount"
	sleep 1
	dev2=$(bf_sum_dev "$BF_DEV")
	wait $pid
	rc=$?
	BF_OUT=$(<"$T/fio.out")
	dev3=$(bf_sum_dev "$BF_DEV")
	assert_eq "$submit: device unchanged from 1 s after the remount to 2 s after" "$dev1" "$dev2"
	assert_eq "$submit: device unchanged from 1 s after the remount to the job's end" "$dev1" "$dev3"
	[ $rc != 0 ] && ! echo "$BF_OUT" | grep -q "err= 0" || fail "$submit: job did not fail: $BF_OUT"
	assert_match "$submit: message" \
		"blkfile: $f: the filesystem became read-only during the job; device writes stopped" "$BF_OUT"
	note "$submit: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
done
