#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Regenerates blockdev-perftest.fio and blockdev-perftest-blkfile.fio (108
# sections each are too many to keep by hand without a typo).  Run from this
# folder; commit the result.
set -eu

# matrix [SERIES...]: for each block size, for each series, 3 writes then
# 3 reads; a series (perftest-<series>-...) also sets blkfile_via=<series>
matrix() {
	local s bs rw i ser
	for s in $(seq 26 -1 9); do
		bs=$((1 << s))
		for ser in "${@:-}"; do
			for rw in write read; do
				for i in 1 2 3; do
					printf '\n[perftest-%s%s-%d-%d]\nrw=%s\nbs=%d\n' \
						"${ser:+$ser-}" "${rw:0:1}" "$bs" "$i" "$rw" "$bs"
					[ -z "$ser" ] || printf 'blkfile_via=%s\n' "$ser"
				done
			done
		done
	done
}

{
cat <<'HDR'
; SPDX-License-Identifier: GPL-2.0-only
; Bare fio (without perfpack): put the variables this file uses in the
; environment -- ENGDIR is the directory of perfpack's engines (fio-*.so:
; PREFIX/lib/fio, or engines/ in the build tree) -- e.g.
;   ENGDIR=/usr/local/lib/fio TARGET=/dev/sdX SIZE=134217728 fio --section=NAME FILE
; `perfpack run PROFILE --env` prints each variant's values, and every perfpack
; run's DIR/bundle/VARIANT/ holds this file with them substituted (runs as is).
;
; perfpack profile blockdev-perftest: SCST's scripts/blockdev-perftest as fio jobs.
;
; Thread:  seed 000, "[Scst-devel] Performance of block device I/O versus
;          filesystem I/O" (2009): `blockdev-perftest -s 27 /dev/md4` and the same
;          on a 1 GiB file on XFS (`dd if=/dev/zero of=block bs=1M count=1K`),
;          ending in the "ratio of file I/O throughput to block I/O" table;
;          and seed 001's read runs (`-s 30`, reads only, 64 MiB ... 16 KiB).
; Table:   blocksize | W W W (s) | W(avg,MB/s) | W(std,MB/s) | W(IOPS) | R ... R(IOPS)
;          -> `fiotab perftest RUN.json`, `fiotab ratio BLOCK.json FILE.json`
; Matrix:  block sizes 2^26 ... 2^9 (64 MiB ... 512 B, the script's -M/-m), for each
;          size 3 write iterations then 3 read iterations, every iteration its own
;          stonewalled job: 18 x 2 x 3 = 108 jobs.  Job names: perftest-{w|r}-<bytes>-<iter> (fiotab's naming).
; Variables (all required):
;   TARGET  block device or file that is written (the runner refuses devices in use)
;   SIZE    bytes per job = 2^s: 134217728 (-s 27, seed 000), 1073741824 (-s 30, seed 001)
;   DIRECT  1 = O_DIRECT (the script's default), 0 = buffered variant
; Caches:  invalidate=1 drops the target's page cache before every job;
;          `perfpack run` also does `echo 3 >/proc/sys/vm/drop_caches` when root.
; Runtime: full scale ~ 108 x SIZE / device rate plus the small-block penalty:
;          seed 000 took ~10 min per target at 55 MB/s (-s 27), seed 001 ~40 min (-s 30).
; One job with stock fio:
;   TARGET=/dev/sdX SIZE=134217728 DIRECT=1 fio --section=perftest-r-4096-2 blockdev-perftest.fio

[global]
filename=${TARGET}
size=${SIZE}
direct=${DIRECT}
ioengine=psync
iodepth=1
invalidate=1
; each iteration waits for the previous one, as the script's sequential dd runs
stonewall
HDR
matrix
} >blockdev-perftest.fio

{
cat <<'HDR'
; SPDX-License-Identifier: GPL-2.0-only
; Bare fio (without perfpack): put the variables this file uses in the
; environment -- ENGDIR is the directory of perfpack's engines (fio-*.so:
; PREFIX/lib/fio, or engines/ in the build tree) -- e.g.
;   ENGDIR=/usr/local/lib/fio TARGET=/dev/sdX SIZE=134217728 fio --section=NAME FILE
; `perfpack run PROFILE --env` prints each variant's values, and every perfpack
; run's DIR/bundle/VARIANT/ holds this file with them substituted (runs as is).
;
; perfpack profile blockdev-perftest, same-sectors form: the matrix of
; blockdev-perftest.fio (see its header: thread, table, runtime) through the
; blkfile engine, so the "block device" and the "file" runs touch the very same
; disk sectors -- those of one file on XFS -- and only the kernel path differs.
; In seed 000 the block runs used the start of /dev/md4 and the file runs
; wherever XFS had put `block`, so layout leaked into the ratio table.
; Table:   -> `fiotab perftest --series '^perftest-(bdev|file)-' RUN.json` (one
;          table per path) and `fiotab ratio --baseline-series '^perftest-bdev-'
;          --candidate-series '^perftest-file-' RUN.json` (file/block)
; Matrix:  18 block sizes 2^26 ... 2^9; for each, through the device then
;          through the file, 3 writes then 3 reads, each its own stonewalled
;          job: 18 x 2 x 2 x 3 = 216 jobs (108 per path, interleaved so both
;          paths see the same conditions).  Names: perftest-{bdev|file}-{w|r}-<bytes>-<iter>.
; Variables (all required):
;   TARGET  a file on a block-backed filesystem (made with dd: real extents)
;   SIZE    bytes per job = 2^s (<= the file's size)
;   DIRECT  1 = O_DIRECT (default), 0 = buffered
;   ENGDIR  where fio-blkfile.so is (the build tree's engines/ or PREFIX/lib/fio)
; Runtime: twice blockdev-perftest.fio (~20 min at 55 MB/s, -s 27).

[global]
ioengine=external:${ENGDIR}/fio-blkfile.so
; the writes of the matrix go through the device too, only inside the file
blkfile_allow_bdev_write=1
filename=${TARGET}
size=${SIZE}
direct=${DIRECT}
iodepth=1
invalidate=1
stonewall
HDR
matrix bdev file
} >blockdev-perftest-blkfile.fio
