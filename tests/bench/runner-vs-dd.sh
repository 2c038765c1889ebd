#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner's cost: the full blockdev-perftest matrix on a loop device, run by
# `perfpack run blockdev-perftest --full -s SIZE` and by a dd loop that does
# what SCST's blockdev-perftest does (same sizes: block sizes 2^s ... 512 B,
# 3 O_DIRECT writes then 3 O_DIRECT reads of SIZE bytes each, caches dropped
# before every one), A/B in one run, dd first.  Wall time as a ratio; target
# <= 1.15x.  Figures go to $B/obj/bench/runner-vs-dd.txt (generated).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd losetup dd

s=${BENCH_RUNNER_S:-24}
size=$((1 << s))
make_loop $(((size >> 20) + 16)) >"$T/dev"
dev=$(cat "$T/dev")
out=$B/obj/bench/runner-vs-dd.txt
mkdir -p "$(dirname "$out")"

now() { date +%s.%N; }
dropc() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# the dd loop, as blockdev-perftest -s $s -i 3 (direct, write then read)
t0=$(now)
runs=0
for ((b = s < 26 ? s : 26; b >= 9; b--)); do
	bs=$((1 << b))
	for i in 1 2 3; do
		dropc
		dd if=/dev/zero of="$dev" bs="$bs" count=$((size / bs)) oflag=direct status=none || fail "dd write bs=$bs"
		runs=$((runs + 1))
	done
	for i in 1 2 3; do
		dropc
		dd if="$dev" of=/dev/null bs="$bs" count=$((size / bs)) iflag=direct status=none || fail "dd read bs=$bs"
		runs=$((runs + 1))
	done
done
t1=$(now)
"$PERFPACK" run blockdev-perftest --target "$dev" --full -s "$size" --variant block --no-tables \
	-o "$T/pp" >"$T/pp.log" 2>&1 || fail "perfpack run failed: $(tail -n 20 "$T/pp.log")"
t2=$(now)
n=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$T/pp.log")
assert_eq "the same number of runs" "$runs" "$n"

dd_s=$(echo "$t1 - $t0" | bc)
pp_s=$(echo "$t2 - $t1" | bc)
ratio=$(echo "scale=3; $pp_s / $dd_s" | bc)
fio_s=$(sed -n '/^{/,$p' "$T"/pp/raw/block/*.json | jq -s '[.[].jobs[].job_runtime] | add / 1000')
{
	echo "# runner-vs-dd (make bench; generated $(date -u +%FT%TZ) on $(uname -n), $(fio --version), kernel $(uname -r))"
	echo "matrix: blockdev-perftest -s $s: $runs runs of $size bytes, block sizes 2^$((s < 26 ? s : 26)) ... 512 B, loop device"
	printf 'dd loop:  %8.2f s\n' "$dd_s"
	printf 'perfpack: %8.2f s (fio job runtime %.2f s; runner + fio start-up %.3f s per run)\n' "$pp_s" "$fio_s" \
		"$(echo "($pp_s - $fio_s) / $runs" | bc -l)"
	printf 'ratio:    %8.3fx (target <= 1.15x)\n' "$ratio"
	echo "runner: $(cat "$TOP/profiles/perfpack" "$TOP"/profiles/runner/perfpack_runner/*.py | wc -l) lines of Python" \
		"(profiles/perfpack + $(ls "$TOP"/profiles/runner/perfpack_runner/*.py | wc -l) modules)"
} | tee "$out"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.15) }' || fail "perfpack takes ${ratio}x the dd loop's time (target 1.15x)"
exit 0
