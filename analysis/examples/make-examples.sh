#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pictures of analysis/README.md's examples, from real fio runs on a
# tmpfs (/dev/shm) scratch directory: a block-size sweep of two I/O engines
# (plot), the per-interval logs of two jobs (series) and json+ latency bins
# (hist), each written as OUT/NAME.svg and rendered to OUT/NAME.png by
# rsvg-convert.  Usage: make-examples.sh OUTDIR  (FIO, FIOTAB from the env).
set -euo pipefail
out=${1:?usage: make-examples.sh OUTDIR}
FIO=${FIO:-fio}
FIOTAB=${FIOTAB:?FIOTAB=path/to/fiotab}
command -v rsvg-convert > /dev/null || { echo "make-examples: rsvg-convert (librsvg2-bin) is needed" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d /dev/shm/fiotab-examples.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"

# 1. sweep: psync against mmap on the same tmpfs, 4k..1m, 2 iterations
for eng in psync mmap; do
	mkdir -p "$eng"
	for it in 1 2; do
		for bs in 4k 16k 64k 256k 1m; do
			for rw in write read; do
				printf '[%s-%s-%s-%s]\nfilename=%s/%s/data\nioengine=%s\nsize=32m\nbs=%s\nrw=%s\nstonewall\n\n' \
					"$eng" "$rw" "$bs" "$it" "$scratch" "$eng" "$eng" "$bs" "$rw"
			done
		done
	done
done > sweep.fio
"$FIO" --output-format=json sweep.fio > sweep.json
"$FIOTAB" plot --tag device=tmpfs -o "$out/sweep.svg" sweep.json

# 2. time series: a throttled writer and an unthrottled reader, 100 ms averages
cat > series.fio <<EOF2
[global]
filename=$scratch/series.data
size=64m
ioengine=psync
runtime=3
time_based
log_avg_msec=100
[writer]
rw=write
bs=64k
rate=200m
write_bw_log=writer
write_lat_log=writer
[reader]
rw=randread
bs=4k
write_bw_log=reader
write_lat_log=reader
EOF2
"$FIO" --output-format=json series.fio > series.json
"$FIOTAB" series --tag device=tmpfs -o "$out/series.svg" writer_bw.1.log reader_bw.2.log writer_clat.1.log reader_clat.2.log

# 3. histogram: json+ of a 4k random read and a 64k write
cat > hist.fio <<EOF2
[global]
filename=$scratch/hist.data
size=128m
ioengine=psync
[randread-4k]
rw=randread
bs=4k
[write-64k]
stonewall
rw=write
bs=64k
EOF2
"$FIO" --output-format=json+ hist.fio > hist.json
"$FIOTAB" hist --tag device=tmpfs -o "$out/hist.svg" hist.json

for n in sweep series hist; do
	rsvg-convert -w 800 -o "$out/$n.png" "$out/$n.svg"
done
