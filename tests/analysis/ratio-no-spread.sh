#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab ratio where neither side's runs differ at all: fio times a run in
# whole ms, so short runs are often equal by its rounding alone (a --quick
# blockdev-perftest: 9, 9 ms against 8, 8 ms).  Welch's test cannot weigh
# such a difference against noise: the cell's p is n/a and unmarked, not
# "0.000*" (the old code's p = 0 for any difference without spread).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

SIZE=1048576
# bs W1 W2 W3 Wavg Wstd Wiops R1 R2 R3 Ravg Rstd Riops (times in s)
printf '262144 0.009 0.009 0.009 0 0 0 0.009 0.009 0.009 0 0 0\n65536 0.010 0.011 0.009 0 0 0 0.009 0.009 0.009 0 0 0\n' > "$T/a.txt"
printf '262144 0.008 0.008 0.008 0 0 0 0.009 0.009 0.009 0 0 0\n65536 0.008 0.007 0.009 0 0 0 0.008 0.007 0.008 0 0 0\n' > "$T/b.txt"
seed_json "$T/a.txt" $SIZE /dev/bdev > "$T/a.json"
seed_json "$T/b.txt" $SIZE /dev/file > "$T/b.json"
"$FIOTAB" ratio --format=json "$T/a.json" "$T/b.json" > "$T/r.json" 2> "$T/err" || fail "ratio: $(cat "$T/err")"
cell() { "$JQ" -r ".tables[0].rows[] | select(.blocksize == $1) | .$2 // \"null\"" "$T/r.json"; }
# no spread on either side, different means: n/a, not significant
assert_eq "W p at 256k (9,9,9 ms against 8,8,8 ms)" null "$(cell 262144 W_p)"
assert_eq "W significance at 256k" null "$(cell 262144 W_significant)"
# no spread, equal means: p = 1
assert_eq "R p at 256k (equal runs)" 1 "$(cell 262144 R_p)"
# spread on one side only: tested as before
[ "$(cell 65536 W_p)" != null ] || fail "W p at 64k (spread on both sides) not computed"
[ "$(cell 65536 R_p)" != null ] || fail "R p at 64k (spread on one side) not computed"
# the text table says n/a where JSON has no p
"$FIOTAB" ratio "$T/a.json" "$T/b.json" > "$T/r.txt" 2> "$T/err" || fail "ratio (text): $(cat "$T/err")"
row=$(awk '$1 == 262144' "$T/r.txt")
assert_match "text row at 256k" "n/a" "$row"
case $row in *'*'*) fail "256k row marked significant: $row" ;; esac
exit 0
