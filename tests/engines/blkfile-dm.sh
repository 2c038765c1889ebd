#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Discovery of a device-mapper device under a file: a linear target 1 MiB
# into a loop device, ext4 on it.  The engine must find dm-N from st_dev
# and open it (/dev/dm-N or /dev/mapper/NAME); the loop device at the same
# offsets is the wrong place and must not verify.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root
need_cmd dmsetup losetup
dmsetup version >/dev/null 2>&1 || skip "no device-mapper in this kernel"

name=perfpack-blkfile-$$
make_loop 160 >"$T/.loop"
loop=$(<"$T/.loop")
dmsetup create "$name" --table "0 $(((160 << 11) - 2048)) linear $loop 2048" ||
	fail "dmsetup create $name"
trap 'bf_thaw; _pp_teardown_dm' EXIT
_pp_teardown_dm() {
	# The filesystem comes off before the dm device, which goes before its loop.
	tac "$_pp_mounts" | while read -r m; do umount "$m" 2>/dev/null; done
	dmsetup remove "$name" 2>/dev/null
	_pp_teardown
}
dev=/dev/mapper/$name
[ -b "$dev" ] || dev=/dev/$(basename "$(readlink -f "/dev/mapper/$name")")

make_fs ext4 "$dev" -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 >"$T/.mnt"
mnt=$(<"$T/.mnt")
f=$mnt/file
bf_fragment "$f" 64 16
job=(--name=m --filename="$f" --size=1m --bs=24k --rw=randwrite --verify=crc32c)
bf_fio_ok "dm: write via=file" "${job[@]}" --do_verify=0
bf_fio_ok "dm: verify via=bdev" "${job[@]}" --verify_only=1 --blkfile_via=bdev \
	--debug=file --direct=1
assert_match "dm: device used" "blkfile: $f on /dev/(dm-[0-9]+|mapper/$name)," "$BF_OUT"
if bf_fio "${job[@]}" --verify_only=1 --blkfile_via=bdev --blkfile_dev="$loop" &&
	echo "$BF_OUT" | grep -q "err= 0"; then
	fail "dm: the loop device verified at dm offsets"
fi
assert_match "dm: the loop device under it as blkfile_dev= refused" \
	"blkfile: $f: blkfile_dev=$loop .* is not the device that holds the file: .*under that device-mapper device" "$BF_OUT"
