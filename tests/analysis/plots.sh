#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The three plots of the README from real fio runs (a sweep, a time series,
# a histogram; analysis/examples/make-examples.sh on /dev/shm), rendered to
# PNG by rsvg-convert, and what a reader needs in them: legends naming the
# engine / job (not scratch paths), a subtitle with host, fio version, date
# and device, and the latency panel beside MB/s and IOPS.
source "$TOP/tests/lib.sh"
need_cmd rsvg-convert
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"

FIO=$FIO FIOTAB=$FIOTAB "$TOP/analysis/examples/make-examples.sh" "$T/ex" > "$T/log" 2>&1 ||
	fail "make-examples: $(tail -5 "$T/log")"
for n in sweep series hist; do
	[ -s "$T/ex/$n.png" ] || fail "$n.png not rendered"
	# PNG signature and an 800 px wide IHDR
	assert_eq "$n.png signature" "89504e470d0a1a0a" "$(head -c 8 "$T/ex/$n.png" | od -An -tx1 | tr -d ' \n')"
	assert_eq "$n.png width" 800 "$(od -An -tu4 --endian=big -j16 -N4 "$T/ex/$n.png" | tr -d ' ')"
done
# legends: the text of the legend entries, without the hover titles
legend() {
	sed 's|<title>[^<]*</title>||g' "$1" | grep -o '<text x="[0-9]*" y="[0-9]*" font-size="11">[^<]*</text>' |
		sed 's/<[^>]*>//g'
}
leg=$(legend "$T/ex/sweep.svg")
for l in "psync write" "psync read" "mmap write" "mmap read"; do
	echo "$leg" | grep -qx "$l" || fail "sweep legend '$l' missing: $(echo "$leg" | head -6)"
done
echo "$leg" | grep -q 'shm\|fiotab-examples\|…' && fail "scratch path in the sweep legend: $leg"
sub=$(grep -o '<text x="[0-9]*" y="42"[^>]*>[^<]*' "$T/ex/sweep.svg" | sed 's/.*>//')
assert_match "subtitle host" "host $(hostname)" "$sub"
assert_match "subtitle fio" "$("$FIO" --version)" "$sub"
assert_match "subtitle date" '20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9] UTC' "$sub"
assert_match "subtitle device" 'tmpfs' "$sub"
grep -q 'clat (µs, log scale)' "$T/ex/sweep.svg" || fail "no latency panel"
assert_eq "latency lines" 12 "$(grep -c 'stroke-width="1.5"' "$T/ex/sweep.svg" | awk '{ print $1 - 3 }')"
leg=$(legend "$T/ex/series.svg")
echo "$leg" | grep -qx "writer #1 write" || fail "series legend: $leg"
echo "$leg" | grep -qx "reader #2 read" || fail "series legend: $leg"
leg=$(legend "$T/ex/hist.svg")
echo "$leg" | grep -qx "randread-4k read" || fail "hist legend: $leg"
echo "$leg" | grep -qx "write-64k write" || fail "hist legend: $leg"
exit 0
