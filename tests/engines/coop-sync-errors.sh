#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sync-class commands report their errors.  On a loop device whose
# writeback fails (lib-coop.sh, coop_failing_loop), buffered writes
# succeed and the fsync/fdatasync that writes them back returns EIO.
# fio's psync reports it; so must coop, for end_fsync=1, fsync=N,
# fdatasync=N and sync_file_range=N with wait_after, with the psync and uring backends, 1, 2 and 5 workers and
# both coop_fd modes: the job's error is EIO (5) and fio exits nonzero.
# (fio 3.33 ignores the error of a sync it reaps through getevents(), so
# coop completes syncs in queue(); see engines/coop/README.md.)
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd losetup "$JQ"

dev=$(coop_failing_loop 512)
mode=
coop_is_tsan && mode=--thread
n=0

# job ENGINE-ARGS...: one buffered write job of 1 MiB at a fresh offset
# (nothing of the device's image is allocated, so every writeback fails).
# Sets $err to the job's error; fio's exit status must agree with it.
job() {
	local out=$T/job$n.json rc
	run_fio $mode --output-format=json --output="$out" --name=sync \
		--filename="$dev" --rw=write --bs=64k --size=1m --offset=$((n++ * 2))m \
		--iodepth=8 "$@" >"$out.stderr" 2>&1
	rc=$?
	# In thread mode fio's error lines precede the document in the file.
	err=$(sed -n '/^{/,$p' "$out" | "$JQ" '.jobs[0].error' 2>/dev/null) ||
		fail "$*: no JSON (exit $rc): $(tail -n 5 "$out")"
	if [ "$err" = 0 ]; then
		[ $rc = 0 ] || fail "$*: error 0 but exit $rc"
	else
		[ $rc != 0 ] || fail "$*: error $err but exit 0"
		# The failed sync is named, file and operation, as psync names it
		# (coop said only 'err=5, func=td_io_queue').
		cat "$out.stderr" "$out" | grep -Eq "io_u error on file $dev: Input/output error: (sync|datasync|sync_file_range) offset=" ||
			fail "$*: the failed sync is not named: $(cat "$out.stderr") $(sed '/^{/,$d' "$out")"
	fi
}

for sync in --end_fsync=1 --fsync=1 --fdatasync=4 \
	--sync_file_range=wait_before,write,wait_after:4; do
	# The device fails as it should: fio's own synchronous engine sees it.
	job --ioengine=psync "$sync"
	assert_eq "psync engine $sync" 5 "$err"
	for be in psync uring; do
		for threads in 1 2 5; do
			for fd in shared per-thread; do
				args=(--ioengine="external:$COOP_SO" --coop_backend=$be
					--coop_threads=$threads --coop_fd=$fd "$sync")
				job "${args[@]}"
				assert_eq "coop ${args[*]:1}" 5 "$err"
			done
		done
	done
	note "ok: $sync reports EIO through coop (psync, uring; 1, 2, 5 workers; shared, per-thread fds)"
done

# And without a failure the same jobs succeed (the error is the device's).
good=$(make_loop 64)
for be in psync uring; do
	run_fio $mode --output-format=json --output="$T/good.json" --name=good \
		--ioengine="external:$COOP_SO" --coop_backend=$be --coop_threads=5 \
		--filename="$good" --rw=write --bs=64k --size=4m --iodepth=8 \
		--fsync=2 --end_fsync=1 >/dev/null 2>&1 ||
		fail "good device, $be: exit $?: $(tail -n 5 "$T/good.json")"
	assert_eq "good device, $be: error" 0 "$(sed -n '/^{/,$p' "$T/good.json" | "$JQ" '.jobs[0].error')"
done
note "ok: the same syncs succeed on a working device"
