#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs fiotab's libFuzzer target for a bounded time (FUZZ_SECONDS, default
# 45) from the committed seed corpus of real fio outputs; new inputs go to a
# scratch corpus.  Any crash, leak, sanitizer report or timeout fails.
source "$TOP/tests/lib.sh"
fuzz=$B/tests/fuzz/fiotab-fuzz
[ -x "$fuzz" ] || skip "no fuzz target (clang with libFuzzer not installed)"
mkdir -p "$T/corpus"
"$fuzz" -max_total_time="${FUZZ_SECONDS:-45}" -timeout=10 -rss_limit_mb=1024 \
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
