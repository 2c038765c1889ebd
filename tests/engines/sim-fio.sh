#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# coop_backend=sim end to end through fio: the model runs, completions are
# paced at sim_time_scale (fio's rate = modeled rate x scale), the per-job
# report is bit-for-bit the same on a second run, the io_context effect
# shows, bad input is refused with a clear message.
source "$TOP/tests/lib.sh"
need_cmd "$FIO"
so=$(engine coop)
JQ=${JQ:-jq}
need_cmd "$JQ"

job() {	# job NAME EXTRA-OPTIONS...: 32 MiB read of /dev/zero in the model
	local name=$1
	shift
	printf '[%s]\nioengine=external:%s\nfilename=/dev/zero\nsize=32m\nrw=read\nbs=1m\n' "$name" "$so"
	printf 'coop_backend=sim\nfadvise_hint=0\ncoop_fd=per-thread\nsim_time_scale=10\nsim_report=%s\n' "$T/report"
	printf '%s\n' "$@"
}

# c5 at scale 2 (~200 ms): fio's runtime starts before the engine's pacing
# clock, which a 40 ms job at scale 10 showed as a rate 10 % short
job c5 coop_ioctx=shared sim_time_scale=2 >"$T/c5.fio"
job c1 coop_ioctx=private >"$T/c1.fio"
run_fio --output-format=json "$T/c5.fio" >"$T/c5.json" 2>"$T/c5.err" || { cat "$T/c5.err"; fail "fio c5"; }
run_fio --output-format=json "$T/c5.fio" >"$T/c5b.json" 2>>"$T/c5.err" || fail "fio c5 again"
run_fio --output-format=json "$T/c1.fio" >"$T/c1.json" 2>"$T/c1.err" || fail "fio c1"
"$JQ" -e . "$T/c5.json" >/dev/null || fail "fio's JSON is polluted by the report"

assert_eq "report lines" 3 "$(wc -l <"$T/report")"
r1=$(sed -n 1p "$T/report")
r2=$(sed -n 2p "$T/report")
assert_eq "determinism (same job twice)" "$r1" "$r2"
assert_match "report on stderr" 'coop: sim: job=c5' "$(cat "$T/c5.err")"

mbs() { echo "$1" | sed -n 's/.*MBps=\([0-9.]*\).*/\1/p'; }
m5=$(mbs "$r1")
m1=$(mbs "$(sed -n 3p "$T/report")")
note "modeled: shared io_context $m5 MB/s, private $m1 MB/s"
awk -v a="$m5" -v b="$m1" 'BEGIN { exit !(a > 1.2 * b) }' || fail "io_context patch effect missing: $m5 vs $m1"

# fio's rate / scale matches the modeled rate (pacing), within 10 %, or
# the engine said it fell behind (a machine too slow for the scale: a
# sanitizer build on a loaded host) -- never a short rate without a word.
bw=$("$JQ" '.jobs[0].read.bw_bytes' "$T/c5.json")
if ! awk -v bw="$bw" -v m="$m5" 'BEGIN { r = bw / 2 / 1e6 / m; exit !(r > 0.9 && r < 1.1) }'; then
	grep -q "job c5: real time fell behind the modeled schedule" "$T/c5.err" ||
		fail "paced rate $bw B/s is not 2 x $m5 MB/s, and the engine did not say it fell behind"
	note "paced rate $bw B/s is not 2 x $m5 MB/s: the engine said it fell behind"
fi
# A scale no machine keeps (32 MiB in ~4 us): every completion late by far
# less than sim_lag_warn_ms, the run by nearly all of it -- said.
job fast coop_ioctx=shared sim_time_scale=100000 >"$T/fast.fio"
sed -i '/^sim_time_scale=10$/d' "$T/fast.fio"
run_fio --output-format=json "$T/fast.fio" >/dev/null 2>"$T/fast.err" || fail "fio fast: $(cat "$T/fast.err")"
assert_match "a run far behind its schedule: said" \
	"job fast: real time fell behind the modeled schedule.*fio's rates understate the model" "$(cat "$T/fast.err")"

# the options are visible and bad input is refused
assert_match "enghelp" "sim_server_ra_kb" "$(run_fio --enghelp="$so" 2>&1)"
# ... each saying what it configures (they do nothing with the pool)
help=$(run_fio --enghelp="$so" 2>&1 | grep '^sim_')
assert_eq "sim_* help lines not naming the model" "" "$(echo "$help" | grep -v ": coop_backend=sim's model: ")"
job w rw=write >"$T/w.fio"
sed -i '/^rw=read$/d' "$T/w.fio"
if run_fio "$T/w.fio" >"$T/w.out" 2>&1; then fail "rw=write accepted by the model"; fi
assert_match "write refused" 'models the thread.s read test only' "$(cat "$T/w.out")"
# A job the model would run as something it is not -- direct reads, data
# to verify, fio's real-time pacing, several readers, reads or files, no
# readahead (fadvise_hint=random), passes after the first over a cache fio
# invalidated (loops, io_size past size, time_based), the real device's
# scheduler (ioscheduler=; the model's are sim_sched, sim_client_sched), an
# I/O priority (prio=, prioclass=; the model's CFQ has one level) -- is
# refused at init, naming the option (all were modelled as plain reads).
for opt in direct=1 verify=crc32c thinktime=1000 rate_iops=10 rate=1m numjobs=2 \
	filename=/dev/zero:/dev/null invalidate=0 loops=2 io_size=64m coop_split_kb=1 \
	iodepth=8 fadvise_hint=random pre_read=1 ioscheduler=noop prioclass=3; do
	job unmodelled "$opt" >"$T/u.fio"
	if run_fio "$T/u.fio" >"$T/u.out" 2>&1; then fail "$opt accepted by the model"; fi
	assert_match "$opt refused, named" "coop: coop_backend=sim.*${opt%%=*}" "$(cat "$T/u.out")"
done
# time_based needs runtime= (fio drops it without one)
job tb time_based=1 runtime=1 >"$T/tb.fio"
if run_fio "$T/tb.fio" >"$T/tb.out" 2>&1; then
	fail "time_based accepted by the model: $(grep 'coop: sim:' "$T/tb.out")"
fi
assert_match "time_based refused, named" 'coop: coop_backend=sim: time_based is not modelled' "$(cat "$T/tb.out")"
# A replayed read_iolog= keeps the log's pauses: fio sleeps them in real
# time before each I/O (iolog.c, iolog_delay(); v3 timestamps in us),
# which the model's clock never sees, as thinktime= (8 reads 300 ms apart
# ran 2.1 s, modelled back to back in 135 ms: clat 27 us for 1 MiB reads,
# 'fell behind ... lower sim_time_scale'): refused, naming it;
# replay_no_stall=1 replays without them and runs.
truncate -s 4m "$T/log.f" || fail "truncate $T/log.f"
{
	echo "fio version 3 iolog"
	echo "0 $T/log.f add"
	echo "0 $T/log.f open"
	for i in 0 1 2 3; do echo "$((i * 100000)) $T/log.f read $((i * 1048576)) 1048576"; done
	echo "300000 $T/log.f close"
} >"$T/v3.log"
job replay read_iolog="$T/v3.log" | sed "s|^filename=/dev/zero\$|filename=$T/log.f|" >"$T/replay.fio"
if run_fio "$T/replay.fio" >"$T/replay.out" 2>&1; then
	fail "read_iolog with its pauses accepted by the model: $(grep 'coop: sim' "$T/replay.out")"
fi
assert_match "read_iolog with its pauses refused, named" \
	'coop: coop_backend=sim: read_iolog=.* is not modelled.*replay_no_stall=1' "$(cat "$T/replay.out")"
echo replay_no_stall=1 >>"$T/replay.fio"
run_fio "$T/replay.fio" >"$T/replay.out" 2>&1 || fail "read_iolog with replay_no_stall=1 refused: $(cat "$T/replay.out")"
assert_match "read_iolog with replay_no_stall=1: the log's 4 reads modelled" \
	'coop: sim: job=replay .*bytes=4194304 reads=4 ' "$(cat "$T/replay.out")"
# flow= makes fio pause a job in real time (flow_sleep=) while it is ahead
# of its share of the I/Os of its flow_id's jobs (flow.c), which the
# model's clock never sees (beside a 4-IOPS job, 8 reads modelled in
# 13.5 ms at scale 10 took 314 ms, 'fell behind ... lower
# sim_time_scale'): refused, naming it.
{
	job flow flow=1
	printf '[other]\nioengine=psync\nfilename=/dev/zero\nrw=read\nbs=4k\nsize=8k\nrate_iops=4\nflow=1\n'
} >"$T/flow.fio"
if run_fio "$T/flow.fio" >"$T/flow.out" 2>&1; then
	fail "flow= accepted by the model: $(grep 'coop: sim' "$T/flow.out")"
fi
assert_match "flow= refused, named" 'coop: coop_backend=sim: flow=1 is not modelled' "$(cat "$T/flow.out")"
# fio advises the file when it opens it: fadvise_hint=1, its default,
# POSIX_FADV_RANDOM for random reads and POSIX_FADV_SEQUENTIAL otherwise,
# or the advice named.  Each changes the reader's readahead; the model's
# client reads ahead as dd's kernel did, with no advice (it modelled every
# hint as none): refused, naming the hint; fadvise_hint=0 runs.
for rh in read:1 read:sequential read:random randread:1 randread:random randread:sequential default:; do
	rw=${rh%%:*} hint=${rh#*:}
	if [ "$rw" = default ]; then
		job adv >"$T/adv.fio"
		sed -i '/^fadvise_hint=0$/d' "$T/adv.fio"
		hint=1
	else
		job adv rw=$rw fadvise_hint=$hint >"$T/adv.fio"
	fi
	if run_fio "$T/adv.fio" >"$T/adv.out" 2>&1; then
		fail "rw=$rw fadvise_hint=$hint accepted by the model: $(grep 'coop: sim:' "$T/adv.out")"
	fi
	assert_match "rw=$rw fadvise_hint=$hint refused, named" \
		"coop: coop_backend=sim: fadvise_hint=$hint.* is not modelled: fio advises the file POSIX_FADV_.*set fadvise_hint=0" \
		"$(cat "$T/adv.out")"
done
job rr0 rw=randread fadvise_hint=0 >"$T/rr0.fio"
run_fio "$T/rr0.fio" >"$T/rr0.out" 2>&1 || fail "rw=randread fadvise_hint=0 refused: $(cat "$T/rr0.out")"
# io_size past size or time_based without a random map: one pass, never
# invalidated again
for opts in io_size=64m "time_based=1 runtime=1"; do
	job rrn rw=randread fadvise_hint=0 norandommap=1 $opts >"$T/rrn.fio"
	run_fio "$T/rrn.fio" >"$T/rrn.out" 2>&1 || fail "norandommap $opts refused: $(cat "$T/rrn.out")"
done
# Every byte fio reads past offset+size must cross the model's link too
# (the caches start cold), on a file larger than the job: zonemode=strided
# moves on by zonerange after each zone, up to the file's end, and the last
# read of a size that is not a multiple of bs runs up to a block past it.
# Both completed for nothing past the modelled file (8 MiB of zones read
# with 2.3 MB of iSCSI data; 9 MiB of 3 MiB reads with 8 MiB).
truncate -s 64m "$T/big" || fail "truncate $T/big"
moved_all() {	# moved_all WHAT JOB-OPTIONS...: on $T/big
	local what=$1 r
	shift
	job past size=8m "$@" | sed "s|^filename=/dev/zero\$|filename=$T/big|" >"$T/past.fio"
	run_fio "$T/past.fio" >"$T/past.out" 2>&1 || fail "$what: fio failed: $(cat "$T/past.out")"
	r=$(grep -m1 'coop: sim: job=past' "$T/past.out")
	echo "$r" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { exit !(v["iscsi_cmds"] * v["iscsi_avg_kb"] * 1024 >= 0.99 * v["bytes"]) }' ||
		fail "$what: the model moved less over iSCSI than fio read: $r"
}
moved_all "zonemode=strided" bs=64k zonemode=strided zonesize=1m zonerange=4m
moved_all "last read past size" bs=3m
job bad sim_disk_rpm=10 >"$T/bad.fio"
if run_fio "$T/bad.fio" >"$T/bad.out" 2>&1; then fail "sim_disk_rpm=10 accepted"; fi
assert_match "bad parameter named" 'sim_disk_rpm' "$(cat "$T/bad.out")"
# a report that cannot be written fails the job, at init if it cannot be opened
job nodir sim_report="$T/no/such/dir/r" >"$T/nodir.fio"
if run_fio "$T/nodir.fio" >"$T/nodir.out" 2>&1; then fail "unwritable sim_report accepted"; fi
assert_match "report path named" "sim_report=$T/no/such/dir/r: cannot open" "$(cat "$T/nodir.out")"
if [ -w /dev/full ]; then
	job full sim_report=/dev/full >"$T/full.fio"
	if run_fio "$T/full.fio" >"$T/full.out" 2>&1; then fail "lost sim_report went unnoticed"; fi
	assert_match "failed append named" 'sim_report=/dev/full: cannot append' "$(cat "$T/full.out")"
fi
exit 0
