#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio-level soak: two jobs of 64 workers x iodepth 256 each, one writing
# and verifying (uring, per-thread fds, split), one reading a stream
# (psync, rr, context readahead, split).  This is the ASan/UBSan check of
# the engine inside fio, so it runs SOAK_SECONDS (default 40) under ASan
# and 5 s otherwise (TSan soaks the pool in tests/unit/coop-pool.sh).
#
# Once time_based wraps, a new random write can overlap one still in flight
# from the previous pass; 64 workers complete them in any order, as any
# multi-queue engine may, so fio's serialize_overlap holds the second back
# (otherwise verify fails legitimately, about one run in ten).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
if [[ ${SANITIZE:-} == *address* ]]; then
	soak=${SOAK_SECONDS:-40}
else
	soak=5
fi
ioctx=shared
coop_is_tsan && ioctx=private
note "soak ${soak}s, coop_ioctx=$ioctx for the writer"
truncate -s 64m "$T/stream"
coop_fio --thread --output-format=json --output="$T/soak.json" \
	--time_based --runtime="$soak" --coop_threads=64 --iodepth=256 \
	--name=writer --filename="$T/rand" --size=64m --rw=randwrite --bsrange=4k-64k \
	--verify=crc32c --verify_backlog=512 --serialize_overlap=1 \
	--coop_backend=uring --coop_fd=per-thread \
	--coop_ioctx=$ioctx --coop_split_kb=16 \
	--name=reader --filename="$T/stream" --size=64m --rw=read --bs=64k \
	--coop_backend=psync --coop_dispatch=rr --coop_ra=context --coop_split_kb=16 ||
	fail "fio soak exited $?: $(tail -n 30 "$T/soak.json")"
bad=$("$JQ" -r '.jobs[] | select(.error != 0) | .jobname' "$T/soak.json")
[ -z "$bad" ] || fail "jobs with errors: $bad"
w=$("$JQ" '.jobs[] | select(.jobname == "writer") | .write.io_bytes' "$T/soak.json")
v=$("$JQ" '.jobs[] | select(.jobname == "writer") | .read.io_bytes' "$T/soak.json")
r=$("$JQ" '.jobs[] | select(.jobname == "reader") | .read.io_bytes' "$T/soak.json")
note "writer wrote $w, verified $v bytes; reader read $r bytes"
[ "$w" -gt 0 ] && [ "$v" -gt 0 ] && [ "$r" -gt 0 ] || fail "a job did no I/O"
