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
cp -a "$T/o" "$T/first"

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

# a run left out of both raw/block/ and the concatenations, whole (an outlier
# dropped): rendered, but its tables say they are of 3 of the run's 4 runs
cp -a "$T/first" "$T/drop"
g=raw/block/perftest-w-65536-2.json
python3 - "$T/drop" "$g" <<'PY' || fail "cannot take $g out of $T/drop"
import sys
d, g = sys.argv[1:]
run = open(d + '/' + g, 'rb').read()
for c in ('raw/block.json', 'raw/block.blockdev-perftest.json'):
    data = open(d + '/' + c, 'rb').read()
    assert data.count(run) == 1
    open(d + '/' + c, 'wb').write(data.replace(run, b''))
PY
rm "$T/drop/$g"
"$PERFPACK" tables "$T/drop" >"$T/drop.txt" 2>&1 || fail "perfpack tables with $g left out of both: $(cat "$T/drop.txt")"
assert_match "table of fewer runs marked" "^# NOTE: 3 of the run's 4 fio runs of raw/block/; removed after the run: $g" \
	"$(head -n 1 "$T/drop/tables/block.txt")"
