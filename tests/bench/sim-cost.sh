#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The model's own cost: simrun replays the whole case 1-11 calibration matrix
# (13 block sizes x 3 iterations x 1 GiB modeled per case) without fio and
# reports CPU time per event, per application read, per iSCSI command and per
# disk request.  (Through fio the matrix is bounded by pacing, not by this.)
source "$TOP/tests/lib.sh"
simrun=$B/tools/simrun
[ -x "$simrun" ] || fail "$simrun not built"
cases=$TOP/profiles/scst-coop/cases.tsv
tot_ev=0 tot_s=0 tot_reads=0 tot_cmds=0 tot_disk=0
while IFS=$'\t' read -r n opts; do
	case $n in '#'*|'') continue ;; esac
	t0=$(date +%s.%N)
	"$simrun" --report $opts >"$T/run.txt"
	t1=$(date +%s.%N)
	s=$(echo "$t1 - $t0" | bc)
	ev=$(awk -F'events=' '/events=/ {split($2, a, " "); e += a[1]} END {print e}' "$T/run.txt")
	rd=$(grep -o ' reads=[0-9]*' "$T/run.txt" | awk -F= '{s += $2} END {print s}')
	cm=$(grep -o 'iscsi_cmds=[0-9]*' "$T/run.txt" | awk -F= '{s += $2} END {print s}')
	dk=$(grep -o 'disk_reqs=[0-9]*' "$T/run.txt" | awk -F= '{s += $2} END {print s}')
	printf 'case %2s: %6.3f s  %9d events  %8d reads  %7d iSCSI cmds  %7d disk reqs\n' \
		"$n" "$s" "$ev" "$rd" "$cm" "$dk"
	tot_ev=$((tot_ev + ev)) tot_reads=$((tot_reads + rd)) tot_cmds=$((tot_cmds + cm))
	tot_disk=$((tot_disk + dk)) tot_s=$(echo "$tot_s + $s" | bc)
done <"$cases"
awk -v s="$tot_s" -v e="$tot_ev" -v r="$tot_reads" -v c="$tot_cmds" -v d="$tot_disk" 'BEGIN {
	printf "total: %.2f s for 11 x 39 x 1 GiB modeled: %.0f ns/event, %.0f ns per app read, %.0f ns per iSCSI command, %.0f ns per disk request\n",
		s, s * 1e9 / e, s * 1e9 / r, s * 1e9 / c, s * 1e9 / d }'
