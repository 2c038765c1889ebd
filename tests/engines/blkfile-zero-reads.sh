#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Reads past the end of a file that shrank under the job fail the job with
# blkfile_via=file, blkfile_submit=uring as with fio's psync and
# blkfile_submit=sync -- never a "success" counting each 0-byte read as an
# I/O.
#
# The job reads 1 MiB of a file written to 1 MiB and truncated to less
# (create_on_open=1: fio takes size= as the file's size and does not lay
# the file out again; exec_prerun's shell could not run under TSan's
# preload), so every read past the new end moves 0 bytes.  psync
# and submit=sync complete such a read in ->queue and fio fails it with
# EIO ("full resid", fio 3.33 backend.c, io_queue_event()); fio's async
# completion (io_u.c, io_completed()) would count it as a completed I/O
# of 0 bytes, so submit=uring fails it itself (submit_uring.c,
# zero_xfer()).  Truncated to 64 KiB (reads past the end move nothing)
# and to 72 KiB (the read at 64 KiB moves 8 KiB of 16: fio requeues the
# residual, which then moves nothing), random and sequential, direct and
# buffered, and uring with registered buffers and files.  Every case: job
# error 5 (EIO), fio's exit status nonzero, no more bytes read than the
# file holds; uring also prints the engine's "moved 0 bytes" line.  At
# iodepth 1 also the bytes read and the short reads fio requeued as psync's.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
source "$TOP/tests/engines/lib-zero-reads.sh"
need_root
need_cmd losetup truncate "$JQ"

bf_fs ext4 64
f=$BF_MNT/f
FIO_MODE=()

san_env
depth=8
uring_cases=(
	"--blkfile_submit=uring"
	"--blkfile_submit=uring --blkfile_fixedbufs=1 --blkfile_registerfiles=1"
)
# each size, access pattern and direct= once (all eight combinations gave
# the same result and cost a minute more under each sanitizer)
for combo in "65536 randread 1" "73728 read 0"; do
	read -r size rw direct <<<"$combo"
	what="truncated to $size, $rw, direct=$direct"
	# The controls: fio's own psync, and blkfile's sync path.
	zero_job $size $rw $direct $depth --ioengine=psync
	assert_eq "psync engine, $what" 5 "$err"
	zero_job $size $rw $direct $depth --ioengine="$BF_ENGINE" --blkfile_via=file \
		--blkfile_submit=sync
	assert_eq "blkfile submit=sync, $what" 5 "$err"
	for c in "${uring_cases[@]}"; do
		# shellcheck disable=SC2086
		zero_job $size $rw $direct $depth --ioengine="$BF_ENGINE" --blkfile_via=file $c
		assert_eq "blkfile $c, $what" 5 "$err"
		assert_match "blkfile $c, $what: message" \
			'blkfile: zero: read of (16384|8192) bytes at offset [0-9]+ of .* moved 0 bytes' "$out"
	done
	note "$what: psync, blkfile sync and uring fail with EIO"
done

# iodepth 1, sequential: one read at a time, so the same reads as psync's
# in the same order (at 72 KiB: 64 KiB read, 8 KiB of the next, its
# residual nothing): the same bytes read before the error, and the same
# short reads whose residual fio requeued (1 at 72 KiB).
depth=1
for size in 65536 73728; do
	zero_job $size read 1 $depth --ioengine=psync
	assert_eq "psync engine, iodepth 1, truncated to $size" 5 "$err"
	psync_bytes=$bytes psync_short=$short
	for c in "${uring_cases[@]}"; do
		# shellcheck disable=SC2086
		zero_job $size read 1 $depth --ioengine="$BF_ENGINE" --blkfile_via=file $c
		assert_eq "blkfile $c, iodepth 1, truncated to $size" 5 "$err"
		assert_eq "blkfile $c, iodepth 1, truncated to $size: bytes as psync" \
			"$psync_bytes" "$bytes"
		assert_eq "blkfile $c, iodepth 1, truncated to $size: short_ios as psync" \
			"$psync_short" "$short"
	done
	note "iodepth 1, truncated to $size: EIO after $psync_bytes bytes and $psync_short short read(s), as psync"
done
depth=8

# A file that does not shrink reads through with no error (the check is
# only for what moved nothing).
for c in "${uring_cases[@]}"; do
	# shellcheck disable=SC2086
	zero_job 1048576 randread 1 $depth --ioengine="$BF_ENGINE" --blkfile_via=file $c
	assert_eq "blkfile $c, whole file" 0 "$err"
	assert_eq "blkfile $c, whole file: bytes" 1048576 "$bytes"
done
note "whole file: no error"
exit 0
