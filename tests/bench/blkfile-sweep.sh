#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# blockdev-perftest's question without its confound (seed 000): the same
# bytes through a file on XFS and through the block device under it, at the
# file's own sectors, block sizes 512 B ... 64 MiB, buffered and direct,
# reads and writes.  One fio run; per (direction, mode, bs) ITERS
# iterations alternating which path goes first; jobs are named
# sweep-<file|bdev>-<buffered|direct>-<bs>-<iter> so that
#   fiotab ratio --baseline-series sweep-bdev-buffered \
#                --candidate-series sweep-file-buffered OUT.json
# renders the file/bdev ratio table.  Prints that (when $FIOTAB is built)
# and its own median table; the fio JSON is kept in $BENCH_OUT.
export TMPDIR=${BENCH_TMPDIR:-/dev/shm}
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/blkfile-lib.sh"
source "$TOP/tests/bench/blkfile-lib.sh"
need_root

ITERS=${ITERS:-3}
FS=${FS:-xfs}
SWEEP_RW=${SWEEP_RW:-read write}
out_dir=${BENCH_OUT:-$TOP/build/bench-out}
mkdir -p "$out_dir" || fail "cannot create $out_dir"
json=$out_dir/blkfile-sweep.json
fsize=$((1 << 30))

bf_bench_fs "$FS" 2048
f=$BF_MNT/file
dd if=/dev/urandom of="$f" bs=1M count=$((fsize >> 20)) conv=fsync status=none
note "$FS on $BF_DEV ($BF_DEVKIND), $f: $(bf_nextents "$f") extents, $(nproc) CPUs"

sizes=()
for ((bs = 512; bs <= 64 << 20; bs *= 2)); do sizes+=("$bs"); done
# O_DIRECT needs whole logical blocks (4 KiB on zram): smaller sizes are
# only run buffered.
lbs=$(blockdev --getss "$BF_DEV") || fail "blockdev --getss $BF_DEV"

# Enough I/O per job to time (>= 64 MiB, 16384 I/Os where the file allows),
# capped by runtime= so the smallest direct sizes cannot take minutes.
io_size() {
	local n=$(($1 * 16384))
	((n < 64 << 20)) && n=$((64 << 20))
	((n > fsize)) && n=$fsize
	echo $n
}

jobfile=$T/sweep.fio
{
	printf '[global]\nioengine=%s\nfilename=%s\nsize=%d\ninvalidate=1\n' \
		"$BF_ENGINE" "$f" "$fsize"
	printf 'blkfile_allow_bdev_write=1\nend_fsync=1\nruntime=2\nstonewall\n\n'
	for ((it = 1; it <= ITERS; it++)); do
		for rw in $SWEEP_RW; do
			for mode in buffered direct; do
				for bs in "${sizes[@]}"; do
					[ $mode = direct ] && ((bs < lbs)) && continue
					paths="file bdev"
					((it % 2)) || paths="bdev file"
					for path in $paths; do
						printf '[sweep-%s-%s-%s-%d]\n' "$path" "$mode" "$bs" "$it"
						printf 'rw=%s\nbs=%d\nio_size=%d\nblkfile_via=%s\ndirect=%d\n\n' \
							"$rw" "$bs" "$(io_size "$bs")" "$path" \
							"$([ $mode = direct ] && echo 1 || echo 0)"
					done
				done
			done
		done
	done
} >"$jobfile"

note "$(grep -c '^\[sweep' "$jobfile") jobs"
run_fio --output-format=json --output="$json" "$jobfile" >/dev/null 2>"$T/err" ||
	fail "fio: $(cat "$T/err")"
errs=$($JQ '[.jobs[] | select(.error != 0)] | length' "$json")
assert_eq "jobs with errors" 0 "$errs"

# Median MB/s per path, mode, direction, bs; ratio file/bdev; and the ratio
# of MB per CPU-second of the job (usr+sys).  On zram a read is done
# entirely in the reading task (readahead included), so the latter is the
# kernel path's cost per byte, whatever the neighbours take.
for rw in $SWEEP_RW; do
	for mode in buffered direct; do
		echo
		echo "$rw, $mode: file vs block device at the same sectors (median of $ITERS)"
		printf '%10s %10s %10s %9s %9s %9s %9s\n' bs "file MB/s" "bdev MB/s" "file/bdev" \
			"file MB/cs" "bdev MB/cs" "per CPU"
		for bs in "${sizes[@]}"; do
			for path in file bdev; do
				$JQ -r --arg n "sweep-$path-$mode-$bs-" --arg d "$rw" \
					'.jobs[] | select(.jobname | startswith($n)) | .[$d].bw_bytes / 1e6' \
					"$json" | median >"$T/$path"
				$JQ -r --arg n "sweep-$path-$mode-$bs-" --arg d "$rw" \
					'.jobs[] | select(.jobname | startswith($n)) |
					 .[$d].bw_bytes / 1e6 * 100 / ([.usr_cpu + .sys_cpu, 0.01] | max)' \
					"$json" | median >"$T/$path.cpu"
			done
			# (median of nothing is 0: a size not run in this mode)
			if [ "$(<"$T/file")" = 0 ]; then
				printf '%10s %10s %10s %9s %9s %9s %9s\n' "$bs" - - - - - -
				continue
			fi
			printf '%10s %10.1f %10.1f %9.3f %9.1f %9.1f %9.3f\n' "$bs" "$(<"$T/file")" \
				"$(<"$T/bdev")" \
				"$(echo "$(<"$T/file") $(<"$T/bdev")" | awk '{ print $2 ? $1 / $2 : 0 }')" \
				"$(<"$T/file.cpu")" "$(<"$T/bdev.cpu")" \
				"$(echo "$(<"$T/file.cpu") $(<"$T/bdev.cpu")" | awk '{ print $2 ? $1 / $2 : 0 }')"
		done
	done
done

if [ -x "${FIOTAB:-}" ]; then
	for mode in buffered direct; do
		echo
		echo "fiotab ratio --baseline-series sweep-bdev-$mode --candidate-series sweep-file-$mode $json"
		"$FIOTAB" ratio --baseline-series "sweep-bdev-$mode" \
			--candidate-series "sweep-file-$mode" "$json" || fail "fiotab ratio failed"
	done
else
	note "fiotab not built: render with fiotab ratio --baseline-series sweep-bdev-buffered --candidate-series sweep-file-buffered $json"
fi
note "fio JSON: $json (load $(cut -d' ' -f1-3 /proc/loadavg))"
