#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# invalidate=1 on a whole block device as the target (either blkfile_via,
# either submit mode) drops the device's cache as fio's psync does:
# BLKFLSBUF, which writes the dirty pages first and then drops them all.
# The engine's invalidate hook replaces fio's own, and it advised
# POSIX_FADV_DONTNEED over the job's range, which skips pages still under
# write-back: a read job right after a buffered write of the device read
# them from the cache where psync read the disk.
#
# Made deterministic: the target is a loop device over an image on a
# scratch filesystem that is frozen while the job starts, so the device's
# write-back cannot finish until it is thawed (2 s later).  Its pages are
# counted (mincore) as soon as fio exits.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd fsfreeze python3

bf_fs ext4 96
truncate -s 32M "$BF_MNT/target.img" || fail "truncate target.img"
TD=$(losetup --find --show "$BF_MNT/target.img") || fail "losetup target.img"
# Detached before the filesystem holding its image is unmounted.
trap 'bf_thaw; exec 9<&-; losetup -d "$TD" 2>/dev/null; _pp_teardown' EXIT

# cached DEV: how many of DEV's first 32 MiB are in its page cache.
cached() {
	python3 - "$1" <<'EOF'
import ctypes, os, sys
n = 32 << 20
fd = os.open(sys.argv[1], os.O_RDONLY)
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
		      ctypes.c_int, ctypes.c_long]
p = libc.mmap(None, n, 1, 1, fd, 0)	# PROT_READ, MAP_SHARED
vec = (ctypes.c_ubyte * (n // 4096))()
if libc.mincore(ctypes.c_void_p(p), ctypes.c_size_t(n), vec):
	sys.exit("mincore: " + os.strerror(ctypes.get_errno()))
print(sum(v & 1 for v in vec))
EOF
}

# after_read WHAT FIO_ARGS...: pages of the device still cached right after
# a 4 KiB read job with invalidate=1 that starts while 16 MiB of dirty
# pages cannot be written back.
after_read() {
	local what=$1 thaw n
	shift
	# Held open: the last close of a device writes and drops its cache.
	exec 9<"$TD"
	dd if=/dev/urandom of="$TD" bs=1M count=16 status=none || fail "$what: dd"
	bf_freeze "$BF_MNT"
	(sleep 2; fsfreeze -u "$BF_MNT") &
	thaw=$!
	run_fio --name=r --filename="$TD" --rw=read --bs=4k --size=16m --number_ios=1 \
		--invalidate=1 "$@" >"$T/out" 2>&1 || fail "$what: fio failed: $(cat "$T/out")"
	n=$(cached "$TD") || fail "$what: counting cached pages"
	wait $thaw
	bf_thaw
	exec 9<&-
	grep -q "err= 0" "$T/out" || fail "$what: job error: $(cat "$T/out")"
	echo "$n"
}

base=$(after_read "psync" --ioengine=psync)
note "psync: $base pages cached after the job"
[ "$base" -lt 1024 ] || fail "psync left $base pages cached: the control does not hold"
for args in "--blkfile_via=file" "--blkfile_via=file --blkfile_submit=uring --iodepth=4" \
	"--blkfile_via=bdev" "--blkfile_via=bdev --direct=0 --blkfile_submit=uring"; do
	# shellcheck disable=SC2086
	n=$(after_read "blkfile $args" --ioengine="$BF_ENGINE" $args)
	note "blkfile $args: $n pages cached after the job"
	[ "$n" -le $((base + 64)) ] ||
		fail "blkfile $args: $n pages of the device cached after invalidate=1 (psync: $base)"
done
exit 0
