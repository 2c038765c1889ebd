#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner's cost: the full blockdev-perftest matrix on a loop device, run by
# `perfpack run blockdev-perftest --full -s SIZE` and by a dd loop that does
# what SCST's blockdev-perftest does (same sizes: block sizes 2^s ... 512 B,
# 3 O_DIRECT writes then 3 O_DIRECT reads of SIZE bytes each, caches dropped
# before every one), in BENCH_RUNNER_ROUNDS (3) alternating pairs in one run.
# Wall time as a ratio, the median of the pairs'; target <= 1.15x.  Figures
# go to $B/obj/bench/runner-vs-dd.txt (generated).
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
dd_loop() {
	local b bs i
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
}
pp_run() {	# pp_run N: the same matrix by perfpack into $T/pp.N
	"$PERFPACK" run blockdev-perftest --target "$dev" --full -s "$size" --variant block --no-tables \
		-o "$T/pp.$1" >"$T/pp.$1.log" 2>&1 || fail "perfpack run failed: $(tail -n 20 "$T/pp.$1.log")"
	assert_eq "the same number of runs" "$runs" "$(grep -c '^\[[0-9]*/[0-9]*\] ' "$T/pp.$1.log")"
}
timed() { local t0; t0=$(now); "$@" >&2 || exit 1; echo "$(now) - $t0" | bc; }
# perfpack refuses a device holding data it did not write as zeros: zeroed
# (not timed) before each of its runs, as a fresh device would be
zero_dev() { dd if=/dev/zero of="$dev" bs=1M count=$((size >> 20)) oflag=direct status=none || fail "zeroing $dev"; }

# ROUNDS pairs, dd first in odd rounds and perfpack first in even ones, so a
# load swing hits both sides; the ratio of each pair, then their median
rounds=${BENCH_RUNNER_ROUNDS:-3}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
dd_loop >/dev/null	# runs=, and a warm start for both
ratios=() lines=()
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then
		dd_s=$(timed dd_loop) || fail "round $r: the dd loop failed"
		zero_dev
		pp_s=$(timed pp_run "$r") || fail "round $r: perfpack failed"
	else
		zero_dev
		pp_s=$(timed pp_run "$r") || fail "round $r: perfpack failed"
		dd_s=$(timed dd_loop) || fail "round $r: the dd loop failed"
	fi
	fio_s=$(sed -n '/^{/,$p' "$T/pp.$r"/raw/block/*.json | jq -s '[.[].jobs[].job_runtime] | add / 1000')
	ratio=$(echo "scale=3; $pp_s / $dd_s" | bc)
	ratios+=("$ratio")
	lines+=("$(printf 'round %d: dd loop %6.2f s, perfpack %6.2f s (fio job runtime %.2f s; runner + fio start-up %.3f s per run): %.3fx' \
		"$r" "$dd_s" "$pp_s" "$fio_s" "$(echo "($pp_s - $fio_s) / $runs" | bc -l)" "$ratio")")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
{
	echo "# runner-vs-dd (make bench; generated $(date -u +%FT%TZ) on $(uname -n), $(fio --version), kernel $(uname -r))"
	echo "matrix: blockdev-perftest -s $s: $runs runs of $size bytes, block sizes 2^$((s < 26 ? s : 26)) ... 512 B, loop device"
	echo "load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $rounds rounds, dd first in odd ones"
	printf '%s\n' "${lines[@]}"
	printf 'ratio:    %8.3fx, the median of the rounds (target <= 1.15x)\n' "$median"
	echo "runner: $(cat "$TOP/profiles/perfpack" "$TOP"/profiles/runner/perfpack_runner/*.py | wc -l) lines of Python" \
		"(profiles/perfpack + $(ls "$TOP"/profiles/runner/perfpack_runner/*.py | wc -l) modules)"
} | tee "$out"
awk -v r="$median" 'BEGIN { exit !(r <= 1.15) }' || fail "perfpack takes ${median}x the dd loop's time (target 1.15x)"
exit 0
