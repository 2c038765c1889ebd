#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio's sync_file_range=: the sync covers the file bytes the job wrote
# since the last sync, f->first_write..last_write (fio's
# do_sync_file_range()), as psync syncs them.  coop took the range from the
# sync's io_u, whose offset is whatever its last use left and whose length
# is 0, "to the end of the file": a random write job synced from some
# offset upwards, and its writes below that offset were not synced
# (sync_file_range(6, 491520, 0) where psync's was (6, 0, 884736)).  The
# (offset, nbytes) of every sync_file_range(2) call (strace) must be
# psync's, for one worker and several, iodepth 1 and 8, with
# coop_fd=per-thread, with fsync= between them (every sync starts the
# range again), and over loops=2 (a file's range is kept while it is
# closed between loops).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd strace

# TSan cannot follow fio's fork of a job process once threads run
mode=
coop_is_tsan && mode=--thread
f=$T/data
dd if=/dev/zero of="$f" bs=1M count=1 status=none

# ranges ENGINE ARGS...: "offset nbytes" of each sync_file_range call.
ranges() {
	local out=$T/strace.txt
	san_env
	strace -f -qq -e trace=sync_file_range -o "$out" env "${SAN_ENV[@]}" "$FIO" $mode \
		--name=s "$@" --filename="$f" --rw=$rw --bs=4k --size=$size --number_ios=$ios \
		--randseed=7 --overwrite=1 >"$T/fio.out" 2>&1 ||
		fail "$*: fio failed: $(cat "$T/fio.out")"
	grep -q "err= 0" "$T/fio.out" || fail "$*: job error: $(cat "$T/fio.out")"
	sed -n 's/.*sync_file_range([0-9]*, \([0-9]*\), \([0-9]*\),.*/\1 \2/p' "$out"
}

# At iodepth 8 fio's own choice of which sync is due depends on when
# writes are reaped (last_was_sync, engines/coop/README.md), so the cases
# mixing fsync= with sync_file_range= or over loops run at iodepth 1.
# loops=2: fio closes the file between loops and keeps its range, so the
# first sync of the second loop covers the last write of the first (16
# writes a loop, a sync every 5: psync's (0, 65536), where a range started
# again at the reopen was (0, 16384)).
rw=randwrite size=1m ios=48
for syncs in "--sync_file_range=write:4" "--sync_file_range=write:2 --fsync=3 --iodepth=1" \
	"--sync_file_range=write:5 --iodepth=1 --loops=2"; do
	[[ $syncs == *loops* ]] && rw=write size=64k ios=16
	want=$(ranges --ioengine=psync $syncs)
	[ -n "$want" ] || fail "$syncs: psync made no sync_file_range call"
	for opts in "--coop_threads=1" "--coop_threads=2" "--coop_threads=2 --iodepth=8" \
		"--coop_threads=3 --coop_fd=per-thread --iodepth=8"; do
		[[ $syncs == *iodepth* && $opts == *iodepth* ]] && continue
		got=$(ranges --ioengine="external:$COOP_SO" $opts $syncs)
		assert_eq "$syncs $opts: sync_file_range (offset, nbytes), psync's" "$want" "$got"
	done
	note "$syncs: $(echo "$want" | wc -l) ranges as psync's"
done
