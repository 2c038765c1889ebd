#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blockdev-perftest end to end at quick scale on a scratch target: the block
# variant on a loop device, the file variant on a dd-made file on XFS made on
# it; the perftest tables have a row per block size run, the ratio table and
# the plot are written.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd jq losetup mkfs.xfs
[ -x "$FIOTAB" ] || skip "fiotab not built"

quick_run blockdev-perftest
o=$T/out
assert_match "block variant on a loop device" '^TARGET=/dev/loop[0-9]+$' "$(grep ^TARGET= "$o/env/block.env")"
assert_match "file variant on XFS" ' xfs ' "$(cat "$o/env/file.fs")"
ft=$(sed -n 's/^TARGET=//p' "$o/env/file.env")
assert_eq "fio wrote the dd-made file" "$ft" \
	"$(sed -n '/^{/,$p' "$o/raw/file/perftest-w-4096-1.json" | jq -r '."global options".filename')"
for v in block file; do
	sizes=$("$PERFPACK" run blockdev-perftest --quick --list --variant $v |
		sed -n 's/.* bs=\([0-9]*\) iter.*/\1/p' | sort -un | wc -l)
	rows=$(grep -cE '^ *[0-9]+ +[0-9.]+ ' "$o/tables/$v.txt")
	assert_eq "$v: a row per block size run" "$sizes" "$rows"
	assert_match "$v: blockdev-perftest header" 'blocksize +W +W +W\(avg, +W\(std, +W +R' "$(cat "$o/tables/$v.txt")"
done
[ -s "$o/tables/ratio.txt" ] || fail "no file/block ratio table"
grep -q '</svg>' "$o/tables/plot.svg" || fail "no SVG plot"
# the run's labels reach fiotab: profile and kernel columns in the CSV, and
# the plot's subtitle names the host the run was made on
hdr=$(head -1 "$o/tables/block.csv")
assert_match "CSV labels" '(^|,)profile,kernel(,|$)' "$hdr"
assert_eq "CSV profile, kernel" "blockdev-perftest,$(uname -r)" \
	"$(awk -F, -v h="$hdr" 'NR == 2 { n = split(h, c, ","); for (i = 1; i <= n; i++) { if (c[i] == "profile") p = $i; if (c[i] == "kernel") k = $i }; print p "," k }' "$o/tables/block.csv")"
grep -q "$(uname -n) · " "$o/tables/plot.svg" || fail "plot subtitle does not name the host"
