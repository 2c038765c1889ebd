#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# iozone, Bonnie and dd layouts against the seeds, byte for byte: fio JSON
# whose rates are the seed's numbers must print the seed's lines.
#   seed 003: iozone (the blog cut iozone's first 9 columns: we compare from
#             column 10, the KB field being iozone's "%16ld")
#   seed 002: Bonnie 1.2, all four lines incl. "--04k (03)-"
#   seed 001: dd's closing line
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ"

# dir(BYTES; MS; IOPS; BS): a fio per-direction object (total_ios as fio
# counts them for block size BS: fiotab checks bs against io_bytes/total_ios)
dirjq='def dir($b; $ms; $iops; $bs): {io_bytes: $b, io_kbytes: ($b / 1024 | floor), bw_bytes: 0,
	runtime: $ms, iops: $iops, total_ios: ($b / $bs | ceil), clat_ns: {mean: 1}};
	def none: dir(0; 0; 0; 1);'

# iozone: 6 phases per record length, rate KiB/s = io_bytes / 1024 / 10 s
"$JQ" -n -R "$dirjq"'
	[inputs | split(" ") | map(select(. != "") | tonumber)] as $rows |
	{"fio version": "fio-3.33", timestamp: 1, jobs: [ $rows[] as $r |
	  (["write", "rewrite", "read", "reread", "randread", "randwrite"] | to_entries[]) as $p |
	  ($r[2 + $p.key] * 1024 * 10) as $b |
	  {jobname: "iozone-\($p.value)-\($r[1])k", error: 0, usr_cpu: 1, sys_cpu: 1,
	   "job options": {size: "8g", bs: "\($r[1])k",
	     rw: ({write: "write", rewrite: "write", read: "read", reread: "read"}[$p.value] // $p.value)},
	   read: (if ($p.value | test("read")) then dir($b; 10000; 1; $r[1] * 1024) else none end),
	   write: (if ($p.value | test("write")) then dir($b; 10000; 1; $r[1] * 1024) else none end),
	   trim: none}]}' < "$DATA/seed003-xfs.txt" > "$T/iozone.json" || fail "building iozone JSON"
"$FIOTAB" iozone "$T/iozone.json" > "$T/iozone.out" || fail "fiotab iozone"
grep -v '^# ' "$T/iozone.out" > "$T/iozone.tab"
# iozone's own widths: KB is %16ld, so every line is 9 columns wider than the blog's
awk 'length($0) != 74 { print "line " NR " is " length($0) " wide"; exit 1 }' "$T/iozone.tab" ||
	fail "iozone line width"
cut -c10- "$T/iozone.tab" > "$T/iozone.cut"
cat "$DATA/seed003-header.txt" "$DATA/seed003-xfs.txt" > "$T/iozone.seed"
diff "$T/iozone.seed" "$T/iozone.cut" > "$T/d" || fail "iozone differs from seed 003: $(cat "$T/d")"

# Bonnie: the seed's first run on the Netfinity box (K/sec x 1024 x 10 s)
"$JQ" -n "$dirjq"'
	def job($n; $rw; $b; $cpu; $r; $w; $iops):
	  {jobname: "bonnie-\($n)", error: 0, hostname: "elm3b9 1*", port: 8765,
	   usr_cpu: $cpu, sys_cpu: 0,
	   "job options": {rw: $rw, bs: $b, size: "500m", numjobs: (if $n == "seeks" then "3" else "1" end)},
	   read: (if $r then dir($r * 10240; 10000; $iops; {"1": 1, "64k": 65536, "4k": 4096}[$b]) else none end),
	   write: (if $w then dir($w * 10240; 10000; 0; {"1": 1, "64k": 65536, "4k": 4096}[$b]) else none end), trim: none};
	{"fio version": "fio-3.33", timestamp: 1, client_stats: [
	  job("putc"; "write"; "1"; 4.3; 0; 469; 0), job("write"; "write"; "64k"; 0.4; 0; 1777; 0),
	  job("rewrite"; "rw"; "64k"; 0.4; 1533; 1533; 0), job("getc"; "read"; "1"; 84.5; 8595; 0; 0),
	  job("read"; "read"; "64k"; 3.9; 26318; 0; 0), job("seeks"; "randread"; "4k"; 0.0; 1; 0; 137.9)]}' \
	> "$T/bonnie.json" || fail "building Bonnie JSON"
"$FIOTAB" bonnie "$T/bonnie.json" > "$T/bonnie.out" || fail "fiotab bonnie"
grep -v '^# ' "$T/bonnie.out" > "$T/bonnie.tab"
diff "$DATA/seed002-bonnie.txt" "$T/bonnie.tab" > "$T/d" || fail "Bonnie differs from seed 002: $(cat "$T/d")"

# dd: seed 001's 1048576000 bytes in 12.1291 s; fio has ms, so 12.129 s
"$JQ" -n "$dirjq"'{"fio version": "fio-3.33", jobs: [{jobname: "dd", error: 0,
	"job options": {rw: "read", bs: "1m"}, read: dir(1048576000; 12129; 1; 1048576), write: none, trim: none}]}' \
	> "$T/dd.json"
assert_eq "dd line" "1048576000 bytes (1.0 GB) copied, 12.129 s, 86.5 MB/s" \
	"$("$FIOTAB" dd "$T/dd.json" | sed -n '3p')"
# coreutils' rounding: one decimal below 100 of a unit, none above
"$JQ" '.jobs[0].read.runtime = 2440' "$T/dd.json" > "$T/dd2.json"
assert_match "dd integer rate" 'copied, 2.44 s, 430 MB/s$' "$("$FIOTAB" dd "$T/dd2.json")"
# Two runs of the same phases: an iozone or Bonnie table holds one run, so
# fiotab refuses the pair (it used to keep one and drop the other).
{ cat "$T/iozone.json"; rerun "$T/iozone.json"; } > "$T/iozone2.json"
"$FIOTAB" iozone "$T/iozone2.json" > /dev/null 2> "$T/err" && fail "iozone kept one of two runs"
assert_match "iozone two runs" "are the same phase of target .*: an iozone table holds one run" "$(cat "$T/err")"
{ cat "$T/bonnie.json"; rerun "$T/bonnie.json"; } > "$T/bonnie2.json"
"$FIOTAB" bonnie "$T/bonnie2.json" > /dev/null 2> "$T/err" && fail "bonnie kept one of two runs"
assert_match "bonnie two runs" "appears twice for target .*: a bonnie table holds one run" "$(cat "$T/err")"
exit 0
