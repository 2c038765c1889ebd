#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pool without fio (tests/unit/coop-pool-test.c): split/dispatch/
# readahead logic, data through every option combination, io_context
# sharing, and a soak of 64 workers x 256 requests in flight.  This is the
# ThreadSanitizer check of the pool (fio itself is not instrumented), so
# the soak runs SOAK_SECONDS (default 40) under TSan and 5 s otherwise.
source "$TOP/tests/lib.sh"
bin=$B/tests/unit/coop-pool-test
[ -x "$bin" ] || fail "$bin not built"
if [[ ${SANITIZE:-} == *thread* ]]; then
	soak=${SOAK_SECONDS:-40}
	export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
else
	soak=5
	export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}
fi
note "soak ${soak}s"
"$bin" "$T/pool.dat" "$soak" || fail "coop-pool-test failed"
