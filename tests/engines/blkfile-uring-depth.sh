#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkfile_submit=uring at the iodepths fio's own io_uring takes: the ring
# has twice the depth in SQEs (a request crossing extents takes one per
# piece), which past iodepth=16384 is more than the kernel gives a ring,
# and the job was refused at setup ('io_uring_queue_init: Invalid
# argument') where fio's io_uring runs it.  The ring is capped at the
# kernel's largest; pieces beyond it are submitted early.  Checked: the
# control (fio's io_uring at the same depth) runs; blkfile via=file and
# via=bdev read the whole range with no error; a batch of more requests
# than the largest ring has SQEs (iodepth 40000) runs through the device,
# and fio's verify pattern written so through the device reads back.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 96
f=$BF_MNT/file
dd if=/dev/urandom of="$f" bs=1M count=24 conv=fsync status=none || fail "dd $f"

# io_bytes READ|WRITE: the job's bytes in that direction, from the terse line.
io_bytes() {
	local field
	[ "$1" = READ ] && field=6 || field=47
	echo "$BF_OUT" | grep '^3;' | cut -d';' -f"$field"
}

# Control: the depth is one fio's own io_uring takes.
BF_OUT=$(run_fio --name=ctl --ioengine=io_uring --filename="$f" --rw=randread --bs=4k \
	--size=4m --iodepth=20000 --output-format=terse 2>&1) ||
	skip "fio's io_uring does not run iodepth=20000 here: $BF_OUT"
note "control: fio's io_uring at iodepth=20000 runs"

for via in file bdev; do
	bf_fio --name=deep --filename="$f" --rw=randread --bs=4k \
		--size=4m --iodepth=20000 --blkfile_submit=uring --blkfile_via="$via" \
		--output-format=terse ||
		fail "uring via=$via iodepth=20000: fio failed: $BF_OUT"
	assert_eq "uring via=$via iodepth=20000: KiB read" 4096 "$(io_bytes READ)"
	note "uring via=$via iodepth=20000: 4 MiB read"
done

# More requests in one batch than the largest ring has SQEs.
common=(--filename="$f" --bs=512 --size=24m --iodepth=40000 --iodepth_batch_submit=40000
	--iodepth_batch_complete_max=40000 --blkfile_submit=uring --blkfile_via=bdev
	--verify=crc32c --randseed=5)
bf_fio_ok "uring via=bdev iodepth=40000 write" --name=w --rw=randwrite "${common[@]}" \
	--blkfile_allow_bdev_write=1 --do_verify=1
bf_fio_ok "uring via=bdev iodepth=40000 verify" --name=w --rw=randwrite "${common[@]}" --verify_only
note "uring via=bdev iodepth=40000: written and verified through the device"
