#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A partition's blocks are its whole disk's: a partition --target of a loop
# device over a file is that file's bytes, as are those of another loop
# device over the file (at the partition's offset), mounted; refused, named,
# and --force does not override it.  The whole disk, and the file, while a
# partition of it is mounted, are refused as well (the kernel's claim of the
# partition holds the disk).  A partition beside a mounted one shares no
# block with it: the run goes on.  Partitions are made with BLKPG (addpart),
# which needs no partition table support in the kernel.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup addpart mkfs.ext4 python3

one=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)
mib=2048 # sectors

# refused TARGET WHAT REGEX: a --force run on TARGET fails naming REGEX, and
# the image is as it was
refused() {
	local before msg
	before=$(md5sum <"$T/pt.img")
	msg=$("$PERFPACK" run blockdev-perftest --target "$1" "${one[@]}" --force -o "$T/out" 2>&1) &&
		fail "wrote (--force) to $1, $2: $msg"
	assert_match "$2: named" "refusing to write to $1: $3.*--force does not override" "$msg"
	assert_eq "$2: the image unchanged" "$before" "$(md5sum <"$T/pt.img")"
	compgen -G "$T/out*" >/dev/null && fail "output made for a refused target: $(ls -d "$T"/out*)"
	return 0
}

truncate -s 96M "$T/pt.img"
disk=$(losetup --find --show --partscan "$T/pt.img") || fail "losetup --partscan $T/pt.img"
echo "$disk" >>"$_pp_loops"
# p1: 1 MiB .. 33 MiB; p2: 40 MiB .. 72 MiB
addpart "$disk" 1 $((1 * mib)) $((32 * mib)) || skip "addpart (BLKPG) on $disk failed"
addpart "$disk" 2 $((40 * mib)) $((32 * mib)) || fail "addpart $disk 2"
for _ in $(seq 50); do [ -b "${disk}p2" ] && break; sleep 0.1; done
[ -b "${disk}p1" ] && [ -b "${disk}p2" ] || fail "no ${disk}p1/p2 after addpart"

# another loop device over the file at p1's bytes, its filesystem mounted
other=$(losetup --find --show --offset $((1 << 20)) --sizelimit $((32 << 20)) "$T/pt.img") ||
	fail "losetup --offset $T/pt.img"
echo "$other" >>"$_pp_loops"
omnt=$(make_fs ext4 "$other" -E lazy_itable_init=0,lazy_journal_init=0)
echo data >"$omnt/kept"
sync
refused "${disk}p1" "a partition of $disk over the file of $other mounted on $omnt" \
	"it lies on $disk, whose blocks are those of the file $T/pt.img, as are those of the loop device $other, .*mounted \(on $omnt\)"
umount "$omnt"
wait_released "$other"
losetup -d "$other"

# p1 mounted: its disk and the disk's file are refused
pmnt=$(make_fs ext4 "${disk}p1" -E lazy_itable_init=0,lazy_journal_init=0)
echo data >"$pmnt/kept"
sync
refused "$disk" "the disk of ${disk}p1 mounted on $pmnt" "it is in use by another process"
refused "$T/pt.img" "the file under ${disk}p1 mounted on $pmnt" "it is the backing file of the loop device $disk, "

# p2, beside the mounted p1: its own blocks, the run goes on
"$PERFPACK" run blockdev-perftest --target "${disk}p2" "${one[@]}" -o "$T/ok" >"$T/ok.log" 2>&1 ||
	fail "a run on ${disk}p2, beside ${disk}p1 mounted, failed: $(tail -n 5 "$T/ok.log")"
assert_eq "p1's file kept" data "$(cat "$pmnt/kept")"
exit 0
