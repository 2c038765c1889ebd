#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab ratio where the two sides did not measure the same things: a block
# size of one side only, a direction one side ran at a block size both have,
# a direction of one side only.  There is no ratio there: the table leaves
# it out and says so in a note naming each, so a missing row, cell or
# column does not read as nothing measured (the old table dropped them
# without a word).  The ratios both sides have are still printed.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

SIZE=134217728
cd "$T" || fail "cd $T"
# rows: "bs W1 W2 W3 Wavg Wstd Wiops R1 R2 R3 Ravg Rstd Riops", or "bs R1 R2 R3 ..." (reads only)
printf '4096 2.0 2.1 2.2 0 0 0 1.0 1.1 1.2 0 0 0\n65536 1.0 1.1 1.2 0 0 0 0.5 0.6 0.7 0 0 0\n' > base.txt
printf '4096 1.0 1.1 1.2 0 0 0\n65536 2.0 2.1 2.2 0 0 0 1.0 1.1 1.2 0 0 0\n8192 1.0 1.1 1.2 0 0 0 1.0 1.1 1.2 0 0 0\n' > cand.txt
printf '4096 1.0 1.1 1.2 0 0 0\n65536 0.5 0.6 0.7 0 0 0\n' > reads.txt
seed_json base.txt $SIZE /dev/base > base.json
seed_json cand.txt $SIZE /dev/cand > cand.json
seed_json reads.txt $SIZE /dev/reads > reads.json

"$FIOTAB" ratio base.json cand.json > out 2> err || fail "ratio refused: $(cat err)"
grep -qxF "# left out, measured on one side only: baseline W at bs 4096, candidate bs 8192" out ||
	fail "points and cells of one side not named: $(grep '^#' out)"
# the ratios both sides have (of mean rates: W at 65536 is 0.476 / 0.911
# = 0.52), and no W at 4096
assert_eq "the rows" "65536 0.52 0.54; 4096 - 1.00" \
	"$(awk '$1 ~ /^[0-9]+$/ { printf "%s%s %s %s", s, $1, $2, $3; s = "; " }' out)"

"$FIOTAB" ratio base.json reads.json > out 2> err || fail "ratio refused: $(cat err)"
grep -qxF "# left out, measured on one side only: baseline W" out ||
	fail "a direction of one side not named: $(grep '^#' out)"

"$FIOTAB" ratio base.json base.json > /dev/null 2>&1
"$FIOTAB" ratio cand.json cand.json > out 2> err
grep -q "one side only" out && fail "a note where both sides measured the same: $(grep '^#' out)"
exit 0
