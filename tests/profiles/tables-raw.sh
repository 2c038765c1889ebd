#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# perfpack tables renders from DIR/raw/<variant>.json (and <variant>.<stem>.json),
# the concatenations of the runs' DIR/raw/<variant>/<job>.json: one removed
# or edited (an outlier dropped, a figure changed) after the run would leave
# the tables showing what raw/<variant>/ no longer holds.  Refused, naming
# the file, exit 1, the tables left as they were; so is a concatenation whose
# raw/<variant>/ is gone (nothing to check it against).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup
[ -x "$FIOTAB" ] || skip "fiotab not built"

dev=$(make_loop 16)
paced_fio
"$PERFPACK" run blockdev-perftest --target "$dev" --variant block --set PP_SECTIONS='^perftest-[wr]-65536-' \
	--set SIZE=1m -o "$T/o" >"$T/o.txt" 2>&1 || fail "run failed: $(tail -n 5 "$T/o.txt")"
"$PERFPACK" tables "$T/o" >"$T/t0.txt" 2>&1 || fail "perfpack tables of the run as made failed: $(cat "$T/t0.txt")"
cp "$T/o/tables/block.txt" "$T/block.first"

f=raw/block/perftest-w-65536-1.json
mv "$T/o/$f" "$T/saved.json"
msg=$("$PERFPACK" tables "$T/o" 2>&1) && fail "perfpack tables with $f removed: rendered: $msg"
assert_match "removed run named" "raw/block.*json.*not .*raw/block/.*removed or edited" "$msg"
cmp -s "$T/block.first" "$T/o/tables/block.txt" || fail "the tables were replaced by a refused render"
mv "$T/saved.json" "$T/o/$f"

sed -i 's/"job_runtime" : \([0-9]*\)/"job_runtime" : 1\1/' "$T/o/$f"
msg=$("$PERFPACK" tables "$T/o" 2>&1) && fail "perfpack tables with $f edited: rendered: $msg"
assert_match "edited run named" "$f" "$msg"

# raw/block/ removed whole, raw/block.json edited: nothing left to check it against
cp -a "$T/o" "$T/nodir"
rm -r "$T/nodir/raw/block"
sed -i 's/"runtime" : \([1-9][0-9]*\),/"runtime" : 1\1,/' "$T/nodir/raw/block.json" "$T/nodir/raw/block.blockdev-perftest.json"
msg=$("$PERFPACK" tables "$T/nodir" 2>&1) && fail "perfpack tables with raw/block/ removed and raw/block.json edited: rendered: $msg"
assert_match "removed raw/block/ named" "raw/block.*json.*has no raw/block/" "$msg"
