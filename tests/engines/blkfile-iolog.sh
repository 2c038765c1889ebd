#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkfile_via=bdev replays a read_iolog: fio leaves a replayed file's
# file_offset and io_size at 0 (filesetup.c skips sizing when a log is
# read), so the range checked at open was 0..0 and the first I/O was
# refused with EPERM ('outside the range checked at open, 0..0'), a
# message that named neither the log nor why.  The range checked is now
# the whole file.
#
# A file of 16 extents (64 KiB each, interleaved with another file's) is
# written with fio's crc32c verify headers (4 KiB intervals, each naming
# its offset); a version 2 log of reads of 4..16 KiB in scrambled order,
# several crossing extents, replays through the device with verify: every
# interval read must be the one written there.  A control replays the log
# on a copy shifted by 4 KiB, where verify must fail, so the check can see
# a read from the wrong place.  Then a log of writes covering the whole file
# (md5 headers) replays through the device with blkfile_allow_bdev_write=1,
# and psync reads the file back through the filesystem with md5 verify.
# The same writes with blkfile_submit=uring at iodepth 4 are refused (fio
# never closes a replayed file then).  Last, a log reading past the file's
# end: psync fails (its residual moves nothing), and blkfile refuses,
# naming the log.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd losetup filefrag

bf_fs ext4 64
f=$BF_MNT/f
bf_fragment "$f" 64 16
[ "$(bf_nextents "$f")" -ge 8 ] || fail "the file has $(bf_nextents "$f") extents, wanted 8 or more"
size=$((16 * 65536))
vfy=(--bs=4k --verify_interval=4096)

# The device's cache holds the file's zeros (a buffered read of the whole
# device), stale once the layout below rewrites the file through the
# filesystem: invalidate=1 of a replayed job must drop it over the whole
# file (it dropped fio's offset..offset+size, 0..0 for a replayed log, and
# the buffered replays read the zeros: 'bad magic header').
dd if="$BF_DEV" of=/dev/null bs=1M status=none
bf_fio_ok "lay out crc32c" --name=lay --filename="$f" --ioengine=psync --rw=write \
	--size=$size "${vfy[@]}" --verify=crc32c --do_verify=0
# log FILE NAME OP "OFFSET LEN"...: a version 2 iolog of OP on FILE.
log() {
	local file=$1 name=$2 op=$3 ol
	shift 3
	{
		echo "fio version 2 iolog"
		echo "$file add"
		echo "$file open"
		for ol; do echo "$file $op $ol"; done
		echo "$file close"
	} >"$T/$name.log"
}

# Reads: scrambled, 4..16 KiB, several across a 64 KiB extent boundary.
reads=("131072 4096" "61440 8192" "0 16384" "983040 16384" "258048 12288"
	"720896 4096" "126976 16384" "1044480 4096" "524288 8192" "389120 8192")
log "$f" reads read "${reads[@]}"
want=0
for ol in "${reads[@]}"; do want=$((want + ${ol#* })); done

for submit in sync uring; do
	for direct in 0 1; do
		what="replayed reads, submit=$submit direct=$direct"
		bf_fio --name=rd --filename="$f" --blkfile_via=bdev \
			--blkfile_submit=$submit --direct=$direct --read_iolog="$T/reads.log" \
			"${vfy[@]}" --verify=crc32c --output-format=json || fail "$what: fio failed: $BF_OUT"
		json=$(echo "$BF_OUT" | sed -n '/^{/,$p')
		assert_eq "$what: job error" 0 "$(echo "$json" | jq '.jobs[0].error')"
		got=$(echo "$json" | jq '.jobs[0].read.io_bytes')
		assert_eq "$what: bytes read" "$want" "$got"
		note "$what: $got bytes, every 4 KiB interval the one written there"
	done
done

# Control: the same log on a copy shifted by 4 KiB must fail verify.
g=$BF_MNT/g
{ head -c 4096 /dev/zero; cat "$f"; } >"$g" || fail "copy $f"
sync
log "$g" shifted read "${reads[@]}"
if bf_fio --name=ctl --filename="$g" --blkfile_via=bdev --read_iolog="$T/shifted.log" \
	"${vfy[@]}" --verify=crc32c && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "control: verify passed on a copy shifted by 4 KiB: the check cannot see a misplaced read: $BF_OUT"
fi
assert_match "control: a verify failure" "verify: bad header offset|bad magic|verify failed" "$BF_OUT"
note "control: the shifted copy fails verify"

# Writes through the device covering the whole file, scrambled: 8 KiB at
# 4 KiB + 8 KiB * i (each 64 KiB extent boundary inside one), and the first
# and last 4 KiB.
writes=("$((size - 4096)) 4096")
for ((i = 0; i < 127; i++)); do
	writes+=("$((4096 + 8192 * (i * 37 % 127))) 8192")
done
writes+=("0 4096")
log "$f" writes write "${writes[@]}"
bf_fio_ok "replayed writes" --name=wr --filename="$f" --blkfile_via=bdev \
	--blkfile_allow_bdev_write=1 --read_iolog="$T/writes.log" "${vfy[@]}" \
	--verify=md5 --do_verify=0
# Each log entry is 4 KiB-aligned, so the md5 headers sit at every 4 KiB.
drop_caches
out=$(run_fio --name=chk --filename="$f" --ioengine=psync --rw=read --size=$size \
	"${vfy[@]}" --verify=md5 2>&1) || fail "read back through the file: $out"
echo "$out" | grep -q "err= 0" || fail "read back through the file: $out"
note "replayed device writes read back through the file with md5 verify"

# With blkfile_submit=uring at iodepth 4 fio never closes a replayed file
# (it keeps a reference for the I/O in flight): the engine's close, which
# syncs the device writes and drops the file's stale page cache, did not
# run, and the file read back its old bytes after a job that ended
# err= 0.  Refused before any I/O, naming the log, the file unchanged.
sum=$(bf_sum_file "$f")
bf_fio --name=wr4 --filename="$f" --blkfile_via=bdev --blkfile_allow_bdev_write=1 \
	--blkfile_submit=uring --iodepth=4 --read_iolog="$T/writes.log" --buffer_pattern=0x5a5a5a5a &&
	fail "replayed writes, submit=uring iodepth=4: not refused: $BF_OUT"
assert_match "replayed writes, submit=uring iodepth=4: refused" \
	"read_iolog=$T/writes.log with blkfile_via=bdev, blkfile_submit=uring and iodepth=4" "$BF_OUT"
drop_caches
assert_eq "replayed writes, submit=uring iodepth=4: the file" "$sum" "$(bf_sum_file "$f")"
note "replayed writes, submit=uring iodepth=4: refused, the file unchanged"

# Past the end: psync fails, blkfile refuses naming the log.
log "$f" past read "0 4096" "$((size - 4096)) 8192"
out=$(run_fio --name=past --filename="$f" --ioengine=psync --read_iolog="$T/past.log" 2>&1)
echo "$out" | grep -q "err= 0" && fail "control: psync read past the end without an error: $out"
bf_fio --name=past --filename="$f" --blkfile_via=bdev --read_iolog="$T/past.log"
echo "$BF_OUT" | grep -q "err= 0" && fail "blkfile read past the end without an error: $BF_OUT"
assert_match "past the end" "refused: file bytes $((size - 4096))\.\.$((size + 4096)) are outside the range checked at open, 0\.\.$size; the I/O is replayed from read_iolog=$T/past.log" "$BF_OUT"
note "a replayed read past the end: psync fails, blkfile refuses naming the log"
