#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Text tables keep a blank between two figures: a cell as wide as its
# column, after a column with no separator of its own (Bonnie's K/sec
# "%6d" after its %CPU "%5.1f"), gets one before it.  A block read from
# the page cache at over 100000 K/sec was printed glued to the %CPU
# before it ("10.4102400"), or to an empty phase's "-" ("-1234567", a
# negative number to the eye).
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
# written, then read back from the page cache: well over 100000 K/sec
run_fio --filename=file --ioengine=psync --size=64m --bs=1m --output-format=json \
	--name=bonnie-write --rw=write --name=bonnie-read --rw=read --stonewall > b.json 2> fio.err ||
	fail "fio: $(cat fio.err)"
"$FIOTAB" bonnie b.json > out 2> err || fail "bonnie refused: $(cat err)"
row=$(awk '$1 == "file"' out)
kps=$("$JQ" -r '.jobs[] | select(.jobname == "bonnie-read") | .read.io_bytes * 1000 / .read.runtime / 1024 | round' b.json)
[ "$kps" -ge 100000 ] || skip "the page cache read only $kps K/sec here"
# Machine, MB, then K/sec and %CPU of each phase: putc -, write, rewrite -, getc -, read, seeks -
set -- $row
assert_eq "fields of the row (a blank between every two: $row)" 14 $#
assert_eq "read K/sec, its own field" "$kps" "${11}"
echo "$row" | grep -Eq '\.[0-9]{2}|[0-9-]-[0-9]| -[0-9]' && fail "figures run together: $row"
exit 0
