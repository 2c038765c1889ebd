#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The engines' number and boolean options take one whole value, or the job
# is refused naming the option -- never a value fio made up.  fio 3.33
# splits the value of an integer or boolean option at ',', ':' and '-' and
# hands the pieces to the option in turn, the last one winning:
# blkfile_allow_bdev_write=-1 (an empty piece, then 1) or =0-1 allowed
# device writes, blkfile_recheck_msec=4294967396 arrived as 100.  And fio
# hands an engine's option written "NAME = VALUE" in a job file over as
# " VALUEE" (its parse_option() moves the value back after "NAME=" without
# its NUL): blkfile_recheck_msec = 200 ran at 2000 ms, coop_threads = 2
# with 22 workers.  Each such value must be refused with a line
# "ENGINE: NAME=...", fio exiting nonzero, on the command line and in a job
# file; the good values (decimal, 0x hex, the bounds) must run.  Both
# engines, every number and boolean option (sim_disk_rpm for the model's
# numeric parameters, which share one definition).
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
BF_SO=$(engine blkfile)
f=$T/target
truncate -s 1m "$f"
san_env

# job ENGINE_SO OPTION_LINE: a job file with the line as written; fio's output.
job() {
	printf '[o]\nioengine=external:%s\nfilename=%s\nrw=read\nsize=64k\nthread\n%s\n' \
		"$1" "$f" "$2" >"$T/o.fio"
	timeout -k 5 60 env "${SAN_ENV[@]}" "$FIO" "$T/o.fio" 2>&1
}

# refused ENGINE_NAME SO NAME VALUE: NAME=VALUE on the command line and in
# a job file, and "NAME = VALUE" in a job file, each refused.
refused() {
	local eng=$1 so=$2 name=$3 v=$4 out line
	out=$(timeout -k 5 60 env "${SAN_ENV[@]}" "$FIO" --name=o --ioengine="external:$so" \
		--filename="$f" --rw=read --size=64k --thread "--$name=$v" 2>&1) &&
		fail "--$name=$v was accepted: $out"
	assert_match "--$name=$v" "^$eng: $name=" "$out"
	for line in "$name=$v" "$name = $v"; do
		out=$(job "$so" "$line") && fail "job file '$line' was accepted: $out"
		assert_match "job file '$line'" "^$eng: $name=" "$out"
	done
}

# accepted SO NAME VALUE: runs without error.
accepted() {
	local out
	out=$(job "$1" "$2=$3") || fail "$2=$3 refused: $out"
	echo "$out" | grep -q "err= 0" || fail "$2=$3: job error: $out"
}

for v in -1 0-1 1-0 1:0 0,1 2 yes 0x " 1"; do
	for o in blkfile_allow_bdev_write blkfile_fixedbufs blkfile_registerfiles; do
		refused blkfile "$BF_SO" $o "$v"
	done
done
for v in -1 20-30 200:300 20,30 4294967396 9 60001 1.5 abc 0x " 200"; do
	refused blkfile "$BF_SO" blkfile_recheck_msec "$v"
done
for v in file bdev; do
	out=$(job "$BF_SO" "blkfile_via = $v") && fail "job file 'blkfile_via = $v' was accepted: $out"
	assert_match "blkfile_via = $v" "^blkfile: blkfile_via= ${v}${v: -1}: the value starts with a blank" "$out"
done
out=$(job "$BF_SO" "blkfile_dev = /dev/null") && fail "job file 'blkfile_dev = /dev/null' was accepted: $out"
assert_match "blkfile_dev = /dev/null" "^blkfile: blkfile_dev= /dev/nulll: the value starts with a blank" "$out"
for v in 10 0x64 60000; do
	accepted "$BF_SO" blkfile_recheck_msec $v
done
accepted "$BF_SO" blkfile_allow_bdev_write 1
accepted "$BF_SO" blkfile_allow_bdev_write 0
note "blkfile: ranges, lists, signs, words and blank-mangled values refused; whole values run"

CO_SO=$COOP_SO
for v in -1 0-1 1-0 1:0 0,1 2 yes 0x " 1"; do
	for o in coop_stats coop_coalesce coop_inline; do
		refused coop "$CO_SO" $o "$v"
	done
done
for v in -1 2-3 3-2 2:3 2,3 0 1025 4294967298 1.5 two 0x " 2"; do
	refused coop "$CO_SO" coop_threads "$v"
done
for v in -1 4-8 4:8 4,8 4294967296 " 4"; do
	refused coop "$CO_SO" coop_split_kb "$v"
	refused coop "$CO_SO" coop_ra_kb "$v"
	refused coop "$CO_SO" sim_lag_warn_ms "$v"
	refused coop "$CO_SO" sim_disk_rpm "$v"
done
for v in 0 2-3 " 2"; do
	refused coop "$CO_SO" sim_time_scale "$v"
done
for v in psync uring; do
	out=$(job "$CO_SO" "coop_backend = $v") && fail "job file 'coop_backend = $v' was accepted: $out"
	assert_match "coop_backend = $v" "^coop: coop_backend= ${v}${v: -1}: the value starts with a blank" "$out"
done
out=$(cd "$T" && job "$CO_SO" "sim_report = r.txt") && fail "job file 'sim_report = r.txt' was accepted: $out"
assert_match "sim_report = r.txt" "^coop: sim_report= r.txtt: the value starts with a blank" "$out"
[ -z "$(find "$T" -name '*r.txt*')" ] || fail "sim_report = r.txt: a report file was written: $(find "$T" -name '*r.txt*')"
for v in 1 0x10 1024; do
	accepted "$CO_SO" coop_threads $v
done
accepted "$CO_SO" coop_split_kb 0
accepted "$CO_SO" coop_stats 1
note "coop: ranges, lists, signs, words and blank-mangled values refused; whole values run"
