#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio verify (crc32c, verify_backlog) through every combination of
# coop_dispatch x coop_fd x coop_ioctx x coop_ra x coop_split_kb x
# coop_backend, on scratch files (thread mode) and on a loop device (fork
# mode, half of the jobs direct=1).  Every job must finish without error
# and must have read back (verified) all it wrote; then a corrupted file
# must fail verification through the engine, so the check can fail.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd losetup "$JQ"

mb=1
combos=()
for dispatch in queue rr; do
for fd in shared per-thread; do
for ioctx in private shared; do
for ra in kernel off context; do
for split in 0 4; do
for backend in psync uring; do
	# ThreadSanitizer cannot follow raw clone(CLONE_IO) threads.
	coop_is_tsan && [ $ioctx = shared ] && continue
	combos+=("$dispatch $fd $ioctx $ra $split $backend")
done; done; done; done; done; done
n=${#combos[@]}
note "$n combinations per target"

# write_jobs TARGET: a job file with one job per combination.
write_jobs() {
	local target=$1 i=0 c
	cat <<JOB
[global]
ioengine=external:$COOP_SO
bsrange=4k-16k
size=${mb}m
verify=crc32c
verify_backlog=16
coop_threads=3
JOB
	for c in "${combos[@]}"; do
		set -- $c
		echo "[c$i-$1-$2-$3-$4-s$5-$6]"
		echo "coop_dispatch=$1"
		echo "coop_fd=$2"
		echo "coop_ioctx=$3"
		echo "coop_ra=$4"
		echo "coop_split_kb=$5"
		echo "coop_backend=$6"
		echo "rw=$([ $((i % 2)) = 0 ] && echo write || echo randwrite)"
		echo "iodepth=$(( (i % 3 == 0) ? 1 : (i % 3 == 1) ? 8 : 32 ))"
		if [ "$target" = file ]; then
			echo "filename=$T/f.$i"
		else
			echo "filename=$target"
			echo "offset=$((i * mb))m"
			echo "direct=$((i / 2 % 2))"
		fi
		i=$((i + 1))
	done
}

# check OUT.json: every job error-free, every written byte read back.  fio's
# --output file also takes its log: before the JSON, only the engine's notes
# on options the matrix sets where they do nothing (coop_ra with direct=1).
check() {
	local bad json=$1.json
	bad=$(sed '/^{/,$d' "$1" | grep -v "^coop: [^:]*: .* has no effect")
	[ -z "$bad" ] || fail "$1: more than the JSON and the engine's notes: $bad"
	sed -n '/^{/,$p' "$1" >"$json"
	bad=$("$JQ" -r '.jobs[] | select(.error != 0 or .write.io_bytes != '$((mb << 20))'
		or .read.io_bytes != .write.io_bytes)
		| "\(.jobname): error=\(.error) wrote=\(.write.io_bytes) verified=\(.read.io_bytes)"' "$json")
	[ -z "$bad" ] || fail "jobs without a clean verify: $bad"
	assert_eq "jobs in $1" "$n" "$("$JQ" '.jobs | length' "$json")"
}

write_jobs file >"$T/file.fio"
coop_fio --thread --output-format=json --output="$T/file.json" "$T/file.fio" ||
	fail "fio on scratch files exited $?: $(tail -n 20 "$T/file.json")"
check "$T/file.json"

dev=$(make_loop $((n * mb + 1)))
write_jobs "$dev" >"$T/loop.fio"
mode=
coop_is_tsan && mode=--thread	# fio's fork mode races with itself under TSan
coop_fio $mode --output-format=json --output="$T/loop.json" "$T/loop.fio" ||
	fail "fio on $dev exited $?: $(tail -n 20 "$T/loop.json")"
check "$T/loop.json"

# The engine really hands read data to verify: corrupt one block of a
# verified file and read it back through the pool.
dd if=/dev/urandom of="$T/f.0" bs=4k count=1 seek=5 conv=notrunc status=none
if coop_fio --thread --name=bad --filename="$T/f.0" --size=${mb}m --bsrange=4k-16k \
	--rw=write --verify=crc32c --verify_only=1 --coop_threads=3 \
	>"$T/bad.out" 2>&1; then
	fail "verify of a corrupted file passed through the engine"
fi
assert_match "verify failure" "verify|crc32c" "$(cat "$T/bad.out")"
note "ok: $n combinations x 2 targets verified; corruption detected"
