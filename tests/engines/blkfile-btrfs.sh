#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Single-device btrfs: FIEMAP gives btrfs logical addresses, which the engine
# maps to device offsets through the chunk tree.  The test puts the file in
# a chunk whose logical and physical addresses differ, checks that against
# btrfs-progs' own dump of the chunk tree, and then: verify through the
# device (buffered/direct, sync/uring); device writes refused for files
# with data checksums, allowed for a nodatacow file where they land in the
# file and change nothing outside its extents; compressed extents and DUP
# data chunks refused for what they cannot be.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd btrfs mkfs.btrfs filefrag fsfreeze chattr

# chunks DEV: "LOGICAL LENGTH PHYSICAL PROFILE" of each chunk (stripe 0), from btrfs-progs.
chunks() {
	btrfs inspect-internal dump-tree -t chunk "$1" 2>/dev/null | awk '
		/CHUNK_ITEM/ { l = $(NF - 4); sub(/\)/, "", l) }
		/^[ \t]*length / { len = $2; type = $NF }
		/stripe 0 devid/ { print l, len, $NF, type }'
}

# dev_extents FILE DEV: the file's extents as device "OFFSET LENGTH", i.e.
# filefrag's btrfs addresses through btrfs-progs' chunk map.
dev_extents() {
	sync
	chunks "$2" >"$T/chunks"
	filefrag -v -b512 "$1" | awk -v map="$T/chunks" '
		BEGIN { while ((getline line < map) > 0) { split(line, c, " "); n++
			cl[n] = c[1]; cn[n] = c[2]; cp[n] = c[3] } }
		$1 ~ /^[0-9]+:$/ { split($0, f, ":"); split(f[3], p, "\\.\\.")
			a = p[1] * 512; len = (p[2] - p[1] + 1) * 512
			for (i = 1; i <= n; i++)
				if (a >= cl[i] && a < cl[i] + cn[i]) { printf "%d %d\n", cp[i] + a - cl[i], len; next }
			print "unmapped " a > "/dev/stderr"; exit 1 }'
}

job=(--size=$((3 << 20)) --bs=24k --rw=randwrite --verify=crc32c)

bf_fs btrfs 512 -d single -m dup
# Fill the first data chunk, which mkfs maps 1:1, so the test files land
# in one whose logical and physical addresses differ.
dd if=/dev/zero of="$BF_MNT/filler" bs=1M count=12 oflag=sync status=none
f=$BF_MNT/file
bf_fragment "$f" 192 16
chunks "$BF_DEV" | grep -q DATA || fail "no data chunk in: $(chunks "$BF_DEV")"
dev_extents "$f" "$BF_DEV" >"$T/ext" || fail "cannot map $f"
filefrag -v -b512 "$f" | awk '$1 ~ /^[0-9]+:$/ { split($0, f, ":"); split(f[3], p, "\\.\\."); print p[1] * 512; exit }' >"$T/laddr"
[ "$(cut -d' ' -f1 "$T/ext" | head -n 1)" != "$(<"$T/laddr")" ] ||
	fail "the file's first extent is in a 1:1 chunk: translation not exercised"
note "btrfs: $f has $(wc -l <"$T/ext") extents; first at btrfs address $(<"$T/laddr"), device byte $(head -n 1 "$T/ext" | cut -d' ' -f1)"

bf_fio_ok "btrfs write via=file" --name=v --filename="$f" "${job[@]}" --do_verify=0
for direct in 0 1; do
	for submit in sync uring; do
		bf_fio_ok "btrfs verify via=bdev direct=$direct $submit" --name=v --filename="$f" \
			"${job[@]}" --verify_only=1 --blkfile_via=bdev --direct=$direct \
			--blkfile_submit=$submit --iodepth=8
	done
done
# blkfile_dev= on a blank device is not the one BTRFS_IOC_DEV_INFO names: refused.
# (The control that the verify can fail is on the nodatacow file below.)
make_loop 512 >"$T/.blank"
if bf_fio --name=v --filename="$f" "${job[@]}" --verify_only=1 --blkfile_via=bdev \
	--blkfile_dev="$(<"$T/.blank")" && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "btrfs: verify against a blank device passed"
fi
assert_match "btrfs: blank blkfile_dev= refused" \
	"blkfile: $f: blkfile_dev=$(<"$T/.blank") .* is not the device that holds the file: .*found as btrfs device id" "$BF_OUT"

# Checksummed (default) file: device writes refused, nothing written.
bf_freeze "$BF_MNT"
d0=$(bf_sum_dev "$BF_DEV")
bf_fio --name=w --filename="$f" "${job[@]}" --do_verify=0 --blkfile_via=bdev \
	--blkfile_allow_bdev_write=1 && echo "$BF_OUT" | grep -q "err= 0" &&
	{ bf_thaw; fail "btrfs: write to a checksummed file not refused"; }
d1=$(bf_sum_dev "$BF_DEV")
bf_thaw
assert_match "btrfs csum refusal" "blkfile: $f: is a btrfs file with data checksums" "$BF_OUT"
assert_eq "btrfs csum refusal: device unchanged" "$d0" "$d1"

# nodatacow file: device writes land in it, nothing outside changes.
nc=$BF_MNT/nocow
touch "$nc" && chattr +C "$nc" || fail "chattr +C"
dd if=/dev/zero of="$nc" bs=1M count=3 conv=fsync,notrunc status=none
bf_fio_ok "btrfs nocow old data" --name=w --filename="$nc" "${job[@]}" --do_verify=0 --randseed=1
dev_extents "$nc" "$BF_DEV" >"$T/ncext" || fail "cannot map $nc"
bf_freeze "$BF_MNT"
before=$(bf_sum_outside "$BF_DEV" "$T/ncext")
bf_fio_ok "btrfs nocow device write" --name=w --filename="$nc" "${job[@]}" --do_verify=0 \
	--randseed=77 --blkfile_via=bdev --blkfile_allow_bdev_write=1 --direct=1 \
	--blkfile_submit=uring --iodepth=4
after=$(bf_sum_outside "$BF_DEV" "$T/ncext")
bf_thaw
assert_eq "btrfs nocow: device outside the file's extents" "$before" "$after"
drop_caches
bf_fio_ok "btrfs nocow: verify through the file" --name=w --filename="$nc" "${job[@]}" \
	--randseed=77 --verify_only=1
# Control: with its first extent zeroed on the device (btrfs-progs' map,
# not ours), the verify through the device must fail.
read -r off len <"$T/ncext"
dd if=/dev/zero of="$BF_DEV" bs=512 seek=$((off / 512)) count=$((len / 512)) oflag=direct \
	conv=notrunc status=none || fail "zero the first extent"
if bf_fio --name=w --filename="$nc" "${job[@]}" --randseed=77 --verify_only=1 \
	--blkfile_via=bdev --direct=1 && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "btrfs: verify over a zeroed extent passed: the check cannot fail"
fi

# Compressed extents: refused even for reads.
z=$BF_MNT/compressed
touch "$z" && chattr +c "$z" || fail "chattr +c"
dd if=/dev/zero of="$z" bs=1M count=2 conv=fsync,notrunc status=none
z0=$(bf_sum_file "$z")
bf_fio --name=r --filename="$z" --size=2m --bs=64k --rw=read --blkfile_via=bdev &&
	echo "$BF_OUT" | grep -q "err= 0" && fail "btrfs: compressed file not refused"
assert_match "btrfs compressed" "blkfile: $z: .*encoded \(compressed\)" "$BF_OUT"
assert_eq "btrfs compressed: file unchanged" "$z0" "$(bf_sum_file "$z")"

# DUP data: reading one copy is fine, writing one of two is not.
bf_fs btrfs 512 -d dup -m dup
nc=$BF_MNT/nocow
touch "$nc" && chattr +C "$nc" || fail "chattr +C"
dd if=/dev/urandom of="$nc" bs=1M count=2 conv=fsync,notrunc status=none
bf_fio_ok "btrfs DUP read" --name=r --filename="$nc" --size=2m --bs=64k --rw=read \
	--blkfile_via=bdev
bf_freeze "$BF_MNT"
d0=$(bf_sum_dev "$BF_DEV")
bf_fio --name=w --filename="$nc" --size=2m --bs=64k --rw=write --blkfile_via=bdev \
	--blkfile_allow_bdev_write=1 && echo "$BF_OUT" | grep -q "err= 0" &&
	{ bf_thaw; fail "btrfs: write to DUP data not refused"; }
d1=$(bf_sum_dev "$BF_DEV")
bf_thaw
assert_match "btrfs DUP write" "blkfile: $nc: .*DUP chunk" "$BF_OUT"
assert_eq "btrfs DUP write: device unchanged" "$d0" "$d1"
