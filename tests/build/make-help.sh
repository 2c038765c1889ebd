#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make help` names every make target and variable the READMEs tell a
# user to give (`make check-default TESTS=...`,
# `make fiotab-examples`, ...), and every target it names exists.
source "$TOP/tests/lib.sh"
cd "$TOP" || fail "cd $TOP"

help=$(make --no-print-directory help) || fail "make help failed"
targets=$(echo "$help" | sed -n 's/^targets: //p')
vars=$(echo "$help" | sed -n 's/^variables: //p')
[ -n "$targets" ] || fail "make help names no targets: $help"

docs=$(ls README.md ./*/README.md ./*/*/README.md 2>/dev/null)
# `make [VAR=VALUE]... TARGET [VAR=VALUE]...` as the docs quote it, or at
# the start of a line of a code block
uses=$(grep -ohE '(`|^ *)make( +[A-Z_]+=("[^"]*"|[^ `]*))* +[a-z][a-z-]*( +[A-Z_]+=("[^"]*"|[^ `]*))*' $docs)
[ -n "$uses" ] || fail "no make command found in $docs"
bad=
for t in $(echo "$uses" | sed -E 's/^[` ]*make//; s/[A-Z_]+=("[^"]*"|[^ `]*)//g' | sort -u); do
	[[ " $targets " == *" $t "* ]] || bad+=" target $t;"
done
for v in $(echo "$uses" | grep -oE '[A-Z_]+=' | tr -d = | sort -u); do
	[[ " $vars " == *" $v="* ]] || bad+=" variable $v;"
done
[ -z "$bad" ] || fail "the docs give make what 'make help' does not name:$bad
make help says:
$help"

# the rules make knows (its database; `make -n` would still run the
# recipes that call $(MAKE), check's among them)
rules=$(make -pq --no-print-directory 2>/dev/null | sed -n 's/^\([a-z][a-z-]*\):.*/\1/p' | sort -u)
for t in $targets; do
	echo "$rules" | grep -qx -- "$t" || fail "make help names '$t', which has no rule"
done
note "make help: $targets"
