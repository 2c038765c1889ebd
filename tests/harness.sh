#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run tests (or, with --bench, benchmarks) one by one and summarise.
# A test is an executable: exit 0 passes, 77 skips (it must say why on
# stdout/stderr), anything else fails.  Each runs with its own log under
# $B/test-logs/; a failing test's log is printed.  TEST_TIMEOUT (seconds,
# default 900) bounds every test so a hung fio can never hang CI.
set -u

mode=test
if [ "${1:-}" = --bench ]; then
	mode=bench
	shift
fi

: "${B:?B (build dir) must be set; run through make}"
logdir=$B/obj/test-logs
mkdir -p "$logdir"
timeout_s=${TEST_TIMEOUT:-900}
pass=0 fail=0 skip=0 failed=()

label=${SANITIZE:+ [$SANITIZE]}
for t in "$@"; do
	name=${t#tests/}
	log=$logdir/$(echo "$name" | tr / _).log
	start=$(date +%s.%N)
	if [ "$mode" = bench ]; then
		timeout -k 10 "${BENCH_TIMEOUT:-3600}" "$TOP/$t" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	else
		timeout -k 10 "$timeout_s" "$TOP/$t" >"$log" 2>&1 </dev/null
		rc=$?
	fi
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	case $rc in
	0)  pass=$((pass + 1)); printf 'PASS%s: %s (%.1fs)\n' "$label" "$name" "$secs" ;;
	77) skip=$((skip + 1)); printf 'SKIP%s: %s: %s\n' "$label" "$name" "$(tail -n 1 "$log")" ;;
	*)  fail=$((fail + 1)); failed+=("$name")
	    [ $rc = 124 ] && echo "(killed after ${timeout_s}s)" >>"$log"
	    printf 'FAIL%s: %s (exit %d, %.1fs)\n' "$label" "$name" "$rc" "$secs"
	    [ "$mode" = test ] && sed 's/^/    | /' "$log" | tail -n 60 ;;
	esac
done

[ $fail -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
