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
# bytes the device really read in the cache case, from the kernel's counters
# the runner keeps (/sys/class/block/X/stat, field 3: sectors read): buffered
# re-reads come from the page cache, raw ones from the device every time
dbytes() {
	awk '$1 == "before" { b = $5 } $1 == "after" { a = $5 } END { print (a - b) * 512 }' \
		"$o/raw/default/$1.diskstat"
}
b=$(dbytes cache-buffered-bs32k)
r=$(dbytes cache-raw-bs64k)
cs=$(numfmt --from=iec "$(sed -n 's/^CACHE_SIZE=//p' "$o/env/default.env" | tr a-z A-Z)")
loops=$(sed -n 's/^CACHE_LOOPS=//p' "$o/env/default.env")
note "device bytes read: cache-buffered $b, cache-raw $r ($loops passes of $cs)"
assert_eq "raw: every pass reads the device" $((cs * loops)) "$r"
# buffered: one cold pass plus readahead beyond it, however many passes
[ $((b * 4)) -lt "$r" ] || fail "buffered re-reads read $b bytes from the device (raw: $r): no cache hits"
assert_match "dd table" 'copied' "$(cat "$o/tables/dd.txt")"
# the tables again from the kept raw JSON
cp "$o/tables/dd.txt" "$T/dd.first"
rm -rf "$o/tables"
"$PERFPACK" tables "$o" >"$T/again.txt" 2>&1 || fail "perfpack tables failed: $(cat "$T/again.txt")"
cmp -s "$T/dd.first" "$o/tables/dd.txt" || fail "perfpack tables rendered a different dd table"
