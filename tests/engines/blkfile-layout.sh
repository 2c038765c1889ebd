#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio lays out a file a job needs larger before the engine opens it
# (filesetup.c, extend_file()): for a job that writes and does not read,
# without overwrite=1, it unlinks the file and fallocates a new one; with
# file_append=1 it grows the file by fallocate.  blkfile_via=bdev cannot
# write such a file (the device holds none of the new bytes), so the job
# was refused at open, after the user's file was gone or grown.  Now
# file_append is refused before fio looks at the file, and the other jobs
# are refused at open as the file is: its name, inode, size and bytes
# unchanged, and a file that does not exist is not created; so is a
# create_only=1 job (it ended with exit 0, nothing laid out).  fio's psync
# lays the same files out (the case is real), and a via=bdev write job
# that fits the file, or one with overwrite=1 or that reads (fio's new
# layout is written bytes), still runs.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 128
f=$BF_MNT/data
wjob=(--name=w --bs=64k --rw=write --blkfile_via=bdev --blkfile_allow_bdev_write=1)

# fresh: $f of 2 MiB written through the filesystem; its identity in $id0.
fresh() {
	rm -f "$f"
	dd if=/dev/urandom of="$f" bs=1M count=2 conv=fsync status=none
	id0="$(stat -c '%i %s' "$f") $(bf_sum_file "$f")"
}

# untouched WHAT REGEX FIO_ARGS...: the job on $f is refused saying
# "blkfile: $f: ...REGEX", and $f is what it was.
untouched() {
	local what=$1 re=$2
	shift 2
	fresh
	if bf_fio --filename="$f" "$@" && echo "$BF_OUT" | grep -q "err= 0"; then
		fail "$what: not refused: $BF_OUT"
	fi
	assert_match "$what: message" "blkfile: $f: .*$re" "$BF_OUT"
	assert_eq "$what: file (inode, size, bytes)" "$id0" \
		"$(stat -c '%i %s' "$f") $(bf_sum_file "$f")"
	note "$what: $(echo "$BF_OUT" | grep -m1 "blkfile: ")"
}

# The control: psync lays each file out, the first job's anew.
fresh
run_fio --name=w --ioengine=psync --filename="$f" --rw=write --bs=64k --size=4m \
	--create_only=1 >/dev/null 2>&1 || fail "psync layout failed"
[ "$(stat -c '%i %s' "$f")" != "${id0% *}" ] || fail "psync did not lay the file out"
fresh
run_fio --name=w --ioengine=psync --filename="$f" --rw=write --bs=64k --size=1m \
	--file_append=1 --create_only=1 >/dev/null 2>&1 || fail "psync file_append layout failed"
assert_eq "psync file_append grows the file" 3145728 "$(stat -c %s "$f")"

untouched "write job larger than the file" "ends past the end of the file \\(2097152 bytes\\)" \
	"${wjob[@]}" --size=4m
untouched "... with fallocate=none" "ends past the end of the file \\(2097152 bytes\\)" \
	"${wjob[@]}" --size=4m --fallocate=none
untouched "... with filesize=" "ends past the end of the file \\(2097152 bytes\\)" \
	"${wjob[@]}" --filesize=4m
untouched "... direct=1, submit=uring" "ends past the end of the file \\(2097152 bytes\\)" \
	"${wjob[@]}" --size=4m --direct=1 --blkfile_submit=uring
untouched "file_append" "file_append=1 with blkfile_via=bdev: the job writes past the file's end" \
	"${wjob[@]}" --size=1m --file_append=1
untouched "file_append with overwrite=1" "file_append=1 with blkfile_via=bdev" \
	"${wjob[@]}" --size=1m --file_append=1 --overwrite=1
# fill_device=1 writes until the filesystem is full, past any file's end:
# with overwrite=1 (or reads) fio first replaced the file with one filling
# the filesystem, then the engine refused the job's range, 0..2^64-1,
# naming no option.
untouched "fill_device" "fill_device=1 with blkfile_via=bdev" "${wjob[@]}" --fill_device=1
untouched "fill_device with overwrite=1" "fill_device=1 with blkfile_via=bdev" \
	"${wjob[@]}" --fill_device=1 --overwrite=1
untouched "fill_device, rw=randrw" "fill_device=1 with blkfile_via=bdev" \
	"${wjob[@]}" --fill_device=1 --rw=randrw

rm -f "$BF_MNT/none"
bf_fio --filename="$BF_MNT/none" "${wjob[@]}" --size=1m
echo "$BF_OUT" | grep -q "err= 0" && fail "missing file: not refused: $BF_OUT"
[ ! -e "$BF_MNT/none" ] || fail "missing file: created ($(stat -c %s "$BF_MNT/none") bytes): $BF_OUT"
note "missing file: refused, not created"

# create_only=1 asks for fio's layout and no I/O (psync lays the file out,
# above): such a job took create_on_open's path, fio laid nothing out, and
# it ended with exit 0, a missing file not created, nothing said.
rm -f "$BF_MNT/none"
bf_fio --filename="$BF_MNT/none" "${wjob[@]}" --size=1m --create_only=1 &&
	fail "create_only=1, missing file: exit 0, not created, nothing said: $BF_OUT"
assert_match "create_only=1, missing file: message" \
	"blkfile: $BF_MNT/none: create_only=1 with blkfile_via=bdev" "$BF_OUT"
[ ! -e "$BF_MNT/none" ] || fail "create_only=1, missing file: created: $BF_OUT"
note "create_only=1, missing file: refused, not created"
untouched "create_only=1, file smaller" "create_only=1 with blkfile_via=bdev" \
	"${wjob[@]}" --size=4m --create_only=1

# What fits, or what fio lays out with written bytes, still runs.
fresh
bf_fio_ok "write job within the file" --filename="$f" "${wjob[@]}" --size=2m
fresh
bf_fio_ok "write job, overwrite=1, larger than the file" --filename="$f" "${wjob[@]}" \
	--size=4m --overwrite=1
assert_eq "overwrite=1: laid out to" 4194304 "$(stat -c %s "$f")"
fresh
bf_fio_ok "read job larger than the file" --filename="$f" --name=r --bs=64k --rw=read \
	--blkfile_via=bdev --size=4m
bf_fio_ok "via=file, file_append" --filename="$f" --name=a --bs=64k --rw=write --size=1m \
	--file_append=1
note "ok: jobs that fit the file, overwrite=1, reads and via=file run"
