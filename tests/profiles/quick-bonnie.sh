#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bonnie-direct-vs-raw end to end at quick scale: Bonnie's phases and the 6
# test cases on a file with O_DIRECT, the loop device with O_DIRECT (raw) and
# buffered; Bonnie tables and dd tables render.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd jq losetup mkfs.ext4
[ -x "$FIOTAB" ] || skip "fiotab not built"

quick_run bonnie-direct-vs-raw
o=$T/out
direct() { sed -n '/^{/,$p' "$1" | jq -r '."global options".direct'; }
assert_eq "file_direct is O_DIRECT" 1 "$(direct "$o/raw/file_direct/RandomRead.json")"
assert_eq "raw is O_DIRECT" 1 "$(direct "$o/raw/raw/RandomRead.json")"
assert_eq "bdev is buffered" 0 "$(direct "$o/raw/bdev/RandomRead.json")"
assert_match "file_direct on a filesystem" ' ext4 ' "$(cat "$o/env/file_direct.fs")"
# drawn with replacement: fewer distinct blocks than I/Os (coverage < 100 %)
ios=$(sed -n '/^{/,$p' "$o/raw/raw/RandomRead.json" | jq '.jobs[0].read.total_ios')
size=$(sed -n 's/^SIZE=//p' "$o/env/raw.env")
assert_eq "random read: SIZE/4k draws" $(($(numfmt --from=iec "${size^^}") / 4096)) "$ios"
# the 3 seekers reported as one group
assert_eq "seekers grouped" 1 "$(sed -n '/^{/,$p' "$o/raw/raw/bonnie-seeks.json" | jq '.jobs | length')"
for v in file_direct raw bdev; do
	assert_match "Bonnie table $v" 'K/sec' "$(cat "$o/tables/bonnie_$v.txt")"
done
