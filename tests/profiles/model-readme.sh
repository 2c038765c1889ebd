#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# profiles/scst-coop/README.md's tables are what readme-tables makes of the
# committed results/ (the one command that generates them): a results/ file
# regenerated without `readme-tables --update`, or a hand edit between the
# markers, fails here.  readme-tables refuses what it does not take (an
# option was read as the results directory).
. "$TOP/tests/lib.sh"
RT=$TOP/profiles/scst-coop/readme-tables
README=$TOP/profiles/scst-coop/README.md

[ "$(grep -c '^<!-- tables:\(begin\|end\)[ -]' "$README")" = 2 ] ||
	fail "README.md has not exactly one tables:begin / tables:end pair"
"$RT" >"$T/made" || fail "readme-tables failed"
sed -n '/^<!-- tables:begin[ -]/,/^<!-- tables:end -->$/p' "$README" | sed '1d;$d' >"$T/readme"
diff -u "$T/made" "$T/readme" >"$T/diff" ||
	fail "README.md's tables differ from readme-tables' (run profiles/scst-coop/readme-tables --update): $(head -20 "$T/diff")"

out=$("$RT" --check 2>&1); rc=$?
assert_eq "exit for an unknown option" 2 "$rc"
assert_match "unknown option named" "unknown option '--check'" "$out"
out=$("$RT" "$T" "$T" 2>&1); rc=$?
assert_eq "exit for two directories" 2 "$rc"
# a results directory without the files: named, nothing printed
mkdir "$T/empty"
out=$("$RT" "$T/empty" 2>/dev/null); rc=$?
assert_eq "exit for an empty results directory" 1 "$rc"
assert_eq "nothing printed for it" "" "$out"
exit 0
