#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/simrun refuses what it does not take, naming it, before it prints
# a table: counts beyond its arrays (100 iterations were averaged over the
# first 64 and divided by 100), block sizes that are not numbers ("12x"
# read as 12), and values sim_new() refuses (the header came first).
source "$TOP/tests/lib.sh"
SIMRUN=$B/tools/simrun

# refused MESSAGE-RE ARGS...: exit 2, the message, no table
refused() {
	local re=$1 out rc
	shift
	out=$("$SIMRUN" --size-mb 4 "$@" 2>&1)
	rc=$?
	[ $rc = 2 ] || fail "simrun $* exited $rc, not 2: $out"
	assert_match "message for $*" "$re" "$out"
	case $out in *blocksize*) fail "simrun $* printed a table before refusing: $out" ;; esac
}
refused "--iters '100': not a whole number in 1\.\.64" --iters 100
refused "--iters '0'" --iters 0
refused "--bs '12x'" --bs 12x
refused "--bs '0'" --bs 0
refused "--size-mb '-1'" --size-mb -1
refused "--bs: more than 32 block sizes" --bs "$(seq -s, 4096 4096 $((33 * 4096)))"
refused "sim_client_max_sectors_kb must be >= 4" client_max_sectors_kb=2
refused "sched: unknown value 'bogus'" sched=bogus

# in range: one row per block size, the mean over every iteration
out=$("$SIMRUN" --size-mb 4 --iters 2 --bs 1048576,65536 2>&1) || fail "simrun failed: $out"
assert_eq "rows" 2 "$(echo "$out" | grep -c '^ *[0-9]\+ ')"
exit 0
