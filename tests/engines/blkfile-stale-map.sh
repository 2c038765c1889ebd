#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The map stays true or the job fails (issue 12, hole 4).
#
# Truncate-and-reuse: while a time_based randwrite runs through the device,
# the file is truncated and a new file is written that must reuse its blocks
# (the filesystem has no other room).  The job holds a read lease on the
# file, so the truncate has to break it first: the job stops its device
# writes at its next I/O and fails, and the truncate goes ahead only once the
# job has let go of the file.  So here "the new file must not be
# overwritten" is exact: the new file equals what was written to it.  (The
# limits, in README.md: a lease broken by the kernel after
# lease-break-time, or blocks moved without opening the file, leave a window
# of at most blkfile_recheck_msec.)
#
# Map changes no open or truncate announces: a reflink clone of the file made
# during a write job (its extents become shared), and btrfs balance moves the file's
# extents under a time_based read job through the device; the re-verification
# after each pass over the file notices and fails the job (the interval is
# set to a minute, so it is the per-pass one; blkfile-readonly.sh exercises
# the interval); a btrfs replace moves the filesystem to another device
# under a write job: the re-verification finds the device changed.  And a file already open for
# writing elsewhere is refused; a time_based job looping over its range many
# times passes every re-verification.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd btrfs mkfs.btrfs filefrag mkfs.xfs

M=$((1 << 20))

# overlap EXT_A EXT_B: bytes of the device in both extent lists ("OFFSET LENGTH").
overlap() {
	awk 'NR == FNR { s[NR] = $1; e[NR] = $1 + $2; n = NR; next }
		{ for (i = 1; i <= n; i++) { lo = $1 > s[i] ? $1 : s[i]; hi = $1 + $2 < e[i] ? $1 + $2 : e[i]
			if (hi > lo) t += hi - lo } }
		END { print t + 0 }' "$1" "$2"
}

# fails_during WHAT ACTION FIO_ARGS...: a blkfile job in the background;
# 1.5 s into it the shell command ACTION runs; the job must fail (its
# output in $BF_OUT).
fails_during() {
	local what=$1 action=$2 pid rc
	shift 2
	run_fio --ioengine="$BF_ENGINE" "$@" >"$T/fio.out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -0 $pid 2>/dev/null || fail "$what: the job ended early: $(<"$T/fio.out")"
	eval "$action" || fail "$what: $action failed"
	wait $pid
	rc=$?
	BF_OUT=$(<"$T/fio.out")
	[ $rc != 0 ] && ! echo "$BF_OUT" | grep -q "err= 0" || fail "$what: job did not fail: $BF_OUT"
}

# --- truncate and reuse during a time_based randwrite ------------------------------------
for submit in sync uring; do
	bf_fs ext4 64
	f=$BF_MNT/victim
	dd if=/dev/urandom of="$f" bs=1M count=40 conv=fsync status=none
	bf_extents "$f" >"$T/old.ext"
	dd if=/dev/urandom of="$T/pattern" bs=1M count=40 status=none

	run_fio --ioengine="$BF_ENGINE" --name=w --filename="$f" --bs=4k --rw=randwrite \
		--size=40m --time_based --runtime=12 --direct=1 --iodepth=4 \
		--blkfile_submit=$submit --blkfile_via=bdev --blkfile_allow_bdev_write=1 \
		>"$T/fio.out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -0 $pid 2>/dev/null || fail "$submit: the job ended early: $(<"$T/fio.out")"
	# (truncate(1) opens with O_NONBLOCK and gets EAGAIN while the lease
	# breaks; a shell redirection waits, like most writers.)
	: >"$f" || fail "$submit: truncate"
	sync
	dd if="$T/pattern" of="$BF_MNT/new" bs=1M conv=fsync status=none || fail "$submit: write the new file"
	bf_extents "$BF_MNT/new" >"$T/new.ext"
	reused=$(overlap "$T/old.ext" "$T/new.ext")
	[ "$reused" -gt 0 ] || fail "$submit: the new file reused none of the old file's blocks: nothing tested"
	# Let a job that does not stop write on for a while.
	sleep 2
	kill -0 $pid 2>/dev/null && note "$submit: the job still runs 2 s after the truncate"
	wait $pid
	rc=$?
	BF_OUT=$(<"$T/fio.out")
	dd if="$BF_MNT/new" iflag=nocache count=0 status=none
	assert_eq "$submit: the new file (reusing $reused bytes of the old one's blocks) is what was written to it" \
		"$(bf_sum_file "$T/pattern")" "$(bf_sum_file "$BF_MNT/new")"
	[ $rc != 0 ] && ! echo "$BF_OUT" | grep -q "err= 0" || fail "$submit: job did not fail: $BF_OUT"
	assert_match "$submit: message" \
		"blkfile: $f: another process is truncating the file or opening it for writing \(its read lease is breaking\)" \
		"$BF_OUT"
	note "$submit: new file reused $reused bytes; $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
done

# --- open for writing elsewhere: refused ---------------------------------------------------
f=$BF_MNT/held
dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
exec 9<>"$f"
if bf_fio --filename="$f" --name=w --bs=64k --rw=randwrite --size=2m --blkfile_via=bdev \
	--blkfile_allow_bdev_write=1 && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "device write on a file open for writing elsewhere not refused: $BF_OUT"
fi
exec 9>&-
assert_match "open for writing elsewhere: message" "blkfile: $f: is open for writing elsewhere" "$BF_OUT"

# --- many passes over the range: every re-verification passes ------------------------------
bf_fio_ok "time_based, 2 MiB range, re-verified after each pass" --filename="$f" --name=w \
	--bs=64k --rw=write --size=2m --time_based --runtime=2 --blkfile_via=bdev \
	--blkfile_allow_bdev_write=1 --blkfile_recheck_msec=10

# --- a reflink clone made during the job: the extents become shared ----------------------------
# cp reads the file, so no lease breaks: the re-verification must catch the
# new FIEMAP_EXTENT_SHARED.  (Writes in the interval before it may have hit
# the clone; the message says so, and README.md names this window.)
bf_fs xfs 320 -m reflink=1
f=$BF_MNT/victim
dd if=/dev/urandom of="$f" bs=1M count=16 conv=fsync status=none
fails_during reflink 'cp --reflink=always "$f" "$BF_MNT/clone"' --name=w --filename="$f" \
	--bs=4k --rw=randwrite --size=16m --time_based --runtime=12 --direct=1 --rate_iops=200 \
	--blkfile_via=bdev --blkfile_allow_bdev_write=1 --blkfile_recheck_msec=100
assert_match "reflink during the job: message" \
	"blkfile: $f: the file's extents changed during the job; device writes may have hit other data \(file offset [0-9]+ was at device byte [0-9]+ \(flags 0x[0-9a-f]+\) and is now at [0-9]+ \(flags 0x[0-9a-f]*2[0-9a-f]{3}\)\)" \
	"$BF_OUT"
note "reflink: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"

# --- btrfs balance moves the extents under a read job -------------------------------------
bf_fs btrfs 512 -d single -m dup
f=$BF_MNT/data
dd if=/dev/urandom of="$f" bs=1M count=32 conv=fsync status=none
fails_during balance 'btrfs balance start -d "$BF_MNT" >/dev/null 2>&1' --name=r \
	--filename="$f" --bs=4k --rw=randread --size=32m --time_based --runtime=20 \
	--blkfile_via=bdev --blkfile_recheck_msec=60000
assert_match "balance: message" \
	"blkfile: $f: the file's extents changed during the job; device reads may have returned other data \(file offset [0-9]+ was at device byte" \
	"$BF_OUT"
note "balance: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"

# --- btrfs replace moves the filesystem to another device under a write job -----------------
# FIEMAP's logical addresses and the chunk tree stay as they were: only the
# device changes, so the job went on writing the old device, which the
# filesystem no longer reads, and ended with err= 0.
bf_fs btrfs 320 -d single -m single
f=$BF_MNT/nocow
touch "$f" && chattr +C "$f" || fail "replace: chattr +C"
dd if=/dev/urandom of="$f" bs=1M count=32 conv=notrunc,fsync status=none
new=$(make_loop 320)
fails_during replace 'btrfs replace start -f -B "$BF_DEV" "$new" "$BF_MNT" >/dev/null 2>&1' \
	--name=w --filename="$f" --bs=1m --rw=write --size=32m --time_based --runtime=8 \
	--rate=10m --direct=1 --blkfile_via=bdev --blkfile_allow_bdev_write=1
assert_match "replace: message" \
	"blkfile: $f: the btrfs filesystem's device changed during the job \(btrfs replace or device add\?\); device writes may have hit other data \(the file (is on a btrfs spanning 2 devices|is now on [0-9]+:[0-9]+)" \
	"$BF_OUT"
note "replace: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
