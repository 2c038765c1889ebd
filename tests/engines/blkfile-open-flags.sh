#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkfile_via=bdev opens the device as fio opens one (filesetup.c: any file
# that is not regular gets O_NOATIME): without it every read of the device
# went through touch_atime(), ~2 % of a direct 4 KiB read's CPU that fio's
# own engines do not pay (engines/blkfile/results/parity.md).  The flags of
# each descriptor are read from /proc/PID/fdinfo while the job still holds
# them (exec_postrun runs in the job's process before its files close);
# the control is psync on the same device, whose descriptor must show the
# bit, so the check can see it.  Both ways blkfile opens a device: its node
# in /dev, and a private node made when /dev has none.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
need_root

bf_fs ext4 64
f=$BF_MNT/file
dd if=/dev/urandom of="$f" bs=1M count=4 conv=fsync status=none || fail "dd $f"
dev=$(readlink -f "$BF_DEV")

# Every descriptor of the process PID: "TARGET FLAGS" (flags in octal).
cat >"$T/fds.sh" <<'EOF'
for d in /proc/$1/fd/*; do
	echo "$(readlink "$d") $(awk '$1 == "flags:" { print $2 }' "/proc/$1/fdinfo/${d##*/}")"
done
EOF

# dev_flags NAME [ERE]: the flags of the one descriptor in NAME.postrun.txt
# whose target matches ERE (default: $dev itself).
dev_flags() {
	local re=${2:-} fl
	fl=$(awk -v d="$dev" -v re="$re" '{ f = $NF; $NF = ""; sub(/ $/, "") }
		(re == "" && $0 == d) || (re != "" && $0 ~ re) { print f }' "$T/$1.postrun.txt" | sort -u)
	[ "$(echo "$fl" | grep -c .)" = 1 ] ||
		fail "$1: expected one descriptor on ${re:-$dev}, got: $(cat "$T/$1.postrun.txt")"
	echo "$fl"
}
# O_NOATIME is 01000000 (octal) on Linux.
noatime() { (( (8#$1 & 8#1000000) != 0 )); }

cd "$T" || fail "cd $T"
common=(--rw=randread --bs=4k --time_based --runtime=1 --size=4m
	--exec_postrun="sh $T/fds.sh \$PPID")

out=$(run_fio --name=ctl --ioengine=psync --filename="$dev" "${common[@]}" 2>&1) ||
	fail "psync on $dev: $out"
ctl=$(dev_flags ctl)
noatime "$ctl" || fail "control: fio's own descriptor on $dev has no O_NOATIME (flags $ctl): the check cannot see it"
note "psync's descriptor on $dev: flags $ctl (O_NOATIME)"

for direct in 0 1; do
	for submit in sync uring; do
		name=bf-$submit-d$direct
		bf_fio_ok "$name" --name="$name" --filename="$f" --blkfile_via=bdev \
			--blkfile_submit=$submit --direct=$direct "${common[@]}"
		fl=$(dev_flags "$name")
		noatime "$fl" || fail "$name: blkfile's descriptor on $dev has no O_NOATIME (flags $fl; fio's: $ctl)"
		note "$name: flags $fl (O_NOATIME)"
	done
done

# The other way blkfile opens a device: with no node for it in /dev (a
# container without udev) it mknods a private one and unlinks it at once
# (bdev.c open_private()).  A mount namespace whose /dev is an empty tmpfs.
need_cmd unshare
name=bf-private
TMPDIR=$T unshare -m sh -c 'mount --make-rprivate / && mount -t tmpfs none /dev && exec "$@"' sh \
	"$FIO" --ioengine="$BF_ENGINE" --name=$name --filename="$f" --blkfile_via=bdev \
	"${common[@]}" >"$T/$name.out" 2>&1 || fail "$name: fio failed: $(cat "$T/$name.out")"
grep -q "err= 0" "$T/$name.out" || fail "$name: job error: $(cat "$T/$name.out")"
fl=$(dev_flags $name '/[.]blkfile[.][^/]*/dev [(]deleted[)]$')
noatime "$fl" || fail "$name: blkfile's descriptor on its private node has no O_NOATIME (flags $fl)"
note "$name: private node, flags $fl (O_NOATIME)"
