#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A plan that reads what it has not written (--set PP_RW=read on
# blockdev-perftest) reads real blocks of its scratch device: the runner's
# scratch file in $TMPDIR under the loop device is written in full for it,
# as for a read-only profile. A sparse one gave reads of holes, no device I/O,
# tabled as the target's (10971 MB/s where the same reads after the writes
# were 565 MB/s). A plan that writes first keeps a sparse scratch file.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup mkfs.ext4 fallocate

# fio as the runner runs it, but first noting how much of the scratch file
# under the loop device TARGET is allocated (KiB) against its size (KiB)
cat >"$T/fio" <<FIO
#!/bin/bash
for a; do
	case \$a in --section=*)
		b=\$(cat "/sys/block/\$(basename "\$TARGET")/loop/backing_file" 2>/dev/null) &&
			echo "\$(du -k "\$b" | cut -f1) \$((\$(stat -c %s "\$b") / 1024))" >>"$T/alloc" ;;
	esac
done
exec "$FIO" "\$@"
FIO
chmod +x "$T/fio"

# alloc_of ARGS...: used, size: KiB allocated and KiB long of the scratch file at the first fio run
alloc_of() {
	rm -f "$T/alloc"
	rm -rf "$T/out"
	FIO=$T/fio TMPDIR=$T "$PERFPACK" run blockdev-perftest --variant block --no-tables -o "$T/out" \
		--set PP_SCRATCH_MB=64 "$@" >"$T/run.log" 2>&1 || fail "run $* failed: $(tail -n 5 "$T/run.log")"
	[ -s "$T/alloc" ] || fail "run $*: no fio run saw a loop device over a scratch file: $(cat "$T/run.log")"
	read -r used size <"$T/alloc"
}

alloc_of --set PP_SECTIONS='^perftest-r-65536-1$'
[ "$used" -ge "$size" ] ||
	fail "a plan that only reads ran on a sparse scratch file ($used KiB of $size allocated): it reads holes, not the device"
alloc_of --set PP_SECTIONS='^perftest-[wr]-65536-1$'
[ "$used" -lt "$size" ] || fail "a plan that writes first filled its scratch file ($used KiB of $size)"
no_leftovers

# A --target file with holes or unwritten extents
# where such a plan reads is refused, naming the offset: its reads would
# return zeros without I/O (46933 MB/s tabled for a 256 MiB sparse file).
make_loop 64 fs >"$T/fsdev"
make_fs ext4 "$(cat "$T/fsdev")" >"$T/mnt"
mnt=$(cat "$T/mnt")
r1=(--variant block --no-tables --set PP_SECTIONS='^perftest-r-65536-1$')
# refused_on PATH REGEX: the read plan on PATH is refused, saying REGEX, no output made
refused_on() {
	local msg
	rm -rf "$T/out" "$T"/out.partial.*
	msg=$("$PERFPACK" run blockdev-perftest --target "$1" -o "$T/out" "${r1[@]}" 2>&1) &&
		fail "a plan reading $1 (holes where it reads) ran: $msg"
	assert_match "refusal of reads of holes in $1" "$2" "$msg"
	ls -d "$T"/out "$T"/out.partial.* >/dev/null 2>&1 && fail "output made although refused: $(ls -d "$T"/out*)"
	return 0
}
truncate -s 16M "$mnt/sparse"
refused_on "$mnt/sparse" "reads its first 8388608 bytes .* hole .* at offset 0"
# data in the first MiB, a hole after it
dd if=/dev/urandom of="$mnt/part" bs=1M count=1 conv=fsync status=none
truncate -s 16M "$mnt/part"
refused_on "$mnt/part" "hole .* at offset 1048576"
# unwritten extents (fallocate): no data either
fallocate -l 16M "$mnt/falloc"
refused_on "$mnt/falloc" "hole .* at offset 0"
# a written file runs
dd if=/dev/urandom of="$mnt/full" bs=1M count=16 conv=fsync status=none
"$PERFPACK" run blockdev-perftest --target "$mnt/full" -o "$T/out-full" "${r1[@]}" >"$T/full.log" 2>&1 ||
	fail "a read plan on a written file failed: $(tail -n 5 "$T/full.log")"
