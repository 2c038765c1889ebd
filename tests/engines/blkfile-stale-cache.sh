#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The device's page cache and the file's know nothing of each other: pages
# of the device cached by an earlier buffered via=bdev job go stale when the
# file is then rewritten through the filesystem.  A buffered device write of
# part of a block must not read such a page and write its stale rest back
# over the file (bytes the job never named), on 1 KiB and 4 KiB blocks, sync
# and uring; and a buffered device read with invalidate=1 must not return
# stale bytes where its range starts or ends inside a page (fio's verify,
# written through the file, read back through the device).  Both failed while
# the engine dropped only the pages wholly inside the job's range.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

# fill FILE CHAR: 1 MiB of CHAR, written in place through the filesystem and synced
fill() {
	python3 -c "import sys; sys.stdout.buffer.write(b'$2' * 1048576)" |
		dd of="$1" conv=notrunc,fsync status=none
}

for fsbs in 1024 4096; do
	bf_fs ext4 64 -b $fsbs
	f=$BF_MNT/f
	for submit in sync uring; do
		rm -f "$f"
		fill "$f" A
		bf_fio_ok "bs $fsbs, $submit: warm read" --name=warm --filename="$f" --rw=read --bs=64k \
			--blkfile_via=bdev --blkfile_submit=$submit
		fill "$f" B
		bf_fio_ok "bs $fsbs, $submit: 512-byte write" --name=w --filename="$f" --rw=write --bs=512 \
			--size=512 --blkfile_via=bdev --blkfile_allow_bdev_write=1 --buffer_pattern=0x43 \
			--blkfile_submit=$submit
		umount "$BF_MNT" && mount -o noatime "$BF_DEV" "$BF_MNT" || fail "remount"
		bad=$(head -c 8192 "$f" | tail -c +513 | tr -d B | wc -c)
		[ "$bad" = 0 ] || fail "fs blocks of $fsbs, $submit: a 512-byte buffered device write changed $bad bytes of the file it was not given (stale device cache written back)"
		[ "$(head -c 512 "$f" | tr -d C | wc -c)" = 0 ] || fail "fs blocks of $fsbs, $submit: the job's own 512 bytes are not there"
	done
	umount "$BF_MNT" || fail "umount"
	sed -i "\\|^$BF_MNT\$|d" "$_pp_mounts"
done

# reads: written with verify headers through the file, verified through the device
bf_fs ext4 64
f=$BF_MNT/v
fill "$f" A
bf_fio_ok "warm read" --name=warm --filename="$f" --rw=read --bs=64k --blkfile_via=bdev
v=(--filename="$f" --bs=1k --offset=1k --size=62k --verify=crc32c --rw=write)
bf_fio_ok "verify headers written through the file" --name=wr "${v[@]}" --blkfile_via=file \
	--do_verify=0 --end_fsync=1
bf_fio_ok "verified through the file" --name=vf "${v[@]}" --blkfile_via=file --verify_only=1
bf_fio_ok "verified through the device, buffered, invalidate=1" --name=vb "${v[@]}" \
	--blkfile_via=bdev --verify_only=1 --direct=0 --invalidate=1
exit 0
