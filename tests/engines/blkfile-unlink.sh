#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio's unlink=1 through the device: fio removes the name after the job's
# last I/O but before it closes the file (close_and_free_files()), so the
# last re-verification of blkfile_via=bdev, at close, found the name gone and
# failed a job that had done nothing wrong, as psync's passes ("the file's name
# no longer leads to the file that was checked (removed or replaced during the
# job); device reads may have returned other data", err=116).  It runs before
# the unlink now: read and write jobs (sync and uring) pass as psync's and the
# file is gone; a write job's verify= reads pass; the device outside the
# file's extents is unchanged.  Two unlink=1 jobs of one file pass as
# psync's when the name goes while the second runs, and unlink_each_loop=1
# through the device is refused before any I/O (below).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd filefrag

# The device outside the file is compared before and after each job, read
# O_DIRECT: ext4's timed journal commit (5 s) of an earlier unlink landing
# in between changed it once (under ASan).  No timed commit here, and the
# control's unlink is synced before the first read.
MOUNT_OPTS=noatime,commit=300 bf_fs ext4 64
for sub in sync uring; do
	for rw in read write; do
		what="$rw, submit=$sub"
		f=$BF_MNT/data-$rw-$sub
		dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
		# psync, the control
		cp "$f" "$f.psync"
		sync
		out=$(run_fio --name=p --ioengine=psync --filename="$f.psync" --rw=$rw --bs=64k \
			--size=2m --unlink=1 2>&1) || fail "$what: psync failed: $out"
		echo "$out" | grep -q "err= 0" || fail "$what: psync: job error: $out"
		[ -e "$f.psync" ] && fail "$what: psync left the file"
		sync
		bf_extents "$f" >"$T/ext"
		s0=$(bf_sum_outside "$BF_DEV" "$T/ext")
		args=(--name=u --filename="$f" --rw=$rw --bs=64k --size=2m --blkfile_via=bdev
			--blkfile_submit=$sub --unlink=1)
		[ $rw = write ] && args+=(--blkfile_allow_bdev_write=1 --verify=crc32c)
		# the jobs before may have left device pages (large folios) over this file
		drop_caches
		bf_fio_ok "$what" "${args[@]}"
		[ -e "$f" ] && fail "$what: the file is still there"
		s1=$(bf_sum_outside "$BF_DEV" "$T/ext")
		assert_eq "$what: device outside the file's extents" "$s0" "$s1"
		note "$what: passed, file removed"
	done
done

# Two jobs of one file, each with unlink=1 (a job file's sections, or
# numjobs=2): the one that ends first removes the name while the other
# still runs, and the other's next re-verification found the name gone and
# failed it, err=116, 'the file's name no longer leads to the file that was
# checked (removed or replaced during the job); device reads may have
# returned other data', where psync's pass.  Its open descriptor keeps the
# inode and its blocks until it closes, and the job asked for the name to
# go: it passes now.  "first" ends after ~0.25 s, "second" runs ~1 s,
# re-verified every 100 ms; writes on separate ranges (no verify=: fio
# closes the file before verifying and opens the name again, which even
# psync's second job found gone, 'full resid').
two_jobs() {	# two_jobs FILE RW ENGINE-LINES...
	local f=$1 rw=$2
	shift 2
	printf '[global]\nfilename=%s\nrw=%s\nbs=64k\nrate=1m\nunlink=1\n' "$f" "$rw"
	printf '%s\n' "$@"
	printf '[first]\nsize=256k\n[second]\noffset=1m\nsize=1m\n'
}
for sub in sync uring; do
	for rw in read write; do
		what="two unlink=1 jobs of one file, $rw, submit=$sub"
		f=$BF_MNT/two-$rw-$sub
		dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
		cp "$f" "$f.psync"
		two_jobs "$f.psync" $rw ioengine=psync >"$T/psync.fio"
		out=$(run_fio "$T/psync.fio" 2>&1) || fail "$what: psync failed: $out"
		assert_eq "$what: psync jobs without error" 2 "$(echo "$out" | grep -c "err= 0")"
		bf_extents "$f" >"$T/ext"
		s0=$(bf_sum_outside "$BF_DEV" "$T/ext")
		engine_lines=("ioengine=$BF_ENGINE" blkfile_via=bdev blkfile_submit=$sub)
		[ $rw = write ] && engine_lines+=(blkfile_allow_bdev_write=1)
		two_jobs "$f" $rw "${engine_lines[@]}" >"$T/two.fio"
		out=$(run_fio "$T/two.fio" 2>&1) || fail "$what: fio failed: $out"
		assert_eq "$what: jobs without error ($out)" 2 "$(echo "$out" | grep -c "err= 0")"
		[ -e "$f" ] && fail "$what: the file is still there"
		s1=$(bf_sum_outside "$BF_DEV" "$T/ext")
		assert_eq "$what: device outside the file's extents" "$s0" "$s1"
		note "$what: passed, file removed"
	done
done

# unlink_each_loop=1: fio unlinks the file before each pass after the first,
# and the device holds no bytes of the file a next pass opens (none for a
# read, a new, empty one for a write).  The second pass failed with a bare
# "No such file or directory", the file gone; refused now before any I/O,
# naming the option, the file and its bytes as they were.  via=file runs as
# psync does.
for rw in read write; do
	for pass in --loops=2 "--time_based=1 --runtime=1"; do
		what="unlink_each_loop=1, $rw, $pass"
		f=$BF_MNT/each-$rw
		dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
		ino=$(stat -c %i "$f")
		sum=$(bf_sum_file "$f")
		args=(--name=e --filename="$f" --rw=$rw --bs=64k --size=2m --blkfile_via=bdev
			--unlink_each_loop=1 $pass)
		[ $rw = write ] && args+=(--blkfile_allow_bdev_write=1)
		bf_fio "${args[@]}" && fail "$what: fio succeeded: $BF_OUT"
		echo "$BF_OUT" | grep -q "unlink_each_loop=1 with blkfile_via=bdev" ||
			fail "$what: the refusal does not name the options: $BF_OUT"
		echo "$BF_OUT" | grep -Eq "issued rwts: total=[1-9]|issued rwts: total=0,[1-9]" &&
			fail "$what: I/O issued before the refusal: $BF_OUT"
		[ -e "$f" ] || fail "$what: the file was removed"
		assert_eq "$what: inode" "$ino" "$(stat -c %i "$f")"
		assert_eq "$what: file bytes" "$sum" "$(bf_sum_file "$f")"
		note "$what: refused, file unchanged"
	done
done
f=$BF_MNT/each-file
dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
bf_fio_ok "unlink_each_loop=1, via=file" --name=e --filename="$f" --rw=write --bs=64k --size=2m \
	--blkfile_via=file --unlink_each_loop=1 --loops=2
