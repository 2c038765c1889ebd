#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs fiotab's libFuzzer target from the committed seed corpus of real fio
# outputs; new inputs go to a scratch corpus.  Any crash, leak, sanitizer
# report or timeout fails.  The run is reproducible: a fixed seed and a
# fixed number of inputs (FUZZ_SEED, FUZZ_RUNS), so CI explores the same
# inputs every time and a failure can be replayed; FUZZ_SECONDS bounds it.
# For a longer hunt: FUZZ_SEED=0 (random) FUZZ_RUNS=-1 FUZZ_SECONDS=3600.
source "$TOP/tests/lib.sh"
fuzz=$B/tests/fuzz/fiotab-fuzz
[ -x "$fuzz" ] || skip "no fuzz target (clang with libFuzzer not installed)"
mkdir -p "$T/corpus"
"$fuzz" -seed="${FUZZ_SEED:-1}" -runs="${FUZZ_RUNS:-20000}" \
	-max_total_time="${FUZZ_SECONDS:-120}" -timeout=10 -rss_limit_mb=1024 \
	-max_len=16384 -close_fd_mask=3 -artifact_prefix="$T/" -print_final_stats=1 \
	"$T/corpus" "$TOP/tests/fuzz/corpus" > "$T/log" 2>&1
rc=$?
tail -n 15 "$T/log"
if [ $rc -ne 0 ]; then
	for a in "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-*; do
		[ -e "$a" ] && { echo "artifact $a:"; head -c 400 "$a" | od -c | head -20; }
	done
	fail "fuzzer exit $rc"
fi
grep -q 'Done [0-9]* runs' "$T/log" || fail "fuzzer did not finish normally"
