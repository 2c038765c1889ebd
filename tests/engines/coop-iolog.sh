#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A replayed read_iolog at iodepth 4: fio 3.33 ends the replay with its last
# I/O still queued (never reaped: cur_depth 3 at the engine's cleanup) and
# frees the io_us and their buffers before the engine's cleanup
# (cleanup_io_u(), then close_ioengine()).  coop's workers went on reading
# into the freed buffers, and fio died at exit, a third of the runs
# ('free(): corrupted unsorted chunks', SIGSEGV, exit 139): every command
# now finishes before the first io_u is freed.  Ten replays a backend, two
# workers, must all exit 0 with the job's err= 0 (the old engine failed one
# of the twenty or more with a probability above 0.99).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"

# TSan cannot follow fio's fork of a job process once threads run
mode=
coop_is_tsan && mode=--thread
f=$T/data
dd if=/dev/urandom of="$f" bs=1M count=2 status=none
run_fio --name=rec --ioengine=psync --filename="$f" --rw=randrw --bs=4k --size=2m \
	--number_ios=300 --randseed=3 --write_iolog="$T/rec.log" >"$T/rec.out" 2>&1 ||
	fail "recording the log: $(cat "$T/rec.out")"

for backend in psync uring; do
	for ((i = 1; i <= 10; i++)); do
		what="replay $i, coop_backend=$backend"
		out=$(coop_fio $mode --name=r --filename="$f" --read_iolog="$T/rec.log" --iodepth=4 \
			--coop_threads=2 --coop_backend=$backend 2>&1)
		rc=$?
		[ $rc -eq 0 ] || fail "$what: fio exited $rc: $(echo "$out" | grep -aE 'corrupt|signal|free|err=' | head -3)"
		echo "$out" | grep -q "err= 0" || fail "$what: job error: $out"
	done
	note "coop_backend=$backend: 10 replays at iodepth 4 exited 0"
done
