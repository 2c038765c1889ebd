#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Two buffered blkfile_via=bdev writers on one file at once (numjobs=2,
# threads or processes): the second finds the first's dirty device pages
# under the file, which stay when dropped, and is refused; the reason given
# was "mapped by another process, or busy filesystem metadata", which sends
# the user looking for a process that does not exist.  Every via=bdev job
# now holds a shared flock() on the file, and a page that stays while
# another holds it is blamed on that job ("another blkfile_via=bdev job
# ... is doing I/O on this file through the device"), in thread and fork
# mode.  Run one after the
# other (stonewall) both run.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 128
f=$BF_MNT/data
dd if=/dev/urandom of="$f" bs=1M count=8 conv=fsync status=none
job=(--filename="$f" --name=w --blkfile_via=bdev --blkfile_allow_bdev_write=1 --rw=randwrite
	--bs=4k --size=8m --runtime=2 --time_based --numjobs=2)

for mode in --thread ""; do
	refusals=0
	for try in 1 2 3 4 5; do
		bf_fio "${job[@]}" $mode
		if echo "$BF_OUT" | grep -q "blkfile: $f: .*stays in the page cache"; then
			assert_match "${mode:-fork}: refusal names the other job" \
				"blkfile: $f: .*stays in the page cache when dropped: another blkfile_via=bdev job \\(of this fio or another\\) is doing I/O on this file through the device" \
				"$BF_OUT"
			echo "$BF_OUT" | grep -q "mapped by another process" &&
				fail "${mode:-fork}: blames a mapping: $BF_OUT"
			refusals=$((refusals + 1))
		fi
		echo "$BF_OUT" | grep -q "err= 0" || fail "${mode:-fork}: neither job ran: $BF_OUT"
		[ $refusals -ge 1 ] && break
	done
	[ $refusals -ge 1 ] || fail "${mode:-fork}: two concurrent buffered device writers, none refused in 5 tries: $BF_OUT"
	note "ok: ${mode:-fork}: $(echo "$BF_OUT" | grep -m1 "blkfile: " | cut -c1-160)..."
done

# One after the other both run, and what the device got reads back
# through the file (verify).
bf_fio_ok "stonewalled writers" --filename="$f" --blkfile_via=bdev --blkfile_allow_bdev_write=1 \
	--rw=write --bs=64k --size=8m --verify=crc32c \
	--name=a --name=b --stonewall
note "ok: stonewalled, both run and verify"
