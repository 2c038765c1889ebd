#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# coop_fd=per-thread opens the job's file again by name for each worker.
# If the name leads to another file by then (renamed or replaced since fio
# opened it), the workers wrote into that file and the job's thread into
# fio's: one job's bytes in two files, err= 0.  The job is now refused at
# open, naming the file, and the other file is left as it was.  The swap
# is made deterministic by an LD_PRELOAD shim (lib-swap-open.c) that renames
# a second file over the name right after fio's own open of it.  Control:
# without the swap the same job runs and verifies.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd "${CC:-cc}" cmp
[ -z "${SANITIZE:-}" ] || skip "the shim and a sanitizer runtime would both need to be preloaded first"

"${CC:-cc}" -shared -fPIC -o "$T/swap.so" "$TOP/tests/engines/lib-swap-open.c" -ldl ||
	fail "cannot build the open() shim"
a=$T/a
b=$T/b
head -c 1M /dev/zero >"$a"
head -c 1M /dev/zero >"$b"
args=(--name=x --coop_fd=per-thread --coop_threads=2 --filename="$a" --rw=write
	--bs=4k --size=1m --thread)

out=$(SWAP_PATH=$a SWAP_WITH=$b LD_PRELOAD=$T/swap.so coop_fio "${args[@]}" 2>&1) &&
	fail "coop_fd=per-thread ran on a name that led to another file: $out"
[ -e "$b" ] && fail "the shim did not swap the files: $out"
assert_match "message" "coop: coop_fd=per-thread: $a, opened again for worker 0, is another file than the one fio opened" "$out"
cmp -s "$a" <(head -c 1M /dev/zero) || fail "the file now at $a (the swapped-in one) was written"
note "swapped between fio's open and the workers': refused, the other file untouched"

rm -f "$a"
out=$(coop_fio "${args[@]}" --verify=md5 2>&1) || fail "control: $out"
echo "$out" | grep -q "err= 0" || fail "control: job error: $out"
note "control: the same job without the swap runs and verifies"
