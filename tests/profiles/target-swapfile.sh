#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An active swap file (listed by path in /proc/swaps) as --target: a plan
# that writes it is refused; a read-only plan runs, as on a block device some
# other process holds, but warns that the kernel swaps to the file it
# measures (also through a hard link or a loop device over it).  The swap
# file is on a scratch ext4 over a loop device in $T, swapped off (and the
# loop device over it detached) however the test ends.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup mkfs.ext4 mkswap swapon swapoff

mnt=$(make_fs ext4 "$(make_loop 64)")
sw=$mnt/swapfile
dev=
trap '[ -z "$dev" ] || losetup -d "$dev"; swapoff "$sw" 2>/dev/null; swapoff "$mnt/up/sw" 2>/dev/null; _pp_teardown' EXIT
dd if=/dev/zero of="$sw" bs=1M count=16 conv=fsync status=none || fail "dd $sw"
chmod 600 "$sw"
mkswap "$sw" >/dev/null || fail "mkswap $sw"
swapon "$sw" 2>"$T/swapon.err" || skip "swapon $sw: $(cat "$T/swapon.err")"
grep -q "^$sw " /proc/swaps || fail "$sw not in /proc/swaps after swapon"

# a plan that writes it: refused before any output (the kernel may write
# the file meanwhile: its bytes are no measure of what perfpack did)
msg=$("$PERFPACK" run blockdev-perftest --target "$sw" --no-tables --variant block \
	--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m --force -o "$T/o1" 2>&1) &&
	fail "wrote (--force) to the active swap file $sw: $msg"
assert_match "writing plan refused" "refusing to write to $sw: it is in use as swap \(/proc/swaps\).*--force does not override" "$msg"
compgen -G "$T/o1*" >/dev/null && fail "output made for a refused target: $(ls -d "$T"/o1*)"

# a read-only plan: runs, and says what it measured
"$PERFPACK" run buffered-vs-raw --target "$sw" --no-tables --set SIZE=1m -o "$T/o2" >"$T/o2.out" 2>"$T/o2.err" ||
	fail "read-only plan on $sw failed: $(tail -n 5 "$T/o2.err")"
assert_match "read-only plan warned" \
	"$sw: it is in use as swap \(/proc/swaps\); the plan only reads it, but what it measures is written by the kernel's swapping meanwhile" \
	"$(cat "$T/o2.err")"
# ... also through a hard link (/proc/swaps names the file by one path)
ln "$sw" "$mnt/hardlink" || fail "ln $sw"
"$PERFPACK" run buffered-vs-raw --target "$mnt/hardlink" --no-tables --set SIZE=1m -o "$T/o3" >"$T/o3.out" 2>"$T/o3.err" ||
	fail "read-only plan on $mnt/hardlink failed: $(tail -n 5 "$T/o3.err")"
assert_match "read-only plan through a hard link warned" "$mnt/hardlink: it is in use as swap \(/proc/swaps\)" "$(cat "$T/o3.err")"
# ... and through a loop device over it (losetup attaches an active swap file)
dev=$(losetup --find --show "$sw") || fail "losetup $sw"
"$PERFPACK" run buffered-vs-raw --target "$dev" --no-tables --set SIZE=1m -o "$T/o4" >"$T/o4.out" 2>"$T/o4.err" ||
	fail "read-only plan on $dev failed: $(tail -n 5 "$T/o4.err")"
assert_match "read-only plan through a loop device warned" \
	"$dev: its blocks are those of the file $sw, which is in use as swap \(/proc/swaps\)" "$(cat "$T/o4.err")"
losetup -d "$dev" && dev=
grep -q "^$sw " /proc/swaps || fail "$sw no longer swap after the run"

# ... and through an overlay whose layer holds it (another inode): a writing
# plan is refused as on the swap file (the old runner started fio, whose
# write failed with ETXTBSY)
mkdir -p "$mnt/up" "$mnt/ovw" "$T/low" "$T/ov"
if mount -t overlay pp-test-ov -o "lowerdir=$T/low,upperdir=$mnt/up,workdir=$mnt/ovw" "$T/ov"; then
	echo "$T/ov" >>"$_pp_mounts"
	dd if=/dev/zero of="$mnt/up/sw" bs=1M count=16 conv=fsync status=none || fail "dd $mnt/up/sw"
	chmod 600 "$mnt/up/sw"
	mkswap "$mnt/up/sw" >/dev/null || fail "mkswap $mnt/up/sw"
	swapon "$mnt/up/sw" || fail "swapon $mnt/up/sw"
	msg=$("$PERFPACK" run blockdev-perftest --target "$T/ov/sw" --no-tables --variant block \
		--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m --force -o "$T/o5" 2>&1) &&
		fail "wrote (--force) through an overlay to the active swap file $mnt/up/sw: $msg"
	assert_match "writing plan through an overlay refused" \
		"refusing to write to $T/ov/sw: it is the file $mnt/up/sw in a layer of its overlay, which is in use as swap" "$msg"
	swapoff "$mnt/up/sw"
else
	note "no overlayfs here: a swap file in an overlay's layer not tested"
fi
no_leftovers
