#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the runner makes in a place the user named it makes exclusively, and
# removes only that; it holds its target for the whole run; it does not fill
# the filesystem under a file or directory target (a hostile probe's F1, F3,
# F9):
#  - --target DIR: an existing DIR/perfpack.<profile>.dat (a file, or a
#    symbolic link to one elsewhere) is refused, left as it was; a run there
#    makes and removes its own file only (also PP_SETUP=fs, which dd's it);
#    a job with unlink=1 on an existing file target is refused (fio would
#    delete the user's file); a file target that does not exist is made;
#  - a block device held open O_EXCL by another process (mkfs, mount, md, a
#    perfpack run) is refused, naming it; so is a second perfpack run on the
#    device another one is using; a file another perfpack run holds (flock)
#    too; the runner's own mkfs + mount of the target still work;
#  - a file or directory target whose growth the filesystem has no room for,
#    and a scratch file larger than $TMPDIR's free space: refused, naming
#    the numbers, nothing written.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup flock python3 mkfs.ext4

one=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)
name=perfpack.blockdev-perftest.dat
PIDS=()
cleanup_pids() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	PIDS=()
}
trap 'cleanup_pids; _pp_teardown' EXIT

# --- F1: the directory target's file ------------------------------------
mkdir "$T/d"
head -c 3000000 /dev/urandom >"$T/d/$name"
before=$(md5sum <"$T/d/$name")
msg=$("$PERFPACK" run blockdev-perftest --target "$T/d" "${one[@]}" -o "$T/o1" 2>&1) &&
	fail "ran over an existing $T/d/$name: $msg"
assert_match "existing file named" "$T/d/$name: .*exists.*remove it.*--target" "$msg"
[ -f "$T/d/$name" ] || fail "the user's $T/d/$name was removed"
assert_eq "the user's file unchanged" "$before" "$(md5sum <"$T/d/$name")"

# the same with PP_SETUP=fs (the runner dd's the file there)
msg=$("$PERFPACK" run blockdev-perftest --target "$T/d" --no-tables --variant file \
	--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m --set PP_FILE_MB=2 -o "$T/o1f" 2>&1) &&
	fail "PP_SETUP=fs ran over an existing $T/d/$name: $msg"
assert_match "existing file named (fs)" "$T/d/$name: .*exists" "$msg"
assert_eq "the user's file unchanged (fs)" "$before" "$(md5sum <"$T/d/$name")"

# a symbolic link there, to a file never named
mkdir "$T/d2"
head -c 3000000 /dev/urandom >"$T/victim"
vsum=$(md5sum <"$T/victim")
ln -s "$T/victim" "$T/d2/$name"
msg=$("$PERFPACK" run blockdev-perftest --target "$T/d2" "${one[@]}" -o "$T/o2" 2>&1) &&
	fail "wrote through a symbolic link $T/d2/$name: $msg"
assert_match "symbolic link named" "$T/d2/$name: .*exists" "$msg"
[ -L "$T/d2/$name" ] || fail "the user's symbolic link $T/d2/$name was removed"
assert_eq "the link's target unchanged" "$vsum" "$(md5sum <"$T/victim")"

# a directory target with nothing there: the run makes its file and removes it
mkdir "$T/d3"
"$PERFPACK" run blockdev-perftest --target "$T/d3" "${one[@]}" -o "$T/o3" >"$T/o3.log" 2>&1 ||
	fail "a run on an empty directory failed: $(tail -n 5 "$T/o3.log")"
assert_eq "the directory is empty again" "" "$(ls -A "$T/d3")"

# a file target that does not exist yet: the runner makes it (and leaves it, as fio did)
"$PERFPACK" run blockdev-perftest --target "$T/d3/new" "${one[@]}" -o "$T/o3n" >"$T/o3n.log" 2>&1 ||
	fail "a run on a new file failed: $(tail -n 5 "$T/o3n.log")"
[ -f "$T/d3/new" ] && [ ! -L "$T/d3/new" ] || fail "the new target file is not there"
rm -f "$T/d3/new"
# ... but not for a run refused after it was made (same_sectors writes
# through the device under $T's filesystem: refused without --force)
if [ -f "$ENGDIR/fio-blkfile.so" ]; then
	msg=$("$PERFPACK" run blockdev-perftest --target "$T/d3/new" --no-tables --variant same_sectors \
		--set PP_SECTIONS='^perftest-(bdev|file)-w-65536-1$' -o "$T/o3s" 2>&1) &&
		fail "same_sectors on a new file was not refused: $msg"
	assert_match "same_sectors refused" "variant same_sectors writes through the block device" "$msg"
	[ -e "$T/d3/new" ] && fail "a refused run left the file it made: $(ls -l "$T/d3/new")"
else
	note "no blkfile engine: a refused run's new file target not exercised"
fi

# a job with unlink=1 (iozone's random writes) on a file of the user's: fio
# would delete it afterwards
truncate -s 32M "$T/iozf"
msg=$("$PERFPACK" run iozone --target "$T/iozf" --no-tables --variant ext4_wb --set PP_SECTIONS='^iozone-randwrite' \
	-o "$T/o3i" 2>&1) && fail "ran a job with unlink=1 on the user's file $T/iozf: $msg"
assert_match "unlink=1 named" "refusing to use $T/iozf: job \[iozone-randwrite-.*unlink=1" "$msg"
[ -f "$T/iozf" ] || fail "the user's file $T/iozf was deleted"

# --- F3: exclusive claim --------------------------------------------------
make_loop 64 >"$T/dev"
dev=$(cat "$T/dev")
python3 -c "import os, sys, time; fd = os.open('$dev', os.O_RDONLY | os.O_EXCL); print('held', flush=True); time.sleep(120)" \
	>"$T/holder.out" &
PIDS+=($!)
for _ in $(seq 50); do [ -s "$T/holder.out" ] && break; sleep 0.1; done
[ -s "$T/holder.out" ] || fail "the O_EXCL holder did not start"
before=$(md5sum <"$dev")
msg=$("$PERFPACK" run blockdev-perftest --target "$dev" "${one[@]}" -o "$T/o4" 2>&1) &&
	fail "wrote to $dev held O_EXCL by another process: $msg"
assert_match "O_EXCL holder refused" "refusing to write to $dev: .*in use by another process.*python3" "$msg"
assert_eq "held device unchanged" "$before" "$(md5sum <"$dev")"
[ -d "$T/o4/raw" ] && fail "output written although the device is held"
cleanup_pids

# two perfpack runs on one device: the second is refused while the first runs
"$PERFPACK" run blockdev-perftest --target "$dev" --no-tables --variant block --set SIZE=16m \
	--set PP_SECTIONS='^perftest-(r|w)-' -o "$T/o5" >"$T/o5.log" 2>&1 &
first=$!
PIDS+=($first)
for _ in $(seq 200); do compgen -G "$T/o5.partial.*/env/block.env" >/dev/null && break; sleep 0.05; done
kill -0 "$first" 2>/dev/null || fail "the first run ended too soon to test a second: $(tail -n 3 "$T/o5.log")"
msg=$("$PERFPACK" run blockdev-perftest --target "$dev" "${one[@]}" --force -o "$T/o6" 2>&1) &&
	fail "a second perfpack run on $dev ran alongside the first: $msg"
assert_match "second run refused" "$dev: .*in use by another process" "$msg"
wait "$first" || fail "the first run failed: $(tail -n 5 "$T/o5.log")"
PIDS=()

# the runner's own mkfs + mount of its target still work under the claim
dd if=/dev/zero of="$dev" bs=1M count=64 conv=fsync status=none
# (an ext4 recipe: xfs wants a larger device)
"$PERFPACK" run bonnie-direct-vs-raw --target "$dev" --no-tables --variant file_direct \
	--set PP_SECTIONS='^bonnie-write$' --set SIZE=1m --set PP_FILE_MB=2 -o "$T/o7" >"$T/o7.log" 2>&1 ||
	fail "PP_SETUP=fs on a claimed device failed: $(tail -n 5 "$T/o7.log")"

# a file another perfpack run holds (flock)
truncate -s 8M "$T/tf"
flock -x "$T/tf" sleep 120 &
PIDS+=($!)
sleep 0.3
msg=$("$PERFPACK" run blockdev-perftest --target "$T/tf" "${one[@]}" -o "$T/o8" 2>&1) &&
	fail "wrote to $T/tf locked by another process: $msg"
assert_match "locked file refused" "$T/tf: .*locked by another process" "$msg"
cleanup_pids

# --- F9: free space under a file or directory target ---------------------
mkdir "$T/fs"
mount -t tmpfs -o size=64m pp-test-fs "$T/fs" || fail "mount tmpfs"
echo "$T/fs" >>"$_pp_mounts"
truncate -s 8M "$T/fs/g"
msg=$("$PERFPACK" run blockdev-perftest --target "$T/fs/g" --no-tables --variant block --set SIZE=128m \
	--set PP_SECTIONS='^perftest-w-1048576-1$' --set PP_MINBS=1m --set PP_MAXBS=1m -o "$T/o9" 2>&1) &&
	fail "ran a 128 MiB plan on a file on a 64 MiB filesystem: $msg"
assert_match "no room named" "$T/fs/g: .*would take up to [0-9]+ bytes.*only [0-9]+ bytes \([0-9]+ MiB\) free" "$msg"
assert_eq "the file not grown" 8388608 "$(stat -c %s "$T/fs/g")"
mkdir "$T/fs/dd"
msg=$("$PERFPACK" run blockdev-perftest --target "$T/fs/dd" --no-tables --variant block --set SIZE=128m \
	--set PP_SECTIONS='^perftest-w-1048576-1$' --set PP_MINBS=1m --set PP_MAXBS=1m -o "$T/o10" 2>&1) &&
	fail "ran a 128 MiB plan in a directory on a 64 MiB filesystem: $msg"
assert_match "no room named (directory)" "$T/fs/dd.*take up to [0-9]+ bytes.*only [0-9]+ bytes \([0-9]+ MiB\) free" "$msg"
assert_eq "nothing left in the directory" "" "$(ls -A "$T/fs/dd")"
mkdir -m 1777 "$T/fs/tmp"
msg=$(TMPDIR=$T/fs/tmp "$PERFPACK" run blockdev-perftest --scratch --no-tables --variant block --set SIZE=128m \
	--set PP_SECTIONS='^perftest-w-1048576-1$' --set PP_MINBS=1m --set PP_MAXBS=1m --set PP_SCRATCH_MB=256 \
	-o "$T/o11" 2>&1) && fail "wrote 128 MiB to a scratch file in a 64 MiB \$TMPDIR: $msg"
assert_match "no room for the scratch file" "scratch file in .TMPDIR.*take up to 134217728 bytes.*only [0-9]+ bytes \([0-9]+ MiB\) free.*TMPDIR" "$msg"
# a sparse scratch file larger than the free space, of which the plan writes little: runs
TMPDIR=$T/fs/tmp "$PERFPACK" run blockdev-perftest --scratch "${one[@]}" --set PP_SCRATCH_MB=256 -o "$T/o12" \
	>"$T/o12.log" 2>&1 || fail "a small plan on a large sparse scratch file refused: $(tail -n 3 "$T/o12.log")"
[ "$(df --output=used -k "$T/fs" | tail -n 1 | tr -d ' ')" -lt 16384 ] || fail "the filesystem was filled: $(df -k "$T/fs")"


# --- direct=1 on memory: a target on tmpfs, or a loop device over a file
# there (or over such a loop device), measures memory copies: refused, named, unless --memory-ok; a scratch
# file there is warned about; buffered runs go on
d1=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)
for t in "$T/fs/new" "$T/fs/dd"; do
	msg=$("$PERFPACK" run blockdev-perftest --target "$t" "${d1[@]}" -o "$T/o13" 2>&1) &&
		fail "direct=1 on $t (tmpfs) was not refused: $msg"
	assert_match "tmpfs named ($t)" "refusing --target $t: it is on tmpfs \(mounted on $T/fs\).*job \[perftest-w-65536-1\].*--memory-ok" "$msg"
done
[ -e "$T/fs/new" ] && fail "a refused run left the file it made: $(ls -l "$T/fs/new")"
assert_eq "nothing left in the directory (memory)" "" "$(ls -A "$T/fs/dd")"
truncate -s 16M "$T/fs/loop.img"
mdev=$(losetup --find --show "$T/fs/loop.img") || fail "losetup over tmpfs"
echo "$mdev" >>"$_pp_loops"
msg=$("$PERFPACK" run blockdev-perftest --target "$mdev" "${d1[@]}" -o "$T/o13" 2>&1) &&
	fail "direct=1 on $mdev (a loop over tmpfs) was not refused: $msg"
assert_match "loop over tmpfs named" "refusing --target $mdev: it is a loop device over $T/fs/loop.img, on tmpfs" "$msg"
[ -e "$T/o13" ] || compgen -G "$T/o13.partial.*" >/dev/null && fail "output made for a refused memory target"
"$PERFPACK" run blockdev-perftest --target "$mdev" "${d1[@]}" --set DIRECT=0 -o "$T/o14" >"$T/o14.log" 2>&1 ||
	fail "a buffered run on a loop over tmpfs was refused: $(tail -n 3 "$T/o14.log")"
"$PERFPACK" run blockdev-perftest --target "$mdev" "${d1[@]}" --force --memory-ok -o "$T/o15" >"$T/o15.log" 2>&1 ||
	fail "--memory-ok was refused: $(tail -n 3 "$T/o15.log")"
assert_match "--memory-ok warns" "$mdev: it is a loop device over .*measuring memory as asked \(--memory-ok\)" "$(cat "$T/o15.log")"
# a loop device over that loop device is memory too, and one over a loop
# device over a file on a disk is not (its backing device node is on
# devtmpfs, which says nothing of where its blocks are)
mup=$(losetup --find --show "$mdev") || fail "losetup over $mdev"
echo "$mup" >>"$_pp_loops"
msg=$("$PERFPACK" run blockdev-perftest --target "$mup" "${d1[@]}" -o "$T/o13" 2>&1) &&
	fail "direct=1 on $mup (a loop over a loop over tmpfs) was not refused: $msg"
assert_match "loop over a loop over tmpfs named" "refusing --target $mup: it is a loop device over $mdev, which is a loop device over $T/fs/loop.img, on tmpfs" "$msg"
losetup -d "$mup"
ddev=$(make_loop 16 ondisk)
dup=$(losetup --find --show "$ddev") || fail "losetup over $ddev"
echo "$dup" >>"$_pp_loops"
"$PERFPACK" run blockdev-perftest --target "$dup" "${d1[@]}" -o "$T/o13b" >"$T/o13b.log" 2>&1 ||
	fail "direct=1 on $dup, a loop device over $ddev over a file on $(findmnt -n -o FSTYPE -T "$T"), was refused: $(tail -n 3 "$T/o13b.log")"
losetup -d "$dup"
losetup -d "$mdev"
msg=$(TMPDIR=$T/fs/tmp "$PERFPACK" run blockdev-perftest --scratch "${d1[@]}" --set PP_SCRATCH_MB=32 -o "$T/o16" 2>&1) ||
	fail "a scratch run in a tmpfs \$TMPDIR failed: $msg"
assert_match "scratch on tmpfs warned" "scratch target of block is a file in .TMPDIR .*which is on tmpfs.*measures memory" "$msg"
# an overlay's files are its layers': one whose upper directory is on tmpfs
# is memory (the old runner measured 1600 MB/s of direct=1 there as a
# device's), one with its layers on a disk's filesystem is not
mkdir -p "$T/fs/up" "$T/fs/work" "$T/low" "$T/ov" "$T/dup" "$T/dwork" "$T/ov2"
if mount -t overlay pp-test-ov -o "lowerdir=$T/low,upperdir=$T/fs/up,workdir=$T/fs/work" "$T/ov"; then
	echo "$T/ov" >>"$_pp_mounts"
	msg=$("$PERFPACK" run blockdev-perftest --target "$T/ov/f" "${d1[@]}" -o "$T/o17" 2>&1) &&
		fail "direct=1 on $T/ov/f (an overlay over tmpfs) was not refused: $msg"
	assert_match "overlay over tmpfs named" "refusing --target $T/ov/f: it is on overlay \(mounted on $T/ov\), whose upperdir $T/fs/up is on tmpfs \(mounted on $T/fs\)" "$msg"
	mount -t overlay pp-test-ov2 -o "lowerdir=$T/low,upperdir=$T/dup,workdir=$T/dwork" "$T/ov2" || fail "mount overlay"
	echo "$T/ov2" >>"$_pp_mounts"
	"$PERFPACK" run blockdev-perftest --target "$T/ov2/f" "${d1[@]}" -o "$T/o18" >"$T/o18.log" 2>&1 ||
		fail "direct=1 on an overlay over $(findmnt -n -o FSTYPE -T "$T") was refused: $(tail -n 3 "$T/o18.log")"
else
	note "no overlayfs here: its memory check not tested"
fi
# ... and so is a filesystem on a device that is memory: ext4 on a loop device
# over a file on tmpfs (the old runner measured 1143 MB/s of direct=1 there)
truncate -s 32M "$T/fs/e.img"
edev=$(losetup --find --show "$T/fs/e.img") || fail "losetup over tmpfs"
echo "$edev" >>"$_pp_loops"
emnt=$(make_fs ext4 "$edev")
msg=$("$PERFPACK" run blockdev-perftest --target "$emnt/f" "${d1[@]}" -o "$T/o19" 2>&1) &&
	fail "direct=1 on $emnt/f (ext4 on a loop over tmpfs) was not refused: $msg"
assert_match "ext4 on a loop over tmpfs named" "refusing --target $emnt/f: it is on $edev \(mounted on $emnt\), which is a loop device over $T/fs/e.img, on tmpfs" "$msg"
truncate -s 16M "$emnt/g"
gdev=$(losetup --find --show "$emnt/g") || fail "losetup over $emnt/g"
echo "$gdev" >>"$_pp_loops"
msg=$("$PERFPACK" run blockdev-perftest --target "$gdev" "${d1[@]}" -o "$T/o19" 2>&1) &&
	fail "direct=1 on $gdev (a loop over a file on ext4 on a loop over tmpfs) was not refused: $msg"
assert_match "a loop over a file there named" "refusing --target $gdev: it is a loop device over $emnt/g, which is on $edev \(mounted on $emnt\), which is a loop device over $T/fs/e.img, on tmpfs" "$msg"
losetup -d "$gdev" && umount "$emnt" && losetup -d "$edev"

no_leftovers
