#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# DIR/bundle/fio-commands.sh reruns the run with bare fio:
#  - each variant's commands run in bundle/VARIANT/ (as the runner's ran in
#    raw/VARIANT/), so two variants' JSON of one job name are two files, not
#    one written over the other;
#  - a variant whose target was the runner's own (the scratch loop device or
#    file, its filesystem recipe's mount), gone after the run, has its
#    commands as comments saying so, and its job files' headers too: the
#    name may be another's device by then (a loop device number is reused).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup jq

sec=(--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)
dev=$(make_loop 16)
"$PERFPACK" run blockdev-perftest --target "$dev" --no-tables --variant block,block_buffered "${sec[@]}" \
	-o "$T/o1" >"$T/o1.log" 2>&1 || fail "run on $dev failed: $(tail -n 5 "$T/o1.log")"
b=$T/o1/bundle
sh "$b/fio-commands.sh" >"$T/rerun.log" 2>&1 || fail "fio-commands.sh failed: $(tail -n 5 "$T/rerun.log")"
for v in block block_buffered; do
	f=$b/$v/perftest-w-65536-1.json
	[ -s "$f" ] || fail "fio-commands.sh: no $v's JSON in $b/$v/: $(cd "$b" && find . -name '*.json')"
	assert_eq "$v's rerun's direct=" "$([ $v = block ] && echo 1 || echo 0)" \
		"$(jq -r '.jobs[0]."job options".direct // ."global options".direct' "$f")"
done

# a scratch run: the script runs nothing
"$PERFPACK" run blockdev-perftest --scratch --no-tables --variant block,file "${sec[@]}" --set PP_FILE_MB=2 \
	-o "$T/o2" >"$T/o2.log" 2>&1 || fail "scratch run failed: $(tail -n 5 "$T/o2.log")"
b=$T/o2/bundle
mkdir "$T/bin"
printf '#!/bin/sh\necho "$*" >>"%s"\n' "$T/fio-called" >"$T/bin/fio"
chmod +x "$T/bin/fio"
PATH=$T/bin:$PATH sh "$b/fio-commands.sh" >"$T/rerun2.log" 2>&1
[ -e "$T/fio-called" ] && fail "fio-commands.sh of a scratch run ran fio on the torn-down target: $(cat "$T/fio-called")"
for v in block file; do
	t=$(sed -n 's/^TARGET=//p' "$T/o2/env/$v.env")
	assert_match "$v: the commands say the target is gone" "^# variant $v ran on .*$t.*torn down" "$(cat "$b/fio-commands.sh")"
	assert_match "$v: the job file says the target is gone" "^; .*$t.*torn down" "$(cat "$b/$v/blockdev-perftest.fio")"
done
no_leftovers
