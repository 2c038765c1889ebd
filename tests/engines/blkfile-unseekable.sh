#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A file that cannot seek (here a pseudo-terminal): psync fails its first
# read or write with ESPIPE, while an io_uring read there ignores the
# offset and waits for input: blkfile_submit=uring's job did not end on
# SIGINT, and when the terminal went away it ended 'err= 0'.  blkfile
# refuses such a file at open, naming it, with either submission mode and
# either blkfile_via (a terminal is no regular file: both use it as it is).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
san_env

open_pty

for sub in uring sync; do
	for via in file bdev; do
		for rw in read write; do
			what="submit=$sub via=$via rw=$rw on $pty"
			# SIGINT first, as a user would; fio that ignores it is
			# killed.  Output to a file: the job process, a session
			# of its own, outlives a killed fio until the terminal
			# hangs up (its holder ends with this shell).
			timeout -s INT -k 5 20 env "${SAN_ENV[@]}" "$FIO" --ioengine="$BF_ENGINE" \
				--name=tty --filename="$pty" --rw=$rw --bs=4k --size=64k \
				--blkfile_submit=$sub --blkfile_via=$via >"$T/out" 2>&1
			rc=$?
			out=$(cat "$T/out")
			case $rc in
			124|137) fail "$what: fio did not end (exit $rc): $out" ;;
			0) fail "$what: accepted: $out" ;;
			esac
			assert_match "$what: message" "blkfile: $pty: not seekable .*ESPIPE" "$out"
			assert_match "$what: job error" "err=29" "$out"
			note "$what: refused ($rc): $(echo "$out" | grep -m1 'blkfile: ')"
		done
	done
done
kill $pty_holder
