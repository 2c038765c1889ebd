#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio client/server across a network: two `fio --server`, each in its own
# network namespace (veth pairs and 10.91.x addresses that exist only in the
# namespaces this test creates) and UTS namespace (hostnames srv-alpha,
# srv-beta), driven by one `fio --client` in a third namespace that reaches
# them by name (srv-a, srv-b: a private /etc/hosts bind-mounted in its own
# mount namespace).  A block-size sweep, one client run per block size as
# the runner does: fio's "All clients" record must be tabled with the hosts'
# block size and equal the sum of the hosts (bytes added, the longest time);
# each host's table equal to jq on its jobs; hosts named as the client named
# them.  The same sweep in one client run: fio's aggregate then sums jobs of
# different block sizes and is refused, the hosts' tables stay.
# The old code read the aggregate as bs=4096: IOPS 16-256x too high.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"
need_cmd "$JQ" ip unshare mount setsid timeout
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"

ns=ppfiotab$$
srv=()
cleanup() {
	local p n
	for p in "${srv[@]}"; do
		kill -- -"$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for n in c a b; do
		ip netns del "$ns$n" 2>/dev/null
	done
	_pp_teardown
}
trap cleanup EXIT
for n in c a b; do
	ip netns add "$ns$n" || skip "cannot create network namespaces"
	ip -n "$ns$n" link set lo up
done
i=1
for h in a b; do
	ip -n "${ns}c" link add "c$h" type veth peer name "s$h" netns "$ns$h" ||
		skip "cannot create veth pairs"
	ip -n "${ns}c" addr add "10.91.$i.1/24" dev "c$h"
	ip -n "$ns$h" addr add "10.91.$i.2/24" dev "s$h"
	ip -n "${ns}c" link set "c$h" up
	ip -n "$ns$h" link set "s$h" up
	i=$((i + 1))
done
printf '10.91.1.2 srv-a\n10.91.2.2 srv-b\n' > "$T/hosts"

# servers: own process group each (fio forks per connection), bounded
i=1
for h in a b; do
	name=$([ $h = a ] && echo srv-alpha || echo srv-beta)
	mkdir -p "$T/$h"
	(cd "$T/$h" && exec setsid ip netns exec "$ns$h" unshare --uts sh -c \
		"hostname $name && exec timeout --foreground 300 '$FIO' --server=ip:10.91.$i.2,8765" \
		> "$T/server-$h.log" 2>&1) &
	srv+=($!)
	i=$((i + 1))
done
# the client, in its namespace with the private /etc/hosts
client() {	# client OUT JOBFILE
	ip netns exec "${ns}c" unshare -m sh -c \
		'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh "$T/hosts" \
		timeout -k 5 60 "$FIO" --output-format=json --client=srv-a,8765 "$2" \
		--client=srv-b,8765 "$2" > "$1" 2> "$1.err"
}
printf '[probe]\nioengine=null\nsize=64k\n' > "$T/probe.fio"
for _ in $(seq 50); do
	client "$T/probe.json" "$T/probe.fio" && break
	sleep 0.2
done
[ -s "$T/probe.json" ] || fail "servers unreachable: $(cat "$T/probe.json.err" "$T"/server-*.log)"

job() {	# job BS...: one stonewalled write job per block size, rate-limited
	local bs
	for bs; do
		printf '[cs-w-%s-1]\nioengine=null\nsize=2m\nrate=10m\nrw=write\nbs=%s\nstonewall\n' "$bs" "$bs"
	done
}
for bs in 1048576 65536 4096; do
	job "$bs" > "$T/cs-$bs.fio"
	client "$T/cs-$bs.json" "$T/cs-$bs.fio" || fail "client run bs=$bs: $(cat "$T/cs-$bs.json.err")"
done
note "servers' own hostnames in fio's text: $(grep -o '^<[^>]*>' "$T/cs-4096.json" | sort -u | tr '\n' ' ')"

"$FIOTAB" perftest "$T"/cs-*.json > "$T/sweep.out" 2> "$T/sweep.err" ||
	fail "perftest of the client/server sweep: $(cat "$T/sweep.err")"
[ -s "$T/sweep.err" ] && fail "warnings on valid aggregates: $(cat "$T/sweep.err")"
assert_eq "series: the hosts as named, and the aggregate" "# series . on host All clients
# series . on host srv-a:8765
# series . on host srv-b:8765" "$(grep '^# series' "$T/sweep.out" | sort)"

# per host and aggregate, per block size: time, MB/s, IOPS from jq on the
# JSON; the aggregate from the hosts' records (bytes summed, longest time)
jq_rows() {	# jq_rows FILE...
	local f
	for f; do sed -n '/^{/,$p' "$f"; done | "$JQ" -r '
	  .client_stats as $c |
	  ($c[] | select(.jobname != "All clients") |
	    [(.hostname + ":" + (.port | tostring)), (.["job options"].bs | tonumber),
	     (.write.runtime / 1000), .write.io_bytes] | @tsv),
	  (["All_clients", ($c[0]["job options"].bs | tonumber),
	    ([$c[] | select(.jobname != "All clients") | .write.runtime] | max / 1000),
	    ([$c[] | select(.jobname != "All clients") | .write.io_bytes] | add)] | @tsv)' |
	awk -F'\t' '{ printf "%s %d %.3f %.3f %.3f\n", $1, $2, $3, $4 / $3 / 1048576, $4 / $3 / $2 }' | sort
}
jq_rows "$T"/cs-*.json > "$T/want"
awk '/^# series/ { h = $NF == "clients" ? "All_clients" : $NF }
     $1 ~ /^[0-9]+$/ { printf "%s %d %.3f %.3f %.3f\n", h, $1, $2, $3, $5 }' "$T/sweep.out" | sort > "$T/got"
diff "$T/want" "$T/got" > "$T/d" || fail "tables differ from the hosts' records: $(cat "$T/d")"
assert_eq "rows: 3 block sizes x (2 hosts + aggregate)" 9 "$(wc -l < "$T/got")"
# fio's aggregate rate (all bytes over the longest time) is at most the sum
# of the hosts' rates, and equal when they ran equally long
awk '$1 != "All_clients" { s[$2] += $5 } $1 == "All_clients" { a[$2] = $5 }
     END { for (b in a) if (a[b] > 1.001 * s[b] || a[b] < 0.5 * s[b]) { print "bs " b ": " a[b] " vs hosts " s[b]; bad = 1 } exit bad }' \
	"$T/got" || fail "aggregate rate beyond the sum of the hosts"

# the same sweep in one client run: fio's one "All clients" sums all block
# sizes: refused, named; the hosts' tables equal those of the separate runs'
job 1048576 65536 4096 > "$T/one.fio"
client "$T/one.json" "$T/one.fio" || fail "client run of the sweep: $(cat "$T/one.json.err")"
"$FIOTAB" perftest "$T/one.json" > "$T/one.out" 2> "$T/one.err" || fail "perftest of the one-run sweep"
assert_match "one-run aggregate refused" "'All clients' record left out: the per-host jobs it sums (differ in their options|ran in different groups)" \
	"$(cat "$T/one.err")"
grep -q 'All clients' "$T/one.out" && fail "the aggregate of a whole sweep was tabled"
assert_eq "one-run rows: 3 block sizes x 2 hosts" 6 "$(grep -cE '^ *(1048576|65536|4096) ' "$T/one.out")"

# the plot's subtitle names the hosts fio named: fio's "All clients" record
# names none, but it is no local run (it was shown as this machine's
# gethostname(), 'fio names none')
"$FIOTAB" plot -o "$T/cs.svg" "$T"/cs-*.json 2> "$T/plot.err" || fail "plot of the client sweep: $(cat "$T/plot.err")"
grep -q '>All clients' "$T/cs.svg" || fail "the aggregate is not drawn: $(grep -o '<title>[^<]*' "$T/cs.svg")"
sub=$(grep -o 'host [^<]* UTC' "$T/cs.svg")
assert_match "subtitle hosts" "^host srv-(a|b), srv-(a|b) " "$sub"
case $sub in *"fio names none"* | *"$(hostname)"*) fail "the aggregate shown as a local run: $sub" ;; esac
exit 0
