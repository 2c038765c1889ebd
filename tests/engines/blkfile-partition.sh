#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Discovery of the device under a file on a partition: FIEMAP offsets are
# relative to the partition, so the engine must open the partition node
# (using the whole disk would read 1 MiB off and fail the verify).  With
# and without blkfile_dev=.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd losetup

# --- a partition starting 1 MiB into its disk ---------------------------------
le32() {
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}
img=$T/parted.img
truncate -s 160M "$img"
start=2048 nsect=$(((160 << 11) - 2048))
# One MBR entry: bootable=0, CHS unused, type 0x83, LBA start, sectors.
printf "\\x00\\x00\\x02\\x00\\x83\\xff\\xff\\xff$(le32 $start)$(le32 $nsect)" |
	dd of="$img" bs=1 seek=446 conv=notrunc status=none
printf '\x55\xaa' | dd of="$img" bs=1 seek=510 conv=notrunc status=none
disk=$(losetup --find --show --partscan "$img") || fail "losetup --partscan"
echo "$disk" >>"$_pp_loops"
part=${disk}p1
for _ in $(seq 50); do
	[ -b "$part" ] && break
	sleep 0.1
done
# no MBR parser in the kernel (CONFIG_MSDOS_PARTITION off): the same
# partition by BLKPG, which needs none
if [ ! -b "$part" ]; then
	need_cmd addpart
	addpart "$disk" 1 $start $nsect || skip "no partition table parser, and addpart (BLKPG) on $disk failed"
	for _ in $(seq 50); do
		[ -b "$part" ] && break
		sleep 0.1
	done
	[ -b "$part" ] || fail "no $part after addpart"
fi

make_fs ext4 "$part" -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 >"$T/.pmnt"
mnt=$(<"$T/.pmnt")
f=$mnt/file
bf_fragment "$f" 64 16
job=(--name=p --filename="$f" --size=1m --bs=24k --rw=randwrite --verify=crc32c)
bf_fio_ok "partition: write via=file" "${job[@]}" --do_verify=0
bf_fio_ok "partition: verify via=bdev (discovered)" "${job[@]}" --verify_only=1 \
	--blkfile_via=bdev --debug=file
assert_match "partition: device used" "blkfile: $f on $part \(found from the file's st_dev" "$BF_OUT"
bf_fio_ok "partition: verify via=bdev, blkfile_dev=$part" "${job[@]}" --verify_only=1 \
	--blkfile_via=bdev --blkfile_dev="$part" --direct=1
# The whole disk at the same offsets is the wrong place: must not verify.
if bf_fio "${job[@]}" --verify_only=1 --blkfile_via=bdev --blkfile_dev="$disk" &&
	echo "$BF_OUT" | grep -q "err= 0"; then
	fail "partition: the whole disk verified at partition offsets"
fi
assert_match "partition: the whole disk as blkfile_dev= refused" \
	"blkfile: $f: blkfile_dev=$disk .* is not the device that holds the file: .*it is the whole disk of that partition" "$BF_OUT"
