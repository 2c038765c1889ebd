#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab plot -o OUT writes what OUT names: "-" is stdout, a symlink's
# target is written (the link stays), devices, fifos and /proc/self/fd
# links are written in place (they were replaced by a regular file), a
# regular file is replaced whole and keeps its mode; errors name OUT, not a
# temporary file, and leave none behind.
#
# Every OUT is under $T: /dev/stdout, /dev/full are stood in for by a link
# to /proc/self/fd/1 and a device node of our own, so that even a fiotab
# that replaces them (the bug tested for) cannot harm the system's.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

head -3 "$DATA/seed000-block.txt" > "$T/rows"
seed_json "$T/rows" 134217728 /dev/sdx > "$T/in.json"
cd "$T" || fail "cd $T"

# no_temp WHAT: nothing but what the test made is left in $T
no_temp() {
	local left
	left=$(ls -A "$T" | grep -E '^\.fiotab-|\.tmp\.')
	[ -z "$left" ] || fail "$1: temporary file left: $left"
}

# -o -: stdout, no file named "-"
"$FIOTAB" plot -o - in.json > ref.svg || fail "plot -o -"
assert_eq "-o - gives the SVG" '<?xml version="1.0" encoding="UTF-8"?>' "$(head -1 ref.svg)"
[ -e ./- ] && fail "-o - created a file named '-'"

# a new file: mode 0666 & ~umask
(umask 027 && exec "$FIOTAB" plot -o new.svg in.json) || fail "plot into a new file"
cmp -s new.svg ref.svg || fail "new file differs from -o -"
assert_eq "new file mode" 640 "$(stat -c %a new.svg)"

# an existing file keeps its mode
echo old > old.svg
chmod 604 old.svg
"$FIOTAB" plot -o old.svg in.json || fail "plot over a file"
cmp -s old.svg ref.svg || fail "replaced file differs from -o -"
assert_eq "replaced file mode" 604 "$(stat -c %a old.svg)"

# a symlink (a chain of two, one relative into a subdirectory): the link
# stays, its target gets the SVG and keeps its mode
mkdir sub
echo old > sub/target.svg
chmod 600 sub/target.svg
ln -s sub/target.svg link1.svg
ln -s "$T/link1.svg" link2.svg
"$FIOTAB" plot -o link2.svg in.json || fail "plot into a symlink"
[ -L link2.svg ] && [ -L link1.svg ] || fail "symlink replaced by a file"
cmp -s sub/target.svg ref.svg || fail "symlink target not written"
assert_eq "symlink target mode" 600 "$(stat -c %a sub/target.svg)"
# a dangling one: its target is created
ln -s sub/created.svg dangling.svg
"$FIOTAB" plot -o dangling.svg in.json || fail "plot into a dangling symlink"
[ -L dangling.svg ] || fail "dangling symlink replaced by a file"
cmp -s sub/created.svg ref.svg || fail "dangling symlink's target not created"
no_temp "symlinks"

# a fifo is written in place and stays a fifo
mkfifo fifo
cat fifo > from-fifo.svg &
reader=$!
timeout 20 "$FIOTAB" plot -o fifo in.json
rc=$?
if [ $rc != 0 ] || [ ! -p fifo ]; then
	kill $reader 2> /dev/null	# still waiting for a writer
	fail "plot into a fifo: exit $rc$([ -p fifo ] || echo ', the fifo replaced by a file')"
fi
wait $reader
cmp -s from-fifo.svg ref.svg || fail "SVG through the fifo differs"

# /dev/stdout (-> /proc/self/fd/1): our stdout, with the shell's offset, so
# output before and after fiotab's stays in place; the link stays a link
ln -s /proc/self/fd/1 stdout
"$FIOTAB" plot -o "$T/stdout" in.json > via-stdout.svg || fail "plot into /proc/self/fd/1"
[ -L stdout ] || fail "/proc/self/fd/1 link replaced by a file"
cmp -s via-stdout.svg ref.svg || fail "SVG through stdout differs"
{ echo before; "$FIOTAB" plot -o "$T/stdout" in.json; echo after; } > mixed.svg ||
	fail "plot into stdout between other output"
cmp -s <(sed '1d;$d' mixed.svg) ref.svg && [ "$(head -1 mixed.svg)" = before ] &&
	[ "$(tail -1 mixed.svg)" = after ] || fail "stdout between other output: $(head -3 mixed.svg)"
no_temp "fifo and stdout"

# a device: written in place, its errors named after it (a node of /dev/full
# of our own; mknod needs root)
if mknod full c 1 7 2> /dev/null && ! (echo x > full) 2> /dev/null; then
	"$FIOTAB" plot -o "$T/full" in.json > out 2> err
	assert_eq "plot into a full device: status" 1 "$?"
	assert_eq "full device error" "fiotab: $T/full: No space left on device" "$(cat err)"
	[ -c full ] || fail "device node replaced by a file"
	mknod null c 1 3 || fail "mknod null"
	"$FIOTAB" plot -o "$T/null" in.json || fail "plot into a null device"
	[ -c null ] || fail "null device node replaced by a file"
	no_temp "devices"
else
	note "no device node of our own (mknod needs root): device part skipped"
fi

# errors name OUT as given, and leave nothing behind
"$FIOTAB" plot -o nodir/p.svg in.json > out 2> err
assert_eq "missing directory: status" 1 "$?"
assert_eq "missing directory error" "fiotab: nodir/p.svg: No such file or directory" "$(cat err)"
"$FIOTAB" plot -o sub in.json > out 2> err
assert_eq "directory: status" 1 "$?"
assert_eq "directory error" "fiotab: sub: Is a directory" "$(cat err)"
no_temp "errors"

# nothing to plot: OUT untouched
echo keep > keep.svg
"$FIOTAB" plot -o keep.svg --series nomatch in.json 2> /dev/null && fail "plot of nothing succeeded"
assert_eq "OUT after nothing to plot" keep "$(cat keep.svg)"
no_temp "nothing to plot"
exit 0
