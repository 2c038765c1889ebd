#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# buffered-vs-raw end to end at quick scale on a scratch loop device: the dd
# lines and the per-second samples (iostat view) exist, and the cache case shows
# the page cache at work: buffered re-reads issue fewer device reads than raw.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd jq losetup
[ -x "$FIOTAB" ] || skip "fiotab not built"

quick_run buffered-vs-raw
o=$T/out
for j in dd-buffered-bs32k dd-raw-bs64k; do
	[ -s "$o/raw/default/${j}_bw.1.log" ] || fail "no per-second bandwidth log for $j"
	[ -s "$o/raw/default/${j}_iops.1.log" ] || fail "no per-second IOPS log for $j"
done
# device reads (fio's disk_util) of the cache case: buffered hits the cache
dios() { sed -n '/^{/,$p' "$o/raw/default/$1.json" | jq '[.disk_util[]? | .read_ios] | add // 0'; }
b=$(dios cache-buffered-bs32k)
r=$(dios cache-raw-bs64k)
note "device reads: cache-buffered $b, cache-raw $r"
[ "$r" -gt 0 ] || skip "fio reports no disk_util for the loop device"
[ "$b" -lt "$r" ] || fail "buffered re-reads ($b device reads) did not hit the cache (raw: $r)"
assert_match "dd table" 'copied' "$(cat "$o/tables/dd.txt")"
