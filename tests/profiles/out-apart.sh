#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# -o and the target never share their bytes: an -o inside a directory target
# (where the plan makes its files), a target inside -o (also through a bind
# mount), an -o on a filesystem
# stored on the target device (a read-only plan on a mounted device only
# warns about the mount) or in the target file (through a loop device) are
# refused before anything is written, naming both paths.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup mkfs.ext4

one=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)
msg_of() { "$PERFPACK" "$@" 2>&1 && echo "(exit 0)"; }
why='the run would write its output where it measures'

# a directory target and an -o in it (the old runner ran, its results
# beside perfpack.blockdev-perftest.dat)
mkdir "$T/d"
msg=$(msg_of run blockdev-perftest --target "$T/d" "${one[@]}" -o "$T/d/out")
assert_match "-o inside the --target directory" \
	"-o $T/d/out is inside the --target directory $T/d, where the plan makes its files: $why" "$msg"
[ -z "$(ls -A "$T/d")" ] || fail "a refused -o left $(ls -A "$T/d") in $T/d"

# ... through a symbolic link to a directory in it
ln -s "$T/d" "$T/dlink"
msg=$(msg_of run blockdev-perftest --target "$T/d" "${one[@]}" -o "$T/dlink/out")
assert_match "-o through a link into the --target directory" \
	"-o $T/dlink/out is inside the --target directory $T/d, where the plan makes its files: $why" "$msg"
# ... through a bind mount of it (or the filesystem mounted twice: the same
# inodes under another path)
mkdir "$T/dbind"
mount --bind "$T/d" "$T/dbind" || fail "mount --bind $T/d"
echo "$T/dbind" >>"$_pp_mounts"
msg=$(msg_of run blockdev-perftest --target "$T/d" "${one[@]}" -o "$T/dbind/out")
assert_match "-o through a bind mount of the --target directory" \
	"-o $T/dbind/out is inside the --target directory $T/d, where the plan makes its files: $why" "$msg"
[ -z "$(ls -A "$T/d")" ] || fail "a refused -o left $(ls -A "$T/d") in $T/d"
# ... and the target inside -o through it
msg=$(msg_of run blockdev-perftest --target "$T/dbind/f" "${one[@]}" -o "$T/d")
assert_match "--target inside -o through a bind mount" "-o $T/d holds the --target $T/dbind/f: $why" "$msg"
[ -z "$(ls -A "$T/d")" ] || fail "a refused -o left $(ls -A "$T/d") in $T/d"
umount "$T/dbind"
# ... through an overlay and its upper directory (the same files under
# another filesystem's path): the old runner wrote -o UPPER/out into the
# measured --target OVERLAY, and -o OVERLAY/out into the measured UPPER
mkdir -p "$T/low" "$T/ovw" "$T/ov"
if mount -t overlay pp-test-ov -o "lowerdir=$T/low,upperdir=$T/d,workdir=$T/ovw" "$T/ov"; then
	echo "$T/ov" >>"$_pp_mounts"
	msg=$(msg_of run blockdev-perftest --target "$T/ov" "${one[@]}" -o "$T/d/out")
	assert_match "-o in the upper directory of the --target overlay" \
		"-o $T/d/out is inside the --target directory $T/ov, where the plan makes its files: $why" "$msg"
	msg=$(msg_of run blockdev-perftest --target "$T/d" "${one[@]}" -o "$T/ov/out")
	assert_match "-o in an overlay over the --target directory" \
		"-o $T/ov/out is inside the --target directory $T/d, where the plan makes its files: $why" "$msg"
	[ -z "$(ls -A "$T/d")" ] || fail "a refused -o left $(ls -A "$T/d") in $T/d"
	umount "$T/ov"
else
	note "no overlayfs here: -o through an overlay not tested"
fi
# ... or the default output directory (./perfpack-out/...) from within it
msg=$(cd "$T/d" && msg_of run blockdev-perftest --target . "${one[@]}")
assert_match "the default output directory inside the --target directory" \
	"the default output directory $T/d/perfpack-out/blockdev-perftest-[0-9-]* is inside the --target directory $T/d, .*: $why" "$msg"
[ -z "$(ls -A "$T/d")" ] || fail "a refused -o left $(ls -A "$T/d") in $T/d"

# ... or the runner's work directory, under a $TMPDIR in it (the old runner
# wrote its engine-check file and iteration job files in the measured
# directory)
mkdir "$T/d/tmp"
msg=$(TMPDIR=$T/d/tmp msg_of run blockdev-perftest --target "$T/d" "${one[@]}" -o "$T/wo")
assert_match "the work directory inside the --target directory" \
	"the work directory $T/d/tmp/perfpack\.[^ ]* is inside the --target directory $T/d, .*: $why.*give TMPDIR apart" "$msg"
[ -z "$(ls -A "$T/d/tmp")" ] || fail "a refused work directory left $(ls -A "$T/d/tmp") in $T/d/tmp"
[ -e "$T/wo" ] && fail "a refused work directory left $T/wo"
rmdir "$T/d/tmp"

# the target inside -o (a file not made yet: the runner would make it there)
mkdir "$T/o"
msg=$(msg_of run blockdev-perftest --target "$T/o/f" "${one[@]}" -o "$T/o")
assert_match "--target inside -o" "-o $T/o holds the --target $T/o/f: $why" "$msg"
[ -z "$(ls -A "$T/o")" ] || fail "a refused -o left $(ls -A "$T/o") in $T/o"

# -o on a filesystem on the target device, mounted: a read-only plan
dev=$(make_loop 64 img)
mnt=$(make_fs ext4 "$dev")
msg=$(msg_of run buffered-vs-raw --target "$dev" --no-tables --set SIZE=1m -o "$mnt/out")
assert_match "-o on the target device's filesystem" \
	"-o $mnt/out is on a filesystem stored on the --target device $dev \(mounted on $mnt\): $why" "$msg"
[ -e "$mnt/out" ] || compgen -G "$mnt/out.partial.*" >/dev/null && fail "a refused -o left $(ls "$mnt")"

# ... and on the same filesystem reached through the target file under the
# loop device
msg=$(msg_of run buffered-vs-raw --target "$T/img.img" --no-tables --set SIZE=1m -o "$mnt/out")
assert_match "-o on a filesystem in the target file" \
	"-o $mnt/out is on a filesystem stored in the file $T/img.img \(mounted on $mnt\), the --target: $why" "$msg"
[ -e "$mnt/out" ] || compgen -G "$mnt/out.partial.*" >/dev/null && fail "a refused -o left $(ls "$mnt")"
no_leftovers
