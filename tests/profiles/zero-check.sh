#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner's "holds data" check reads every byte it is about to write
# (issue 12, hole 5): data only at MiB 5 of a device, an ext4 whose primary
# superblock is gone but whose backups are intact (blkid sees nothing), a
# device smaller than the plan -- each refused, naming what and where, the
# device unchanged; a plan that only reads runs on a device that holds data.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup blkid mkfs.ext4 dumpe2fs

MiB=1048576
# one write job (or one read job) of the block matrix, 64 KiB blocks
w1=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$')
r1=(--no-tables --variant block --set PP_SECTIONS='^perftest-r-65536-1$')

make_loop 64 >"$T/dev"
dev=$(cat "$T/dev")
sum() { md5sum <"$dev" | cut -d' ' -f1; }

# refused REGEX RUN-ARGS...: the run fails, says REGEX, writes nothing, makes no output
refused() {
	local re=$1 before after msg
	shift
	rm -rf "$T/out" "$T"/out.partial.*
	before=$(sum)
	msg=$("$PERFPACK" run blockdev-perftest --target "$dev" -o "$T/out" "$@" 2>&1) &&
		fail "perfpack ran on $dev ($*) although it should refuse ($re): $msg"
	assert_match "refusal says what and where ($*)" "$re" "$msg"
	after=$(sum)
	assert_eq "device unchanged after the refusal ($*)" "$before" "$after"
	ls -d "$T"/out "$T"/out.partial.* >/dev/null 2>&1 && fail "output made although refused: $(ls -d "$T"/out*)"
	return 0
}

# 1. data only at MiB 5: a run writing 8 MiB is refused, naming offset 5 MiB
dd if=/dev/zero of="$dev" bs=1M count=64 conv=fsync status=none
head -c 4096 /dev/urandom | tr '\0' '\1' >"$T/mib5"
dd if="$T/mib5" of="$dev" bs=1M seek=5 conv=notrunc,fsync status=none
refused "refusing to write to $dev: it holds non-zero data \(the first non-zero byte is at offset $((5 * MiB)), MiB 5: [0-9a-f ]+; .*--force" \
	"${w1[@]}" --set SIZE=8m
# ... the file variant makes a filesystem over the whole device: refused too
refused "refusing to write to $dev: it holds non-zero data \(the first non-zero byte is at offset $((5 * MiB))" \
	--no-tables --variant file --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m --set PP_FILE_MB=8

# ... and a write plan that stays below MiB 5 writes only what it checked
"$PERFPACK" run blockdev-perftest --target "$dev" -o "$T/w1" "${w1[@]}" --set SIZE=1m >"$T/w1.log" 2>&1 ||
	fail "a write plan over the zeros below MiB 5 was refused: $(cat "$T/w1.log")"
cmp -s -n "$MiB" "$dev" /dev/zero && fail "the allowed run did not write its first MiB"
cmp -s "$T/mib5" <(dd if="$dev" bs=4096 skip=$((5 * 256)) count=1 status=none) ||
	fail "the data at MiB 5 changed"

# 2. an ext4 whose primary superblock is zeroed; its backups are intact
dd if=/dev/zero of="$dev" bs=1M count=64 conv=fsync status=none
mkfs.ext4 -q -F -b 1024 "$dev" >/dev/null || fail "mkfs.ext4 $dev"
dd if=/dev/zero of="$dev" bs=1M count=1 conv=notrunc,fsync status=none
[ -z "$(blkid -p -o value -s TYPE "$dev")" ] || fail "blkid still sees a filesystem"
dumpe2fs -o superblock=8193 -o blocksize=1024 -h "$dev" 2>/dev/null | grep -q '^Filesystem UUID' ||
	fail "no backup superblock at block 8193: the test does not build the case"
refused "refusing to write to $dev: it holds non-zero data \(the first non-zero byte is at offset [0-9]+, MiB [1-9][0-9]*: .*--force" \
	"${w1[@]}" --set SIZE=64m

# 3. a read-only plan runs on a device that holds data (it writes nothing),
# and reads: an intact ext4 (unmounted)
mkfs.ext4 -q -F "$dev" >/dev/null || fail "mkfs.ext4 $dev"
before=$(sum)
"$PERFPACK" run blockdev-perftest --target "$dev" -o "$T/ro" "${r1[@]}" --set SIZE=8m >"$T/ro.log" 2>&1 ||
	fail "a read-only plan was refused on a device holding data: $(cat "$T/ro.log")"
got=$(sed -n '/^{/,$p' "$T/ro/raw/block/perftest-r-65536-1.json" | jq '.jobs[0].read.io_bytes')
assert_eq "the read-only plan read its 8 MiB" "$((8 * MiB))" "$got"
assert_eq "the read-only plan left the device as it was" "$before" "$(sum)"

# 4. a device smaller than the plan: refused (even with --force), both sizes named
dd if=/dev/zero of="$dev" bs=1M count=64 conv=fsync status=none
refused "refusing to use $dev: the plan needs $((128 * MiB)) bytes \(128 MiB\) of it, but it holds only $((64 * MiB)) bytes \(64 MiB\)" \
	"${w1[@]}" --set SIZE=128m
refused "the plan needs $((128 * MiB)) bytes .* holds only $((64 * MiB)) bytes" \
	"${w1[@]}" --set SIZE=128m --force
refused "the plan needs $((128 * MiB)) bytes .* holds only $((64 * MiB)) bytes" \
	"${r1[@]}" --set SIZE=128m

no_leftovers
