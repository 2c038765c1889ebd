#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The full-scale matrices have the threads' job counts, counted by fio's own
# parser (fio --showcmd) and by the runner's plan (perfpack run --full --list).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"

# runs PROFILE ARGS...: how many fio runs the runner plans
runs() {
	local p=$1
	shift
	"$PERFPACK" run "$p" --full --list "$@" | wc -l
}

# --- blockdev-perftest (seed 000, 001) ---------------------------------------
names=$(job_names blockdev-perftest blockdev-perftest.fio block --full)
assert_eq "blockdev-perftest jobs" 108 "$(echo "$names" | wc -l)"
# 18 block sizes 2^26 ... 2^9, in that order, each 3 writes then 3 reads
want=
for s in $(seq 26 -1 9); do
	b=$((1 << s))
	want+="w-$b-1 w-$b-2 w-$b-3 r-$b-1 r-$b-2 r-$b-3 "
done
assert_eq "blockdev-perftest order" "${want% }" "$(echo "$names" | sed 's/^perftest-//' | tr '\n' ' ' | sed 's/ $//')"
cmd=$(showcmd blockdev-perftest blockdev-perftest.fio block --full)
assert_match "every job stonewalled" '--stonewall' "$cmd"
assert_match "page cache invalidated" '--invalidate=1' "$cmd"
assert_match "seed 000 -s 27" '--size=134217728 ' "$cmd"
assert_match "direct by default" '--direct=1 ' "$cmd"
assert_match "buffered variant" '--direct=0 ' "$(showcmd blockdev-perftest blockdev-perftest.fio block_buffered --full)"
assert_match "seed 001 -s 30" '--size=1073741824 ' "$(showcmd blockdev-perftest blockdev-perftest.fio seed001 --full)"
# bs of each job = the number in its name
echo "$cmd" | grep -o -- '--name=perftest-[wr]-[0-9]*-[0-9] --rw=[a-z]* --bs=[0-9]*' |
	awk '{ split($1, n, "-"); sub("--bs=", "", $3); if (n[5] != $3) { print "bad: " $0; exit 1 } }' ||
	fail "a perftest job's bs differs from its name"
assert_eq "runner: block variant" 108 "$(runs blockdev-perftest --variant block)"
assert_eq "runner: default (block + file)" 216 "$(runs blockdev-perftest)"
# seed 001: reads only, 64 MiB ... 16 KiB, 3 iterations
assert_eq "runner: seed 001 read runs" 39 "$(runs blockdev-perftest --variant seed001)"
assert_eq "seed 001 runs are reads" 0 "$("$PERFPACK" run blockdev-perftest --full --list --variant seed001 | grep -vc 'read bs=')"
assert_match "progress label" '^\[17/108\] read bs=16777216 iter 2' \
	"$("$PERFPACK" run blockdev-perftest --full --list --variant block | sed -n 17p)"

# --- bonnie-direct-vs-raw (seed 002) -----------------------------------------
names=$(job_names bonnie-direct-vs-raw bonnie.fio raw --full | sort -u | tr '\n' ' ')
assert_eq "Bonnie phases" "bonnie-getc bonnie-putc bonnie-read bonnie-rewrite bonnie-seeks bonnie-write " "$names"
cmd=$(showcmd bonnie-direct-vs-raw bonnie.fio raw --full)
assert_match "3 seekers" '--name=bonnie-seeks( --[^ ]*)* --numjobs=3' "$cmd"
cmd=$(showcmd bonnie-direct-vs-raw testcases.fio raw --full)
assert_eq "test cases per target" 6 "$(echo "$cmd" | grep -o -- '--name=' | wc -l)"
assert_match "4 KiB x 128000" '--size=500m .*--bs=4k' "$cmd"
assert_eq "random cases draw with replacement" 3 "$(echo "$cmd" | grep -o -- '--norandommap' | wc -l)"
# the thread's 12 test cases = 6 cases x {regular-file direct, raw}; plus buffered bdev
assert_eq "direct vs raw test cases" 12 \
	"$("$PERFPACK" run bonnie-direct-vs-raw --full --list --variant file_direct,raw | grep -c testcases.fio)"
assert_eq "runner: 3 targets x (6 phases + 6 cases)" 36 "$(runs bonnie-direct-vs-raw)"
assert_match "raw = O_DIRECT on the device" '--direct=1' "$(showcmd bonnie-direct-vs-raw testcases.fio raw --full)"
assert_match "bdev = buffered" '--direct=0' "$(showcmd bonnie-direct-vs-raw testcases.fio bdev --full)"

# --- iozone (seed 003) -------------------------------------------------------
names=$(job_names iozone iozone.fio xfs --full)
assert_eq "iozone jobs" 48 "$(echo "$names" | wc -l)"
assert_eq "iozone record sizes" "1024k 128k 16k 256k 32k 512k 64k 8k" \
	"$(echo "$names" | sed 's/.*-//' | sort -u | tr '\n' ' ' | sed 's/ $//')"
assert_eq "iozone phase order" "write rewrite read reread randread randwrite" \
	"$(echo "$names" | head -n 6 | sed 's/^iozone-//; s/-[0-9]*k$//' | tr '\n' ' ' | sed 's/ $//')"
assert_match "8 GiB file" '--size=8g ' "$(showcmd iozone iozone.fio xfs --full)"
assert_eq "runner: 4 filesystem recipes x 48" 192 "$(runs iozone)"
profile_env iozone xfs_tuned --full
assert_match "XFS tuned as in the thread" 'PP_MKFS_OPTS=-d agcount=75 -l size=64m' "${penv[*]}"
profile_env iozone ext4_wb --full
assert_match "ext4 data=writeback" 'PP_MOUNT_OPTS=noatime,data=writeback' "${penv[*]}"

# --- buffered-vs-raw (seed 004) ----------------------------------------------
cmd=$(showcmd buffered-vs-raw buffered-vs-raw.fio default --full)
assert_eq "buffered-vs-raw jobs" 4 "$(echo "$cmd" | grep -o -- '--name=' | wc -l)"
assert_match "buffered bs=32k" '--name=dd-buffered-bs32k --size=[^ ]* --bs=32k --direct=0' "$cmd"
assert_match "raw bs=64k O_DIRECT" '--name=dd-raw-bs64k --size=[^ ]* --bs=64k --direct=1' "$cmd"
assert_match "per-second samples" '--log_avg_msec=1000' "$cmd"
assert_eq "runner: 4 runs" 4 "$(runs buffered-vs-raw)"

# --- blockdev-perftest, same sectors (blkfile) ---------------------------------
cmd=$(showcmd blockdev-perftest blockdev-perftest-blkfile.fio same_sectors --full)
assert_eq "same-sectors jobs: 18 sizes x 2 paths x 2 directions x 3" 216 "$(echo "$cmd" | grep -o -- '--name=' | wc -l)"
assert_eq "through the device" 108 "$(echo "$cmd" | grep -o -- '--name=perftest-bdev-[wr]-[0-9]*-[0-9] --rw=[a-z]* --bs=[0-9]* --blkfile_via=bdev' | wc -l)"
assert_eq "through the file" 108 "$(echo "$cmd" | grep -o -- '--name=perftest-file-[wr]-[0-9]*-[0-9] --rw=[a-z]* --bs=[0-9]* --blkfile_via=file' | wc -l)"
assert_eq "runner: same_sectors" 216 "$(runs blockdev-perftest --variant same_sectors)"
