#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad coop options and an unusable backend end the job at init with a
# "coop:" message naming the culprit and a nonzero exit -- never a hang.
source "$TOP/tests/lib.sh"
source "$TOP/tests/engines/lib-coop.sh"
probe=$B/tests/unit/coop-probe
[ -x "$probe" ] || fail "$probe not built"
truncate -s 4m "$T/target"

# refused REGEX [WRAPPER...] -- FIO_ARGS...: the job must fail, quickly,
# with REGEX in its output.
refused() {
	local re=$1 wrap=() out rc
	shift
	while [ "$1" != -- ]; do
		wrap+=("$1")
		shift
	done
	shift
	out=$(timeout -k 5 60 "${wrap[@]}" "$FIO" --ioengine="external:$COOP_SO" \
		"${mode[@]}" --name=bad --filename="$T/target" --size=4m --rw=read --bs=4k "$@" 2>&1)
	rc=$?
	[ $rc = 124 ] || [ $rc = 137 ] && fail "$* hung"
	[ $rc != 0 ] || fail "$* was accepted: $out"
	assert_match "message for $*" "$re" "$out"
	note "refused ($rc): $* -> $(echo "$out" | grep -m1 -E 'coop:')"
}

# Sanitizer runtimes must be preloaded for the engine to load at all.
san_env
env=(env "${SAN_ENV[@]}")
# TSan cannot follow fio's fork mode.
mode=()
coop_is_tsan && mode=(--thread)

refused 'coop: coop_threads=0: must be between 1 and 1024' "${env[@]}" -- --coop_threads=0
refused 'coop: coop_threads=1025: must be between 1 and 1024' "${env[@]}" -- --coop_threads=1025
# fio keeps integer options in 32 bits: a value that does not fit is refused,
# not wrapped (2^32 + 1000 would otherwise start 1000 workers), and a
# negative one is refused although fio reads "-1" as the pair "-1", "1".
refused 'coop: coop_threads=4294968296: out of range' "${env[@]}" -- --coop_threads=4294968296
refused 'coop: coop_split_kb=-1: out of range' "${env[@]}" -- --coop_split_kb=-1
# fio checks no lower bound on a boolean: -1 would have been taken as true.
refused 'coop: coop_inline=-1: must be 0 or 1' "${env[@]}" -- --coop_inline=-1
refused 'coop: sim_disk_rpm=-5: out of range' "${env[@]}" -- --coop_backend=sim --fadvise_hint=0 --sim_disk_rpm=-5
refused 'coop: sim_time_scale=4294967301: out of range' "${env[@]}" -- --coop_backend=sim --fadvise_hint=0 --sim_time_scale=4294967301
refused 'coop: sim_time_scale=0: must be between 1 and 4294967295' "${env[@]}" -- --coop_backend=sim --fadvise_hint=0 --sim_time_scale=0
# values 2.6.29's CFQ does not take (its sysfs stores clamp them to 1): the
# model ran a zero-length slice
for o in cfq_slice_sync_ms cfq_fifo_expire_ms cfq_back_seek_penalty; do
	refused "sim_$o must be >= 1" "${env[@]}" -- --coop_backend=sim --fadvise_hint=0 --sim_$o=0
done
refused 'coop: coop_dispatch=fifo: unknown value \(valid: queue, rr\)' "${env[@]}" -- --coop_dispatch=fifo
refused 'coop: coop_fd=private: unknown value' "${env[@]}" -- --coop_fd=private
refused 'coop: coop_ioctx=clone: unknown value' "${env[@]}" -- --coop_ioctx=clone
refused 'coop: coop_ra=sideways: unknown value \(valid: kernel, off, context\)' "${env[@]}" -- --coop_ra=sideways
refused 'coop: coop_backend=aio: unknown value' "${env[@]}" -- --coop_backend=aio
# The model's enum options go through the same parser (not fio's posval
# matching, whose message has no "coop:" and goes partly to stdout).
refused 'coop: sim_sched=bfq: unknown value \(valid: cfq, deadline, noop\)' "${env[@]}" -- \
	--coop_backend=sim --fadvise_hint=0 --sim_sched=bfq
refused 'coop: sim_client_sched=as: unknown value' "${env[@]}" -- --coop_backend=sim --fadvise_hint=0 --sim_client_sched=as
refused 'coop: sim_order=ordered2: unknown value \(valid: simple, ordered\)' "${env[@]}" -- \
	--coop_backend=sim --fadvise_hint=0 --sim_order=ordered2
refused 'coop: sim_kernel_ra=off: unknown value \(valid: classic, context\)' "${env[@]}" -- \
	--coop_backend=sim --fadvise_hint=0 --sim_kernel_ra=off
# queue() is the pool's single producer: fio's offload submitters are refused.
refused "coop: can't be used with offloaded submit" "${env[@]}" -- --io_submit_mode=offload
refused 'coop: coop_ra=context needs coop_ra_kb > 0' "${env[@]}" -- --coop_ra=context --coop_ra_kb=0
refused 'coop: coop_backend=uring: io_uring_queue_init.*Function not implemented' \
	"$probe" nouring "${env[@]}" -- --coop_backend=uring --coop_threads=8
# Every job of several fails alike, none hangs waiting for the others.
refused 'coop: coop_backend=uring' "$probe" nouring "${env[@]}" -- \
	--coop_backend=uring --coop_ioctx=shared --numjobs=3
# Rings that refuse every submit: the parts the kernel never took fail
# with the error instead of being waited for (this hung before).
refused 'io_u error.*Invalid argument' "$probe" badenter "${env[@]}" -- \
	--coop_backend=uring --coop_threads=2 --iodepth=8
# The filter only takes io_uring away: the psync pool runs under it.
"$probe" nouring "${env[@]}" "$FIO" --ioengine="external:$COOP_SO" --name=ok \
	"${mode[@]}" --filename="$T/target" --size=4m --rw=read --bs=4k --coop_backend=psync \
	>"$T/ok.out" 2>&1 || fail "psync pool failed under the no-io_uring filter: $(cat "$T/ok.out")"

# With direct=1 a split's parts must start and end where O_DIRECT can: on
# a device of 4096-byte sectors 2 KiB parts are refused, naming the option
# and the device (each I/O failed with a bare EINVAL before); 4 KiB run.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	truncate -s 8m "$T/4kn.img"
	d4k=$(losetup --find --show -b 4096 "$T/4kn.img") || fail "losetup -b 4096 $T/4kn.img"
	echo "$d4k" >>"$_pp_loops"
	for s in 2 6; do
		refused "coop: coop_split_kb=$s with direct=1: parts must be multiples of $d4k's direct I/O alignment, 4096 bytes" \
			"${env[@]}" -- --filename="$d4k" --direct=1 --bs=8k --coop_split_kb=$s
	done
	"${env[@]}" "$FIO" --ioengine="external:$COOP_SO" "${mode[@]}" --name=ok4k \
		--filename="$d4k" --size=1m --rw=read --bs=8k --direct=1 --coop_split_kb=4 \
		>"$T/ok4k.out" 2>&1 || fail "4 KiB parts on $d4k failed: $(cat "$T/ok4k.out")"
fi

# noted REGEX|'' -- FIO_ARGS...: the job runs, and says REGEX once (an
# option it set that does nothing in its mix: one job file may serve the
# model and the pool, so it is named, not refused), or with '' nothing of
# the kind (defaults, options where they count).
noted() {
	local re=$1 out rc
	shift 2
	out=$(timeout -k 5 60 "${env[@]}" "$FIO" --ioengine="external:$COOP_SO" "${mode[@]}" \
		--name=n --filename="$T/target" --size=1m --rw=read --bs=64k "$@" 2>&1)
	rc=$?
	[ $rc = 0 ] || fail "$* failed ($rc): $out"
	if [ -z "$re" ]; then
		echo "$out" | grep -q 'no effect' && fail "$* noted an option: $out"
		return 0
	fi
	assert_eq "notes for $*" 1 "$(echo "$out" | grep -cE "$re")"
	note "noted: $* -> $(echo "$out" | grep -m1 -E "$re")"
}
noted 'coop: n: sim_disk_rpm \(as every sim_\* option\) configures coop_backend=sim.s model: no effect with coop_backend=psync' \
	-- --sim_disk_rpm=5400 --sim_sched=noop
noted 'sim_report .*no effect with coop_backend=uring' -- --coop_backend=uring --sim_report="$T/r"
noted 'coop: n: coop_ra_kb has no effect with coop_ra=kernel' -- --coop_ra_kb=64
for o in coop_ra_kb=64 coop_stats=1 coop_coalesce=1 coop_inline=0; do
	noted "coop: n: ${o%%=*} has no effect with coop_backend=sim" -- \
		--coop_backend=sim --fadvise_hint=0 --sim_time_scale=1000 --coop_ra=context --$o
done
# The model's own options that its other options leave idle, by the part
# of the model they configure; two names for one parameter must agree.
sim=(--coop_backend=sim --fadvise_hint=0 --sim_time_scale=1000)
noted 'coop: n: sim_cfq_quantum has no effect: it configures CFQ, which this job does not use \(sim_sched=deadline, sim_client_sched=noop' \
	-- "${sim[@]}" --sim_cfq_quantum=8 --sim_sched=deadline --sim_client_sched=noop
noted 'sim_client_cfq_lone_mult has no effect: it configures the initiator.s CFQ' \
	-- "${sim[@]}" --sim_client_sched=noop --sim_client_cfq_lone_mult=2
noted 'sim_server_cfq_lone_mult has no effect: it configures the target.s CFQ' \
	-- "${sim[@]}" --sim_sched=noop --sim_server_cfq_lone_mult=2
noted 'sim_dl_fifo_batch has no effect: it configures deadline' -- "${sim[@]}" --sim_dl_fifo_batch=8
noted 'sim_kernel_ra has no effect: it configures coop_ra=kernel.*coop_ra=off' \
	-- "${sim[@]}" --coop_ra=off --sim_kernel_ra=context
# ... and those read only under another option's value
noted 'coop: n: sim_server_ra_kb=2048 has no effect on the SCST files, which keep the read_ahead_kb they were opened with, sim_server_file_ra_kb=128; sim_server_file_ra_kb=0 gives them sim_server_ra_kb' \
	-- "${sim[@]}" --sim_server_ra_kb=2048
noted 'coop: n: sim_link_delack_ms has no effect: .*sim_client_nagle=0' -- "${sim[@]}" --sim_link_delack_ms=10
noted '' -- "${sim[@]}" --sim_server_ra_kb=2048 --sim_server_file_ra_kb=0 --sim_link_delack_ms=10 --sim_client_nagle=1
refused 'coop: coop_backend=sim: coop_split_kb=256 and sim_client_max_sectors_kb=128 both set the initiator.s max_sectors_kb' \
	"${env[@]}" -- "${sim[@]}" --coop_split_kb=256 --sim_client_max_sectors_kb=128
noted '' -- "${sim[@]}" --sim_dl_fifo_batch=8 --sim_client_sched=deadline --sim_cfq_quantum=8 \
	--sim_kernel_ra=context --coop_split_kb=128 --sim_client_max_sectors_kb=128
noted '' --
noted '' -- --coop_ra=context --coop_ra_kb=64 --coop_stats=0 --coop_coalesce=1
# The pool's options its others leave idle: caller-runs where it can never
# apply (either value), readahead modes with direct=1, rr with one worker.
noted 'coop: n: coop_inline has no effect with this job.s options: caller-runs needs coop_backend=psync' \
	-- --coop_inline=0 --coop_backend=uring --coop_threads=1
noted 'coop: n: coop_inline has no effect' -- --coop_inline=1 --coop_threads=2
noted 'coop: n: coop_ra=context has no effect on readahead with direct=1' -- --coop_ra=context --direct=1
noted 'coop: n: coop_ra=off has no effect on readahead with direct=1' -- --coop_ra=off --direct=1
noted 'coop: n: coop_dispatch=rr has no effect with coop_threads=1' -- --coop_dispatch=rr --coop_threads=1
# readahead modes in a job that never reads (a write job's verify reads)
noted 'coop: n: coop_ra=context has no effect on readahead in a job that does not read \(rw=write, no verify=\)' \
	-- --coop_ra=context --rw=write
noted 'coop: n: coop_ra=off has no effect on readahead in a job that does not read \(rw=randwrite' \
	-- --coop_ra=off --rw=randwrite
noted '' -- --coop_ra=context --rw=write --verify=crc32c
noted '' -- --coop_ra=off --rw=randrw
noted '' -- --coop_inline=0 --coop_threads=1 --direct=1
noted '' -- --coop_inline=1 --coop_threads=1 --coop_fd=per-thread
noted '' -- --coop_dispatch=rr --coop_threads=2
coop_is_tsan || noted '' -- --coop_inline=1 --coop_threads=3 --coop_ioctx=shared
noted '' -- --coop_backend=sim --fadvise_hint=0 --sim_time_scale=1000 --sim_sched=noop --coop_threads=2
if coop_is_tsan; then
	refused 'coop: coop_ioctx=shared: raw clone' "${env[@]}" -- --coop_ioctx=shared
fi

# continue_on_error=all and a fatal error (ENOSPC, on a full 4 MiB tmpfs):
# the job's error is psync's, and its error count fio's async path's: fio's
# own io_uring counts 0 where psync counts 1 (engines/coop/README.md).
if [ "$(id -u)" = 0 ]; then
	mkdir "$T/full"
	mount -t tmpfs -o size=4m tmpfs "$T/full" || fail "mount tmpfs"
	echo "$T/full" >>"$_pp_mounts"
	# enospc ENGINE ARGS...: "ERROR TOTAL_ERR" of one 8 MiB write there.
	enospc() {
		rm -f "$T/full/f"
		"${env[@]}" "$FIO" "${mode[@]}" --ioengine="$1" --name=full --filename="$T/full/f" \
			--size=8m --bs=64k --rw=write --iodepth=4 --create_on_open=1 \
			--continue_on_error=all --output-format=json "${@:2}" 2>/dev/null |
			sed -n '/^{/,$p' | "$JQ" -r '.jobs[0] | "\(.error) \(.total_err)"'
	}
	read -r perr ptot <<<"$(enospc psync)"
	read -r uerr utot <<<"$(enospc io_uring)"
	assert_eq "control: psync's error on a full tmpfs" 28 "$perr"
	assert_eq "control: io_uring's error on a full tmpfs" 28 "$uerr"
	for be in psync uring; do
		read -r cerr ctot <<<"$(enospc "external:$COOP_SO" --coop_backend=$be --coop_threads=2)"
		assert_eq "coop_backend=$be: error on a full tmpfs" "$perr" "$cerr"
		assert_eq "coop_backend=$be: total_err on a full tmpfs (io_uring's)" "$utot" "$ctot"
	done
	note "ENOSPC with continue_on_error=all: error $perr; total_err psync $ptot, io_uring $utot, coop $ctot"
fi

# A terminal cannot seek: psync fails its first read with ESPIPE, while an
# io_uring read there ignores the offset and waits for input, and fio did
# not end on SIGINT.  Refused at open with either backend, as psync fails.
open_pty
for be in psync uring; do
	refused "coop: $pty: not seekable .*ESPIPE" "${env[@]}" -- --coop_backend=$be --filename="$pty" --size=1m
done
kill $pty_holder
