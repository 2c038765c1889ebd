#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fio engine flags of each submission path are the job's own, even in
# --thread mode where every blkfile job shares one ops table: a uring job
# (iodepth 16) that starts after a sync job must not inherit FIO_SYNCIO
# (fio would cap it at depth 1 with "synchronous I/O engine" note), and a
# sync job after a uring job must still get it.  The control -- a sync job
# asked for iodepth 16 -- must print the note, so the check can fail.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 64
f=$BF_MNT/file
dd if=/dev/zero of="$f" bs=1M count=4 conv=fsync status=none || fail "dd $f"
note=$'synchronous I/O engine'
common=(--thread --filename="$f" --size=4m --bs=4k --rw=randread --blkfile_via=file
	--runtime=1 --time_based=0)

# sync, then uring after it (stonewall: the uring job inits after the sync one)
bf_fio_ok "sync then uring" "${common[@]}" \
	--name=s --blkfile_submit=sync --iodepth=1 \
	--name=u --stonewall --blkfile_submit=uring --iodepth=16
! echo "$BF_OUT" | grep -q "$note" || fail "uring job after a sync job was capped at depth 1: $BF_OUT"
note "uring after sync: no depth cap"

# uring, then sync at depth 16: the control, fio must cap it
bf_fio_ok "uring then sync" "${common[@]}" \
	--name=u --blkfile_submit=uring --iodepth=16 \
	--name=s --stonewall --blkfile_submit=sync --iodepth=16
[ "$(echo "$BF_OUT" | grep -c "$note")" = 1 ] ||
	fail "sync job after a uring job lost FIO_SYNCIO (expected one depth-cap note): $BF_OUT"
note "sync after uring: FIO_SYNCIO kept (depth capped, as fio does for psync)"
