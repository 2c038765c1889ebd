#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# zonemode=strided through the device: fio moves the file's offset on by
# zonerange after each zone and wraps only at the file's end, so a job of
# size=4m with 1 MiB zones every 2 MiB touches 0..1, 2..3, 4..5 and 6..7 MiB
# of an 8 MiB file.  The old engine checked only offset..offset+size at
# open and refused the zone at 4 MiB with EPERM ("outside the range checked
# at open") where psync reads it; and invalidate=1 dropped the device's
# cached pages of offset..offset+size only, so a device page cached before
# the file was rewritten through the filesystem was read in a later zone
# (verify: bad magic header at 6 MiB).  Now the range checked and the pages
# dropped run to the file's end: fio's verify pattern, written through the
# file in zones after the whole device was read into its cache, verifies
# through the device (sync and uring, buffered and direct), and zoned
# device writes verify through the file.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 128
f=$BF_MNT/data
zones=(--zonemode=strided --zonesize=1m --zonerange=2m --size=4m --bs=64k --verify=crc32c)

# stale: $f of 8 MiB, the device's cache holding its bytes, then the
# file rewritten in zones through the filesystem (fio's verify pattern).
stale() {
	rm -f "$f"
	dd if=/dev/urandom of="$f" bs=1M count=8 conv=fsync status=none
	dd if="$BF_DEV" of=/dev/null bs=1M status=none
	run_fio --name=w --ioengine=psync --filename="$f" --rw=write "${zones[@]}" \
		--do_verify=0 --end_fsync=1 >/dev/null 2>&1 || fail "zoned write through the file failed"
}

# psync reads the zones (the control: the job is fio's to run).
stale
out=$(run_fio --name=v --ioengine=psync --filename="$f" --rw=read "${zones[@]}" \
	--verify_only=1 2>&1) || fail "psync: zoned verify failed: $out"
echo "$out" | grep -q "err= 0" || fail "psync: zoned verify: $out"

for sub in sync uring; do
	for direct in 0 1; do
		stale
		bf_fio_ok "via=bdev $sub direct=$direct: zoned read" --filename="$f" --name=v \
			--blkfile_via=bdev --blkfile_submit=$sub --direct=$direct --invalidate=1 \
			--rw=read "${zones[@]}" --verify_only=1
		echo "$BF_OUT" | grep -Eq 'READ: .*io=4096KiB' ||
			fail "via=bdev $sub direct=$direct: not 4 MiB read: $BF_OUT"
	done
	note "ok: $sub: zones past offset+size read through the device verify, buffered and direct"
done

for sub in sync uring; do
	rm -f "$f"
	dd if=/dev/urandom of="$f" bs=1M count=8 conv=fsync status=none
	bf_fio_ok "via=bdev $sub: zoned write" --filename="$f" --name=w --blkfile_via=bdev \
		--blkfile_allow_bdev_write=1 --blkfile_submit=$sub --rw=write "${zones[@]}" \
		--do_verify=0
	out=$(run_fio --name=v --ioengine=psync --filename="$f" --rw=read "${zones[@]}" \
		--verify_only=1 2>&1) || fail "$sub: zoned device writes: verify through the file: $out"
	echo "$out" | grep -q "err= 0" || fail "$sub: zoned device writes: verify through the file: $out"
done
note "ok: zoned device writes verify through the file"
