#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner refuses to write to a block device that is mounted, holds a
# filesystem signature or non-zero data -- saying which check failed, writing
# nothing -- and goes ahead on an all-zero device or with --force.  Also: an
# engine a profile needs but that is missing is refused before anything runs.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup blkid mkfs.ext4

# one tiny write job, so a run that is allowed is quick
one=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m -o "$T/out")

# not $(make_loop): in a subshell its teardown list would not reach our trap
make_loop 64 >"$T/dev"
dev=$(cat "$T/dev")
sum() { md5sum <"$dev" | cut -d' ' -f1; }

# refused RUN-ARGS -- REGEX: the run fails, says REGEX, and the device is unchanged
refused() {
	local before after msg
	before=$(sum)
	msg=$("$PERFPACK" run blockdev-perftest --target "$dev" "${one[@]}" 2>&1) &&
		fail "perfpack wrote to $dev although $1: $msg"
	assert_match "refusal names the check" "refusing to write to $dev: .*$1.*--force" "$msg"
	after=$(sum)
	assert_eq "device unchanged after refusal ($1)" "$before" "$after"
}

# 1. a filesystem signature
mkfs.ext4 -q -F "$dev" >/dev/null || fail "mkfs.ext4 $dev"
refused "filesystem/partition signature \(ext4"

# 2. mounted (checked before the signature)
# read-only: a mounted ext4 writes by itself (lazy init), which is not ours
MOUNT_OPTS=ro make_fs ext4 "$dev" >"$T/mnt"
mnt=$(cat "$T/mnt")
refused "mounted \(on $mnt\)"
umount "$mnt" || fail "umount $mnt"

# 3. no signature but data
wipefs -q -a "$dev" >/dev/null || fail "wipefs $dev"
head -c 4096 /dev/urandom | dd of="$dev" bs=4096 seek=100 conv=notrunc,fsync status=none
[ -z "$(blkid -p -o value -s TYPE "$dev")" ] || fail "signature still there"
refused "non-zero data"

# 4. all zeros: allowed, and really written
dd if=/dev/zero of="$dev" bs=1M count=64 conv=fsync status=none
"$PERFPACK" run blockdev-perftest --target "$dev" "${one[@]}" >"$T/ok.log" 2>&1 ||
	fail "refused an all-zero device: $(cat "$T/ok.log")"
cmp -s -n 1048576 "$dev" /dev/zero && fail "the allowed run did not write to $dev"
[ -s "$T/out/raw/block/perftest-w-65536-1.json" ] || fail "no raw JSON for the allowed run"

# 5. --force overrides (the device now holds data), and says so
"$PERFPACK" run blockdev-perftest --target "$dev" --force --overwrite "${one[@]}" >"$T/force.log" 2>&1 ||
	fail "--force did not override: $(cat "$T/force.log")"
assert_match "--force is reported" "although it holds non-zero data .*--force" "$(cat "$T/force.log")"

# 6. a read-only profile does not need an unused device
"$PERFPACK" run buffered-vs-raw --target "$dev" --set PP_SECTIONS='^dd-raw' --set SIZE=1m --no-tables \
	-o "$T/ro" >"$T/ro.log" 2>&1 || fail "read-only profile refused: $(cat "$T/ro.log")"

# 6a. a target that cannot be written, with a plan that writes it: refused
# before any output exists (fio's first write failed after DIR.partial.*),
# naming why; a read-only plan still runs on the read-only device
truncate -s 64M "$T/ro.img" && rodev=$(losetup -r --find --show "$T/ro.img") || fail "losetup -r"
echo "$rodev" >>"$_pp_loops"
ro1=(--no-tables --variant block --set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m)
msg=$("$PERFPACK" run blockdev-perftest --target "$rodev" "${ro1[@]}" -o "$T/rod" 2>&1) &&
	fail "a write plan ran on the read-only $rodev: $msg"
assert_match "read-only device named" "refusing to use $rodev: the plan writes it, but the device is read-only" "$msg"
ls -d "$T"/rod* >/dev/null 2>&1 && fail "output made although $rodev is read-only: $(ls -d "$T"/rod*)"
"$PERFPACK" run buffered-vs-raw --target "$rodev" --set PP_SECTIONS='^dd-raw' --set SIZE=1m --no-tables \
	-o "$T/ro2" >"$T/ro2.log" 2>&1 || fail "read-only profile refused on $rodev: $(cat "$T/ro2.log")"
make_loop 64 >"$T/dev2"
MOUNT_OPTS=ro make_fs ext4 "$(cat "$T/dev2")" >"$T/mnt2"
mnt2=$(cat "$T/mnt2")
mount -o remount,rw "$mnt2" || fail "remount rw $mnt2"
head -c 2097152 /dev/zero >"$mnt2/f" && mkdir "$mnt2/d" || fail "files on $mnt2"
mount -o remount,ro "$mnt2" || fail "remount ro $mnt2"
for t in "$mnt2/f" "$mnt2/d"; do
	msg=$("$PERFPACK" run blockdev-perftest --target "$t" "${ro1[@]}" -o "$T/rof" 2>&1) &&
		fail "a write plan ran on $t on a read-only mount: $msg"
	assert_match "read-only mount named ($t)" "refusing to use $t: .*cannot be written \(Read-only file system" "$msg"
	ls -d "$T"/rof* >/dev/null 2>&1 && fail "output made although $t is read-only: $(ls -d "$T"/rof*)"
done

# 7. an engine the profile needs but that is not there
mkdir -p "$T/profs/needs-engine"
cat >"$T/profs/needs-engine/profile.conf" <<'CONF'
TITLE="test: needs a missing engine"
JOBFILES="x.fio"
ENGINES="no-such-engine"
CONF
printf '[x]\nioengine=external:${ENGDIR}/fio-no-such-engine.so\nfilename=${TARGET}\nsize=4k\n' \
	>"$T/profs/needs-engine/x.fio"
msg=$(PERFPACK_PROFILES=$T/profs "$PERFPACK" run needs-engine -o "$T/ne" 2>&1) &&
	fail "ran without its engine"
assert_match "missing engine named" "engine no-such-engine: .*fio-no-such-engine.so not found" "$msg"
[ -d "$T/ne/raw" ] && fail "output written although the engine check failed"

# 7a. a target that does not exist: said, and no output made
msg=$("$PERFPACK" run blockdev-perftest --target "$T/no/such/dev" -o "$T/nt" 2>&1) &&
	fail "ran on a target that does not exist"
assert_match "missing target named" "target $T/no/such/dev: no such file" "$msg"
[ -e "$T/nt" ] && fail "output directory made although the target does not exist"

# 7b. an engine built for another fio (the build's ABI-mismatch engine): the
# runner's tiny job meets the ABI guard and stops before any output
mm=$B/obj/mismatch/fio-blkfile-mismatch.so
if [ -f "$mm" ]; then
	mkdir -p "$T/engdir"
	cp "$mm" "$T/engdir/fio-blkfile.so"
	msg=$(ENGDIR=$T/engdir "$PERFPACK" run blockdev-perftest --variant same_sectors -o "$T/mm" 2>&1) &&
		fail "ran with an engine built for another fio"
	assert_match "ABI refusal passed on" "engine blkfile .*does not load into fio-.*built for .*loaded by" "$msg"
	[ -d "$T/mm/raw" ] && fail "output written although the engine is for another fio"
else
	note "no $mm (built by make check): ABI refusal not exercised"
fi

# 8. not root: the scratch target is a file in $TMPDIR, removed afterwards
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	chmod 755 "$T"
	mkdir -m 1777 "$T/nr"
	setpriv --reuid=nobody --regid=nogroup --clear-groups env TMPDIR="$T/nr" HOME="$T/nr" \
		"$PERFPACK" run buffered-vs-raw --scratch --no-tables -o "$T/nr/out" >"$T/nr.log" 2>&1 ||
		fail "non-root scratch run failed: $(tail -n 5 "$T/nr.log")"
	assert_match "non-root scratch is a file in TMPDIR" "^TARGET=$T/nr/perfpack\.[^/]*/scratch\.[0-9]*\.img$" \
		"$(grep ^TARGET= "$T/nr/out/env/default.env")"
	ls -d "$T"/nr/perfpack.* >/dev/null 2>&1 && fail "non-root scratch left behind"
fi

no_leftovers
