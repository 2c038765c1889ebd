#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab ratio of a run against its identical repeat: 20 pairs of synthetic
# runs (18 block sizes x W/R x 3 iterations, every rate drawn from the same
# distribution: 50 MB/s +- 3%, a deterministic Park-Miller generator so the
# test cannot flake) hold no real difference.  Welch's raw p flags about 5%
# of the 720 cells (the premise, and what fiotab did before Holm); after
# Holm's adjustment over each table's 36 cells at most alpha of the tables
# may carry any '*': here at most 3 of 20 (binomial(20, 0.05): P(> 3) < 2%,
# and the data are fixed).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

SIZE=134217728
# rows SEED: "bs W1 W2 W3 0 0 0 R1 R2 R3 0 0 0" with t = SIZE / rate
rows() {
	awk -v seed="$1" -v size=$SIZE '
	function u() { x = (16807 * x) % 2147483647; return x / 2147483647 }
	function z(    i, s) { s = 0; for (i = 0; i < 12; i++) s += u(); return s - 6 }
	function t() { return size / (50 * 1048576 * (1 + 0.03 * z())) }
	BEGIN {
		x = seed
		for (k = 0; k < 18; k++) {
			printf "%d %.3f %.3f %.3f 0 0 0 %.3f %.3f %.3f 0 0 0\n", 2 ^ (26 - k), t(), t(), t(), t(), t(), t()
		}
	}'
}
raw=0 flagged=0 tables=0
for pair in $(seq 1 20); do
	rows $((pair * 2)) > "$T/a.txt"
	rows $((pair * 2 + 1)) > "$T/b.txt"
	seed_json "$T/a.txt" $SIZE /dev/run > "$T/a.json"
	seed_json "$T/b.txt" $SIZE /dev/repeat > "$T/b.json"
	"$FIOTAB" ratio --format=json "$T/a.json" "$T/b.json" > "$T/r.json" || fail "ratio of pair $pair"
	n=$("$JQ" '[.tables[0].rows[] | .W_p, .R_p | select(. != null)] | length' "$T/r.json")
	assert_eq "cells tested in pair $pair" 36 "$n"
	r=$("$JQ" '[.tables[0].rows[] | .W_p, .R_p | select(. != null and . < 0.05)] | length' "$T/r.json")
	f=$("$JQ" '[.tables[0].rows[] | .W_significant, .R_significant | select(. == 1)] | length' "$T/r.json")
	raw=$((raw + r))
	flagged=$((flagged + f))
	[ "$f" -gt 0 ] && tables=$((tables + 1))
done
note "raw p < 0.05: $raw of 720 cells; marked after Holm: $flagged cells in $tables of 20 tables"
# the premise: uncorrected, noise alone is "significant" about 5% of the time
[ "$raw" -ge 15 ] && [ "$raw" -le 60 ] || fail "premise: $raw of 720 raw p < 0.05, expected ~36"
[ "$tables" -le 3 ] || fail "$tables of 20 repeat-vs-run tables carry a '*' ($flagged cells): not corrected"
# the text says what was adjusted and what '*' means
"$FIOTAB" ratio "$T/a.json" "$T/b.json" > "$T/r.txt"
grep -q "^# p: Welch's t-test (two-sided) on the per-run rates of each cell; p.adj: Holm's adjustment over the 36 cells" "$T/r.txt" ||
	fail "note: $(grep '^# p' "$T/r.txt")"
exit 0
