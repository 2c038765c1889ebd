#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The committed job files are what their profile's gen-jobs.sh writes: each
# generator runs on a copy of its folder without the job files, and the
# job files it writes must be exactly the committed ones (same set of
# names, same bytes).  A stale, hand-edited or leftover .fio fails,
# naming the file.
source "$TOP/tests/lib.sh"

gens=("$TOP"/profiles/*/gen-jobs.sh)
[ -f "${gens[0]}" ] || fail "no profiles/*/gen-jobs.sh found"
for gen in "${gens[@]}"; do
	src=$(dirname "$gen")
	p=$(basename "$src")
	dst=$T/$p
	mkdir -p "$dst"
	# the generator's inputs: every file of the folder but the job files
	find "$src" -maxdepth 1 -type f ! -name '*.fio' -exec cp -p {} "$dst/" \;
	(cd "$dst" && bash ./gen-jobs.sh) >"$T/$p.log" 2>&1 ||
		fail "profiles/$p/gen-jobs.sh failed: $(cat "$T/$p.log")"
	want=$(cd "$src" && ls -- *.fio 2>/dev/null)
	got=$(cd "$dst" && ls -- *.fio 2>/dev/null)
	[ -n "$got" ] || fail "profiles/$p/gen-jobs.sh wrote no job file"
	[ "$want" = "$got" ] ||
		fail "profiles/$p: committed job files ($(echo $want)) differ from what gen-jobs.sh writes ($(echo $got))"
	for f in $got; do
		diff -u "$src/$f" "$dst/$f" >"$T/$p-$f.diff" ||
			fail "profiles/$p/$f is not what gen-jobs.sh writes (rerun it and commit):
$(head -20 "$T/$p-$f.diff")"
	done
	note "profiles/$p: $(echo "$got" | wc -l) job files match gen-jobs.sh"
done
