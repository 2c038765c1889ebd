#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# An engine built against another fio version must refuse to run with a
# message that says what to do, and fail the job instead of crashing.
source "$TOP/tests/lib.sh"
source "$TOP/tests/build/lib-build.sh"

for e in $ENGINES; do
	so=$B/obj/mismatch/fio-$e-mismatch.so
	[ -f "$so" ] || fail "$so not built"
	smoke_job "$e"
	run_fio --name="mismatch-$e" --ioengine="external:$so" "${SMOKE_ARGS[@]}" \
		>"$T/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || fail "$e: a mismatched engine ran (exit 0)"
	[ $rc -lt 128 ] || fail "$e: fio died of a signal ($rc) instead of refusing"
	want="$e: built for $MISMATCH_VERSION, loaded by $FIO_VERSION: rebuild with ./configure --fio-src=<$FIO_VERSION tree>"
	grep -qF -- "$want" "$T/out" || fail "$e: refusal message missing; got: $(cat "$T/out")"
	grep -q "init failed" "$T/out" || fail "$e: the job did not fail at init: $(cat "$T/out")"
	note "$e: refused: $want"
done
