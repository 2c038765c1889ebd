#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/simrun's command line (tools/README.md): its table has one time
# column per iteration it prints, under a header of as many, and every
# number it is given is read whole and in range or refused naming the
# option, never cut short (--bs 4k read as 4 bytes) or run forever (--bs 0);
# a refused parameter set is refused before the table's header.
source "$TOP/tests/lib.sh"
simrun=$B/tools/simrun
[ -x "$simrun" ] || fail "$simrun not built"

# Header and rows agree, for 1, 2 and 3 iterations and more (3 columns shown).
for it in 1 2 3 4; do
	out=$(timeout 60 "$simrun" --size-mb 1 --iters $it --bs 65536,16384) ||
		fail "--iters $it: exit $?: $out"
	echo "$out" | awk -v it=$it '
		NR == 1 { h = NF }
		/^ +[0-9]/ && NF != h { printf "--iters %d: header has %d columns, row \"%s\" %d\n", it, h, $0, NF; bad = 1 }
		END { exit bad }' || fail "--iters $it: table columns do not match its header"
done

# The mean over every iteration: the row's avg column is what one run gives
# (the model is deterministic) whatever the count.
one=$(timeout 60 "$simrun" --size-mb 1 --iters 1 --bs 65536 | awk '/^ +[0-9]/ {print $3}')
for it in 2 64; do
	avg=$(timeout 120 "$simrun" --size-mb 1 --iters $it --bs 65536 | awk '/^ +[0-9]/ {print $(NF - 2)}')
	[ "$avg" = "$one" ] || fail "--iters $it: avg MB/s $avg, one iteration gives $one"
done

# Refused, exit 2, naming the option, before any table.
refuse() {	# OPTION-NAMED ARGS...
	local opt=$1 out rc
	shift
	out=$(timeout 20 "$simrun" "$@" 2>&1)
	rc=$?
	[ $rc = 2 ] || fail "simrun $*: exit $rc, not 2 (refused): $(echo "$out" | head -3)"
	echo "$out" | grep -q -- "$opt" || fail "simrun $*: message does not name $opt: $out"
	echo "$out" | grep -q '^blocksize' && fail "simrun $*: printed a table: $out"
	note "simrun $*: $out"
}
refuse --bs --size-mb 1 --iters 1 --bs 4k
refuse --bs --size-mb 1 --iters 1 --bs 0
refuse --bs --size-mb 1 --iters 1 --bs 65536,,16384
refuse --bs --size-mb 1 --iters 1 --bs -65536
refuse --iters --size-mb 1 --iters 2x --bs 65536
refuse --iters --size-mb 1 --iters 65 --bs 65536
refuse --iters --size-mb 1 --iters 0 --bs 65536
refuse --size-mb --size-mb 1m --iters 1 --bs 65536
refuse --size-mb --size-mb 0 --iters 1 --bs 65536
refuse --size-mb --size-mb 99999999999999 --iters 1 --bs 65536
refuse --bs --size-mb 1 --iters 1 --bs $(seq -s, 4096 4096 $((33 * 4096)))
refuse usage --size-mb 1 --no-such-option
# values the model refuses as a set (sim_new()): before the header too
refuse "sim_client_max_sectors_kb must be >= 4" --size-mb 1 --iters 1 --bs 65536 client_max_sectors_kb=2
refuse "sched: unknown value 'bogus'" --size-mb 1 --iters 1 --bs 65536 sched=bogus
# a switch past 1 (it would run as 1), every one of the model's 0/1 parameters
for f in client_cfq_idle_in_flight client_nagle dispatch_list server_ra_unplug sn_at_release \
	 target_rx_serial target_copy_paced bind_at_run wake_lifo jitter_exp jitter_wake_only \
	 cfq_preempt_close cfq_coop disk_readthrough disk_rot_random; do
	refuse "sim_$f must be 0 or 1" --size-mb 1 --iters 1 --bs 65536 "$f=2"
done
# a LUN queue past 2.6.26's ISCSI_MAX_CMD_PER_LUN (2^32 - 1 crashed the
# model: its Nagle ring of qdepth + 1 slots had none)
refuse "sim_client_qdepth must be 1..128" --size-mb 1 --iters 1 --bs 65536 client_qdepth=129
refuse "sim_client_qdepth must be 1..128" --size-mb 1 --iters 1 --bs 65536 \
	client_qdepth=4294967295 client_nagle=1
# a CFQ quantum past an int (4294967295 ran as -1: nothing dispatched,
# "model lost a read"), alone or times a lone queue's multiplier
refuse "sim_cfq_quantum x sim_client_cfq_lone_mult" --size-mb 1 --iters 1 --bs 65536 cfq_quantum=4294967295
refuse "sim_cfq_quantum x sim_client_cfq_lone_mult" --size-mb 1 --iters 1 --bs 65536 \
	cfq_quantum=1073741824 client_cfq_lone_mult=4
# a CmdSN window that never reopens: refused, not run forever
refuse "sim_target_queued_cmds=1 needs sim_sn_at_release=1" --size-mb 1 --iters 1 --bs 65536 \
	target_queued_cmds=1 sn_at_release=0
exit 0
