#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# profiles/coop-local: parses with stock fio, has the 3 x 2 x 3 matrix, and
# runs end to end on a scratch file with the variables its header names;
# with JSON output the coop_stats lines stay out of the document.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
job=$TOP/profiles/coop-local/coop-local.fio
truncate -s 4m "$T/target"
export TARGET=$T/target SIZE=4194304 ENGDIR
mode=()
coop_is_tsan && mode=(--thread)
run_fio --parse-only "$job" || fail "fio --parse-only $job"
# Half of the matrix is coop_ioctx=shared, which the engine refuses under
# ThreadSanitizer (it cannot follow raw clone(CLONE_IO) threads).
coop_is_tsan && skip "parsed only: coop_ioctx=shared jobs cannot run under ThreadSanitizer"
run_fio "${mode[@]}" --output-format=json --output="$T/out.json" "$job" 2>"$T/err" ||
	fail "fio $job exited $?: $(cat "$T/err")"
assert_eq "jobs" 18 "$("$JQ" '.jobs | length' "$T/out.json")"
assert_eq "jobs with errors" 0 "$("$JQ" '[.jobs[] | select(.error != 0)] | length' "$T/out.json")"
for t in 1 2 5; do
	for io in private shared; do
		for ra in kernel off context; do
			n=coop-t$t-$io-$ra
			"$JQ" -e --arg n "$n" '.jobs[] | select(.jobname == $n) | .read.io_bytes == 4194304' \
				"$T/out.json" >/dev/null || fail "$n did not read ${SIZE} bytes"
			assert_eq "$n: worker stats lines" $t "$(grep -c "^coop: $n: worker=" "$T/err")"
		done
	done
done
