#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Writes through the device with blkfile_allow_bdev_write=1 land in the file
# (fio verifies them through the file after the caches are dropped) and
# change no byte of the device outside the file's extents (checksummed
# before and after with the extents, as filefrag reports them, zeroed).
# The filesystem is frozen around the device writes, so the only writer
# the comparison can see is the engine.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd filefrag fsfreeze

size=$((2 << 20))
job=(--name=w --size=$size --bs=20k --rw=randwrite --verify=crc32c --randseed=4242)
# run FS DIRECT SUBMIT
run() {
	local fs=$1 direct=$2 submit=$3 f before after sum0 sum1 cached
	bf_fs "$fs" "$([ "$fs" = xfs ] && echo 320 || echo 128)"
	f=$BF_MNT/file
	bf_fragment "$f" 64 32
	# Old contents through the file, so the device writes must replace them.
	bf_fio_ok "$fs old data" "${job[@]}" --filename="$f" --randseed=1 --do_verify=0
	sum0=$(bf_sum_file "$f")
	bf_extents "$f" >"$T/extents"
	note "$fs: $(wc -l <"$T/extents") extents"

	# Warm the file's page cache: the engine must drop it after writing under it.
	cat "$f" >/dev/null
	bf_freeze "$BF_MNT"
	before=$(bf_sum_outside "$BF_DEV" "$T/extents")
	# invalidate=0: leave the warm cache to the engine's own cleanup.
	bf_fio_ok "$fs direct=$direct $submit device write" "${job[@]}" --filename="$f" \
		--do_verify=0 --blkfile_via=bdev --blkfile_allow_bdev_write=1 \
		--direct=$direct --blkfile_submit=$submit --iodepth=4 --invalidate=0
	after=$(bf_sum_outside "$BF_DEV" "$T/extents")
	bf_thaw
	assert_eq "$fs direct=$direct $submit: device outside the file's extents" "$before" "$after"

	# (fio's verify always drops caches first, so compare checksums for the cache.)
	cached=$(bf_sum_file "$f")
	drop_caches
	sum1=$(bf_sum_file "$f")
	assert_eq "$fs direct=$direct $submit: file through its cache vs from disk" "$sum1" "$cached"
	[ "$sum0" != "$sum1" ] || fail "$fs: file unchanged after device writes"
	bf_fio_ok "$fs direct=$direct $submit: verify through the file" "${job[@]}" \
		--filename="$f" --verify_only=1 --blkfile_via=file
}

run ext4 0 sync
run xfs 1 uring
run ext4 1 uring
run xfs 0 sync

# --- sync_file_range= syncs the device bytes under the file ----------------------
# fio's own do_io_u_sync() gives the file's offsets to its descriptor, here
# the device: it synced the device bytes at the file's offsets (filesystem
# metadata at offset 0), not the job's writes.  Each range synced must lie
# in the file's extents (filefrag's).
if command -v strace >/dev/null; then
	f=$BF_MNT/file
	bf_extents "$f" >"$T/extents"
	san_env
	for submit in sync uring; do
		strace -f -qq -e trace=sync_file_range -o "$T/strace" env "${SAN_ENV[@]}" "$FIO" \
			--ioengine="$BF_ENGINE" --name=w --filename="$f" --size=$size --bs=20k \
			--rw=randwrite --sync_file_range=write:4 --blkfile_via=bdev \
			--blkfile_allow_bdev_write=1 --blkfile_submit=$submit >"$T/fio.out" 2>&1 ||
			fail "sync_file_range $submit: fio failed: $(<"$T/fio.out")"
		grep -q "err= 0" "$T/fio.out" || fail "sync_file_range $submit: job error: $(<"$T/fio.out")"
		outside=$(awk 'NR == FNR { s[NR] = $1; e[NR] = $1 + $2; n = NR; next }
			/sync_file_range\(/ { split($0, a, /[(,]/); off = a[3] + 0; len = a[4] + 0; syncs++
				ok = 0; for (i = 1; i <= n; i++) if (off >= s[i] && off + len <= e[i]) ok = 1
				if (!ok) bad = bad " " off "+" len }
			END { if (!syncs) print "none"; else print bad }' "$T/extents" "$T/strace")
		[ -z "$outside" ] || fail "sync_file_range $submit: device ranges synced outside the file's extents:$outside"
	done
else
	note "no strace: sync_file_range= not checked"
fi
