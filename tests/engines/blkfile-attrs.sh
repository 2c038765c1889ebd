#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Files whose inode says their extents must not change, or do not hold their
# plain data, are refused through the device: device writes to an immutable
# (chattr +i) or append-only (chattr +a) file, which the kernel refuses
# through the file (the control), leave the device byte-identical and the job
# fails naming the attribute; reads of them still run.  An fscrypt-encrypted
# file (ext4 -O encrypt; its FIEMAP does not flag the extents) is refused for
# reads too: the device holds ciphertext.  chattr +i during a write job stops
# it at the next re-verification; an active swap file is refused as one.
# Each "before" checksum follows a sync: ext4's journal would otherwise commit
# the last chattr or chmod to the device up to 5 s later, during the job.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd chattr

bf_fs ext4 128 -O encrypt
w=(--bs=4k --rw=write --size=64k --blkfile_via=bdev --blkfile_allow_bdev_write=1 --direct=1)

for attr in i a; do
	f=$BF_MNT/f$attr
	dd if=/dev/urandom of="$f" bs=1M count=1 conv=fsync status=none
	chattr +$attr "$f" || fail "chattr +$attr"
	run_fio --ioengine=psync --name=ctl --filename="$f" --rw=write --bs=4k --size=64k \
		>"$T/ctl.out" 2>&1 && grep -q "err= 0" "$T/ctl.out" &&
		fail "control: psync wrote the chattr +$attr file: $(cat "$T/ctl.out")"
	sync
	dev0=$(bf_sum_dev "$BF_DEV")
	if bf_fio --name=w --filename="$f" "${w[@]}" && echo "$BF_OUT" | grep -q "err= 0"; then
		fail "+$attr: device write not refused: $BF_OUT"
	fi
	case $attr in
	i) assert_match "+i: message" "blkfile: $f: is immutable \(chattr \+i\)" "$BF_OUT" ;;
	a) assert_match "+a: message" "blkfile: $f: is append-only \(chattr \+a\)" "$BF_OUT" ;;
	esac
	assert_eq "+$attr: device unchanged" "$dev0" "$(bf_sum_dev "$BF_DEV")"
	bf_fio_ok "+$attr: reads through the device still run" --name=r --filename="$f" \
		--bs=4k --rw=read --size=64k --blkfile_via=bdev
	chattr -$attr "$f"
done

# chattr +i during a write job: the next re-verification (100 ms) stops it.
f=$BF_MNT/live
dd if=/dev/urandom of="$f" bs=1M count=16 conv=fsync status=none
run_fio --ioengine="$BF_ENGINE" --name=w --filename="$f" --bs=4k --rw=randwrite --size=16m \
	--blkfile_via=bdev --blkfile_allow_bdev_write=1 --direct=1 --rate_iops=500 \
	--time_based --runtime=5 --blkfile_recheck_msec=100 >"$T/live.out" 2>&1 &
pid=$!
sleep 1.5
chattr +i "$f" || fail "chattr +i during the job"
sleep 0.5
sync
dev1=$(bf_sum_dev "$BF_DEV")
wait $pid
grep -q "err= 0" "$T/live.out" && fail "chattr +i during the job: the job did not fail: $(cat "$T/live.out")"
assert_match "chattr +i during the job: message" \
	"the file's attributes changed during the job: it now is immutable" "$(cat "$T/live.out")"
assert_eq "chattr +i during the job: no device write after it" "$dev1" "$(bf_sum_dev "$BF_DEV")"
chattr -i "$f"

# An active swap file: the kernel writes its blocks itself (psync gets
# ETXTBSY); named as such, not as "open for writing elsewhere".
if command -v mkswap >/dev/null && command -v swapon >/dev/null; then
	sw=$BF_MNT/swapfile
	dd if=/dev/zero of="$sw" bs=1M count=16 conv=fsync status=none
	chmod 600 "$sw"
	mkswap "$sw" >/dev/null
	if swapon -p -2 "$sw" 2>/dev/null; then
		trap 'swapoff "$sw" 2>/dev/null; _pp_teardown' EXIT
		# The kernel may swap pages out into the file's slots (every
		# page after the header) at any time: compare the device with
		# those slots left out; the job's first page is the header.
		bf_extents "$sw" | awk 'NR == 1 { $1 += 4096; $2 -= 4096 } $2 > 0' >"$T/slots"
		dev0=$(bf_sum_outside "$BF_DEV" "$T/slots")
		if bf_fio --name=w --filename="$sw" "${w[@]}" && echo "$BF_OUT" | grep -q "err= 0"; then
			fail "swap file: device write not refused: $BF_OUT"
		fi
		assert_match "swap file: message" "blkfile: $sw: is an active swap file \(/proc/swaps\)" "$BF_OUT"
		assert_eq "swap file: device unchanged outside its slots" "$dev0" \
			"$(bf_sum_outside "$BF_DEV" "$T/slots")"
		swapoff "$sw"
	else
		echo "swapon refused here: active swap file not checked"
	fi
fi

# fscrypt: ciphertext on the device, for reads as for writes.
if ! command -v e4crypt >/dev/null; then
	echo "e4crypt (e2fsprogs) not found: encrypted file not checked"
	exit 0
fi
mkdir "$BF_MNT/enc"
if ! echo -n perfpack-test | e4crypt add_key -S 0x0123456789abcdef0123456789abcdef "$BF_MNT/enc" >/dev/null 2>&1 ||
	! e4crypt get_policy "$BF_MNT/enc" >/dev/null 2>&1; then
	echo "no fscrypt policy could be set (kernel or keyring): encrypted file not checked"
	exit 0
fi
f=$BF_MNT/enc/f
dd if=/dev/urandom of="$f" bs=1M count=1 conv=fsync status=none
for rw in read write; do
	sync
	dev0=$(bf_sum_dev "$BF_DEV")
	if bf_fio --name=e --filename="$f" --bs=4k --rw=$rw --size=64k --blkfile_via=bdev \
		--blkfile_allow_bdev_write=1 --direct=1 && echo "$BF_OUT" | grep -q "err= 0"; then
		fail "encrypted file: device $rw not refused: $BF_OUT"
	fi
	assert_match "encrypted, $rw: message" "blkfile: $f: is encrypted \(fscrypt\)" "$BF_OUT"
	assert_eq "encrypted, $rw: device unchanged" "$dev0" "$(bf_sum_dev "$BF_DEV")"
done
exit 0
