#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Completion coalescing (coop_coalesce=1, engines/coop/pool.c
# coalesce_want()): while more than half the iodepth is in the workers'
# hands, the job's thread sleeps until the backlog falls to half, then
# reaps a batch; never longer than COOP_COALESCE_MAX_NS.  From coop_stats:
#  - 4 KiB page-cached reads at iodepth 16: the job's thread sleeps for
#    batches (coalesced_sleeps > 0); with coop_coalesce=0 it never does
#    (how many it reaps per wait depends on the machine's load: not tested);
#  - 1 MiB direct reads of a loop device (slower than the bound for half
#    the iodepth): the bound ends coalesced sleeps (coalesce_timeouts > 0)
#    and the job still completes every I/O;
#  - writes verified with coalescing on (verify=crc32c, 2 workers).
# Scratch files on tmpfs (the loop device's backing file too).
export TMPDIR=${COOP_TEST_TMPDIR:-/dev/shm}
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd "$JQ"
mode=
coop_is_tsan && mode=--thread

dd if=/dev/urandom of="$T/data" bs=1M count=32 status=none

# stats LABEL FILE FIO_ARGS...: one job with coop_stats; sets $ios and
# the stream line's fields as $st_KEY.
stats() {
	local label=$1 file=$2 kv
	shift 2
	run_fio $mode --ioengine="external:$COOP_SO" --output-format=json \
		--output="$T/$label.json" --name=co --filename="$file" --size=32m \
		--coop_stats=1 "$@" 2>"$T/$label.err" ||
		fail "$label: fio failed: $(cat "$T/$label.err")"
	ios=$(sed -n '/^{/,$p' "$T/$label.json" | "$JQ" '.jobs[0].read.total_ios + .jobs[0].write.total_ios') ||
		fail "$label: no JSON"
	kv=$(grep -o 'stream .*' "$T/$label.err")
	[ -n "$kv" ] || fail "$label: no coop_stats stream line"
	for k in requests job_waits coalesced_sleeps coalesce_timeouts; do
		v=$(echo "$kv" | tr ' ' '\n' | sed -n "s/^$k=//p")
		[ -n "$v" ] || fail "$label: no $k= in: $kv"
		eval "st_$k=$v"
	done
}

rr=(--rw=randread --bs=4k --iodepth=16 --coop_threads=1 --io_size=200m)
stats on "$T/data" "${rr[@]}" --coop_coalesce=1
[ "$st_coalesced_sleeps" -gt 0 ] || fail "coop_coalesce=1: no coalesced sleep ($st_job_waits waits)"
note "ok: coalescing: $st_coalesced_sleeps coalesced sleeps, $st_requests completions in $st_job_waits waits"
stats off "$T/data" "${rr[@]}" --coop_coalesce=0
assert_eq "coop_coalesce=0: coalesced sleeps" 0 "$st_coalesced_sleeps"

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	dev=$(make_loop 64)
	dd if=/dev/urandom of="$dev" bs=1M count=64 oflag=direct status=none
	stats bound "$dev" --rw=randread --bs=1m --direct=1 --iodepth=16 --coop_threads=1 \
		--size=64m --io_size=300m --coop_coalesce=1
	assert_eq "bound: every I/O completed" 300 "$ios"
	[ "$st_coalesce_timeouts" -gt 0 ] ||
		fail "1 MiB direct reads: no coalesced sleep ran into the bound ($st_coalesced_sleeps sleeps)"
	note "ok: the bound ended $st_coalesce_timeouts of $st_coalesced_sleeps coalesced sleeps"
else
	note "not root: the loop-device case is not run"
fi

stats verify "$T/vfile" --rw=randwrite --bs=4k --iodepth=16 --coop_threads=2 \
	--verify=crc32c --do_verify=1 --coop_coalesce=1
note "ok: $ios I/Os verified with coalescing"
