#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What a run writes is whole or not there, and nothing made before is lost:
# - the output directory's filesystem fills up during a run: one line naming
#   the file and the error (no traceback), exit 1, the run left incomplete,
#   and both concatenations of fio's output (raw/V.json, raw/V.JOBFILE.json)
#   hold the same number of whole documents (a failed append is undone);
# - `perfpack tables DIR` with the raw output of a variant that was run gone:
#   it names it, exits 1 and keeps DIR/tables as it was (it printed nothing,
#   exited 0 and replaced the tables with an empty directory).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup

dev=$(make_loop 64)
small=(run blockdev-perftest --target "$dev" --variant block --set SIZE=1m --set PP_MINBS=65536)
paced_fio

# --- a full output filesystem ------------------------------------------------
mkdir "$T/tiny"
mount -t tmpfs -o size=96k perfpack-tiny "$T/tiny" || fail "mount tmpfs"
echo "$T/tiny" >>"$_pp_mounts"
"$PERFPACK" "${small[@]}" --force -o "$T/tiny/o" >"$T/full.out" 2>"$T/full.err"
rc=$?
assert_eq "exit status on a full output filesystem" 1 "$rc"
grep -q Traceback "$T/full.err" && fail "a traceback on a full output filesystem: $(cat "$T/full.err")"
assert_match "full: message" "No space left on device" "$(cat "$T/full.err")"
d=$(ls -d "$T"/tiny/o.partial.* 2>/dev/null | head -1)
[ -n "$d" ] || fail "no $T/tiny/o.partial.*: $(cat "$T/full.err")"
counts=$(python3 - "$d/raw/block.json" "$d/raw/block.blockdev-perftest.json" <<'PY'
import json, sys
for f in sys.argv[1:]:
    try:
        t = open(f).read()
    except FileNotFoundError:
        t = ''
    dec, i, n = json.JSONDecoder(), 0, 0
    while True:
        while i < len(t) and t[i].isspace():
            i += 1
        if i >= len(t):
            break
        try:
            _, i = dec.raw_decode(t, i)
        except ValueError:
            sys.exit('%s: a truncated document after %d whole ones' % (f, n))
        n += 1
    print(n)
PY
) || fail "full: $counts"
[ "$(echo "$counts" | sort -u | wc -l)" = 1 ] || fail "full: the two concatenations disagree: $(echo $counts)"
umount "$T/tiny"

# --- tables whose input was lost --------------------------------------------
"$PERFPACK" "${small[@]}" --force -o "$T/o" >"$T/run.out" 2>&1 || fail "run failed: $(tail -5 "$T/run.out")"
before=$(cd "$T/o/tables" && ls | sort)
[ -n "$before" ] || fail "the run made no tables"
rm "$T/o/raw/block.json"
msg=$("$PERFPACK" tables "$T/o" 2>&1) && fail "tables exited 0 without raw/block.json: $msg"
assert_match "tables: message" "raw/block.json is missing or empty, but variant block was run" "$msg"
assert_eq "tables kept" "$before" "$(cd "$T/o/tables" && ls | sort)"
exit 0
