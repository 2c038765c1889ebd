#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make install lays the pack out where fio and users look for it, and the
# installed copies work; make uninstall removes exactly that.
source "$TOP/tests/lib.sh"

root=$T/root
make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr >"$T/install.log" 2>&1 ||
	fail "make install failed: $(cat "$T/install.log")"
for e in $ENGINES; do
	[ -f "$root/usr/lib/fio/fio-$e.so" ] || fail "engine $e not installed in /usr/lib/fio"
done
[ -x "$root/usr/bin/fiotab" ] || fail "fiotab not installed"
[ -x "$root/usr/bin/perfpack" ] || fail "perfpack runner not installed"
ls "$root/usr/share/perfpack/profiles/"*/ >/dev/null 2>&1 || fail "profiles not installed"
"$root/usr/bin/fiotab" --help >/dev/null 2>&1 || fail "installed fiotab does not run"
# Only what users run: no test program (tests/), no tree-bound tool (tools/).
# A new user program is added here on purpose.
for f in "$root"/usr/bin/*; do
	case ${f##*/} in
	fiotab | perfpack) ;;
	*) fail "make install put ${f#$root} in bin: not a user program" ;;
	esac
done

make -s -C "$TOP" uninstall DESTDIR="$root" PREFIX=/usr >"$T/uninstall.log" 2>&1 ||
	fail "make uninstall failed: $(cat "$T/uninstall.log")"
left=$(find "$root" -type f | sed "s|^$root||")
[ -z "$left" ] || fail "uninstall left files behind: $left"
