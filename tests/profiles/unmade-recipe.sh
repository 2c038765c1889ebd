#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A variant with a filesystem recipe (PP_SETUP=fs PP_FS=... PP_MKFS_OPTS=...
# PP_MOUNT_OPTS=...) on a directory or file target runs on the filesystem
# that is there, not the one its name and its table's name (iozone's xfs,
# ext3, ...) say: its table says so, as run and as rendered again by
# perfpack tables, naming the recipe and the filesystem used (refused when
# env/VARIANT.unmade, which says so, was removed after the run).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup mkfs.ext4
[ -x "$FIOTAB" ] || skip "fiotab not built"

paced_fio
mnt=$(make_fs ext4 "$(make_loop 128)")
mkdir "$mnt/d"
"$PERFPACK" run iozone --target "$mnt/d" --variant xfs_tuned --set SIZE=1m \
	-o "$T/o1" >"$T/o1.txt" 2>"$T/o1.err" || fail "iozone on $mnt/d failed: $(tail -n 5 "$T/o1.err")"
want="^# NOTE: variant xfs_tuned ran without its filesystem recipe \(PP_SETUP=fs PP_FS=xfs PP_MKFS_OPTS=-d agcount=75 -l size=64m PP_MOUNT_OPTS=logbufs=8,noatime,nodiratime\): on the directory $mnt/d on ext4 \(mounted on $mnt\)"
assert_match "the table says what it measured" "$want" "$(cat "$T/o1/tables/xfs_tuned.txt")"
assert_match "... as printed" "$want" "$(cat "$T/o1.txt")"
rm -rf "$T/o1/tables"
"$PERFPACK" tables "$T/o1" >"$T/again.txt" 2>&1 || fail "perfpack tables failed: $(cat "$T/again.txt")"
assert_match "... and rendered again" "$want" "$(cat "$T/o1/tables/xfs_tuned.txt")"
# ... and not without it when env/VARIANT.unmade, where the run wrote it, is gone
mv "$T/o1/env/xfs_tuned.unmade" "$T/unmade.saved"
msg=$("$PERFPACK" tables "$T/o1" 2>&1) && fail "perfpack tables with env/xfs_tuned.unmade removed: rendered: $msg"
assert_match "the removed note named" "env/xfs_tuned.unmade, which the run wrote, is gone" "$msg"
assert_match "... and the tables kept" "$want" "$(cat "$T/o1/tables/xfs_tuned.txt")"
mv "$T/unmade.saved" "$T/o1/env/xfs_tuned.unmade"

# a file target
truncate -s 0 "$mnt/f"
"$PERFPACK" run blockdev-perftest --target "$mnt/f" --variant file --set PP_SECTIONS='^perftest-[wr]-65536-' --set SIZE=1m \
	-o "$T/o2" >"$T/o2.txt" 2>"$T/o2.err" || fail "blockdev-perftest on $mnt/f failed: $(tail -n 5 "$T/o2.err")"
assert_match "file target: the table says what it measured" \
	"^# NOTE: variant file ran without its filesystem recipe \(PP_SETUP=fs PP_FS=xfs\): on the file $mnt/f on ext4" \
	"$(cat "$T/o2/tables/file.txt")"
# a variant with no recipe says nothing
"$PERFPACK" run blockdev-perftest --target "$mnt/f" --force --variant block --set PP_SECTIONS='^perftest-[wr]-65536-' --set SIZE=1m \
	-o "$T/o3" >"$T/o3.txt" 2>"$T/o3.err" || fail "blockdev-perftest block on $mnt/f failed: $(tail -n 5 "$T/o3.err")"
grep -q 'NOTE' "$T/o3/tables/block.txt" && fail "a note on a variant without a recipe: $(cat "$T/o3/tables/block.txt")"
no_leftovers
