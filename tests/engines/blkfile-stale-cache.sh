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

# A stale device page that cannot be dropped: another process maps it (the
# same holds for busy filesystem metadata in the page).  The 512-byte
# buffered device write read the mapped page's stale rest and wrote it over
# the file (err= 0); it must be refused, the file unchanged; a buffered
# read with invalidate=1 would return the stale bytes: it must fail (fio
# itself only warns when an invalidation fails).
bf_fs ext4 64 -b 1024
f=$BF_MNT/f
fill "$f" A
bf_fio_ok "mapped page: warm read" --name=warm --filename="$f" --rw=read --bs=64k --blkfile_via=bdev
fill "$f" B
page=$(($(head -1 < <(bf_extents "$f") | cut -d' ' -f1) / 4096 * 4096))
python3 -c '
import mmap, os, sys, time
m = mmap.mmap(os.open(sys.argv[1], os.O_RDONLY), 4096, mmap.MAP_SHARED, mmap.PROT_READ,
              offset=int(sys.argv[2]))
m[0]
open(sys.argv[3], "w").close()
time.sleep(60)' "$BF_DEV" "$page" "$T/mapped" &
mapper=$!
trap 'kill $mapper 2>/dev/null; bf_thaw; _pp_teardown' EXIT
for ((i = 0; i < 100; i++)); do [ -e "$T/mapped" ] && break; sleep 0.1; done
[ -e "$T/mapped" ] || fail "mapped page: the device page was not mapped"
f0=$(bf_sum_file "$f")
for submit in sync uring; do
	bf_fio --name=w --filename="$f" --rw=write --bs=512 --size=512 --blkfile_via=bdev \
		--blkfile_allow_bdev_write=1 --buffer_pattern=0x43 --blkfile_submit=$submit &&
		echo "$BF_OUT" | grep -q "err= 0" && fail "mapped page, $submit: write not refused: $BF_OUT"
	assert_match "mapped page, $submit: write refused" \
		"blkfile: $f: /dev/loop[0-9]+: its page at device offset $page, under the file, stays in the page cache when dropped" \
		"$BF_OUT"
done
bf_fio --name=r --filename="$f" --rw=read --bs=512 --size=4k --blkfile_via=bdev --invalidate=1 &&
	echo "$BF_OUT" | grep -q "err= 0" && fail "mapped page: invalidate=1 read did not fail: $BF_OUT"
assert_match "mapped page: read fails" "blkfile: $f: invalidate=1: /dev/loop[0-9]+: its page at device offset $page" "$BF_OUT"
kill $mapper
wait $mapper 2>/dev/null
drop_caches
assert_eq "mapped page: file unchanged" "$f0" "$(bf_sum_file "$f")"
note "mapped page: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"

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
# Large folios: a buffered read of the whole device (dd here; blkid or an
# earlier job do the same) caches it in folios of up to 2 MiB, and
# POSIX_FADV_DONTNEED drops no folio that begins before its range, so one
# across the start of an extent of a fragmented file stayed: a buffered
# invalidate=1 job through the device was refused ("its page at device
# offset ..., under the file, stays in the page cache when dropped (mapped
# by another process, or busy filesystem metadata)"), reads and writes.
# The device's pages under the file are dropped now and the job reads what
# was written through the file: fio's verify, after the device cache was
# filled with the file's old bytes.
bf_fs ext4 64
f=$BF_MNT/frag
bf_fragment "$f" 16 64
q=/sys/block/$(basename "$BF_DEV")/queue/read_ahead_kb
ra0=$(<"$q")
v=(--filename="$f" --bs=16k --size=1m --verify=crc32c)
for submit in sync uring; do
	echo 1024 >"$q"
	dd if="$BF_DEV" of=/dev/null bs=1M status=none
	bf_fio_ok "large folios, $submit: verify headers written through the file" --name=wr "${v[@]}" \
		--rw=write --blkfile_via=file --do_verify=0 --end_fsync=1
	bf_fio_ok "large folios, $submit: read through the device" --name=vb "${v[@]}" --rw=read \
		--blkfile_via=bdev --blkfile_submit=$submit --invalidate=1
	dd if="$BF_DEV" of=/dev/null bs=1M status=none
	bf_fio_ok "large folios, $submit: write through the device" --name=wb "${v[@]}" --rw=write \
		--blkfile_via=bdev --blkfile_allow_bdev_write=1 --blkfile_submit=$submit
	bf_fio_ok "large folios, $submit: the device's writes read through the file" --name=vf "${v[@]}" \
		--rw=write --verify_only=1 --blkfile_via=file
done
echo "$ra0" >"$q"
exit 0
