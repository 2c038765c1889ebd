#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The device shrinks under a device-write job (the loop device's backing
# file truncated, `losetup -c`), its new end cutting through the file's
# first extent.  The file's extents are out of device order (its first
# 64 KiB lie after its second part), so a 128 KiB write at offset 0 is two
# pieces, the first of which the device cuts short while the second lands
# whole: fio's requeue of the residual (the request's tail) would rewrite
# the second piece and report the whole request done, 32 KiB never written
# (with submit=uring the job ended with err= 0).  Every I/O is at offset
# 0 (random_distribution=zoned), the map re-verified only after a pass
# over the 12 MiB range or a minute, so the short I/O meets the engine
# before any re-verification: it fails with EIO naming it, sync and uring.
# With the default interval, the re-verification names the shrunk device.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd filefrag blockdev fallocate

K=1024
bf_fs ext4 64
img=$(losetup -nO BACK-FILE "$BF_DEV")
f=$BF_MNT/f
# The file's tail (64 KiB .. 12 MiB) first, then a filler A up to ENOSPC,
# then A's last MiB (the end of the filesystem) punched out: the only free
# space left, where the file's head goes.
# (ext4 keeps clusters in reserve at ENOSPC, anywhere: none here)
echo 0 >"/sys/fs/ext4/$(basename "$BF_DEV")/reserved_clusters" || fail "reserved_clusters"
dd if=/dev/urandom of="$f" bs=64k seek=1 count=191 conv=fsync status=none || fail "dd tail"
dd if=/dev/zero of="$BF_MNT/A" bs=1M status=none 2>/dev/null
sync
asz=$(stat -c %s "$BF_MNT/A")
fallocate -p -o $((asz - 1048576)) -l 1048576 "$BF_MNT/A" || fail "punch A"
sync
dd if=/dev/urandom of="$f" bs=64k count=1 conv=notrunc,fsync status=none || fail "dd head"
bf_extents "$f" >"$T/f.ext"
head_off=$(head -1 "$T/f.ext" | cut -d' ' -f1)
second_off=$(sed -n 2p "$T/f.ext" | cut -d' ' -f1)
[ -n "$second_off" ] && [ "$head_off" -gt "$second_off" ] ||
	fail "the file's head is not after its tail on the device: nothing tested ($(tr '\n' ' ' <"$T/f.ext"))"
size0=$(stat -c %s "$img")
cut=$((head_off + 32 * K))

# shrunk WHAT REGEX ARGS...: a write job at offset 0; the device is cut
# 1.5 s into it; the job must fail saying REGEX.
shrunk() {
	local what=$1 re=$2 pid rc i
	shift 2
	run_fio --ioengine="$BF_ENGINE" --name=w --filename="$f" --rw=randwrite --bs=128k \
		--size=12m --random_distribution=zoned:100/1:0/99 --time_based --runtime=3 \
		--rate_iops=10 --direct=1 --blkfile_via=bdev --blkfile_allow_bdev_write=1 \
		"$@" >"$T/fio.out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -0 $pid 2>/dev/null || fail "$what: the job ended early: $(<"$T/fio.out")"
	# (a write in flight at the truncate extends the backing file again: repeat)
	for ((i = 0; i < 10; i++)); do
		truncate -s $cut "$img" && losetup -c "$BF_DEV" || fail "$what: shrink $BF_DEV"
		[ "$(blockdev --getsize64 "$BF_DEV")" = $cut ] && break
	done
	wait $pid
	rc=$?
	truncate -s "$size0" "$img" && losetup -c "$BF_DEV" || fail "$what: grow $BF_DEV back"
	BF_OUT=$(<"$T/fio.out")
	[ $rc != 0 ] && ! echo "$BF_OUT" | grep -q "err= 0" || fail "$what: job did not fail: $BF_OUT"
	assert_match "$what: message" "$re" "$BF_OUT"
	note "$what: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
}

for submit in sync uring; do
	shrunk "$submit, short piece" \
		"blkfile: $f: write of 131072 bytes at offset 0 moved [0-9]+ bytes on /dev/loop[0-9]+, inside the file's extents \(did the device shrink\?\): EIO" \
		--blkfile_submit=$submit --blkfile_recheck_msec=60000
done
shrunk "re-verification" \
	"blkfile: $f: the device under the file shrank during the job, from $size0 to [0-9]+ bytes" \
	--blkfile_recheck_msec=100
