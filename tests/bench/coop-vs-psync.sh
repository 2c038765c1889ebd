#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# coop against fio's psync, side by side, and what each costs in CPU:
#
#   page-cached 4 KiB random reads, on tmpfs and on ext4 (a loop device
#   over a file on tmpfs), 256 MiB: psync vs coop_threads=1 and =2 at
#   iodepth 16, and coop_threads=1 at iodepth 1;
#   page-cached 1 MiB sequential reads (tmpfs): psync vs coop 1 and 2;
#   direct 4 KiB random reads of a loop device over tmpfs: psync vs
#   coop_threads=1 at iodepth 1 and coop_threads=2 at iodepth 16;
#   iodepth-1 reads of 4 KiB ... 1 MiB (tmpfs): where coop stops polling
#   for completions (the crossover, engines/coop/sync.h) and what that
#   costs per I/O;
#   the coop_threads=1 pairs again with coop_inline=0: the hand-off to
#   the worker that caller-runs (the default with one worker) saves;
#   completion coalescing (coop_coalesce=1, off by default) at iodepth 16:
#   4 KiB (1 and 2 workers) and 64 KiB random reads (tmpfs), against the
#   hand-off without it (coop_inline=0): where coalescing starts to pay;
# and the issue's readahead case on a loop device: 5 workers x 64 KiB
# sequential reads, read_ahead_kb=64, shared vs per-thread fds, coop_ra
# kernel/off/context.
#
# CPU is the whole fio process tree's user+system time (GNU time), the
# same for both engines: fio's own usr_cpu/sys_cpu count only the job's
# thread (coop folds its workers in, engines/coop/stats.h, but psync's
# figure would still miss fio's main process).
#
# The machine may be shared: every configuration runs once per round, the
# psync baseline right before its coop runs, and each ratio is taken pair
# by pair within a round; the tables give the median ratio of
# BENCH_ROUNDS rounds (default 5) of BENCH_SECONDS (default 2) and the
# spread.  The load average at the start and the end is printed: figures
# from a loaded machine say so.  Results go to stdout and to
# $COOP_BENCH_OUT (default engines/coop/results/bench.md), written whole
# or not at all.
export TMPDIR=${BENCH_TMPDIR:-/dev/shm}
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
need_root
need_cmd "$JQ" losetup mkfs.ext4 /usr/bin/time
rounds=${BENCH_ROUNDS:-5}
secs=${BENCH_SECONDS:-2}
out=${COOP_BENCH_OUT:-$TOP/engines/coop/results/bench.md}
RA_ROUNDS=${BENCH_RA_ROUNDS:-3}

# tmpfs: page-cache reads that another process's drop_caches cannot evict.
mkdir -p "$T/shm"
mount -t tmpfs -o size=900m coop-bench "$T/shm" || fail "cannot mount tmpfs"
# The loop devices' backing files live on it: detach them (lib.sh's
# teardown) before it is unmounted.
trap '_pp_teardown_bench' EXIT
_pp_teardown_bench() {
	tac "$_pp_mounts" | while read -r m; do umount "$m" 2>/dev/null; done
	: >"$_pp_mounts"
	while read -r l; do losetup -d "$l" 2>/dev/null; done <"$_pp_loops"
	: >"$_pp_loops"
	umount "$T/shm" 2>/dev/null || umount -l "$T/shm"
	_pp_teardown
}
dd if=/dev/urandom of="$T/shm/cached" bs=1M count=256 status=none
# ext4 on a loop device whose backing file is on tmpfs (no real disk).
truncate -s 400m "$T/shm/ext4.img"
ext4dev=$(losetup --find --show "$T/shm/ext4.img") || fail "losetup"
echo "$ext4dev" >>"$_pp_loops"
ext4mnt=$(make_fs ext4 "$ext4dev") || exit 1
dd if=/dev/urandom of="$ext4mnt/cached" bs=1M count=256 status=none
# A raw loop device for direct I/O, over tmpfs as well.
dd if=/dev/urandom of="$T/shm/raw.img" bs=1M count=256 status=none
rawdev=$(losetup --find --show "$T/shm/raw.img") || fail "losetup"
echo "$rawdev" >>"$_pp_loops"

load0=$(cut -d' ' -f1-3 /proc/loadavg)

# run FILE SIZE ARGS...: one fio run; prints "iops cpu_s ios" (cpu: the
# whole process tree, GNU time).
run() {
	local file=$1 size=$2 j
	shift 2
	/usr/bin/time -f '%U %S' -o "$T/time" \
		"$FIO" --output-format=json --name=b --filename="$file" --size="$size" \
		--invalidate=0 --time_based --runtime="$secs" "$@" >"$T/run.json" 2>"$T/run.err" ||
		fail "fio $*: $(cat "$T/run.err")"
	j=$(sed -n '/^{/,$p' "$T/run.json" | "$JQ" -r '.jobs[0] |
		if .error != 0 then "error \(.error)" else
		"\(.read.iops) \(.read.total_ios)" end') || fail "fio $*: no JSON"
	[[ $j == error* ]] && fail "fio $*: job $j: $(cat "$T/run.err")"
	set -- $j
	echo "$1 $(awk '{ print $1 + $2 }' "$T/time") $2"
}

# calc EXPR: EXPR evaluated by awk (no bc needed).
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }

coop=(--ioengine="external:$COOP_SO")
declare -A R	# key -> space-separated per-round values

# pair KEY FILE SIZE BASE_ARGS -- CAND_ARGS: one A/B pair; records per
# round the IOPS ratio, the IOPS-per-CPU-second ratio and the ratio of CPU
# per I/O, plus both sides' raw figures.
pair() {
	local key=$1 file=$2 size=$3 base=() b c
	shift 3
	while [ "$1" != -- ]; do base+=("$1"); shift; done
	shift
	b=($(run "$file" "$size" "${base[@]}"))
	c=($(run "$file" "$size" "$@"))
	R[$key-iops]+="$(calc "${c[0]} / ${b[0]}") "
	R[$key-eff]+="$(calc "(${c[0]} / ${c[1]}) / (${b[0]} / ${b[1]})") "
	R[$key-cpuio]+="$(calc "(${c[1]} / ${c[2]}) / (${b[1]} / ${b[2]})") "
	R[$key-b]+="${b[0]} "
	R[$key-c]+="${c[0]} "
	R[$key-bus]+="$(calc "${b[1]} * 1000000 / ${b[2]}") "
	R[$key-cus]+="$(calc "${c[1]} * 1000000 / ${c[2]}") "
}

median() {
	tr ' ' '\n' | grep . | sort -g |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
m() { echo "${R[$1]:-}" | median; }
spread() { echo "${R[$1]:-}" | tr ' ' '\n' | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f–%.2f", lo, hi }'; }

rr=(--rw=randread --bs=4k)
for ((i = 0; i < rounds; i++)); do
	for fs in tmpfs ext4; do
		f=$T/shm/cached
		[ $fs = ext4 ] && { f=$ext4mnt/cached; cat "$f" >/dev/null; }
		pair $fs-4k-t1q16 "$f" 256m --ioengine=psync "${rr[@]}" -- \
			"${coop[@]}" "${rr[@]}" --coop_threads=1 --iodepth=16
		pair $fs-4k-t1q16-ho "$f" 256m --ioengine=psync "${rr[@]}" -- \
			"${coop[@]}" "${rr[@]}" --coop_threads=1 --iodepth=16 --coop_inline=0
		pair $fs-4k-t2q16 "$f" 256m --ioengine=psync "${rr[@]}" -- \
			"${coop[@]}" "${rr[@]}" --coop_threads=2 --iodepth=16
		pair $fs-4k-t1q1 "$f" 256m --ioengine=psync "${rr[@]}" -- \
			"${coop[@]}" "${rr[@]}" --coop_threads=1 --iodepth=1
		pair $fs-4k-t1q1-ho "$f" 256m --ioengine=psync "${rr[@]}" -- \
			"${coop[@]}" "${rr[@]}" --coop_threads=1 --iodepth=1 --coop_inline=0
	done
	f=$T/shm/cached
	pair 1m-t1q16 "$f" 256m --ioengine=psync --rw=read --bs=1m -- \
		"${coop[@]}" --rw=read --bs=1m --coop_threads=1 --iodepth=16
	pair 1m-t2q16 "$f" 256m --ioengine=psync --rw=read --bs=1m -- \
		"${coop[@]}" --rw=read --bs=1m --coop_threads=2 --iodepth=16
	pair dio-t1q1 "$rawdev" 256m --ioengine=psync "${rr[@]}" --direct=1 -- \
		"${coop[@]}" "${rr[@]}" --direct=1 --coop_threads=1 --iodepth=1
	pair dio-t2q16 "$rawdev" 256m --ioengine=psync "${rr[@]}" --direct=1 -- \
		"${coop[@]}" "${rr[@]}" --direct=1 --coop_threads=2 --iodepth=16
	pair dio-t1q1-ho "$rawdev" 256m --ioengine=psync "${rr[@]}" --direct=1 -- \
		"${coop[@]}" "${rr[@]}" --direct=1 --coop_threads=1 --iodepth=1 --coop_inline=0
	pair tmpfs-4k-t1q16-co "$f" 256m --ioengine=psync "${rr[@]}" -- \
		"${coop[@]}" "${rr[@]}" --coop_threads=1 --iodepth=16 --coop_coalesce=1
	pair tmpfs-4k-t2q16-co "$f" 256m --ioengine=psync "${rr[@]}" -- \
		"${coop[@]}" "${rr[@]}" --coop_threads=2 --iodepth=16 --coop_coalesce=1
	pair q16-64k-ho "$f" 256m --ioengine=psync --rw=randread --bs=64k -- \
		"${coop[@]}" --rw=randread --bs=64k --coop_threads=1 --iodepth=16 --coop_inline=0
	pair q16-64k-co "$f" 256m --ioengine=psync --rw=randread --bs=64k -- \
		"${coop[@]}" --rw=randread --bs=64k --coop_threads=1 --iodepth=16 --coop_coalesce=1
	for bs in 16k 64k 256k 1m; do
		pair q1-$bs "$f" 256m --ioengine=psync --rw=randread --bs=$bs -- \
			"${coop[@]}" --rw=randread --bs=$bs --coop_threads=1 --iodepth=1 --coop_inline=0
	done
done

# How coop's job's thread waited at iodepth 1 with the hand-off
# (coop_inline=0; coop_stats: its mean wait,
# how many waits ended in a sleep, the wake-up latency that caps its
# polls), one run per block size: where polling stops.
declare -A ST
for bs in 4k 16k 64k 256k 1m; do
	"$FIO" --output-format=json --name=lat --filename="$T/shm/cached" --size=256m \
		--invalidate=0 --time_based --runtime="$secs" "${coop[@]}" --rw=randread --bs=$bs \
		--coop_threads=1 --iodepth=1 --coop_inline=0 --coop_stats=1 >/dev/null 2>"$T/lat.err"
	ST[$bs]=$(grep -o 'wake_us_job=.*' "$T/lat.err" | head -n 1)
done
wake=$(echo "${ST[4k]}" | grep -o 'wake_us_job=[0-9.]* wake_us_workers=[0-9.]*')

# Completion coalescing at iodepth 16, coop_threads=1 (coop_stats, one run
# each, coalescing off and on): completions per wait of the job's thread,
# coalesced sleeps and how many the bound ended, the job's thread's
# wake-up latency and what each wake-up cost the worker that sent it.
declare -A CO CW
for bs in 4k 64k; do
	for c in 0 1; do
		"$FIO" --output-format=json --name=co --filename="$T/shm/cached" --size=256m \
			--invalidate=0 --time_based --runtime="$secs" "${coop[@]}" --rw=randread --bs=$bs \
			--coop_threads=1 --iodepth=16 --coop_coalesce=$c --coop_inline=0 --coop_stats=1 >/dev/null 2>"$T/co.err"
		CO[$bs-$c]=$(grep -o 'stream .*' "$T/co.err" | head -n 1)
		CW[$bs-$c]=$(grep -o 'worker=0 .*' "$T/co.err" | head -n 1)
	done
done
# kv LINE KEY: KEY's value in a coop_stats line.
kv() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# st_of BS KEY: KEY's value in BS's stream line.
st_of() { echo "${ST[$1]}" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

load1=$(cut -d' ' -f1-3 /proc/loadavg)

# met VALUE OP TARGET: "met" or "**missed**".
met() { awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { ok = op == ">=" ? v >= t : v <= t; print ok ? "met" : "**missed**" }'; }

{
	echo "# coop vs psync: generated by tests/bench/coop-vs-psync.sh"
	echo
	echo "Do not edit: \`make bench BENCHES=tests/bench/coop-vs-psync.sh\` rewrites this file."
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, kernel $(uname -r), $("$FIO" --version);"
	echo "load average $load0 at the start, $load1 at the end$(awk -v l="${load0%% *}" -v n="$(nproc)" 'BEGIN { if (l > n / 2) print " — **a loaded machine: the figures are noisy**" }')."
	echo "$rounds rounds × ${secs} s; in every round each coop run follows its psync baseline, and"
	echo "each ratio is coop/psync within one round: the median over the rounds, then the spread."
	echo "CPU is the whole fio process tree's user+system time (GNU time)."
	echo
	echo "## Targets (issue 15)"
	echo
	echo "| what | median | spread | target | |"
	echo "|---|---|---|---|---|"
	for fs in tmpfs ext4; do
		v=$(m $fs-4k-t1q16-iops)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 16: IOPS vs psync | %.2f× | %s | ≥ 1.0× | %s |\n' $fs "$v" "$(spread $fs-4k-t1q16-iops)" "$(met "$v" '>=' 1.0)"
		v=$(m $fs-4k-t2q16-iops)
		printf '| %s 4 KiB cached, coop_threads=2 iodepth 16: IOPS vs psync | %.2f× | %s | ≥ 1.3× | %s |\n' $fs "$v" "$(spread $fs-4k-t2q16-iops)" "$(met "$v" '>=' 1.3)"
		v=$(m $fs-4k-t1q16-eff)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 16: IOPS per CPU-second vs psync | %.2f× | %s | ≥ 0.8× | %s |\n' $fs "$v" "$(spread $fs-4k-t1q16-eff)" "$(met "$v" '>=' 0.8)"
		v=$(m $fs-4k-t1q16-ho-iops)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 16, *coop_inline=0* (the hand-off): IOPS vs psync | %.2f× | %s | — | not a target |\n' $fs "$v" "$(spread $fs-4k-t1q16-ho-iops)"
		v=$(m $fs-4k-t1q16-ho-eff)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 16, *coop_inline=0* (the hand-off): IOPS per CPU-second vs psync | %.2f× | %s | — | not a target |\n' $fs "$v" "$(spread $fs-4k-t1q16-ho-eff)"
		v=$(m $fs-4k-t1q1-eff)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 1: IOPS per CPU-second vs psync | %.2f× | %s | ≥ 0.5× | %s |\n' $fs "$v" "$(spread $fs-4k-t1q1-eff)" "$(met "$v" '>=' 0.5)"
		v=$(m $fs-4k-t1q1-cpuio)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 1: CPU per I/O vs psync | %.2f× | %s | ≤ 1.5× | %s |\n' $fs "$v" "$(spread $fs-4k-t1q1-cpuio)" "$(met "$v" '<=' 1.5)"
		v=$(m $fs-4k-t1q1-ho-eff)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 1, *coop_inline=0* (the hand-off): IOPS per CPU-second vs psync | %.2f× | %s | — | not a target |\n' $fs "$v" "$(spread $fs-4k-t1q1-ho-eff)"
		v=$(m $fs-4k-t1q1-ho-cpuio)
		printf '| %s 4 KiB cached, coop_threads=1 iodepth 1, *coop_inline=0* (the hand-off): CPU per I/O vs psync | %.2f× | %s | — | not a target |\n' $fs "$v" "$(spread $fs-4k-t1q1-ho-cpuio)"
	done
	v=$(m dio-t1q1-eff)
	printf '| direct 4 KiB (loop device), coop_threads=1 iodepth 1: IOPS per CPU-second vs psync | %.2f× | %s | ≥ 0.5× | %s |\n' "$v" "$(spread dio-t1q1-eff)" "$(met "$v" '>=' 0.5)"
	v=$(m dio-t1q1-cpuio)
	printf '| direct 4 KiB (loop device), coop_threads=1 iodepth 1: CPU per I/O vs psync | %.2f× | %s | ≤ 1.5× | %s |\n' "$v" "$(spread dio-t1q1-cpuio)" "$(met "$v" '<=' 1.5)"
	v=$(m dio-t1q1-ho-cpuio)
	printf '| direct 4 KiB (loop device), coop_threads=1 iodepth 1, *coop_inline=0* (the hand-off): CPU per I/O vs psync | %.2f× | %s | — | not a target |\n' "$v" "$(spread dio-t1q1-ho-cpuio)"
	echo
	echo "Rows in plain text are the defaults (coop_ioctx=private, coop_coalesce=0, coop_inline=1): the"
	echo "issue's targets are judged on them; with one worker the job's thread runs every command"
	echo "itself there, one at a time in fio's order (caller-runs, engines/coop/README.md).  The"
	echo "*coop_inline=0* rows hand every command to the worker, as the defaults did before: what"
	echo "caller-runs saves, and at iodepth 16 what the hand-off's overlap buys for it."
	echo
	echo "## All pairs"
	echo
	echo "| workload | psync IOPS | coop IOPS | IOPS ratio (spread) | IOPS/CPU-s ratio (spread) | CPU µs per I/O psync / coop |"
	echo "|---|---|---|---|---|---|"
	for k in tmpfs-4k-t1q16 tmpfs-4k-t1q16-ho tmpfs-4k-t2q16 tmpfs-4k-t1q1 tmpfs-4k-t1q1-ho \
		ext4-4k-t1q16 ext4-4k-t1q16-ho ext4-4k-t2q16 ext4-4k-t1q1 ext4-4k-t1q1-ho \
		1m-t1q16 1m-t2q16 dio-t1q1 dio-t1q1-ho dio-t2q16 q1-16k q1-64k q1-256k q1-1m \
		tmpfs-4k-t1q16-co tmpfs-4k-t2q16-co q16-64k-ho q16-64k-co; do
		printf '| %s | %.0f | %.0f | %.2f× (%s) | %.2f× (%s) | %.2f / %.2f |\n' $k \
			"$(m $k-b)" "$(m $k-c)" "$(m $k-iops)" "$(spread $k-iops)" \
			"$(m $k-eff)" "$(spread $k-eff)" "$(m $k-bus)" "$(m $k-cus)"
	done
	echo
	echo "Keys: FS-4k-tNqD = 4 KiB random reads of a page-cached file on FS, coop_threads=N, iodepth D"
	echo "(psync: iodepth 1); 1m = 1 MiB sequential reads (tmpfs); dio = direct 4 KiB random reads of a"
	echo "loop device over tmpfs; q1-BS = iodepth-1 random reads of BS, coop_threads=1 (tmpfs);"
	echo "-ho = coop_inline=0 (every command handed to the worker); q1-BS also; q16-64k = 64 KiB random reads, iodepth 16,"
	echo "coop_threads=1 (tmpfs); -co = coop_coalesce=1 (completion coalescing, which keeps the worker)."
	echo
	echo "Wake-up latency coop measured in a 4 KiB iodepth-1 run (µs; its polls are capped at that,"
	echo "within 4–64 µs, engines/coop/sync.h): ${wake:-not reported}."
	echo
	echo "## Where polling stops (iodepth 1, coop_threads=1, coop_inline=0)"
	echo
	echo "The job's thread polls for a completion while its mean wait is below the wake-up latency it"
	echo "measured (the cap, clamped to 4–64 µs), and sleeps after one look when the wait is longer; a"
	echo "worker whose job's thread sleeps sleeps too.  From one coop_stats=1 run per block size (its"
	echo "mean wait, the share of its waits that ended in a sleep, its measured wake-up latencies),"
	echo "beside the pairs' ratios above:"
	echo
	echo "| reads | mean wait µs | waits that slept | wake-up µs job / workers | IOPS ratio | CPU per I/O ratio |"
	echo "|---|---|---|---|---|---|"
	for bs in 4k 16k 64k 256k 1m; do
		k=q1-$bs
		[ $bs = 4k ] && k=tmpfs-4k-t1q1-ho
		w=$(st_of $bs job_waits)
		printf '| %s | %s | %s | %s / %s | %.2f× | %.2f× |\n' $bs "$(st_of $bs wait_us_job)" \
			"$(awk -v s="$(st_of $bs job_sleeps)" -v w="${w:-0}" 'BEGIN { if (w > 0) printf "%.0f%%", 100 * s / w; else print "-" }')" \
			"$(st_of $bs wake_us_job)" "$(st_of $bs wake_us_workers)" "$(m $k-iops)" "$(m $k-cpuio)"
	done
	echo
	echo "## Completion coalescing (coop_coalesce=1, off by default)"
	echo
	echo "iodepth 16, coop_threads=1, random reads (tmpfs), every command on the worker (coop_inline=0;"
	echo "coalescing keeps it).  With coalescing the job's thread sleeps"
	echo "until half the iodepth is done (at most 100 µs, engines/coop/pool_int.h) instead of polling."
	echo "From one coop_stats=1 run each: completions per wait, coalesced sleeps (and how many the bound"
	echo "ended), the job's thread's wake-up latency and what each wake-up cost the worker that sent it"
	echo "(the futex wake system call: on a VM, waking a halted vCPU), beside the pairs' ratios above:"
	echo
	echo "| reads | coalesce | completions per wait | coalesced sleeps (bound) | wake-up µs job | µs per wake-up, worker | IOPS ratio | IOPS/CPU-s ratio |"
	echo "|---|---|---|---|---|---|---|---|"
	for bs in 4k 64k; do
		for c in 0 1; do
			st=${CO[$bs-$c]} wk=${CW[$bs-$c]}
			k=q16-64k
			[ $bs = 4k ] && k=tmpfs-4k-t1q16
			if [ $c = 1 ]; then k=$k-co; else k=$k-ho; fi
			printf '| %s | %s | %s | %s (%s) | %s | %s | %.2f× | %.2f× |\n' $bs $c \
				"$(awk -v r="$(kv "$st" requests)" -v w="$(kv "$st" job_waits)" 'BEGIN { if (w > 0) printf "%.1f", r / w; else print "-" }')" \
				"$(kv "$st" coalesced_sleeps)" "$(kv "$st" coalesce_timeouts)" "$(kv "$st" wake_us_job)" \
				"$(kv "$wk" wake_us)" "$(m $k-iops)" "$(m $k-eff)"
		done
	done
} >"$T/bench.md"

# --- the readahead case ----------------------------------------------------
dev=$(make_loop 512)
name=$(basename "$dev")
dd if=/dev/urandom of="$dev" bs=1M count=512 oflag=direct status=none
echo 64 >"/sys/block/$name/queue/read_ahead_kb"
declare -A ra
for ((i = 0; i < RA_ROUNDS; i++)); do
	for fd in shared per-thread; do
		for mode in kernel off context; do
			a=($(coop_dev_stat "$dev"))
			bw=$("$FIO" --output-format=json --name=ra --filename="$dev" --size=512m \
				--rw=read --bs=64k --invalidate=1 "${coop[@]}" --coop_threads=5 \
				--coop_fd=$fd --coop_ra=$mode --coop_ra_kb=1024 |
				"$JQ" '.jobs[0].read.bw_bytes / 1000000')
			b=($(coop_dev_stat "$dev"))
			ra[$fd-$mode]+="$bw "
			ra[$fd-$mode-req]+="$(( (b[1] - a[1]) / 2 / (b[0] - a[0] + 1) )) "
		done
	done
done
{
	echo
	echo "## Readahead (seed 001's case)"
	echo
	echo "Loop device over a file ($dev), read_ahead_kb=64, 5 workers × 64 KiB sequential reads,"
	echo "coop_ra_kb=1024; median of $RA_ROUNDS runs each."
	echo
	echo "| coop_fd | coop_ra | MB/s | KiB per device request |"
	echo "|---|---|---|---|"
	for fd in shared per-thread; do
		for mode in kernel off context; do
			printf '| %s | %s | %.0f | %.0f |\n' $fd $mode \
				"$(echo ${ra[$fd-$mode]} | median)" "$(echo ${ra[$fd-$mode-req]} | median)"
		done
	done
} >>"$T/bench.md"

cat "$T/bench.md"
mkdir -p "$(dirname "$out")" && cp "$T/bench.md" "$out.tmp.$$" && mv "$out.tmp.$$" "$out" ||
	fail "cannot write $out"
note "written: $out"
