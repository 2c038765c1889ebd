#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every input of the model is live: for each sim_* parameter (params_list.h)
# and each coop/enum option the model reads, one configuration where moving
# it from A to B moves simrun's MB/s (1 GiB, bs 1 MiB, one iteration) the way
# the source its help names implies: "up", "down", or "change" where the
# source gives no direction (a model choice, a seed, a switch between two
# mechanisms).  An option that stopped being read (or one added without a
# row here) fails.  The table in the report of this test's commit says more.
source "$TOP/tests/lib.sh"
simrun=$B/tools/simrun
[ -x "$simrun" ] || fail "$simrun not built"

# base configurations (simrun's parameter names)
P="ioctx=private"				# case 1
S="ioctx=shared"				# case 5
C10="ioctx=shared client_ra_kb=2048 server_max_sectors_kb=64 server_ra_kb=2048"	# case 10
DLD="ioctx=shared client_max_sectors_kb=64 server_max_sectors_kb=64 server_ra_kb=2048 sched=deadline client_sched=deadline"
NOOP="ioctx=shared ra=context threads=2 sched=noop client_sched=noop"
DL5="ioctx=private threads=5 sched=deadline client_ra_kb=2048 server_max_sectors_kb=64 server_ra_kb=2048"

# option|base|A|B|direction
rows="
client_ra_kb|$P|128|256|up
client_max_sectors_kb|$C10|512|1024|up
client_qdepth|$S|32|1|down
client_cfq_lone_mult|$C10|4|1|change
client_cfq_idle_in_flight|$C10|1|0|up
client_host_blocked|$P client_ra_kb=2048 target_queued_cmds=2|0|7|down
client_hz|$NOOP|250|125|down
client_unplug_ms|$NOOP|3|25|down
client_nr_requests|client_max_sectors_kb=4|128|4|down
client_syscall_ns|$NOOP|1000|8001|down
client_copy_mbps|$S|2000|1000|down
client_nagle|$S client_max_sectors_kb=64|0|1|down
link_delack_ms|$S client_max_sectors_kb=64 client_nagle=1|40|0|change
link_mbps|$S|95|190|up
link_latency_us|$S|80|160|down
server_ra_kb|$P server_file_ra_kb=0|128|2048|up
server_file_ra_kb|$P|128|256|up
server_max_sectors_kb|$C10|64|256|up
server_cfq_lone_mult|$C10|0|1|down
dispatch_list|$C10|1|0|change
server_nr_requests|$P server_file_ra_kb=0 server_ra_kb=4096 server_max_sectors_kb=4|128|4|down
server_unplug_ms|$DLD|3|0|up
server_ra_unplug|$NOOP|1|0|down
target_queued_cmds|$S|32|1|down
sn_at_release|$P client_ra_kb=2048 target_queued_cmds=2|1|0|down
target_cmd_us|$S|11|89|down
target_rx_serial|$DLD|1|0|up
target_iov_kb|$P|4|0|change
target_copy_mbps|$P|3000|6000|up
target_copy_paced|$P|1|0|change
handoff_us|$P|100|200|down
bind_at_run|$P|1|0|change
wake_lifo|$P|1|0|change
jitter_us|$P|740|1480|down
jitter_exp|$P|1|0|change
jitter_wake_only|$C10|0|1|up
seed|$P|1|2|change
hz|$P|250|500|change
cfq_slice_idle_ms|$P|8|16|down
cfq_slice_sync_ms|$P|100|50|change
cfq_quantum|$C10|4|1|change
cfq_fifo_expire_ms|$C10|125|1|change
cfq_back_seek_max_kb|$C10|16384|0|change
cfq_back_seek_penalty|$C10|2|4|change
cfq_preempt_close|$P|1|0|down
cfq_coop|$P|0|1|up
dl_read_expire_ms|$DL5 dl_fifo_batch=1|500|1|down
dl_fifo_batch|$DL5 dl_read_expire_ms=1|16|1|down
disk_rpm|$P|7200|14400|up
disk_media_mbps|$P|116|58|down
disk_seek_min_us|$C10|700|5601|down
disk_seek_max_us|$P dispatch=rr|13500|27000|down
disk_capacity_gb|$C10|500|2000|up
disk_cmd_us|$P|400|800|down
disk_iface_mbps|$P|300|150|down
disk_prefetch_kb|$P|2048|4096|up
disk_cache_kb|$C10|8192|0|down
disk_qdepth|$C10|1|9|up
disk_readthrough|$C10|1|0|down
disk_rot_random|$P|1|0|change
threads|$P|1|2|down
ioctx||private|shared|up
fd|$P|per-thread|shared|change
dispatch|$P|queue|rr|change
ra|$P|classic|off|down
ra|$P|classic|context|change
order|$P|simple|ordered|change
sched|$P|cfq|deadline|up
client_sched|$C10|cfq|deadline|change
"

mbps() {	# simrun's mean MB/s for these parameters, or fail naming them
	local out m
	# shellcheck disable=SC2068
	out=$(timeout 60 "$simrun" --iters 1 --bs 1048576 $@ 2>&1) || fail "simrun $*: exit $?: $out"
	m=$(echo "$out" | awk '/^# mean/ {sub(/;$/, "", $4); print $4}')
	[ -n "$m" ] || fail "simrun $*: no mean: $out"
	echo "$m"
}

# every numeric parameter and every option the model reads has a row
for o in $(sed -n 's/^[[:space:]]*X(a, b, \([a-z_]*\),.*/\1/p' "$TOP/engines/sim/params_list.h") \
	 threads ioctx fd dispatch ra order sched client_sched; do
	echo "$rows" | grep -q "^$o|" || fail "$o: no liveness row in $0"
done

bad=0
while IFS='|' read -r o base a b dir; do
	[ -n "$o" ] || continue
	# shellcheck disable=SC2086
	ma=$(mbps $base "$o=$a") || exit 1
	# shellcheck disable=SC2086
	mb=$(mbps $base "$o=$b") || exit 1
	ok=$(awk -v a="$ma" -v b="$mb" -v d="$dir" 'BEGIN {
		print (d == "up" && b > a) || (d == "down" && b < a) || (d == "change" && b != a) }')
	note "$o [$base] $a -> $b: $ma -> $mb MB/s (expected $dir)"
	if [ "$ok" != 1 ]; then
		echo "FAIL: $o [$base] $a -> $b: $ma -> $mb MB/s, expected $dir: the option is not live there" >&2
		bad=1
	fi
done <<<"$rows"
[ $bad = 0 ] || fail "some option had no effect or went against its source (above)"
exit 0
