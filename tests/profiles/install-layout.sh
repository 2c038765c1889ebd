#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The installed runner ($PREFIX/bin/perfpack) finds its profiles in
# $PREFIX/share/perfpack/profiles and its engines in $PREFIX/lib/fio, not in
# the build tree: install into a scratch DESTDIR and run a profile from there.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
[ -z "${SANITIZE:-}" ] || skip "install layout is checked in the default build only"

ls "$ENGDIR"/fio-*.so >/dev/null 2>&1 || skip "no engines built (the install target installs engines)"
make -s -C "$TOP" install DESTDIR="$T/inst" PREFIX=/opt/pp >"$T/install.log" 2>&1 ||
	fail "make install failed: $(tail -n 5 "$T/install.log")"
pp=$T/inst/opt/pp/bin/perfpack
[ -x "$pp" ] || fail "perfpack not installed"
# only what users run: no test programs in bin; the runner's man page
assert_eq "installed programs" "fiotab perfpack" "$(ls "$T/inst/opt/pp/bin" | sort | tr '\n' ' ' | sed 's/ $//')"
[ -s "$T/inst/opt/pp/share/man/man1/perfpack.1" ] || fail "no perfpack(1) installed"
# nothing may lead it back to the build tree
unset ENGDIR FIOTAB PERFPACK_PROFILES
list=$("$pp" list) || fail "installed perfpack list failed"
assert_match "installed profiles" 'blockdev-perftest' "$list"
assert_match "engines from PREFIX/lib/fio" "^ENGDIR=$T/inst/opt/pp/lib/fio$" \
	"$("$pp" run blockdev-perftest --env | grep ^ENGDIR=)"
out=$(PATH=/usr/bin:/bin "$pp" run buffered-vs-raw --scratch --set PP_SECTIONS='^dd-raw' -o "$T/out" 2>&1) ||
	fail "installed run failed: $out"
[ -s "$T/out/raw/default/dd-raw-bs64k.json" ] || fail "no raw JSON from the installed runner"
if [ -x "$T/inst/opt/pp/bin/fiotab" ]; then
	[ -s "$T/out/tables/dd.txt" ] || fail "installed runner did not use the installed fiotab"
fi
no_leftovers
