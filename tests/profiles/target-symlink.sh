#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A --target given through a symbolic link (yours, or /dev/disk/by-*) is
# checked, held, set up (mkfs) and given to fio as the path it resolves to
# when the run starts: fio and mkfs open it by name at every run, and a link
# changed meanwhile had them write the device it then named, which the
# runner never checked nor held.  run.txt names both.  A --target that
# opens what no path names (/proc/self/fd/N of a deleted file) is refused.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup mkfs.xfs

a=$(make_loop 600 a)
b=$(make_loop 600 b)
ln -s "$a" "$T/lnk"
# a fio that points the link at the other device as the first run starts
cat >"$T/swap-fio" <<EOS
#!/bin/bash
case " \$* " in *" --output="*) ln -sfn "$b" "$T/lnk" ;; esac
exec "$FIO" "\$@"
EOS
chmod +x "$T/swap-fio"
FIO=$T/swap-fio "$PERFPACK" run blockdev-perftest --target "$T/lnk" --no-tables --variant block,file \
	--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m --set PP_FILE_MB=2 -o "$T/o1" >"$T/o1.log" 2>&1 ||
	fail "a run on a link to $a failed: $(tail -n 5 "$T/o1.log")"
assert_eq "$T/lnk now names $b" "$b" "$(readlink "$T/lnk")"
[ -z "$(tr -d '\0' <"$b" | head -c 1)" ] ||
	fail "$b, never named to perfpack, was written after the link to $a was changed: $(blkid -p "$b")"
assert_eq "fio's filename (block)" "filename=$a" "$(grep '^filename=' "$T/o1/bundle/block/blockdev-perftest.fio")"
assert_match "run.txt names the link and the device" "^target: $a \(--target $T/lnk\)" "$(cat "$T/o1/run.txt")"

# a --target through /proc/self/fd/N (or /dev/fd/N) of a deleted file opens
# what no path names: the runner made and fio wrote a new file named
# '... (deleted)': refused
truncate -s 8M "$T/gone"
exec 3<>"$T/gone"
rm "$T/gone"
msg=$("$PERFPACK" run blockdev-perftest --target /proc/self/fd/3 --no-tables --variant block \
	--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m -o "$T/o3" 2>&1) &&
	fail "a run on /proc/self/fd/3, a deleted file, was not refused: $msg"
exec 3>&-
assert_match "the deleted file named" "--target /proc/self/fd/3: opens $T/gone \(deleted\), which no path names" "$msg"
[ -e "$T/gone (deleted)" ] && fail "a file '$T/gone (deleted)' was made, which the user never named"
compgen -G "$T/o3*" >/dev/null && fail "output made for a refused target: $(ls -d "$T"/o3*)"

# a link to a directory, then '..': the kernel goes up from where the link
# points, and so must the target and -o (os.path.abspath dropped 'dl/..' as
# text: the runner made and fio wrote $T/f.img, and the output went to
# $T/o4, neither named)
mkdir -p "$T/d/sub"
ln -s "$T/d/sub" "$T/dl"
"$PERFPACK" run blockdev-perftest --target "$T/dl/../f.img" --no-tables --variant block \
	--set PP_SECTIONS='^perftest-w-65536-1$' --set SIZE=1m -o "$T/dl/../o4" >"$T/o4.log" 2>&1 ||
	fail "a run on $T/dl/../f.img failed: $(tail -n 5 "$T/o4.log")"
[ -e "$T/f.img" ] && fail "$T/f.img was made and written, not $T/d/f.img ($T/dl/../f.img): $(cat "$T/o4.log")"
[ -s "$T/d/f.img" ] || fail "fio did not write $T/d/f.img ($T/dl/../f.img): $(cat "$T/o4.log")"
[ -e "$T/o4" ] && fail "the output went to $T/o4, not $T/d/o4 ($T/dl/../o4)"
assert_match "run.txt names the target" "^target: $T/d/f.img$" "$(cat "$T/d/o4/run.txt")"
no_leftovers
