#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the runner tells and keeps: -s SIZE drops the block sizes above it (as
# blockdev-perftest -s does); PP_ITERS above the job file's iterations adds them;
# each run keeps a bug-report bundle whose job
# files run with bare fio and whose metadata names fio, kernel, host, device
# and command; fio's output is json+; a failed fio run shows fio's own error
# lines (or, where it printed none, the error its JSON records) and the job,
# not its JSON; not root, it warns that caches stay.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd jq

# 1. -s 1m at full scale: no block size above 1 MiB, 1 MiB itself kept
list=$("$PERFPACK" run blockdev-perftest --full --variant block -s 1m --list) || fail "-s 1m --list failed"
max=$(echo "$list" | grep -o 'bs=[0-9]*' | cut -d= -f2 | sort -n | tail -n 1)
assert_eq "largest block size with -s 1m" 1048576 "$max"
assert_eq "runs with -s 1m (12 sizes, 1 MiB ... 512 B, x 6)" 72 "$(echo "$list" | wc -l)"
"$PERFPACK" run blockdev-perftest --full --variant block -s 1m --env | grep -qx 'SIZE=1048576' ||
	fail "-s 1m does not set SIZE"

# 1b. iterations go up as well as down: PP_ITERS=5 repeats each series' last
# iteration under -4 and -5 (in order, before the next series)
list=$("$PERFPACK" run blockdev-perftest --full --variant block -s 1m --set PP_ITERS=5 --set PP_SECTIONS='-1048576-' --list) ||
	fail "PP_ITERS=5 --list failed"
assert_eq "PP_ITERS=5: write iterations 1-5, then reads 1-5" \
	"w1 w2 w3 w4 w5 r1 r2 r3 r4 r5" "$(echo "$list" | sed 's/.*perftest-\([wr]\)-1048576-\([0-9]\)$/\1\2/' | tr '\n' ' ' | sed 's/ $//')"
assert_eq "PP_ITERS=2 still drops" 4 "$("$PERFPACK" run blockdev-perftest --full --variant block -s 1m --set PP_ITERS=2 \
	--set PP_SECTIONS='-1048576-' --list | wc -l)"

# 2. a small run: bundle, metadata, json+
make_loop 16 >"$T/dev"
dev=$(cat "$T/dev")
"$PERFPACK" run blockdev-perftest --target "$dev" --variant block --no-tables --full -s 1m \
	--set PP_SECTIONS='^perftest-[wr]-1048576-(1|4)$' --set PP_ITERS=4 -o "$T/out" >"$T/out.log" 2>&1 ||
	fail "small run failed: $(cat "$T/out.log")"
b=$T/out/bundle
[ -s "$b/block/blockdev-perftest.fio" ] || fail "no resolved job file in the bundle"
grep -q '\${' "$b/block/blockdev-perftest.fio" && fail "the bundle's job file still has variables"
(cd "$T" && env -i PATH="$PATH" "$FIO" --parse-only "$b/block/blockdev-perftest.fio") >"$T/po.log" 2>&1 ||
	fail "the bundle's job file does not parse with bare fio: $(cat "$T/po.log")"
grep -q "^filename=$dev\$" "$b/block/blockdev-perftest.fio" || fail "the bundle's job file does not name $dev"
for k in profile fio kernel hostname command; do
	[ "$(jq -r ".$k | length" "$b/meta.json")" -gt 0 ] || fail "meta.json has no $k"
done
assert_match "device model in the metadata" 'loop device over' "$(jq -r '.devices.block' "$b/meta.json")"
# ... with a fourth iteration, which fio really ran and the bundle keeps
[ -s "$T/out/raw/block/perftest-r-1048576-4.json" ] || fail "no fourth iteration run"
grep -q '^\[perftest-r-1048576-4\]' "$b/block/blockdev-perftest.fio" || fail "the bundle lacks the added iteration"
grep -q -- '--output-format=json+' "$b/fio-commands.sh" || fail "fio not run with json+: $(cat "$b/fio-commands.sh")"
jq -e '.jobs[0].read.clat_ns.bins' <(sed -n '/^{/,$p' "$T/out/raw/block/perftest-r-1048576-1.json") >/dev/null ||
	fail "raw JSON is not json+ (no clat bins)"
# the bundle's command reruns the job with bare fio
(cd "$T/out/raw/block" && env -i PATH="$PATH" "$FIO" --section=perftest-r-1048576-1 \
	"$b/block/blockdev-perftest.fio" --output-format=json --output="$T/rerun.json") >/dev/null 2>&1 ||
	fail "the bundle's job file does not run with bare fio"
[ "$(jq '.jobs[0].read.io_bytes' "$T/rerun.json")" = 1048576 ] || fail "the bare-fio rerun did not read 1 MiB"

# 2b. runs started ahead (held at exec_prerun gates) leave no trace of the gate
# in their JSON: the same keys and "global options" as runs started at their
# turn (PERFPACK_AHEAD=0), no fio disk_util (it would span the wait; the
# .diskstat has the device's counters), no prerun output files (--force: the
# device holds what the run above wrote)
PERFPACK_AHEAD=0 "$PERFPACK" run blockdev-perftest --target "$dev" --force --variant block --no-tables --full -s 1m \
	--set PP_SECTIONS='^perftest-[wr]-1048576-(1|4)$' --set PP_ITERS=4 -o "$T/seq" >"$T/seq.log" 2>&1 ||
	fail "run with PERFPACK_AHEAD=0 failed: $(cat "$T/seq.log")"
for f in "$T"/seq/raw/block/*.json; do
	g=$T/out/raw/block/$(basename "$f")
	assert_eq "global options of $(basename "$f")" "$(jq -S '."global options"' "$f")" "$(jq -S '."global options"' "$g")"
	# the keys (but disk_util and the latency bins, which are values)
	[ "$(jq -c '[paths | select(.[0] != "disk_util" and .[-2] != "bins")]' "$f")" = \
		"$(jq -c '[paths | select(.[-2] != "bins")]' "$g")" ] || fail "$g and $f differ in their keys"
	[ "$(jq 'has("disk_util")' "$g")" = false ] || fail "$g (started ahead) has fio's disk_util"
done
ls "$T"/out/raw/block/*prerun* >/dev/null 2>&1 && fail "prerun output left: $(ls "$T"/out/raw/block/*prerun*)"
grep -q 'exec_prerun\|clocksource' "$b/fio-commands.sh" && fail "the bundle's commands have the gate: $(cat "$b/fio-commands.sh")"

# 3. fio fails (its writes to a loop device over a sparse file on a full
# 1 MiB tmpfs fail after 1 MiB; a read-only device, or a filesystem too small
# for the plan, is refused before fio runs): fio's own message and the job,
# no JSON
mkdir -p "$T/full"
mount -t tmpfs -o size=1m tmpfs "$T/full" || fail "mount tmpfs $T/full"
echo "$T/full" >>"$_pp_mounts"
truncate -s 16M "$T/full/ro.img"
rodev=$(losetup --find --show "$T/full/ro.img") || fail "losetup"
echo "$rodev" >>"$_pp_loops"
msg=$("$PERFPACK" run blockdev-perftest --target "$rodev" --memory-ok --variant block --no-tables \
	--set SIZE=8m --set PP_SECTIONS='^perftest-w-65536-1$' -o "$T/fail" 2>&1)
rc=$?
losetup -d "$rodev"
[ "$rc" != 0 ] || fail "a run whose fio failed exited 0"
assert_match "fio's own error" 'io_u error on file '"$rodev"': No space left on device' "$msg"
assert_match "the job named" '\[perftest-w-65536-1\] .*rw=write' "$msg"
# ... as fio parsed it for this run: on its target, not the plan's placeholder
assert_match "the job's target" "\[perftest-w-65536-1\] .*filename=$rodev( |\$)" "$msg"
echo "$msg" | grep -q '"clat_ns"\|"lat_ns"\|"iodepth_level"' && fail "the failure shows fio's JSON: $msg"

# 3b. the device shrinks under the run (a resize, losetup -c): fio moves only
# what it holds, 1 MiB of the job's 8, with no error; the run stops, saying
# so, and is not complete
truncate -s 16M "$T/shrink.img"
sdev=$(losetup --find --show "$T/shrink.img") || fail "losetup"
echo "$sdev" >>"$_pp_loops"
printf '#!/bin/bash\ncase " $* " in *" --output="*) truncate -s 1M "%s"; losetup -c "%s" ;; esac\nexec "%s" "$@"\n' \
	"$T/shrink.img" "$sdev" "$FIO" >"$T/shrink-fio"
chmod +x "$T/shrink-fio"
msg=$(FIO=$T/shrink-fio "$PERFPACK" run blockdev-perftest --target "$sdev" --variant block --no-tables \
	--set SIZE=8m --set PP_SECTIONS='^perftest-r-65536-1$' -o "$T/fail2" 2>&1) &&
	fail "a run whose device shrank under it completed: $msg"
losetup -d "$sdev"
assert_match "the shrink said" "target $sdev: holds 1048576 bytes now, less than the 8388608 the plan uses" "$msg"
[ -e "$T/fail2" ] && fail "a run whose device shrank under it is complete: $T/fail2"

# 3c. fio fails and prints nothing (as when a read meets a device's end): the
# error its JSON records is said, not "(nothing)"
printf '#!/bin/bash\ncase " $* " in *" --output="*)\n\tfor a; do case $a in --output=*) o=${a#--output=} ;; esac; done\n\techo %s >"$o"; exit 1 ;;\nesac\nexec "%s" "$@"\n' \
	"'{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"perftest-r-65536-1\", \"error\": 5}]}'" "$FIO" >"$T/eio-fio"
chmod +x "$T/eio-fio"
dev=$(make_loop 16 eio)
msg=$(FIO=$T/eio-fio "$PERFPACK" run blockdev-perftest --target "$dev" --variant block --no-tables \
	--set SIZE=8m --set PP_SECTIONS='^perftest-r-65536-1$' -o "$T/fail3" 2>&1) &&
	fail "a run whose fio failed exited 0: $msg"
assert_match "the error fio's JSON records" '\(nothing\); its JSON records job perftest-r-65536-1: error 5 \(Input/output error\)' "$msg"

# 4. not root: caches cannot be dropped, and it says so
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	chmod 755 "$T"
	mkdir -m 1777 "$T/nr"
	setpriv --reuid=nobody --regid=nogroup --clear-groups env TMPDIR="$T/nr" HOME="$T/nr" \
		"$PERFPACK" run buffered-vs-raw --scratch --no-tables --set PP_SECTIONS='^dd-raw' -o "$T/nr/out" \
		>"$T/nr.log" 2>&1 || fail "non-root run failed: $(tail -n 5 "$T/nr.log")"
	assert_match "warns that caches stay" 'cannot drop the page cache' "$(cat "$T/nr.log")"
fi
no_leftovers
