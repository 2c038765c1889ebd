#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Two hosts through fio's own client/server mode: two `fio --server` on
# loopback addresses 127.0.0.1 and 127.0.0.2 (distinct ports, each in its own
# working directory, bounded by timeout and killed on exit), one
# `perfpack run --client` driving both.  Each server writes its own copy of the
# relative target; the JSON holds both hosts; fiotab's table shows both.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_cmd jq timeout
[ -x "$FIOTAB" ] || skip "fiotab not built"

servers=()
stop_servers() {
	local p
	for p in "${servers[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	_pp_teardown
}
trap stop_servers EXIT

# a free TCP port on ADDR
free_port() {
	local port
	for _ in $(seq 50); do
		port=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/$1/$port") 2>/dev/null; then
			echo "$port"
			return 0
		fi
	done
	return 1
}

hosts=
for i in 1 2; do
	addr=127.0.0.$i
	port=$(free_port "$addr") || fail "no free port on $addr"
	mkdir -p "$T/h$i"
	(cd "$T/h$i" && exec timeout -k 5 120 "$FIO" --server="ip:$addr,$port" >"$T/server$i.log" 2>&1) &
	servers+=($!)
	hosts+="$addr:$port,"
	# wait until it listens (bounded)
	for _ in $(seq 50); do
		(exec 3<>"/dev/tcp/$addr/$port") 2>/dev/null && break
		sleep 0.1
	done
	(exec 3<>"/dev/tcp/$addr/$port") 2>/dev/null || fail "fio --server on $addr:$port did not start: $(cat "$T/server$i.log")"
done
hosts=${hosts%,}
note "servers: $hosts"

# refused without a target: the servers' paths are not ours to set up
msg=$("$PERFPACK" run blockdev-perftest --client "$hosts" -o "$T/x" 2>&1) && fail "--client ran without --target"
assert_match "client needs a target" '--client needs --target' "$msg"
# one server named twice (another spelling, the default port) would run each
# job twice at once on one target, tabled as two hosts: refused
h1=${hosts%%,*}
for dup in "$h1,127.1:${h1##*:}" "127.0.0.1,127.0.0.1:8765"; do
	msg=$("$PERFPACK" run blockdev-perftest --client "$dup" --target pp-target.dat --force --variant block \
		--set SIZE=1m -o "$T/x" 2>&1) && fail "--client $dup (one server twice) was not refused: $msg"
	assert_match "one server twice ($dup)" "--client .* and .* are one fio server \(127\.0\.0\.1 port [0-9]+\)" "$msg"
done
[ -e "$T/x" ] || compgen -G "$T/x.partial.*" >/dev/null && fail "output made for a refused --client"
# a plan that writes the servers' target, which perfpack cannot check from
# here (mounted, signature, data), writes it only with --force
msg=$("$PERFPACK" run blockdev-perftest --client "$hosts" --target pp-target.dat --variant block \
	--set SIZE=1m -o "$T/y" 2>&1) && fail "--client wrote an unchecked target without --force: $msg"
assert_match "client target unchecked" "--client: the plan writes --target pp-target.dat on the fio servers .*--force" "$msg"
for i in 1 2; do
	[ -e "$T/h$i/pp-target.dat" ] && fail "server $i's target written although refused"
done

"$PERFPACK" run blockdev-perftest --client "$hosts" --target pp-target.dat --variant block --force \
	--set SIZE=8m --set PP_MAXBS=1m --set PP_MINBS=512k --set PP_ITERS=2 \
	-o "$T/out" >"$T/out.txt" 2>"$T/progress.txt" ||
	fail "client run failed: $(tail -n 20 "$T/progress.txt")"
cat "$T/progress.txt" "$T/out.txt"

for i in 1 2; do
	[ -s "$T/h$i/pp-target.dat" ] || fail "server $i did not write its own target"
done
# both hosts in every run's JSON, plus fio's aggregate
for f in "$T"/out/raw/block/*.json; do
	got=$(sed -n '/^{/,$p' "$f" | jq -r '[.client_stats[] | select(.jobname != "All clients") |
		"\(.hostname):\(.port)"] | unique | join(",")')
	assert_eq "hosts in $(basename "$f")" "$hosts" "$got"
done
# fiotab: a table per host
tab=$(cat "$T/out/tables/block.txt")
assert_match "table for host 1" '127\.0\.0\.1' "$tab"
assert_match "table for host 2" '127\.0\.0\.2' "$tab"
assert_eq "rows: 2 sizes x 2 hosts (+ aggregate)" 0 $(( $(grep -cE '^ *(1048576|524288) ' <<<"$tab") < 4 ))
