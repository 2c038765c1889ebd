#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blkfile's overhead against fio's own engines, side by side: each
# repetition is one fio run of two concurrent jobs, fio's engine and
# blkfile, at the same settings:
#   via=file sync   vs fio psync      (buffered and direct)
#   via=file uring  vs fio io_uring   (buffered and direct, iodepth 16)
#   via=bdev direct vs fio psync / io_uring direct=1 on the device, at the
#                      file's own sectors (offset= its single extent)
# 4 KiB random reads, REPS repetitions of RUNTIME seconds each; prints the
# median IOPS of each side, the median of the per-repetition ratios
# blkfile/fio of IOPS, and of IOPS per CPU-second of each job (usr+sys).
# Running the two at once is what makes the ratio mean something on a
# shared machine: whatever a neighbour takes, it takes from both.  The goal is a ratio
# within 3 % of 1 (for uring direct qd16: at least 0.95).  With BENCH_STRICT=1 an
# IOPS ratio outside [0.97, 1.03] fails the script.  The table also goes to
# $BLKFILE_BENCH_OUT (default engines/blkfile/results/parity.md), written
# whole or not at all.
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

REPS=${REPS:-11}
RUNTIME=${RUNTIME:-1}
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

# pair BASE_ARGS -- CAND_ARGS: one fio run of the two jobs at once, so a
# neighbour stealing the CPU slows both alike.  Prints "fio_iops
# blkfile_iops fio_iops_per_cpu_s blkfile_iops_per_cpu_s".
pair() {
	local base=() out
	while [ "$1" != -- ]; do base+=("$1"); shift; done
	shift
	out=$(run_fio "${common[@]}" --name=fio "${base[@]}" --name=blkfile "$@" 2>"$T/err") ||
		fail "fio: $(cat "$T/err")"
	echo "$out" | sed -n '/^{/,$p' | $JQ -e '[.jobs[].error] == [0, 0]' >/dev/null ||
		fail "job error: $out"
	echo "$out" | sed -n '/^{/,$p' | $JQ -r '[.jobs[] | .read.iops] +
		[.jobs[] | .read.iops * 100 / ([.usr_cpu + .sys_cpu, 0.01] | max)] | @tsv'
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
printf '%-26s %10s %10s %7s %7s  %s\n' "pair" "fio IOPS" "blk IOPS" "ratio" "r/CPU" "per-rep IOPS ratios"
for p in "${pairs[@]}"; do
	IFS='|' read -r label base cand <<<"$p"
	: >"$T/b"; : >"$T/c"; : >"$T/r"; : >"$T/rc"
	for ((i = 1; i <= REPS; i++)); do
		pair $base -- $cand >"$T/pair" || exit 1
		read -r b c bc cc <"$T/pair"
		echo "$b" >>"$T/b"; echo "$c" >>"$T/c"
		echo "$c $b" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$T/r"
		echo "$cc $bc" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$T/rc"
	done
	r=$(median <"$T/r")
	printf '%-26s %10.0f %10.0f %7.4f %7.4f  %s\n' "$label" "$(median <"$T/b")" \
		"$(median <"$T/c")" "$r" "$(median <"$T/rc")" "$(tr '\n' ' ' <"$T/r")"
	printf '| %s | %.0f | %.0f | %.3f | %.3f | %s |\n' "$label" "$(median <"$T/b")" \
		"$(median <"$T/c")" "$r" "$(median <"$T/rc")" "$(sort -g "$T/r" | sed -n '1p;$p' | tr '\n' ' ' | sed 's/ $//; s/ /–/')" >>"$md.rows"
	awk -v r="$r" 'BEGIN { exit !(r < 0.97 || r > 1.03) }' && bad=$((bad + 1))
done
note "$bad of ${#pairs[@]} pairs outside 3 % (REPS=$REPS RUNTIME=$RUNTIME FS=$FS, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
out=${BLKFILE_BENCH_OUT:-$TOP/engines/blkfile/results/parity.md}
{
	echo "# blkfile vs fio's engines: generated by tests/bench/blkfile-parity.sh"
	echo
	echo "Do not edit: \`make bench BENCHES=tests/bench/blkfile-parity.sh\` rewrites this file."
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, kernel $(uname -r), $("$FIO" --version);"
	echo "$FS on $BF_DEVKIND, 4 KiB random reads; load average $load0 at the start,"
	echo "$(cut -d' ' -f1-3 /proc/loadavg) at the end$(awk -v l="${load0%% *}" -v n="$(nproc)" 'BEGIN { if (l > n / 2) print " — **a loaded machine: the figures are noisy**" }')."
	echo "Each repetition ($REPS of ${RUNTIME} s) runs fio's engine and blkfile as two jobs of one fio"
	echo "run at once; ratios are blkfile/fio per repetition: the median, then the spread."
	echo
	echo "| pair | fio IOPS | blkfile IOPS | IOPS ratio | IOPS/CPU-s ratio | spread of IOPS ratios |"
	echo "|---|---|---|---|---|---|"
	cat "$md.rows"
	echo
	echo "Targets: sync pairs within 3 % of 1; uring direct qd16 (file and bdev) ≥ 0.95."
} >"$md"
mkdir -p "$(dirname "$out")" && cp "$md" "$out.tmp.$$" && mv "$out.tmp.$$" "$out" ||
	fail "cannot write $out"
note "written: $out"
[ "${BENCH_STRICT:-0}" = 1 ] && [ $bad -gt 0 ] && exit 1
exit 0
