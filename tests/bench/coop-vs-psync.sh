#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# coop against fio's own engines, side by side, on page-cached data:
#   4 KiB random reads and 1 MiB sequential reads:
#     psync (iodepth 1) vs coop_threads=1 and =2 at iodepth 16;
#   per-I/O hand-off cost: coop_threads=1 at iodepth 1 minus psync, per I/O,
#     next to fio's null engine's per-I/O cost;
# and the issue's readahead case on a loop device: 5 workers x 64 KiB
# sequential reads, read_ahead_kb=64, shared vs per-thread fds, coop_ra
# kernel/off/context.
#
# The machine is shared: every configuration runs once per round, in turn,
# and the ratios are medians over BENCH_ROUNDS rounds (default 5) of
# BENCH_SECONDS (default 2) each.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_cmd "$JQ" losetup
rounds=${BENCH_ROUNDS:-5}
secs=${BENCH_SECONDS:-2}

# tmpfs: page-cache reads that another process's drop_caches cannot evict
# (the machine is shared; tests elsewhere drop caches).
need_root
mkdir -p "$T/shm"
mount -t tmpfs -o size=300m coop-bench "$T/shm" || fail "cannot mount tmpfs"
trap 'umount "$T/shm"; _pp_teardown' EXIT
file=$T/shm/cached
dd if=/dev/urandom of="$file" bs=1M count=256 status=none

# iops ENGINE_ARGS...: read IOPS of one run on the cached file.
iops() {
	run_fio --output-format=json --name=b --filename="$file" --size=256m \
		--invalidate=0 --time_based --runtime="$secs" "$@" |
		"$JQ" '.jobs[0].read.iops'
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

coop=(--ioengine="external:$COOP_SO")
declare -A r
for ((i = 0; i < rounds; i++)); do
	for wl in "randread 4k" "read 1m"; do
		set -- $wl
		k=$1-$2
		p=$(iops --ioengine=psync --rw=$1 --bs=$2)
		c1=$(iops "${coop[@]}" --coop_threads=1 --iodepth=16 --rw=$1 --bs=$2)
		c2=$(iops "${coop[@]}" --coop_threads=2 --iodepth=16 --rw=$1 --bs=$2)
		r[$k-1]+="$(echo "$c1 / $p" | bc -l) "
		r[$k-2]+="$(echo "$c2 / $p" | bc -l) "
		r[$k-psync]+="$p "
		r[$k-c1]+="$c1 "
		r[$k-c2]+="$c2 "
	done
	p=$(iops --ioengine=psync --rw=randread --bs=4k)
	q1=$(iops "${coop[@]}" --coop_threads=1 --iodepth=1 --rw=randread --bs=4k)
	nl=$(iops --ioengine=null --rw=randread --bs=4k)
	r[handoff]+="$(echo "1000000 / $q1 - 1000000 / $p" | bc -l) "
	r[null]+="$(echo "1000000 / $nl" | bc -l) "
done

m() { echo ${r[$1]} | tr ' ' '\n' | grep . | median; }
echo "== page-cached reads, median of $rounds rounds x ${secs}s ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
for wl in randread-4k read-1m; do
	printf '%-12s psync %8.0f IOPS | coop_threads=1 qd16 %8.0f (%.2fx) | coop_threads=2 qd16 %8.0f (%.2fx)\n' \
		$wl "$(m $wl-psync)" "$(m $wl-c1)" "$(m $wl-1)" "$(m $wl-c2)" "$(m $wl-2)"
done
printf 'hand-off per I/O (coop_threads=1 qd1 - psync, 4k randread): %.2f us; fio null engine: %.3f us per I/O\n' \
	"$(m handoff)" "$(m null)"

# --- the readahead case ----------------------------------------------------
dev=$(make_loop 512)
name=$(basename "$dev")
dd if=/dev/urandom of="$dev" bs=1M count=512 oflag=direct status=none
echo 64 >"/sys/block/$name/queue/read_ahead_kb"
echo "== $dev, read_ahead_kb=64, 5 workers x 64 KiB sequential reads, median MB/s of $rounds rounds"
declare -A ra
for ((i = 0; i < rounds; i++)); do
	for fd in shared per-thread; do
		for mode in kernel off context; do
			a=($(coop_dev_stat "$dev"))
			bw=$(run_fio --output-format=json --name=ra --filename="$dev" --size=512m \
				--rw=read --bs=64k --invalidate=1 "${coop[@]}" --coop_threads=5 \
				--coop_fd=$fd --coop_ra=$mode --coop_ra_kb=1024 |
				"$JQ" '.jobs[0].read.bw_bytes / 1000000')
			b=($(coop_dev_stat "$dev"))
			ra[$fd-$mode]+="$bw "
			ra[$fd-$mode-req]+="$(( (b[1] - a[1]) / 2 / (b[0] - a[0] + 1) )) "
		done
	done
done
for fd in shared per-thread; do
	for mode in kernel off context; do
		printf 'coop_fd=%-10s coop_ra=%-7s %7.0f MB/s, %5.0f KiB per device request\n' \
			$fd $mode "$(echo ${ra[$fd-$mode]} | tr ' ' '\n' | median)" \
			"$(echo ${ra[$fd-$mode-req]} | tr ' ' '\n' | median)"
	done
done
