#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --client in fio's own forms, sock:PATH, ip:HOST and ip6:HOST (perfpack(1)):
# fio keeps such a server by its name without the prefix (a socket's path as
# given), and the run completes with that host in every run's JSON; one
# socket named twice (PATH and a spelling of it: //, a symbolic link) is one
# fio server, refused as two names of one address and port are.  The ip:
# and ip6: servers listen at fio's default port, in a network namespace of
# the test's own.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd ip jq timeout

ns=pp$$forms
servers=()
cleanup() {
	local p
	for p in "${servers[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	ip netns del "$ns" 2>/dev/null
	_pp_teardown
}
trap cleanup EXIT

one=(--target pp-target.dat --variant block --no-tables --force --set SIZE=1m --set PP_SECTIONS='^perftest-w-65536-1$')

# client_run NAME CLIENT HOST [PREFIX...]: perfpack run --client CLIENT into
# $T/NAME (PREFIX: a command to run it in); must complete, its JSON holding
# HOST, the server as fio names it (CLIENT without fio's ip:/ip6:/sock:)
client_run() {
	local name=$1 client=$2 host=$3 got
	shift 3
	"$@" "$PERFPACK" run blockdev-perftest --client "$client" "${one[@]}" -o "$T/$name" >"$T/$name.log" 2>&1 ||
		fail "--client $client: the run failed: $(tail -n 5 "$T/$name.log")"
	got=$(sed -n '/^{/,$p' "$T/$name/raw/block/perftest-w-65536-1.json" |
		jq -r '[.client_stats[] | select(.jobname != "All clients") | .hostname] | unique | join(",")')
	assert_eq "--client $client: the host in the JSON" "$host" "$got"
}

# a server on a unix socket
mkdir -p "$T/hs"
(cd "$T/hs" && exec timeout -k 5 120 "$FIO" --server="sock:$T/fio.sock" >"$T/server-sock.log" 2>&1) &
servers+=($!)
for _ in $(seq 50); do [ -S "$T/fio.sock" ] && break; sleep 0.1; done
[ -S "$T/fio.sock" ] || fail "fio --server=sock:$T/fio.sock did not start: $(cat "$T/server-sock.log")"
client_run sock "sock:$T/fio.sock" "$T/fio.sock"
[ -s "$T/hs/pp-target.dat" ] || fail "the sock: server did not write its target"

# ... by a path relative to where perfpack runs (fio runs in raw/VARIANT/:
# the old runner's fio failed, 'fio: connect; No such file or directory')
(cd "$T" && client_run sock-rel sock:fio.sock "$T/fio.sock") || exit 1

# ... named twice: by another spelling of its path, through a symbolic link
ln -s fio.sock "$T/link.sock"
for dup in "sock:$T/fio.sock,sock:$T//fio.sock" "sock:$T/fio.sock,sock:$T/link.sock"; do
	msg=$("$PERFPACK" run blockdev-perftest --client "$dup" "${one[@]}" -o "$T/dup" 2>&1) &&
		fail "--client $dup (one socket twice) was not refused: $msg"
	assert_match "one socket twice ($dup)" "--client sock:.* and sock:.* are one fio server \(one socket\)" "$msg"
	compgen -G "$T/dup*" >/dev/null && fail "output made for a refused --client: $(ls -d "$T"/dup*)"
done

# ... with a job writing a log, which fio's client names PREFIX_bw.1.log.HOST,
# for a sock: server its path: a file it cannot create (the old runner's run
# completed without the logs, "fio: fopen log ...: No such file or directory")
msg=$("$PERFPACK" run buffered-vs-raw --client "sock:$T/fio.sock" --target pp-target.dat --quick --list 2>&1) &&
	fail "--client sock: with a job writing a log was not refused: $msg"
assert_match "sock: and a log" "--client sock:$T/fio.sock: job \[[a-z0-9-]+\] \(variant default\) sets write_(bw|iops)_log=.*cannot create" "$msg"

# ip: and ip6: at fio's default port, in a network namespace
ip netns add "$ns" || skip "cannot make a network namespace"
ip -n "$ns" link set lo up || fail "lo up in $ns"
for srv in ip:127.0.0.1 ip6:::1; do
	mkdir -p "$T/h-$srv"
	(cd "$T/h-$srv" && exec ip netns exec "$ns" timeout -k 5 120 "$FIO" --server="$srv" >"$T/server-$srv.log" 2>&1) &
	servers+=($!)
	a=${srv#*:}
	for _ in $(seq 50); do
		ip netns exec "$ns" bash -c "exec 3<>/dev/tcp/$a/8765" 2>/dev/null && break
		sleep 0.1
	done
	client_run "net-${srv%%:*}" "$srv" "$a" ip netns exec "$ns"
	[ -s "$T/h-$srv/pp-target.dat" ] || fail "the $srv server did not write its target"
	kill "${servers[-1]}"
	wait "${servers[-1]}" 2>/dev/null
done
exit 0
