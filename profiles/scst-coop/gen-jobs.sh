#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Writes the scst-coop job files from cases.tsv (run it after editing either):
#   case01.fio ... case11.fio   calibration (seed 001, 2009-07-13 tables)
#   later-*.fio                 the tests the thread asked for next (predictions)
# Option names in cases.tsv are simrun's (no prefix); translated here.
set -eu
cd "$(dirname "$0")"

BS_ALL="67108864 33554432 16777216 8388608 4194304 2097152 1048576 524288 262144 131072 65536 32768 16384"

case_opts() { awk -F'\t' -v c="$1" '!/^#/ && $1 == c {print $2}' cases.tsv; }

# simrun-style key=value words -> fio option lines
fio_opts() {
	local w k v
	for w in "$@"; do
		k=${w%%=*} v=${w#*=}
		case $k in
		ioctx) echo "coop_ioctx=$v" ;;
		threads) echo "coop_threads=$v" ;;
		fd) echo "coop_fd=$v" ;;
		dispatch) echo "coop_dispatch=$v" ;;
		client_max_sectors_kb) echo "coop_split_kb=$v" ;;
		ra) echo "sim_kernel_ra=$v" ;;
		*) echo "sim_$k=$v" ;;
		esac
	done
}

# every knob a series may change, at its default, so each series states all
# of them
BASE="threads=5 ioctx=private fd=per-thread dispatch=queue ra=classic client_max_sectors_kb=512 client_ra_kb=128 server_ra_kb=128 server_max_sectors_kb=512 sched=cfq client_sched=cfq order=simple"

merge() {	# merge BASE-WORDS OVERRIDE-WORDS: later keys win, order kept
	local -A val
	local -a keys=()
	local w k
	for w in $1 $2; do
		k=${w%%=*}
		[ -n "${val[$k]+x}" ] || keys+=("$k")
		val[$k]=${w#*=}
	done
	for k in "${keys[@]}"; do printf '%s=%s ' "$k" "${val[$k]}"; done
}

header() {	# header FILE TITLE DESCRIPTION
	cat <<EOF
; SPDX-License-Identifier: GPL-2.0-only
; Bare fio (without perfpack): put the variables this file uses in the
; environment -- ENGDIR is the directory of perfpack's engines (fio-*.so:
; PREFIX/lib/fio, or engines/ in the build tree) -- e.g.
;   ENGDIR=/usr/local/lib/fio TARGET=/dev/sdX SIZE=134217728 fio --section=NAME FILE
; \`perfpack run PROFILE --env\` prints each variant's values, and every perfpack
; run's DIR/bundle/VARIANT/ holds this file with them substituted (runs as is).
;
; perfpack profile scst-coop: $2
;
; Thread:  seed 001, SCST over iSCSI with cooperating I/O threads, readahead, CFQ
;          (LKML 2009-07, Ronald Moesbergen / Vladislav Bolkhovitin / Wu Fengguang).
;          blockdev-perftest's read test: buffered dd of 1 GiB at 64 MiB ... 16 KiB,
;          3 iterations each, on the initiator; target SCST vdisk_fileio, file on XFS.
; $3
; Table:   -> fiotab perftest --series 'perftest-([^-]+)-r-' RUN.json
;          (modeled runs are divided by sim_time_scale and titled "modeled").
; Variables (all required):
;   ENGDIR     directory holding fio-coop.so (the perfpack runner exports it)
;   TARGET     the file read: a file on XFS on real storage; /dev/zero in the model
;              (never written; the model does not touch it)
;   SIZE       bytes per job: 1073741824 as in the thread
;   BACKEND    sim (the 2009 testbed model) or psync (real storage, the coop pool)
;   SIM_SCALE  sim_time_scale: modeled seconds per real second (20 runs the case
;              1-11 matrix in ~5.5 min); ignored by psync
; Runtime: full scale, model: sum of modeled times / SIM_SCALE (a 1 GiB job at
;          84 MB/s = 12.2 s modeled); real storage: 39 x SIZE / device rate per case.
; On real storage coop_* apply (threads, io_context sharing, per-thread files,
; coop_split_kb = the initiator's max_sectors_kb); sim_* describe the 2009 box and
; are only read by the model (server readahead/max_sectors there are the device's
; read_ahead_kb / max_sectors_kb, to be set by hand).

[global]
ioengine=external:\${ENGDIR}/fio-coop.so
filename=\${TARGET}
size=\${SIZE}
rw=read
iodepth=1
invalidate=1
; dd gives the kernel no advice (fio's default, fadvise_hint=1, advises sequential reads)
fadvise_hint=0
coop_backend=\${BACKEND}
sim_time_scale=\${SIM_SCALE}
; one dd after the other, as blockdev-perftest
stonewall
EOF
}

# series LABEL "OPTS" ITERS "BSLIST" global|job: the series' options in a
# [global] section (a file of one series) or in each of its jobs.  A file of
# several series must not give each its own [global]: fio runs that, but its
# JSON writes every [global] section into one "global options" object, which
# then holds a key several times with different values and no longer says
# which job ran with which (fiotab refuses such a document).
series() {
	local label=$1 opts=$2 iters=$3 where=$5 bs i o
	o=$(fio_opts $(merge "$BASE" "$opts"))
	if [ "$where" = global ]; then
		printf '\n[global]\n%s\n' "$o"
	else
		printf '\n; series %s\n' "$label"
	fi
	for bs in $4; do
		for ((i = 1; i <= iters; i++)); do
			printf '\n[perftest-%s-r-%s-%s]\nbs=%s\n' "$label" "$bs" "$i" "$bs"
			[ "$where" = global ] || printf '%s\n' "$o"
		done
	done
}

for c in 1 2 3 4 5 6 7 8 9 10 11; do
	n=$(printf '%02d' "$c")
	{
		header "case$n.fio" "calibration case $c" \
			"Case:    $c) $(case_opts "$c") (5 SCST threads, CFQ, 2.6.29 classic readahead)"
		series "c$n" "$(case_opts "$c")" 3 "$BS_ALL" global
	} >"case$n.fio"
done

# The later matrix: the model is deterministic (iterations are identical), so
# one iteration and six block sizes per series keep the whole matrix short.
BS_LATER="67108864 4194304 1048576 262144 65536 16384"
later() {	# later STEM TITLE DESC then lines "LABEL|OPTS" on stdin
	local stem=$1 title=$2 desc=$3 label opts
	{
		header "$stem.fio" "$title" "$desc"
		while IFS='|' read -r label opts; do
			series "$label" "$opts" 1 "$BS_LATER" job
		done
	} >"$stem.fio"
}

ctx="ra=context ioctx=shared"	# "with context readahead and io_context patch"
{
	for t in 1 2; do for c in 5 6 7 8 9 10 11; do
		echo "t$t.cfq.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t"
	done; done
} | later later-cfq-threads "cases 5-11 with 1 and 2 SCST threads (prediction)" \
	"Case:    cases 5-11 client/server settings, CFQ, context readahead, io_context patch"
{
	for t in 1 2 5; do for c in 5 6 7 8 9 10 11; do
		echo "t$t.dl.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t sched=deadline"
	done; done
} | later later-deadline "cases 5-11 with 1, 2, 5 threads, deadline on the target (prediction)" \
	"Case:    cases 5-11 client/server settings, deadline on the target, context readahead"
{
	for s in cfq deadline; do for t in 1 2; do for c in 5 8 11; do
		echo "t$t.$s.ord.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t sched=$s order=ordered"
	done; done; done
} | later later-inorder "cases 5, 8, 11 with forced in-order commands (prediction)" \
	"Case:    ORDERED command execution on the target, 1 and 2 threads, CFQ and deadline"
{
	for cs in deadline cfq; do for t in 1 2; do for c in 5 8 11; do
		echo "t$t.ini$cs.c$(printf %02d $c)|$(case_opts $c) $ctx threads=$t sched=deadline client_sched=$cs"
	done; done; done
} | later later-client-sched "cases 5, 8, 11: initiator deadline vs cfq, target deadline (prediction)" \
	"Case:    the initiator's elevator deadline vs cfq; target deadline; 1 and 2 threads"
{
	for t in 1 2; do
		echo "t$t.tgtnoop.c05|$(case_opts 5) $ctx threads=$t sched=noop"
		echo "t$t.ininoop.c05|$(case_opts 5) $ctx threads=$t client_sched=noop"
		echo "t$t.bothnoop.c05|$(case_opts 5) $ctx threads=$t sched=noop client_sched=noop"
	done
} | later later-noop "case 5 with noop on the target and/or the initiator (prediction)" \
	"Case:    the noop question: noop on target, initiator, both; 1 and 2 threads"
