#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The tree's #include "..." graph: no cycle anywhere, and no fio header
# reachable from engines/sim/ (the model is fio-independent).  Cycles are
# between files (a header that ends up including itself); two .c files
# calling into each other through their headers are not one.  A quoted
# include resolves against the top (-I.), then the including file's folder;
# one found in neither but in fio's source tree ($FIO_SRC, from config.mk)
# is a fio header.  Run alone: make check-default TESTS=tests/build/include-graph.sh
source "$TOP/tests/lib.sh"
fio_src=$(sed -n 's/^FIO_SRC *:\?= *//p' "$TOP/config.mk")
[ -d "$fio_src" ] || fail "FIO_SRC not found in config.mk"

cd "$TOP" || fail "no $TOP"
edges=$T/edges
nfiles=0
while IFS= read -r f; do
	nfiles=$((nfiles + 1))
	d=$(dirname "$f")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while IFS= read -r inc; do
		if [ -f "$inc" ]; then
			echo "$f $inc"
		elif [ -f "$d/$inc" ]; then
			echo "$f $(realpath --relative-to=. "$d/$inc")"
		elif [ -f "$fio_src/$inc" ]; then
			echo "$f fio:$inc"
		else
			echo "$f missing:$inc"
		fi
	done
done < <(find engines analysis tests tools -name '*.[ch]' 2>/dev/null | sort) >"$edges"
[ "$nfiles" -gt 50 ] || fail "only $nfiles C files found"
[ -s "$edges" ] || fail "no include found"

# Unresolved includes would hide edges.
miss=$(grep ' missing:' "$edges")
[ -z "$miss" ] || fail "includes that resolve nowhere: $miss"

# Depth-first search from every file; a grey node met again is a cycle.
awk '
{ adj[$1] = adj[$1] " " $2; node[$1]; node[$2] }
function dfs(u,   n, i, v, a) {
	color[u] = 1; path[++depth] = u
	n = split(adj[u], a, " ")
	for (i = 1; i <= n; i++) {
		v = a[i]
		if (color[v] == 1) {
			s = v; for (k = depth; k >= 1 && path[k] != v; k--) s = path[k] " -> " s
			print "cycle: " v " -> " s; bad = 1
		} else if (!color[v])
			dfs(v)
	}
	depth--; color[u] = 2
}
END { for (u in node) if (!color[u]) dfs(u); exit bad }' "$edges" >"$T/cycles" ||
	fail "include cycle(s):
$(sort -u "$T/cycles")"

# Everything reachable from engines/sim/.
awk '
{ adj[$1] = adj[$1] " " $2 }
function reach(u, from,   n, i, a) {
	if (seen[u]++) return
	if (u ~ /^fio:/) { print u " (via " from ")"; bad = 1 }
	n = split(adj[u], a, " ")
	for (i = 1; i <= n; i++) reach(a[i], u)
}
END { for (u in adj) if (u ~ /^engines\/sim\//) reach(u, u); exit bad }' "$edges" >"$T/simfio" ||
	fail "fio headers reachable from engines/sim/: $(sort -u "$T/simfio")"

note "$nfiles files, $(wc -l <"$edges") includes: no cycle, engines/sim/ reaches no fio header"
