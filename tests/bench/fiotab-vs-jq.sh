#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab against jq on 1,000 fio JSON results (json and json+, templates
# from real fio null-engine runs, run times and targets varied): every table
# computed by fiotab and by an equivalent jq program, timed side by side in
# one run; peak RSS (GNU time) against the largest single input; cost at
# 250/500/1000 files for linearity.  Targets: fiotab >= 1.5x faster than jq,
# RSS bounded by the largest input (not the sum), time linear in the input.
source "$TOP/tests/lib.sh"
need_cmd "$JQ" awk
N=${BENCH_FILES:-1000}
D=$T/results
mkdir -p "$D"

# --- templates: real fio output ----------------------------------------------
{
	printf '[global]\nioengine=null\nsize=2m\nrate=500m\nfilename=/dev/benchdisk\nstonewall\n'
	for bs in 1048576 65536 4096; do
		for d in write read; do
			for i in 1 2 3; do
				printf '[perftest-%s-%s-%s]\nrw=%s\nbs=%s\n' "${d:0:1}" "$bs" "$i" "$d" "$bs"
			done
		done
	done
} > "$T/perftest.fio"
{
	printf '[global]\nioengine=null\nsize=2m\nrate=20m\nfilename=/mnt/benchfs/f\nstonewall\n'
	for p in write:write rewrite:write read:read reread:read randread:randread \
		 randwrite:randwrite; do
		printf '[iozone-%s-64k]\nrw=%s\nbs=64k\n' "${p%%:*}" "${p#*:}"
	done
	printf '[bonnie-write]\nrw=write\nbs=64k\n[bonnie-rewrite]\nrw=rw\nbs=64k\n'
	printf '[bonnie-read]\nrw=read\nbs=64k\n[bonnie-seeks]\nrw=randread\nbs=64k\n'
} > "$T/phases.fio"
run_fio --output-format=json+ "$T/perftest.fio" 2>/dev/null | sed -n '/^{/,$p' > "$T/t1.json"
run_fio --output-format=json "$T/perftest.fio" 2>/dev/null | sed -n '/^{/,$p' > "$T/t2.json"
run_fio --output-format=json+ "$T/phases.fio" 2>/dev/null | sed -n '/^{/,$p' > "$T/t3.json"
for t in 1 2 3; do
	"$JQ" -e '.jobs | length > 0' "$T/t$t.json" > /dev/null || fail "template $t is not fio JSON"
done

# --- 1,000 variants: runtimes x U(0.8, 1.2), 4 targets --------------------------
gen() {	# gen TEMPLATE FIRST LAST STEP
	awk -v first="$2" -v last="$3" -v step="$4" -v dir="$D" '
	{ line[NR] = $0 }
	END {
		srand(first)
		for (k = first; k <= last; k += step) {
			f = sprintf("%s/r%04d.json", dir, k)
			for (i = 1; i <= NR; i++) {
				l = line[i]
				if (l ~ /"runtime" : [1-9]/) {
					match(l, /[0-9]+/)
					v = int(substr(l, RSTART, RLENGTH) * (0.8 + 0.4 * rand())) + 1
					l = substr(l, 1, RSTART - 1) v substr(l, RSTART + RLENGTH)
				}
				gsub(/benchdisk/, "benchdisk" (k % 4), l)
				print l > f
			}
			close(f)
		}
	}' "$1"
}
gen "$T/t1.json" 1 "$N" 3
gen "$T/t2.json" 2 "$N" 3
gen "$T/t3.json" 3 "$N" 3
files=("$D"/r*.json)
[ ${#files[@]} = "$N" ] || fail "generated ${#files[@]} files, not $N"
total=$(du -cb "${files[@]}" | tail -1 | cut -f1)
largest=$(ls -S "${files[@]}" | head -1)
note "$N inputs, $((total / 1024)) KiB in all, largest $(($(stat -c %s "$largest") / 1024)) KiB"

# --- the jq equivalents ---------------------------------------------------------
JOBS='(.jobs // .client_stats)[] | select(.error == 0 and .jobname != "All clients")'
REC="$JOBS"' | . as $j | ("read", "write") as $d | select($j[$d].io_bytes > 0) |
  {name: $j.jobname, d: $d, t: ($j[$d].runtime / 1000), b: $j[$d].io_bytes,
   bs: ($j["job options"].bs // "4096"), target: ($j["job options"].filename // ."global options".filename // "."),
   iops: $j[$d].iops, ios: $j[$d].total_ios, cpu: ($j.usr_cpu + $j.sys_cpu), usr: $j.usr_cpu, sys: $j.sys_cpu,
   p: ($j[$d].clat_ns.percentile // {})}'
jq_summary() { "$JQ" -r "$REC"' | [.name, .d, .bs, (if .t > 0 then .b / .t / 1048576 else null end), .iops,
	(.p["50.000000"] // 0) / 1000, (.p["99.000000"] // 0) / 1000, (.p["99.900000"] // 0) / 1000, .cpu] | @tsv' "$@"; }
jq_perftest() { "$JQ" -n -r '[inputs | '"$REC"'] | group_by(.target) | .[] | group_by(.d) | .[] | group_by(.bs) | .[] |
	(map(select(.t > 0) | .b / .t)) as $r | select($r | length > 0) | ($r | add / length) as $m |
	((($r | map(. * .) | add / length) - $m * $m) | if . > 0 then sqrt else 0 end) as $s |
	[.[0].target, .[0].d, .[0].bs, (map(.t) | map(tostring) | join(" ")), $m / 1048576, $s / 1048576] | @tsv' "$@"; }
jq_ratio() { "$JQ" -n -r '[inputs | '"$REC"' | select(.target | test("benchdisk[01]"))] |
	group_by(.d) | .[] | group_by(.bs) | .[] |
	(map(select(.target | test("benchdisk0")) | select(.t > 0) | .b / .t) | add / length) as $b |
	(map(select(.target | test("benchdisk1")) | select(.t > 0) | .b / .t) | add / length) as $c |
	[.[0].d, .[0].bs, $c / $b] | @tsv' "$@"; }
jq_dd() { "$JQ" -r "$REC"' | select(.t > 0) | "\(.b) bytes copied, \(.t) s, \(.b / .t / 1000000) MB/s\t\(.b / .ios / 1024)\t\(.iops)\t\(.usr)\t\(.sys)"' "$@"; }
jq_iozone() { "$JQ" -n -r '[inputs | '"$REC"' | select(.name | startswith("iozone-"))] | group_by(.target) | .[] |
	[.[0].target, (.[] | (.name | split("-")[1]) + "=" + (.b / 1024 / .t | round | tostring))] | @tsv' "$@"; }
jq_bonnie() { "$JQ" -n -r '[inputs | '"$REC"' | select(.name | startswith("bonnie-"))] | group_by(.target) | .[] |
	[.[0].target, (.[] | (.name | split("-")[1]) + "=" + (.b / 1024 / .t | round | tostring) + "/" + (.cpu | tostring))] | @tsv' "$@"; }

# t CMD...: "wall cpu" seconds of CMD (cpu = user + sys, robust on a shared
# machine; output discarded, failure fatal).  Shell functions (the jq side)
# run under bash so GNU time can time them.
t() {
	local s e
	if [ -x /usr/bin/time ]; then
		if declare -F "$1" > /dev/null; then
			/usr/bin/time -f '%e %U %S' -o "$T/time" bash -c "$(declare -f "$1"); JQ=$JQ; $(declare -p JOBS REC); \"\$@\"" \
				_ "$@" > /dev/null 2> "$T/err" || fail "$* failed: $(head -3 "$T/err")"
		else
			/usr/bin/time -f '%e %U %S' -o "$T/time" "$@" > /dev/null 2> "$T/err" ||
				fail "$* failed: $(head -3 "$T/err")"
		fi
		awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$T/time"
		return
	fi
	s=$(date +%s.%N)
	"$@" > /dev/null 2> "$T/err" || fail "$* failed: $(head -3 "$T/err")"
	e=$(date +%s.%N)
	echo "$(echo "$e - $s" | bc) $(echo "$e - $s" | bc)"
}

ft=0 jt=0 fw=0 jw=0
for tab in perftest ratio dd iozone bonnie summary; do
	case $tab in
	ratio) fargs=(ratio --baseline-series 'benchdisk0' --candidate-series 'benchdisk1') ;;
	*) fargs=("$tab") ;;
	esac
	read -r aw a <<< "$(t "$FIOTAB" "${fargs[@]}" "${files[@]}")"
	read -r bw b <<< "$(t jq_$tab "${files[@]}")"
	printf '# %-9s fiotab %6.2f s cpu (%5.2f wall)   jq %6.2f s cpu (%5.2f wall)   jq/fiotab %5.2f\n' \
		"$tab" "$a" "$aw" "$b" "$bw" "$(echo "$b / $a" | bc -l)"
	ft=$(echo "$ft + $a" | bc); jt=$(echo "$jt + $b" | bc)
	fw=$(echo "$fw + $aw" | bc); jw=$(echo "$jw + $bw" | bc)
done
ratio=$(echo "$jt / $ft" | bc -l)
printf '# all tables: fiotab %.2f s cpu (%.2f wall), jq %.2f s cpu (%.2f wall): fiotab %.2fx faster (wall %.2fx)\n' \
	"$ft" "$fw" "$jt" "$jw" "$ratio" "$(echo "$jw / $fw" | bc -l)"

# --- memory and linearity --------------------------------------------------------
if [ -x /usr/bin/time ]; then
	for n in 250 500 1000; do
		[ "$n" -le "$N" ] || continue
		sub=("${files[@]:0:$n}")
		/usr/bin/time -f '%e %U %S %M' -o "$T/rss" "$FIOTAB" perftest "${sub[@]}" > /dev/null ||
			fail "fiotab on $n files"
		read -r w u sy rss < "$T/rss"
		cpu=$(echo "$u + $sy" | bc)
		printf '# %4d files: %5.2f s cpu (%.3f ms/file), %5.2f s wall, peak RSS %6d KiB\n' "$n" \
			"$cpu" "$(echo "$cpu * 1000 / $n" | bc -l)" "$w" "$rss"
		echo "$n $cpu $rss" >> "$T/lin"
	done
	/usr/bin/time -f %M -o "$T/rss1" "$FIOTAB" perftest "$largest" > /dev/null
	printf '# one largest input alone: peak RSS %d KiB; all inputs: %d KiB on disk\n' \
		"$(cat "$T/rss1")" "$((total / 1024))"
	# bounded: 1000 files may not cost more than the largest one plus the
	# job records (a few hundred bytes each) and some slack - nowhere near the sum
	awk -v one="$(cat "$T/rss1")" -v tot="$((total / 1024))" '$1 == 1000 {
		if ($3 > one + tot / 4) { print "RSS " $3 " KiB not bounded (one input " one " KiB)"; exit 1 } }' "$T/lin" ||
		fail "memory grows with the number of inputs"
else
	note "GNU time not installed: memory and linearity skipped"
fi
awk -v r="$ratio" 'BEGIN { exit !(r >= 1.5) }' || fail "fiotab only ${ratio}x faster than jq (target 1.5x)"
exit 0
