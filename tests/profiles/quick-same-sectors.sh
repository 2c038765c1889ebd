#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blockdev-perftest's same-sectors variant (blkfile engine) end to end on a
# scratch XFS file, two block sizes: the engine check passes, every job ran
# through the path its name says, and perftest shows a table per path plus
# the file/block ratio.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd jq losetup mkfs.xfs
[ -x "$FIOTAB" ] || skip "fiotab not built"
[ -f "$ENGDIR/fio-blkfile.so" ] || skip "blkfile engine not built"

quick_run blockdev-perftest --variant same_sectors --set PP_SECTIONS='-(1048576|4096)-'
o=$T/out
for f in "$o"/raw/same_sectors/perftest-*.json; do
	n=$(basename "$f" .json)
	via=$(sed -n '/^{/,$p' "$f" | jq -r '.jobs[0]."job options".blkfile_via')
	assert_eq "$n runs through" "$(echo "$n" | cut -d- -f2)" "$via"
done
tab=$(cat "$o/tables/same_sectors.txt")
assert_match "a table through the device" '# series bdev' "$tab"
assert_match "a table through the file" '# series file' "$tab"
[ -s "$o/tables/ratio_same_sectors.txt" ] || fail "no same-sectors ratio table"
