# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers of the fiotab tests: fio JSON documents built from the seeds'
# tables (known run times -> known avg/std/IOPS), and an independent jq
# implementation of the blockdev-perftest arithmetic to cross-check against.

: "${FIOTAB:?run through make check}"
JQ=${JQ:-jq}
DATA=$TOP/tests/analysis/data

# seed_json ROWS SIZE TARGET [HOST] [VERSION] [EXTRA_JOB_OPTIONS_JSON]
# ROWS: "bs W1 W2 W3 Wavg Wstd Wiops R1 R2 R3 Ravg Rstd Riops" (13 fields) or
# "bs R1 R2 R3 Ravg Rstd Riops" (7 fields, read only).  One job per block
# size, direction and iteration, runtime = the seed's time in ms, io_bytes =
# SIZE.  Prints warnings first, like fio does.
seed_json() {
	local rows=$1 size=$2 target=$3 host=${4:-} ver=${5:-fio-3.33} extra=${6:-} ts
	# each target and host its own time: documents of the same job names
	# at one time would be one fio run read twice (samerun.c)
	ts=$((1795980457 + $(printf '%s %s' "$target" "$host" | cksum | cut -d' ' -f1) % 1000 * 3600))
	awk -v size="$size" -v target="$target" -v host="$host" -v ver="$ver" \
	    -v extra="$extra" -v ts="$ts" '
	function dirobj(bytes, ms, bs,    ios) {
		ios = bs ? int(bytes / bs) : 0
		return sprintf("{ \"io_bytes\" : %d, \"io_kbytes\" : %d, \"bw_bytes\" : %d, \"bw\" : %d, \"iops\" : %.6f, \"runtime\" : %d, \"total_ios\" : %d, \"clat_ns\" : { \"min\" : 1000, \"max\" : 90000, \"mean\" : 5000.5, \"stddev\" : 10.0, \"N\" : %d, \"percentile\" : { \"50.000000\" : 4992, \"99.000000\" : 70144, \"99.900000\" : 89600 } } }",
			bytes, bytes / 1024, ms ? bytes * 1000 / ms : 0, ms ? bytes / ms * 1000 / 1024 : 0,
			ms ? ios * 1000 / ms : 0, ms, ios, ios)
	}
	function zero() { return dirobj(0, 0, 0) }
	function job(name, rw, bs, ms) {
		# stonewalled jobs: fio gives each its own group
		printf "%s    {\n      \"jobname\" : \"%s\",\n      \"groupid\" : %d,\n      \"error\" : 0,\n", (nj ? ",\n" : ""), name, nj
		nj++
		if (host != "")
			printf "      \"hostname\" : \"%s\", \"port\" : 8765,\n", host
		printf "      \"job options\" : { \"name\" : \"%s\", \"rw\" : \"%s\", \"bs\" : \"%d\"%s },\n", name, rw, bs, extra
		printf "      \"read\" : %s,\n", rw == "read" ? dirobj(size, ms, bs) : zero()
		printf "      \"write\" : %s,\n", rw == "write" ? dirobj(size, ms, bs) : zero()
		printf "      \"trim\" : %s,\n", zero()
		printf "      \"usr_cpu\" : 1.5, \"sys_cpu\" : 2.25\n    }"
	}
	BEGIN {
		print "fio: this platform does not support process shared mutexes, forcing use of threads"
		print "{\n  \"fio version\" : \"" ver "\",\n  \"timestamp\" : " ts ",\n  \"global options\" : { \"filename\" : \"" target "\", \"size\" : \"" size "\", \"direct\" : \"1\" },"
		printf "  \"%s\" : [\n", host != "" ? "client_stats" : "jobs"
	}
	{
		bs = $1
		if (NF == 13) {
			for (i = 2; i <= 4; i++) job("perftest-w-" bs "-" (i - 1), "write", bs, $i * 1000 + 0.5)
			for (i = 8; i <= 10; i++) job("perftest-r-" bs "-" (i - 7), "read", bs, $i * 1000 + 0.5)
		} else {
			for (i = 2; i <= 4; i++) job("perftest-r-" bs "-" (i - 1), "read", bs, $i * 1000 + 0.5)
		}
	}
	END { print "\n  ]\n}" }' "$rows"
}

# rerun FILE: a document as a later run of the same jobs (its first
# "timestamp" an hour later): fiotab refuses one run read twice (samerun.c)
rerun() {
	awk '!d && match($0, /"timestamp" *: *[0-9]+/) {
		pre = substr($0, 1, RSTART - 1); ts = substr($0, RSTART, RLENGTH)
		post = substr($0, RSTART + RLENGTH)
		match(ts, /[0-9]+$/)
		$0 = pre substr(ts, 1, RSTART - 1) (substr(ts, RSTART) + 3600) post
		d = 1
	} 1' "$1"
}

# jq_perftest FILE...: blockdev-perftest's avg/std/IOPS per direction and bs,
# computed by jq from the same JSON (documents after warnings: jq -n inputs
# cannot skip text, so strip lines before the first "{").
jq_perftest() {
	local f
	for f; do sed -n '/^{/,$p' "$f"; done | "$JQ" -r -n '
	  [inputs | (.jobs // .client_stats)[] | select(.error == 0) |
	   . as $j | ("write", "read") as $d | select($j[$d].io_bytes > 0) |
	   {d: $d, bs: ($j["job options"].bs | tonumber), t: ($j[$d].runtime / 1000),
	    b: $j[$d].io_bytes}] |
	  group_by(.d) | .[] | group_by(.bs) | reverse[] |
	  (map(select(.t > 0) | .b / .t)) as $r |
	  ($r | add / length) as $m |
	  ((($r | map(. * .) | add / length) - $m * $m) | if . > 0 then sqrt else 0 end) as $s |
	  [.[0].d, .[0].bs, $m / 1048576, $s / 1048576, $m / .[0].bs] | @tsv' |
	awk -F'\t' '{ printf "%s %d %.3f %.3f %.3f\n", ($1 == "write" ? "W" : "R"), $2, $3, $4, $5 }'
}

# loopback_servers: two `fio --server` on loopback ports $base and $base+1,
# each in its own process group (a server forks per connection), killed with
# the scratch directory on exit; returns once both accept connections.
loopback_servers() {
	local port i
	srv=()
	trap 'for p in "${srv[@]}"; do kill -- -"$p" 2>/dev/null; wait "$p" 2>/dev/null; done; _pp_teardown' EXIT
	base=$((20000 + RANDOM % 20000))
	for port in $base $((base + 1)); do
		setsid "$FIO" --server=ip:127.0.0.1,$port > "$T/server.$port.log" 2>&1 &
		srv+=($!)
	done
	for port in $base $((base + 1)); do
		for i in $(seq 50); do
			(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
			sleep 0.1
		done
	done
}

# gen_sweep DIR COUNT: COUNT files of one fio document each, a perftest sweep
# of 18 jobs (3 block sizes x write/read x 3 iterations, run times 3-6 ms
# drawn from a fixed seed) on one of 4 targets /dev/memdisk0..3 (file k on k % 4)
gen_sweep() {
	mkdir -p "$1"
	awk -v n="$2" -v dir="$1" 'BEGIN {
		srand(7)
		for (k = 1; k <= n; k++) {
			f = sprintf("%s/r%05d.json", dir, k)
			printf "{\n  \"fio version\" : \"fio-3.33\",\n  \"timestamp\" : %d,\n  \"timestamp_ms\" : %d000,\n", 1795980457 + k, 1795980457 + k > f
			printf "  \"global options\" : { \"ioengine\" : \"null\", \"size\" : \"2m\", \"filename\" : \"/dev/memdisk%d\" },\n  \"jobs\" : [\n", k % 4 > f
			nj = 0
			for (b = 0; b < 3; b++) {
				bs = b == 0 ? 1048576 : b == 1 ? 65536 : 4096
				for (d = 0; d < 2; d++) {
					dir_ = d ? "read" : "write"
					for (i = 1; i <= 3; i++) {
						rt = 3 + int(4 * rand())
						printf "%s    { \"jobname\" : \"perftest-%s-%d-%d\", \"groupid\" : %d, \"error\" : 0,\n", nj ? ",\n" : "", substr(dir_, 1, 1), bs, i, nj > f
						printf "      \"job options\" : { \"name\" : \"perftest-%s-%d-%d\", \"rw\" : \"%s\", \"bs\" : \"%d\" },\n", substr(dir_, 1, 1), bs, i, dir_, bs > f
						printf "      \"%s\" : { \"io_bytes\" : 2097152, \"runtime\" : %d, \"total_ios\" : %d, \"iops\" : %.3f,\n", dir_, rt, 2097152 / bs, 2097152 / bs * 1000 / rt > f
						printf "        \"clat_ns\" : { \"mean\" : 1500.5, \"percentile\" : { \"50.000000\" : 1400, \"99.000000\" : 2100, \"99.900000\" : 3000 } } },\n" > f
						printf "      \"%s\" : { \"io_bytes\" : 0, \"runtime\" : 0, \"total_ios\" : 0 },\n", d ? "write" : "read" > f
						printf "      \"trim\" : { \"io_bytes\" : 0, \"runtime\" : 0, \"total_ios\" : 0 },\n" > f
						printf "      \"usr_cpu\" : 1.5, \"sys_cpu\" : 2.5 }" > f
						nj++
					}
				}
			}
			printf "\n  ]\n}\n" > f
			close(f)
		}
	}'
}
