#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A whole block device as the target: via=bdev and via=file are then the
# same I/O, and what one writes the other and fio's psync read back.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd losetup

# --- whole device -------------------------------------------------------------
make_loop 64 >"$T/.whole"
whole=$(<"$T/.whole")
job=(--name=d --filename="$whole" --size=16m --bs=24k --rw=randwrite --verify=crc32c)
bf_fio_ok "whole device: write via=bdev" "${job[@]}" --do_verify=0 --blkfile_via=bdev \
	--direct=1 --blkfile_submit=uring --iodepth=8
bf_fio_ok "whole device: verify via=file" "${job[@]}" --verify_only=1 --blkfile_via=file
out=$(run_fio --ioengine=psync "${job[@]}" --verify_only=1 2>&1) ||
	fail "whole device: fio psync verify failed: $out"
echo "$out" | grep -q "err= 0" || fail "whole device: psync verify: $out"
