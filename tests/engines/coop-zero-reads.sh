#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Reads past the end of a file that shrank under the job fail the job, as
# with fio's psync -- never a "success" counting each 0-byte read as an I/O.
#
# The job reads 1 MiB of a file written to 1 MiB and truncated to less
# (create_on_open=1: fio takes size= as the file's size and does not lay
# the file out again; exec_prerun's shell could not run under TSan's
# preload), so every read past the new end moves 0 bytes.  psync
# fails such a read with EIO ("full resid", fio 3.33 backend.c,
# io_queue_event()); fio's async completion (io_u.c, io_completed())
# would count it as a completed I/O of 0 bytes, so coop fails it itself
# (pool_fio.c, zero_xfer()).  Truncated to 64 KiB (reads past the end move
# nothing) and to 72 KiB (the read at 64 KiB moves 8 KiB of 16: fio
# requeues the residual, which then moves nothing), random and sequential,
# direct and buffered; coop with the psync and uring backends, 1 and 4
# workers, the job's thread running the reads itself (caller-runs: one
# psync worker, and shared io_context and fd at iodepth 1), the worker
# doing them (coop_inline=0), and reads split in parts (coop_split_kb).
# Every case: job error 5 (EIO), fio's exit status nonzero, no more bytes
# read than the file holds, and the engine's "moved 0 bytes" line; at
# iodepth 1 also the bytes read and the short reads fio requeued as psync's.
# (The line names the first read that moved nothing: at iodepth 8 that is
# the 8 KiB residual or a 16 KiB read past the end, whichever came back first.)
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
source "$TOP/tests/engines/lib-zero-reads.sh"
need_root
need_cmd losetup truncate "$JQ"

dev=$(make_loop 64)
mnt=$(MOUNT_OPTS=noatime make_fs ext4 "$dev" -b 4096 -E lazy_itable_init=0,lazy_journal_init=0)
f=$mnt/f
FIO_MODE=()
coop_is_tsan && FIO_MODE=(--thread)

san_env
coop_cases=(
	"--coop_backend=psync --coop_threads=1"
	"--coop_backend=psync --coop_threads=1 --coop_inline=0"
	"--coop_backend=psync --coop_threads=4"
	"--coop_backend=psync --coop_threads=4 --coop_split_kb=4"
	"--coop_backend=uring --coop_threads=1"
	"--coop_backend=uring --coop_threads=4"
)
# each size, access pattern and direct= once (all eight combinations gave
# the same result and cost a minute more under each sanitizer)
for combo in "65536 randread 1" "73728 read 0"; do
	read -r size rw direct <<<"$combo"
	what="truncated to $size, $rw, direct=$direct"
	# The control: fio's own psync fails the job.
	zero_job $size $rw $direct 8 --ioengine=psync
	assert_eq "psync engine, $what" 5 "$err"
	for c in "${coop_cases[@]}"; do
		# shellcheck disable=SC2086
		zero_job $size $rw $direct 8 --ioengine="external:$COOP_SO" $c
		assert_eq "coop $c, $what" 5 "$err"
		assert_match "coop $c, $what: message" \
			'coop: zero: read of (16384|8192) bytes at offset [0-9]+ of .* moved 0 bytes' "$out"
	done
	note "$what: psync and coop (${#coop_cases[@]} cases) fail with EIO"
done

# iodepth 1, sequential: one read at a time, so the same reads as psync's
# in the same order (at 72 KiB: 64 KiB read, 8 KiB of the next, its
# residual nothing): the same bytes read before the error, and the same
# short reads whose residual fio requeued (1 at 72 KiB).  One psync
# worker (caller-runs), one uring worker, and caller-runs with shared
# io_context and fd (not under TSan, which refuses coop_ioctx=shared).
depth1_cases=(
	"--coop_backend=psync --coop_threads=1"
	"--coop_backend=uring --coop_threads=1"
)
coop_is_tsan ||
	depth1_cases+=("--coop_backend=psync --coop_threads=2 --coop_ioctx=shared --coop_fd=shared")
for size in 65536 73728; do
	zero_job $size read 1 1 --ioengine=psync
	assert_eq "psync engine, iodepth 1, truncated to $size" 5 "$err"
	psync_bytes=$bytes psync_short=$short
	for c in "${depth1_cases[@]}"; do
		# shellcheck disable=SC2086
		zero_job $size read 1 1 --ioengine="external:$COOP_SO" $c
		assert_eq "coop $c, iodepth 1, truncated to $size" 5 "$err"
		assert_eq "coop $c, iodepth 1, truncated to $size: bytes as psync" "$psync_bytes" "$bytes"
		assert_eq "coop $c, iodepth 1, truncated to $size: short_ios as psync" "$psync_short" "$short"
	done
	note "iodepth 1, truncated to $size: EIO after $psync_bytes bytes and $psync_short short read(s), as psync"
done

# A file that does not shrink reads through with no error (the check is
# only for what moved nothing).
for c in "${coop_cases[@]}"; do
	# shellcheck disable=SC2086
	zero_job 1048576 randread 1 8 --ioengine="external:$COOP_SO" $c
	assert_eq "coop $c, whole file" 0 "$err"
	assert_eq "coop $c, whole file: bytes" 1048576 "$bytes"
done
note "whole file: no error"
exit 0
