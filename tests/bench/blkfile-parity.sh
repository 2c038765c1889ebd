#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkfile's overhead against fio's own engines, side by side: each
# repetition is one fio run of two concurrent jobs, fio's engine and
# blkfile, at the same settings:
#   via=file sync   vs fio psync      (buffered and direct)
#   via=file uring  vs fio io_uring   (buffered and direct, iodepth 16)
#   via=bdev direct vs fio psync / io_uring direct=1 on the device, at the
#                      file's own sectors (offset= its longest extent)
# 4 KiB random reads, REPS repetitions of RUNTIME seconds each.
#
# Made to mean something on a loaded machine:
# - The two jobs run at once, both pinned to one CPU (BENCH_CPU, default
#   the last; cpus_allowed=, which their io_uring worker threads inherit),
#   so they share that CPU and whatever a neighbour takes from it, it takes
#   from both.  BENCH_CPU=none leaves them unpinned.
# - Which job is defined first alternates from repetition to repetition.
# - Per repetition the ratios blkfile/fio of IOPS and of IOPS per CPU-second
#   of each job's thread (fio's usr+sys) are taken, and their CPU-seconds
#   ratio: ~1 when the CPU was shared fairly.  Reported: the median of each
#   ratio with its distribution-free 95 % confidence interval (order
#   statistics), and the spread (min-max) of the IOPS ratios.
# The goal is an IOPS ratio within 3 % of 1 (for uring direct qd16: at
# least 0.95).  With BENCH_STRICT=1 a median IOPS ratio outside [0.97, 1.03]
# fails the script.  The table also goes to $BLKFILE_BENCH_OUT (default
# engines/blkfile/results/parity.md), written whole or not at all.
# PAIRS=REGEX runs only the pairs whose label matches (e.g. 'uring direct');
# such a partial table goes to build/blkfile-parity-partial.md unless
# BLKFILE_BENCH_OUT says otherwise.
#
# The device is a private zram device (or a loop device over tmpfs, see
# tests/bench/blkfile-lib.sh): fast, steady, and out of reach of the
# drop_caches that other tests on a shared machine issue, so the engines'
# CPU cost is what differs.
export TMPDIR=${BENCH_TMPDIR:-/dev/shm}
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
source "$TOP/tests/bench/blkfile-lib.sh"
need_root
need_cmd filefrag

REPS=${REPS:-31}
RUNTIME=${RUNTIME:-1}
# A pair whose IOPS-ratio confidence interval is still wider than CI_WIDTH
# after REPS repetitions gets two more at a time, up to REPS_MAX.
CI_WIDTH=${CI_WIDTH:-0.03}
REPS_MAX=${REPS_MAX:-$((3 * REPS))}
BENCH_CPU=${BENCH_CPU:-$(($(nproc) - 1))}
FS=${FS:-xfs}
fsize=$((64 << 20))

bf_bench_fs "$FS" 512
f=$BF_MNT/file
dd if=/dev/urandom of="$f" bs=1M count=$((fsize >> 20)) conv=fsync status=none
# The device comparison needs the same bytes on both sides: use the file's
# longest extent (filefrag: logical, physical, length in 512-byte units).
read -r lo phys len < <(filefrag -v -b512 "$f" | awk '$1 ~ /^[0-9]+:$/ {
		split($0, a, ":"); split(a[2], l, "\\.\\."); split(a[3], p, "\\.\\.")
		n = p[2] - p[1] + 1
		if (n > best) { best = n; out = (l[1] * 512) " " (p[1] * 512) " " (n * 512) }
	} END { print out }')
[ -n "$len" ] && [ "$len" -ge $((16 << 20)) ] || skip "$f has no extent of 16 MiB or more"
note "$FS on $BF_DEV ($BF_DEVKIND): $f bytes $lo..$((lo + len)) = device bytes $phys..$((phys + len))"

common=(--output-format=json)
each=(--rw=randread --bs=4k --time_based --runtime="$RUNTIME" --norandommap
	--randrepeat=0 --invalidate=0)

pin=()
[ "$BENCH_CPU" != none ] && pin=(--cpus_allowed="$BENCH_CPU")

# pair ORDER BASE_ARGS -- CAND_ARGS: one fio run of the two jobs at once (fio's
# defined first when ORDER is 0, blkfile's first otherwise), so a neighbour
# stealing the CPU slows both alike.  Prints "fio_iops blkfile_iops
# fio_iops_per_cpu_s blkfile_iops_per_cpu_s fio_cpu blkfile_cpu".
pair() {
	local order=$1 base=() cand=() out
	shift
	while [ "$1" != -- ]; do base+=("$1"); shift; done
	shift
	cand=("$@")
	base=(--name=fio "${base[@]}" "${pin[@]}" "${whole[@]}")
	cand=(--name=blkfile "${cand[@]}" "${pin[@]}" "${whole[@]}")
	rm -f fio.postrun.txt blkfile.postrun.txt
	if [ "$order" = 0 ]; then
		out=$(run_fio "${common[@]}" "${base[@]}" "${cand[@]}" 2>"$T/err")
	else
		out=$(run_fio "${common[@]}" "${cand[@]}" "${base[@]}" 2>"$T/err")
	fi || fail "fio: $(cat "$T/err")"
	out=$(echo "$out" | sed -n '/^{/,$p')
	echo "$out" | $JQ -e '[.jobs[].error] == [0, 0]' >/dev/null || fail "job error: $out"
	# by name, whichever came first; then each job's whole CPU-seconds
	echo "$out" | $JQ -r '[.jobs[] | {(.jobname): {iops: .read.iops, ios: .read.total_ios,
			cpu: ([.usr_cpu + .sys_cpu, 0.01] | max)}}] | add |
		[.fio.iops, .blkfile.iops, .fio.iops * 100 / .fio.cpu,
		 .blkfile.iops * 100 / .blkfile.cpu, .fio.cpu, .blkfile.cpu,
		 .fio.ios, .blkfile.ios] | @tsv' | tr '\n' '\t'
	echo "$(whole_cpu fio) $(whole_cpu blkfile)"
}

# The CPU-seconds of a job's whole process, io_uring worker threads
# included (fio's usr_cpu/sys_cpu count the job thread alone): fio runs
# exec_postrun from the job's process while its ring is still open, so the
# shell's parent is that process; the sum of its threads' run times
# (schedstat, ns).  Threads that exited before it are not counted.
whole=(--exec_postrun='cat /proc/$PPID/task/*/schedstat')
whole_cpu() {
	awk '$1 ~ /^[0-9]+$/ { s += $1; n++ } END { if (n) printf "%.6f", s / 1e9; else print 0 }' \
		"$1.postrun.txt" 2>/dev/null || echo 0
}

file=("${each[@]}" --filename="$f" --offset="$lo" --size="$len")
dev=("${each[@]}" --filename="$BF_DEV" --offset="$phys" --size="$len")
blk=(--ioengine="$BF_ENGINE")
pairs=(
	"file sync buffered|--ioengine=psync ${file[*]}|${blk[*]} ${file[*]} --blkfile_via=file"
	"file sync direct|--ioengine=psync --direct=1 ${file[*]}|${blk[*]} ${file[*]} --blkfile_via=file --direct=1"
	"file uring buffered qd16|--ioengine=io_uring --iodepth=16 ${file[*]}|${blk[*]} ${file[*]} --blkfile_via=file --blkfile_submit=uring --iodepth=16"
	"file uring direct qd16|--ioengine=io_uring --iodepth=16 --direct=1 ${file[*]}|${blk[*]} ${file[*]} --blkfile_via=file --blkfile_submit=uring --iodepth=16 --direct=1"
	"bdev sync direct|--ioengine=psync --direct=1 ${dev[*]}|${blk[*]} ${file[*]} --blkfile_via=bdev --direct=1"
	"bdev uring direct qd16|--ioengine=io_uring --iodepth=16 --direct=1 ${dev[*]}|${blk[*]} ${file[*]} --blkfile_via=bdev --blkfile_submit=uring --iodepth=16 --direct=1"
)

# Warm the file's and the device's page caches once, so buffered runs
# measure the engines, not the first read.
cat "$f" >/dev/null
run_fio --name=warm --ioengine="$BF_ENGINE" "${file[@]}" --rw=read --bs=1m \
	--blkfile_via=bdev >/dev/null 2>&1

bad=0
load0=$(cut -d' ' -f1-3 /proc/loadavg)
md=$T/parity.md
: >"$md.rows"
# "MEDIAN [LO–HI]" of the numbers in FILE, 3 decimals ("n/a" if none)
mci() { median_ci <"$1" | awk '{ printf "%.3f [%.3f–%.3f]\n", $1, $2, $3 }' | grep . || echo n/a; }
med3() { [ -s "$1" ] && median <"$1" | awk '{ printf "%.3f\n", $1 }' || echo n/a; }
printf '%-26s %4s %9s %9s %-22s %-13s %-22s %-22s %s\n' "pair" "reps" "fio IOPS" "blk IOPS" "IOPS ratio [95% CI]" \
	"spread" "IOPS/CPU-s (thread)" "IOPS/CPU-s (process)" "CPU blk/fio thr proc"
# rep I: repetition I of the pair in $base/$cand, its ratios appended.
rep() {
	local b c bc cc bcpu ccpu bios cios bw cw
	# shellcheck disable=SC2086
	pair $(($1 % 2)) $base -- $cand >"$T/pair" || return 1
	read -r b c bc cc bcpu ccpu bios cios bw cw <"$T/pair"
	echo "$b" >>"$T/b"; echo "$c" >>"$T/c"
	awk -v c="$c" -v b="$b" 'BEGIN { printf "%.4f\n", c / b }' >>"$T/r"
	awk -v c="$cc" -v b="$bc" 'BEGIN { printf "%.4f\n", c / b }' >>"$T/rc"
	awk -v c="$ccpu" -v b="$bcpu" 'BEGIN { printf "%.4f\n", c / b }' >>"$T/share"
	# whole processes: ratio of I/Os per CPU-second, and of CPU-seconds
	awk -v ci="$cios" -v bi="$bios" -v cw="$cw" -v bw="$bw" 'BEGIN {
		if (cw > 0 && bw > 0) printf "%.4f\n", (ci / cw) / (bi / bw) }' >>"$T/rw"
	awk -v cw="$cw" -v bw="$bw" 'BEGIN { if (cw > 0 && bw > 0) printf "%.4f\n", cw / bw }' >>"$T/wshare"
}

npairs=0
for p in "${pairs[@]}"; do
	IFS='|' read -r label base cand <<<"$p"
	[ -n "${PAIRS:-}" ] && ! [[ $label =~ $PAIRS ]] && continue
	npairs=$((npairs + 1))
	: >"$T/b"; : >"$T/c"; : >"$T/r"; : >"$T/rc"; : >"$T/share"; : >"$T/rw"; : >"$T/wshare"
	i=0
	while :; do
		if ((i >= REPS)); then
			# past REPS: two more (one of each order) while the CI is wide
			((i + 2 <= REPS_MAX)) || break
			[ "$(median_ci <"$T/r" | awk -v w="$CI_WIDTH" '{ print ($3 - $2 > w) }')" = 1 ] || break
			rep $((i + 1)) && rep $((i + 2)) || exit 1
			i=$((i + 2))
		else
			i=$((i + 1))
			rep $i || exit 1
		fi
	done
	n=$(wc -l <"$T/r")
	r=$(median <"$T/r")
	spread=$(sort -g "$T/r" | sed -n '1p;$p' | tr '\n' ' ' | awk '{ printf "%.3f–%.3f", $1, $2 }')
	printf '%-26s %4d %9.0f %9.0f %-22s %-13s %-22s %-22s %s %s\n' "$label" "$n" "$(median <"$T/b")" \
		"$(median <"$T/c")" "$(mci "$T/r")" "$spread" "$(mci "$T/rc")" "$(mci "$T/rw")" \
		"$(med3 "$T/share")" "$(med3 "$T/wshare")"
	printf '| %s | %d | %.0f | %.0f | %s | %s | %s | %s | %s / %s |\n' "$label" "$n" "$(median <"$T/b")" \
		"$(median <"$T/c")" "$(mci "$T/r")" "$spread" "$(mci "$T/rc")" "$(mci "$T/rw")" \
		"$(med3 "$T/share")" "$(med3 "$T/wshare")" >>"$md.rows"
	awk -v r="$r" 'BEGIN { exit !(r < 0.97 || r > 1.03) }' && bad=$((bad + 1))
done
note "$bad of $npairs pairs outside 3 % (REPS=$REPS RUNTIME=$RUNTIME FS=$FS BENCH_CPU=$BENCH_CPU, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "$BENCH_CPU" = none ]; then
	where="unpinned"
else
	where="both pinned to CPU $BENCH_CPU (cpus_allowed=; their io_uring workers inherit it), so they share it and whatever a neighbour takes from that CPU it takes from both"
fi
if [ -n "${PAIRS:-}" ]; then
	out=${BLKFILE_BENCH_OUT:-$TOP/build/blkfile-parity-partial.md}
else
	out=${BLKFILE_BENCH_OUT:-$TOP/engines/blkfile/results/parity.md}
fi
{
	echo "# blkfile vs fio's engines: generated by tests/bench/blkfile-parity.sh"
	echo
	echo "Do not edit: \`make bench BENCHES=tests/bench/blkfile-parity.sh\` rewrites this file."
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, kernel $(uname -r), $("$FIO" --version);"
	echo "$FS on $BF_DEVKIND, 4 KiB random reads; load average $load0 at the start,"
	echo "$(cut -d' ' -f1-3 /proc/loadavg) at the end$(awk -v l="${load0%% *}" -v n="$(nproc)" 'BEGIN { if (l > n / 2) print " — **a loaded machine**" }')."
	echo "Each repetition (${RUNTIME} s) runs fio's engine and blkfile as two jobs of one fio run at once,"
	echo "$where;"
	echo "which job is defined first alternates. $REPS repetitions a pair, two more at a time up to"
	echo "$REPS_MAX while the 95 % confidence interval of its IOPS ratio is wider than $CI_WIDTH (column reps)."
	echo "Ratios are blkfile/fio per repetition: the median, its 95 % confidence interval"
	echo "(distribution-free, from order statistics) and the spread (min–max) of the IOPS ratios."
	echo "IOPS per CPU-second is taken twice: over the job thread (fio's usr+sys) and over the job's whole"
	echo "process, the kernel's io_uring worker threads included (they do the reads when the device"
	echo "cannot take them without blocking, as zram's block device: the bdev pairs). CPU blk/fio is the"
	echo "median ratio of the two jobs' CPU-seconds (thread / process), ~1 when they shared the CPU fairly."
	echo
	echo "| pair | reps | fio IOPS | blkfile IOPS | IOPS ratio [95% CI] | spread of IOPS ratios | IOPS/CPU-s ratio, thread [95% CI] | IOPS/CPU-s ratio, process [95% CI] | CPU blk/fio, thread / process |"
	echo "|---|---|---|---|---|---|---|---|---|"
	cat "$md.rows"
	echo
	echo "Targets: sync pairs within 3 % of 1; uring direct qd16 (file and bdev) ≥ 0.95."
} >"$md"
mkdir -p "$(dirname "$out")" && cp "$md" "$out.tmp.$$" && mv "$out.tmp.$$" "$out" ||
	fail "cannot write $out"
note "written: $out"
[ "${BENCH_STRICT:-0}" = 1 ] && [ $bad -gt 0 ] && exit 1
exit 0
