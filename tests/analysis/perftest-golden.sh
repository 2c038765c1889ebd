#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab perftest against the tables of the threads: fio JSON built from the
# seed tables' run times (seed 000: block and file, W+R; seed 001: read only)
# must give the seed's avg/std/IOPS (within the rounding of the seed's times),
# exactly what an independent jq computation gives, in blockdev-perftest's
# exact layout.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

# blockdev-perftest's header, from its printf calls ("%9s " then "%8s ",
# the last cell of each line without its blank).
hdr() {	# hdr ITER DIRS...
	local it=$1 d i l1 l2
	shift
	l1=$(printf "%9s " blocksize)
	l2=$(printf "%9s " "(bytes)")
	for d; do
		for ((i = 0; i < it; i++)); do
			l1+=$(printf "%8s " "$d")
			l2+=$(printf "%8s " "(s)")
		done
		if [ "$d" = W ]; then
			l1+=$(printf "%8s %8s %8s " "W(avg," "W(std," W)
		else
			l1+=$(printf "%8s %8s %8s " "R(avg," "R(std" R)
		fi
		l2+=$(printf "%8s %8s %8s " "MB/s)" ",MB/s)" "(IOPS)")
	done
	printf '%s\n%s\n' "${l1% }" "${l2% }"
}

# The whole table, byte for byte: hdr, then per block size the script's
# printf "%9d " and "%8.3f " of the times (the seed's, in whole ms as fio
# reports them) and of the awk's avg/std/IOPS over r = SIZE/t.
golden() {	# golden SEEDROWS SIZE DIRS...
	local rows=$1 size=$2
	shift 2
	hdr 3 "$@"
	awk -v size="$size" '
	function half(first,    i, t, r, s, s2, n) {
		s = s2 = n = 0
		for (i = first; i < first + 3; i++) {
			t = int($i * 1000 + 0.5) / 1000
			printf "%8.3f ", t
			if (t > 0) { r = size / t; s += r; s2 += r * r; n++ }
		}
		m = s / n; v = s2 / n - m * m
		printf "%8.3f %8.3f %8.3f ", m / 1048576, (v > 0 ? sqrt(v) : 0) / 1048576, m / $1
	}
	# a half the script did not run: a time of 0 per iteration, and its
	# awk, left with no time > 0, prints 0 for avg, std and IOPS
	function zeros(    i) {
		for (i = 0; i < 3; i++)
			printf "%8.3f ", 0
		printf "%8.3f %8.3f %8.3f ", 0, 0, 0
	}
	{
		printf "%9d ", $1
		if (NF == 7)	# read only (seed 001): W zeros, then the R of the seed
			zeros()
		half(2)
		if (NF == 13)
			half(8)
		printf "\n"
	}' "$rows"
}

# near A B RELTOL ABSTOL: |A-B| <= max(RELTOL*|B|, ABSTOL)
check_close() {	# out seedrows ncols
	paste -d' ' "$1" "$2" | awk -v n="$3" '
	function abs(x) { return x < 0 ? -x : x }
	{
		for (i = 2; i <= n; i++) {
			a = $i; b = $(i + n)
			# std columns get an absolute tolerance: times are rounded to 1 ms
			tol = (i == 6 || i == 12 || (n == 7 && i == 6)) ? 0.015 : 0.001 * abs(b)
			if (abs(a - b) > tol + 1e-9) { printf "row %s col %d: %s vs seed %s\n", $1, i, a, b; bad = 1 }
		}
	}
	END { exit bad }' || fail "$1 deviates from the seed table"
}

for s in block file; do
	seed_json "$DATA/seed000-$s.txt" 134217728 "/dev/md4-$s" > "$T/$s.json"
	"$FIOTAB" perftest "$T/$s.json" > "$T/$s.out" || fail "fiotab perftest $s failed"
	# header: the script's two lines, after our "# " lines
	grep -v '^# ' "$T/$s.out" | head -2 > "$T/$s.hdr"
	hdr 3 W R > "$T/expect.hdr"
	cmp "$T/expect.hdr" "$T/$s.hdr" || fail "header differs: $(diff "$T/expect.hdr" "$T/$s.hdr")"
	grep -q '^# fio version: fio-3.33$' "$T/$s.out" || fail "no fio version line"
	# the whole table against the golden from the script's printf formats
	grep -v '^# ' "$T/$s.out" > "$T/$s.table"
	golden "$DATA/seed000-$s.txt" 134217728 W R > "$T/$s.golden"
	cmp "$T/$s.golden" "$T/$s.table" || fail "$s table differs from the golden: $(diff "$T/$s.golden" "$T/$s.table" | head -5)"
	# rows: "%9d " then 12 x "%8.3f ", bs descending, 18 of them
	rows=$(grep -v '^# ' "$T/$s.out" | tail -n +3)
	assert_eq "$s rows" 18 "$(echo "$rows" | wc -l)"
	echo "$rows" | grep -Evq '^[ 0-9]{9} ( *[0-9]+\.[0-9]{3} ){12}$' &&
		fail "row layout: $(echo "$rows" | grep -Ev '^[ 0-9]{9} ( *[0-9]+\.[0-9]{3} ){12}$' | head -1)"
	echo "$rows" | awk '{ if (NR > 1 && $1 >= p) exit 1; p = $1 }' || fail "block sizes not descending"
	echo "$rows" | awk '{ print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' > "$T/$s.rows"
	check_close "$T/$s.rows" "$DATA/seed000-$s.txt" 13
	# exact agreement with jq on the same JSON
	awk '{ print "W", $1, $5, $6, $7; print "R", $1, $11, $12, $13 }' "$T/$s.rows" | sort > "$T/a"
	jq_perftest "$T/$s.json" | sort > "$T/b"
	diff "$T/a" "$T/b" > "$T/d" || fail "fiotab and jq disagree: $(head -4 "$T/d")"
done

# ratio file/block: exactly the seed's ratio table.  The 4 KB write gain has
# Welch p = 0.007 alone, but 36 cells are tested: Holm's adjustment makes it
# 0.24, and nothing of seed 000 (3 runs a side) is marked.
"$FIOTAB" ratio "$T/block.json" "$T/file.json" > "$T/ratio.out" || fail "ratio failed"
grep -q "^blocksize        W        R     W(p)  W(p.adj)     R(p)  R(p.adj) $" "$T/ratio.out" || fail "ratio header"
awk '$1 ~ /^[0-9]+$/ { print $1, $2, $3 }' "$T/ratio.out" > "$T/ratio.rows"
diff "$T/ratio.rows" "$DATA/seed000-ratio.txt" > "$T/d" || fail "ratio differs from seed 000: $(cat "$T/d")"
row=$(awk '$1 == 4096' "$T/ratio.out")
assert_match "4 KB W: p 0.007, adjusted 0.240" '^ +4096 +1\.82 +0\.72 +0\.007 +0\.240 +0\.206 +1\.000 *$' "$row"
grep -q '^# .*(0 cells)' "$T/ratio.out" || fail "ratio marks cells of seed 000"
grep -q '^# p: .*Holm.*36 cells' "$T/ratio.out" || fail "ratio note does not name Holm and the 36 cells"

# seed 001: a read-only run; the script prints both halves, W as zeros (the
# poster cut those columns): the full 13-column layout, R equal to the seed
seed_json "$DATA/seed001-read.txt" 1073741824 /mnt/ocfs2/file > "$T/r.json"
"$FIOTAB" perftest "$T/r.json" > "$T/r.out" || fail "read-only perftest failed"
grep -v '^# ' "$T/r.out" | head -2 > "$T/r.hdr"
hdr 3 W R > "$T/expect.hdr"
cmp "$T/expect.hdr" "$T/r.hdr" || fail "read-only header: $(diff "$T/expect.hdr" "$T/r.hdr")"
rows=$(grep -v '^# ' "$T/r.out" | tail -n +3)
echo "$rows" | grep -Evq '^[ 0-9]{9} ( *[0-9]+\.[0-9]{3} ){12}$' &&
	fail "read-only row layout: $(echo "$rows" | grep -Ev '^[ 0-9]{9} ( *[0-9]+\.[0-9]{3} ){12}$' | head -1)"
echo "$rows" | awk '$2 != "0.000" || $3 != "0.000" || $4 != "0.000" || $5 != "0.000" || $6 != "0.000" || $7 != "0.000" { exit 1 }' ||
	fail "read-only W half is not zeros: $(echo "$rows" | head -1)"
echo "$rows" | awk '{ print $1, $8, $9, $10, $11, $12, $13 }' > "$T/r.rows"
check_close "$T/r.rows" "$DATA/seed001-read.txt" 7
grep -q '^# W: no write job in this series; its half prints zeros' "$T/r.out" || fail "no note for the W zeros"
# the zeros are the script's layout, not measurements: no dashboard metric
"$FIOTAB" perftest --format=prom "$T/r.json" > "$T/r.prom" || fail "read-only prom"
grep -q 'rw="read"' "$T/r.prom" || fail "read-only prom has no read metric"
grep -q 'rw="write"' "$T/r.prom" && fail "read-only prom has write metrics: $(grep -m1 'rw="write"' "$T/r.prom")"
grep -v '^# ' "$T/r.out" > "$T/r.table"
golden "$DATA/seed001-read.txt" 1073741824 W R > "$T/r.golden"
cmp "$T/r.golden" "$T/r.table" || fail "read-only table differs from the golden: $(diff "$T/r.golden" "$T/r.table" | head -5)"

# both files at once: two tables, one per target, in input order
"$FIOTAB" perftest "$T/block.json" "$T/file.json" > "$T/both.out"
assert_eq "series lines" "# series /dev/md4-block
# series /dev/md4-file" "$(grep '^# series' "$T/both.out")"

# --series: capture group names the series; non-matching jobs are ignored
"$FIOTAB" perftest --series '^perftest-(r)-' "$T/block.json" > "$T/sr.out"
assert_eq "--series title" "# series r" "$(grep '^# series' "$T/sr.out")"
grep -v '^# ' "$T/sr.out" | tail -n +3 | awk '$5 != "0.000" { exit 1 }' || fail "--series kept write jobs"

# an iteration with bytes in runtime 0 (under fio's 1 ms) has no rate: the
# document is refused (checks.sh P9), not averaged without it
sed 's/"runtime" : 2359,/"runtime" : 0,/' "$T/block.json" > "$T/z.json"
"$FIOTAB" perftest "$T/z.json" > "$T/z.out" 2> "$T/z.err" && fail "runtime 0 accepted: $(cat "$T/z.out")"
assert_match "t=0 refused" "z.json:.*\"write.runtime\" is 0 ms for 134217728 bytes" "$(cat "$T/z.err")"
exit 0
