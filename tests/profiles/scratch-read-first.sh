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
need_cmd losetup

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
