#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A page of the file that another process has mapped cannot be dropped from
# the page cache: after device writes it would go on showing the file's old
# bytes, and a later write-back of it would silently undo the job's writes.
# Mapped before the job: device writes are refused, naming the page, and the
# device is unchanged.  Mapped during the job: the job fails at close saying
# so.  A page cached by read() alone (the control) is dropped and the job
# succeeds, its bytes visible through the file at once.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd python3

bf_fs ext4 64
f=$BF_MNT/f
w=(--name=w --filename="$f" --rw=write --bs=64k --blkfile_via=bdev --blkfile_allow_bdev_write=1
	--direct=1 --buffer_pattern=0x43)
mapper() {	# mapper FILE: map FILE, touch every page, hold it until killed
	python3 -c '
import mmap, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
m = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
sum(m[i] for i in range(0, len(m), 4096))
open(sys.argv[1] + ".mapped", "w").close()
time.sleep(60)' "$1" &
	mpid=$!
	for _ in $(seq 100); do [ -e "$1.mapped" ] && return; sleep 0.1; done
	fail "the mapping process did not start"
}

# control: cached by read() only
dd if=/dev/zero of="$f" bs=1M count=4 conv=fsync status=none
cat "$f" >/dev/null
bf_fio_ok "cached by read(): device write" "${w[@]}"
[ "$(head -c 4096 "$f" | tr -d C | wc -c)" = 0 ] || fail "cached by read(): the file does not show the job's bytes"

# mapped before the job
dd if=/dev/zero of="$f" bs=1M count=4 conv=fsync status=none
mapper "$f"
sync	# the journal's commit of FILE.mapped, else it lands during the job
dev0=$(bf_sum_dev "$BF_DEV")
if bf_fio "${w[@]}" && echo "$BF_OUT" | grep -q "err= 0"; then
	fail "mapped before the job: device write not refused: $BF_OUT"
fi
assert_match "mapped before the job: message" "blkfile: $f: its page at offset 0 stays in the page cache when dropped \(mapped by another process\?\)" "$BF_OUT"
assert_eq "mapped before the job: device unchanged" "$dev0" "$(bf_sum_dev "$BF_DEV")"
kill $mpid; wait $mpid 2>/dev/null; rm -f "$f.mapped"

# mapped during the job
run_fio --ioengine="$BF_ENGINE" "${w[@]}" --rate_iops=20 --time_based --runtime=3 >"$T/live.out" 2>&1 &
pid=$!
sleep 1
mapper "$f"
wait $pid
kill $mpid; wait $mpid 2>/dev/null
grep -q "err= 0" "$T/live.out" && fail "mapped during the job: the job did not fail: $(cat "$T/live.out")"
assert_match "mapped during the job: message" "stayed in the page cache after the job's device writes" "$(cat "$T/live.out")"
exit 0
