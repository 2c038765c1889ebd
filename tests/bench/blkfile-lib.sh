# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark helpers for blkfile (sourced after tests/lib.sh and
# tests/engines/blkfile-lib.sh): a filesystem on a fast, synchronous device
# that other tests' drop_caches cannot reach, and medians.
#
# BENCH_DEV=zram (default when the kernel has zram-control): a private zram
# device made with hot_add and removed at exit; I/O completes in the
# submitting task, so there is no loop worker thread whose scheduling on a
# busy machine would swamp the engines' difference.
# BENCH_DEV=loop: a loop device over a file on tmpfs (/dev/shm).

BF_ZRAM=

_bf_bench_teardown() {
	bf_thaw
	if [ -n "$BF_ZRAM" ]; then
		tac "$_pp_mounts" | while read -r m; do umount "$m" 2>/dev/null; done
		echo "$BF_ZRAM" >/sys/class/zram-control/hot_remove 2>/dev/null
	fi
	_pp_teardown
}
trap _bf_bench_teardown EXIT

# bf_bench_fs TYPE SIZE_MB: sets BF_DEV, BF_MNT and BF_DEVKIND.
bf_bench_fs() {
	local type=$1 size=$2 kind=${BENCH_DEV:-}
	if [ -z "$kind" ]; then
		kind=loop
		[ -w /sys/class/zram-control/hot_add ] && kind=zram
	fi
	case $kind in
	zram)
		BF_ZRAM=$(cat /sys/class/zram-control/hot_add) || fail "zram hot_add"
		echo "${size}M" >"/sys/block/zram$BF_ZRAM/disksize" || fail "zram disksize"
		BF_DEV=/dev/zram$BF_ZRAM
		make_fs "$type" "$BF_DEV" >"$T/.bf-mnt" || exit 1
		BF_MNT=$(<"$T/.bf-mnt")
		;;
	loop)
		# $T is under TMPDIR, which the bench scripts point at /dev/shm.
		bf_fs "$type" "$size"
		;;
	*) fail "BENCH_DEV=$kind: zram or loop" ;;
	esac
	BF_DEVKIND=$kind
}

# median: the median of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# median_ci: "MEDIAN LO HI" of the numbers on stdin, LO..HI the
# distribution-free 95 % confidence interval of the median (the order
# statistics k and n+1-k, k the largest with P(Binomial(n, 1/2) < k) <=
# 0.025); with fewer than 6 numbers there is none and LO..HI is min..max.
median_ci() {
	sort -g | awk '{ v[NR] = $1 }
		END {
			n = NR
			if (!n) exit 1
			m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			k = 1
			if (n >= 6) {
				# cdf = P(X <= i - 1); k: largest with cdf(k - 1) <= 0.025
				p = 0.5 ^ n; cdf = 0
				for (i = 0; i < n; i++) {
					if (cdf + p > 0.025) break
					cdf += p; p = p * (n - i) / (i + 1)
				}
				k = i
				if (k < 1) k = 1
			}
			print m, v[k], v[n + 1 - k]
		}'
}

