#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A file target that is the backing file of a loop device is that device's
# blocks: a loop device mounted (or held O_EXCL by another process: mkfs,
# md/dm, swap) over it is refused as a mounted --target device is, named, and
# --force does not override it; the file is left as it was.  So is a loop
# device target over a file that another loop device, mounted, is over, a
# loop device over a mounted device, and a device or file under a loop
# device mounted over it (loop does not hold what it is over).  A loop device
# over it that no one holds is held by the run (O_EXCL), so no mount starts
# on it meanwhile, and the run goes on.  A file on an overlay is also its
# layers' file (another inode): a loop device over that is over it too.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup mkfs.ext4 python3

one=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)

# a filesystem on a loop device over the file, mounted: with --force too
dev=$(make_loop 64 img)
mnt=$(make_fs ext4 "$dev" -E lazy_itable_init=0,lazy_journal_init=0)
echo data >"$mnt/kept"
sync
before=$(md5sum <"$T/img.img")
msg=$("$PERFPACK" run blockdev-perftest --target "$T/img.img" "${one[@]}" --force -o "$T/o1" 2>&1) &&
	fail "wrote (--force) to $T/img.img, the backing file of $dev mounted on $mnt: $msg"
assert_match "mounted loop device named" "refusing to write to $T/img.img: .*loop device $dev, .*mounted \(on $mnt\).*--force does not override" "$msg"
assert_eq "the mounted filesystem's image unchanged" "$before" "$(md5sum <"$T/img.img")"
compgen -G "$T/o1*" >/dev/null && fail "output made for a refused target: $(ls -d "$T"/o1*)"
# ... nor through a second loop device over that file
dev2=$(losetup --find --show "$T/img.img") || fail "losetup $T/img.img"
echo "$dev2" >>"$_pp_loops"
msg=$("$PERFPACK" run blockdev-perftest --target "$dev2" "${one[@]}" --force -o "$T/o1b" 2>&1) &&
	fail "wrote (--force) to $dev2, a loop device over the file of $dev mounted on $mnt: $msg"
assert_match "the other loop device named" "refusing to write to $dev2: its blocks are those of the file $T/img.img, as are those of the loop device $dev, .*mounted \(on $mnt\).*--force does not override" "$msg"
assert_eq "the mounted filesystem's image unchanged (second loop)" "$before" "$(md5sum <"$T/img.img")"
losetup -d "$dev2"
# ... nor through a loop device over that loop device (loop does not hold
# the device under it: O_EXCL on the loop device over it succeeds)
up=$(losetup --find --show "$dev") || fail "losetup $dev"
echo "$up" >>"$_pp_loops"
msg=$("$PERFPACK" run blockdev-perftest --target "$up" "${one[@]}" --force -o "$T/o1c" 2>&1) &&
	fail "wrote (--force) to $up, a loop device over $dev mounted on $mnt: $msg"
assert_match "the device under it named" "refusing to write to $up: it is a loop device over the device $dev, .*mounted \(on $mnt\).*--force does not override" "$msg"
assert_eq "the mounted filesystem's image unchanged (loop over it)" "$before" "$(md5sum <"$T/img.img")"
umount "$mnt"
wait_released "$dev"
# the filesystem on the loop device over it mounted: the device under it,
# and the file under that, are its blocks
mkdir -p "$T/mnt-up"
mount -t ext4 "$up" "$T/mnt-up" || fail "mount $up"
echo "$T/mnt-up" >>"$_pp_mounts"
before=$(md5sum <"$T/img.img")
for t in "$dev" "$T/img.img"; do
	msg=$("$PERFPACK" run blockdev-perftest --target "$t" "${one[@]}" --force -o "$T/o1d" 2>&1) &&
		fail "wrote (--force) to $t, under the loop device $up mounted on $T/mnt-up: $msg"
	assert_match "the loop device over $t named" "refusing to write to $t: .*the loop device $up\b.*mounted \(on $T/mnt-up\).*--force does not override" "$msg"
	assert_eq "the mounted filesystem's image unchanged ($t under it)" "$before" "$(md5sum <"$T/img.img")"
done
compgen -G "$T/o1[cd]*" >/dev/null && fail "output made for a refused target: $(ls -d "$T"/o1[cd]*)"
umount "$T/mnt-up"
wait_released "$up"
losetup -d "$up"
before=$(md5sum <"$T/img.img")

# the same loop device held O_EXCL by another process (as mkfs holds it)
python3 -c "import os, time; fd = os.open('$dev', os.O_RDONLY | os.O_EXCL); print('held', flush=True); time.sleep(120)" \
	>"$T/holder.out" &
holder=$!
trap 'kill $holder 2>/dev/null; wait $holder 2>/dev/null; _pp_teardown' EXIT
for _ in $(seq 50); do [ -s "$T/holder.out" ] && break; sleep 0.1; done
[ -s "$T/holder.out" ] || fail "the O_EXCL holder did not start"
msg=$("$PERFPACK" run blockdev-perftest --target "$T/img.img" "${one[@]}" --force -o "$T/o2" 2>&1) &&
	fail "wrote (--force) to $T/img.img, the backing file of $dev held O_EXCL: $msg"
assert_match "held loop device named" "refusing to write to $T/img.img: .*loop device $dev, .*python3" "$msg"
assert_eq "the held device's image unchanged" "$before" "$(md5sum <"$T/img.img")"
kill $holder
wait $holder 2>/dev/null

# a loop device over the file that no one holds: the run holds it too
# (a mount of its filesystem tried as fio starts fails), and goes on
cat >"$T/mount-fio" <<EOS
#!/bin/bash
case " \$* " in *" --output="*) mkdir -p "$T/m2"; mount -t ext4 "$dev" "$T/m2" 2>"$T/mount.err" && : >"$T/mounted" ;; esac
exec "$FIO" "\$@"
EOS
chmod +x "$T/mount-fio"
FIO=$T/mount-fio "$PERFPACK" run blockdev-perftest --target "$T/img.img" "${one[@]}" --force -o "$T/o3" >"$T/o3.log" 2>&1 ||
	fail "a run on the backing file of a loop device no one holds failed: $(tail -n 5 "$T/o3.log")"
[ -e "$T/mounted" ] && { umount "$T/m2"; fail "$dev was mounted while the run wrote its backing file"; }
[ -s "$T/mount.err" ] || fail "the fio wrapper did not try the mount"

# the file through an overlay is its layer's file, which has another inode:
# a loop device over UPPER/f, mounted, is over OVERLAY/f too (the old runner
# wrote --target OVERLAY/f --force into the mounted filesystem's image)
mkdir -p "$T/up" "$T/low" "$T/ovw" "$T/ov"
if mount -t overlay pp-test-ov -o "lowerdir=$T/low,upperdir=$T/up,workdir=$T/ovw" "$T/ov"; then
	echo "$T/ov" >>"$_pp_mounts"
	truncate -s 32M "$T/up/f.img"
	odev=$(losetup --find --show "$T/up/f.img") || fail "losetup $T/up/f.img"
	echo "$odev" >>"$_pp_loops"
	omnt=$(make_fs ext4 "$odev" -E lazy_itable_init=0,lazy_journal_init=0)
	echo data >"$omnt/kept"
	sync
	before=$(md5sum <"$T/up/f.img")
	msg=$("$PERFPACK" run blockdev-perftest --target "$T/ov/f.img" "${one[@]}" --force -o "$T/o4" 2>&1) &&
		fail "wrote (--force) to $T/ov/f.img, through the overlay the backing file of $odev mounted on $omnt: $msg"
	assert_match "the loop device over the layer's file named" \
		"refusing to write to $T/ov/f.img: it is the backing file of the loop device $odev \(as $T/up/f.img, in a layer of its overlay\), .*mounted \(on $omnt\).*--force does not override" "$msg"
	assert_eq "the mounted filesystem's image unchanged (overlay)" "$before" "$(md5sum <"$T/up/f.img")"
	# ... and a loop device over OVERLAY/f is over UPPER/f
	ovdev=$(losetup --find --show "$T/ov/f.img") || fail "losetup $T/ov/f.img"
	echo "$ovdev" >>"$_pp_loops"
	msg=$("$PERFPACK" run blockdev-perftest --target "$ovdev" "${one[@]}" --force -o "$T/o5" 2>&1) &&
		fail "wrote (--force) to $ovdev, a loop device over $T/ov/f.img, through the overlay the backing file of $odev mounted on $omnt: $msg"
	assert_match "the loop device over the layer's file named (loop target)" \
		"refusing to write to $ovdev: its blocks are those of the file $T/up/f.img, as are those of the loop device $odev, .*mounted \(on $omnt\).*--force does not override" "$msg"
	assert_eq "the mounted filesystem's image unchanged (loop over the overlay)" "$before" "$(md5sum <"$T/up/f.img")"
	losetup -d "$ovdev"
	umount "$omnt" && losetup -d "$odev"
else
	note "no overlayfs here: a loop over a layer's file not tested"
fi
# a loop device over the file under another name, since unlinked (a hard
# link): sysfs names its backing file '.../hl-a.img (deleted)', which no
# path opens, so the loop device is known by the inode it is over (the old
# runner wrote --target hl-b.img --force into the mounted filesystem's image)
hdev=$(make_loop 32 hl-a)
hmnt=$(make_fs ext4 "$hdev" -E lazy_itable_init=0,lazy_journal_init=0)
echo data >"$hmnt/kept"
sync
ln "$T/hl-a.img" "$T/hl-b.img" && rm "$T/hl-a.img" || fail "ln/rm $T/hl-a.img"
before=$(md5sum <"$T/hl-b.img")
msg=$("$PERFPACK" run blockdev-perftest --target "$T/hl-b.img" "${one[@]}" --force -o "$T/o6" 2>&1) &&
	fail "wrote (--force) to $T/hl-b.img, a hard link to the backing file of $hdev mounted on $hmnt (its first name unlinked): $msg"
assert_match "the loop device over the other name named" \
	"refusing to write to $T/hl-b.img: it is the backing file of the loop device $hdev, .*mounted \(on $hmnt\).*--force does not override" "$msg"
assert_eq "the mounted filesystem's image unchanged (hard link)" "$before" "$(md5sum <"$T/hl-b.img")"
compgen -G "$T/o6*" >/dev/null && fail "output made for a refused target: $(ls -d "$T"/o6*)"
umount "$hmnt" && losetup -d "$hdev"
no_leftovers
