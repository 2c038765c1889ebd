#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# iozone end to end at quick scale on the thread's four filesystem recipes,
# each on its own scratch loop device; the recipes really apply (agcount, mount
# options) and the iozone tables render.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd jq losetup mkfs.xfs mkfs.ext3 mkfs.ext4
[ -x "$FIOTAB" ] || skip "fiotab not built"

quick_run iozone
o=$T/out
assert_match "xfs_tuned: 75 AGs" 'agcount=75' "$(cat "$o/env/xfs_tuned.fs")"
assert_match "xfs_tuned: logbufs=8,noatime" 'xfs .*noatime.*logbufs=8' "$(cat "$o/env/xfs_tuned.fs")"
assert_match "ext3 recipe" ' ext3 ' "$(cat "$o/env/ext3.fs")"
assert_match "ext4 data=writeback" ' ext4 .*noatime.*data=writeback' "$(cat "$o/env/ext4_wb.fs")"
for v in xfs xfs_tuned ext3 ext4_wb; do
	assert_match "iozone table $v" 'reclen' "$(cat "$o/tables/$v.txt")"
done
