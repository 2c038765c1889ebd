#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Regenerates iozone.fio (48 sections).  Run from this folder; commit the result.
set -eu
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
; perfpack profile iozone: iozone's auto-mode write/rewrite/read/reread/random
; read/random write table for one file size and record sizes 8 KiB ... 1 MiB.
;
; Thread:  seed 003, Evgeniy Polyakov's blog "Local filesystem random read/write
;          performance" (2008): iozone on an 8 GiB file, reclen 8 KiB ... 1 MiB, on XFS
;          (default, and `mkfs.xfs -d agcount=75 -l size=64m` mounted
;          `logbufs=8,nobarrier,noatime,nodiratime,osyncisdsync`), ext3 default
;          (interrupted after 2 h of 8 KiB random writes) and ext4
;          `noatime,data=writeback,extents`.
; Table:   KB reclen write rewrite read reread "random read" "random write" (KB/s)
;          -> `fiotab iozone RUN.json`
; Matrix:  8 record sizes x 6 phases = 48 jobs per filesystem, in iozone's order:
;          per reclen write (new file), rewrite, read, reread, random read, random
;          write (which deletes the file: the next reclen writes a new one).
;          Job names: iozone-{write|rewrite|read|reread|randread|randwrite}-<KiB>k.
;          Buffered I/O and no cache dropping between jobs, as iozone (the reread
;          and the random reads may hit the page cache, which is the point of
;          the 8 GiB size on the thread's 8 GB machine).
; Variables (all required):
;   TARGET  the test file, on the filesystem under test (created and deleted)
;   SIZE    file size: 8g in the thread
; Filesystem recipes (the runner's variants; today's mount options: nobarrier was
;          removed in Linux 4.19 and osyncisdsync in 2.6.x, extents is ext4's default):
;   xfs, xfs_tuned (-d agcount=75 -l size=64m; logbufs=8,noatime,nodiratime),
;   ext3, ext4_wb (noatime,data=writeback)
; Runtime: full scale ~ 4 x 8 x 8 GiB / 75 MB/s sequential = ~1 h per filesystem
;          plus the random writes (XFS: ~30 min at 8 KiB; ext3: hours).

[global]
filename=${TARGET}
size=${SIZE}
ioengine=psync
iodepth=1
direct=0
invalidate=0
end_fsync=1
stonewall
HDR
for k in 8 16 32 64 128 256 512 1024; do
	for ph in write:write rewrite:write read:read reread:read randread:randread \
		randwrite:randwrite; do
		printf '\n[iozone-%s-%dk]\nrw=%s\nbs=%dk\n' "${ph%%:*}" "$k" "${ph#*:}" "$k"
		[ "${ph%%:*}" = randwrite ] && printf 'unlink=1\n'
	done
done
} >iozone.fio
