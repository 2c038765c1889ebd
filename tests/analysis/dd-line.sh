#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab dd's line: the byte count and rate as dd's human_readable()
# writes them (coreutils human.c, SI, rounded to nearest).  Where the
# amount is whole (the byte count; the rate where the runtime divides a
# second or a whole number of seconds) dd works in integers and shows a
# decimal only below 10: 20971520 bytes are "21 MB", not "21.0 MB" (old
# fiotab), and 20 MiB in 2 s "10 MB/s", not "10.5 MB/s"; else it shows
# "%.1f" where that has at most 4 characters (30.0 MB/s).  dd itself is
# the oracle of a byte count (its halves go to even: 1050000 bytes are
# "1.0 MB"; 4930794 "4.9 MB", rounded once, not digit by digit), numfmt,
# whose SI rounding to nearest is that path's off halves, of whole rates,
# awk's printf of the others.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd numfmt
need_cmd dd

cd "$T" || fail "cd $T"
si() { numfmt --to=si --round=nearest "$1" | sed 's/K$/ kB/; s/\([MGT]\)$/ \1B/'; }

# a real job of 20 MiB
run_fio --name=dd20 --ioengine=null --size=20m --bs=1m --rw=write --rate=40m \
	--output-format=json > real.json 2> fio.err || fail "fio: $(cat fio.err)"
"$FIOTAB" dd real.json > out 2> err || fail "dd refused: $(cat err)"
grep -q "^20971520 bytes ($(si 20971520)) copied, " out || fail "20 MiB: $(head -3 out)"
[ "$(si 20971520)" = "21 MB" ] || fail "premise: numfmt says $(si 20971520)"

# dd's own words for N bytes: "N bytes (21 MB, 20 MiB) copied" or, older,
# "N bytes (21 MB) copied"
dd_says() { dd if=/dev/zero of=/dev/null bs="$1" count=1 2>&1 | sed -n 's/^[0-9]* bytes (\([^,)]*\).*/\1/p'; }
printf '1 1.0 1.0 1.0 0 0 0\n' > one-s.txt
for n in 1050000 1150000 4930794 9949999 99950000; do
	seed_json one-s.txt $n /dev/dd$n > n.json
	"$FIOTAB" dd n.json > out 2> err || fail "dd refused: $(cat err)"
	w=$(dd_says $n)
	[ -n "$w" ] || fail "premise: dd's line for $n bytes: $(dd if=/dev/zero of=/dev/null bs=$n count=1 2>&1)"
	assert_eq "$n bytes in 1 s" "$n bytes ($w) copied, 1 s, $w/s" "$(grep -m1 ' bytes (' out)"
done

# 20 MiB in 2 s, 0.7 s and 0.25 s: integer, floating, integer path
SIZE=20971520
printf '4096 2.0 0.7 0.25 0 0 0\n' > rows.txt
seed_json rows.txt $SIZE /dev/dd > synth.json
"$FIOTAB" dd synth.json > out 2> err || fail "dd refused: $(cat err)"
want="$SIZE bytes ($(si $SIZE)) copied, 2 s, $(si $((SIZE / 2)))/s
$SIZE bytes ($(si $SIZE)) copied, 0.7 s, $(awk -v r=$SIZE 'BEGIN { printf "%.1f MB/s", r / 0.7 / 1e6 }')
$SIZE bytes ($(si $SIZE)) copied, 0.25 s, $(si $((SIZE * 4)))/s"
assert_eq "dd lines" "$want" "$(grep ' bytes (' out)"
exit 0
