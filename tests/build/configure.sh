#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# configure takes a source tree only of the fio binary's own version, and
# says which versions differ; bad options are refused by name.
source "$TOP/tests/lib.sh"

src=$(sed -n 's/^FIO_SRC = //p' "$TOP/config.mk")
[ -d "$src" ] || fail "config.mk names no fio source tree"

# A tree of another version: the same files, another DEF_VER.
wrong=$T/fio-wrong
mkdir -p "$wrong"
cp "$src/fio.h" "$src/ioengines.h" "$wrong/"
sed 's/^DEF_VER=.*/DEF_VER=fio-3.99/' "$src/FIO-VERSION-GEN" >"$wrong/FIO-VERSION-GEN"

cd "$T" || exit 1
out=$("$TOP/configure" --fio-src="$wrong" 2>&1) && fail "wrong-version tree accepted: $out"
assert_match "wrong version message" "is fio-3.99 but the binary .* is $FIO_VERSION" "$out"
[ ! -f config.mk ] || fail "config.mk written despite the refusal"

out=$("$TOP/configure" --fio-src="$T/nowhere" 2>&1) && fail "missing tree accepted"
assert_match "not a tree message" "is not a fio source tree" "$out"

out=$("$TOP/configure" --frobnicate 2>&1) && fail "unknown option accepted"
assert_match "unknown option message" "unknown option '--frobnicate'" "$out"

# The real tree is accepted and config.mk names it and the version.
"$TOP/configure" --fio-src="$src" --prefix=/opt/pp >"$T/ok.log" 2>&1 ||
	fail "configure with the right tree failed: $(cat "$T/ok.log")"
grep -q "^FIO_VERSION = $FIO_VERSION\$" config.mk || fail "config.mk lacks FIO_VERSION"
grep -q "^PREFIX = /opt/pp\$" config.mk || fail "config.mk lacks PREFIX"
