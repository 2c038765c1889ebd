#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/sim-calib.sh when simrun refuses what it is given (a parameter
# name or value it does not know, an ITERS out of range): the script
# fails, naming simrun's reason, and prints no table (it printed each
# case's published mean in the model column, published 0.00, exit 0).
source "$TOP/tests/lib.sh"
export SIMRUN=$B/tools/simrun
[ -x "$SIMRUN" ] || fail "$SIMRUN not built"
calib=$TOP/tools/sim-calib.sh

fails() {	# WHY-IN-STDERR ENV... -- ARGS...
	local why=$1 out err rc
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	out=$(env "${envs[@]}" "$calib" "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
	[ $rc != 0 ] || fail "sim-calib.sh ${envs[*]} $*: exit 0, printed: $(echo "$out" | head -3)"
	[ -z "$out" ] || fail "sim-calib.sh ${envs[*]} $*: printed a table: $(echo "$out" | head -3)"
	echo "$err" | grep -q -- "$why" || fail "sim-calib.sh ${envs[*]} $*: stderr does not say '$why': $err"
	note "sim-calib.sh ${envs[*]} $*: exit $rc: $err"
}
fails "unknown parameter 'nosuch'" ITERS=1 -- nosuch=1
fails "unknown parameter 'nosuch'" -- --later nosuch=1
fails "--iters '0'" ITERS=0 --
fails "--iters '100'" ITERS=100 --

# and still runs as before: one extra parameter applied to every case
out=$(ITERS=1 "$calib" sched=deadline) || fail "sim-calib.sh sched=deadline: $out"
[ "$(echo "$out" | grep -c '^case')" = 11 ] || fail "sim-calib.sh sched=deadline: not 11 cases: $out"
echo "$out" | grep -q '^MAE [0-9.]*%$' || fail "sim-calib.sh sched=deadline: no MAE line: $out"
exit 0
