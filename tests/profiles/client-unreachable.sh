#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --client with a server fio cannot reach: two `fio --server`, each in its own
# network namespace behind a veth pair; the second namespace's link is then
# taken down.  fio logs "failed to connect" and exits 0 with one host's
# results; the runner must call the run incomplete: nonzero exit, the
# unreachable host named, the directory left DIR.partial.* (no DIR).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd ip jq timeout

tag=pp$$
net=10.$((100 + RANDOM % 100)).$((RANDOM % 250))
servers=()
cleanup_ns() {
	local p i
	for p in "${servers[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for i in 1 2; do
		ip link del "${tag}h$i" 2>/dev/null
		ip netns del "${tag}n$i" 2>/dev/null
	done
	_pp_teardown
}
trap cleanup_ns EXIT

hosts=
for i in 1 2; do
	ns=${tag}n$i
	ip netns add "$ns" || skip "cannot make a network namespace"
	ip link add "${tag}h$i" type veth peer name "${tag}c$i" || fail "veth"
	ip link set "${tag}c$i" netns "$ns" || fail "veth into $ns"
	ip addr add "$net.$((i * 4 + 1))/30" dev "${tag}h$i" || fail "address"
	ip link set "${tag}h$i" up
	ip -n "$ns" addr add "$net.$((i * 4 + 2))/30" dev "${tag}c$i" || fail "address in $ns"
	ip -n "$ns" link set "${tag}c$i" up
	ip -n "$ns" link set lo up
	addr=$net.$((i * 4 + 2))
	port=$((20000 + RANDOM % 20000))
	mkdir -p "$T/h$i"
	(cd "$T/h$i" && exec ip netns exec "$ns" timeout -k 5 120 "$FIO" --server="ip:$addr,$port" \
		>"$T/server$i.log" 2>&1) &
	servers+=($!)
	for _ in $(seq 50); do
		(exec 3<>"/dev/tcp/$addr/$port") 2>/dev/null && break
		sleep 0.1
	done
	(exec 3<>"/dev/tcp/$addr/$port") 2>/dev/null || fail "fio --server on $addr:$port did not start: $(cat "$T/server$i.log")"
	hosts+="$addr:$port,"
done
hosts=${hosts%,}
h2=${hosts#*,}
note "servers: $hosts (the second is made unreachable)"

args=(run blockdev-perftest --client "$hosts" --target pp-target.dat --variant block --no-tables --force
	--set SIZE=1m --set PP_SECTIONS='^perftest-w-65536-1$' -o "$T/out")
# both reachable: the run completes (the test itself works)
"$PERFPACK" "${args[@]}" >"$T/ok.log" 2>&1 || fail "client run with both servers failed: $(tail -n 20 "$T/ok.log")"
[ -d "$T/out" ] || fail "no $T/out from the complete run"
rm -rf "$T/out"

# the second server unreachable
ip -n "${tag}n2" link set "${tag}c2" down || fail "link down"
timeout 120 "$PERFPACK" "${args[@]}" >"$T/bad.log" 2>&1
rc=$?
cat "$T/bad.log"
[ "$rc" != 0 ] || fail "a run missing host $h2 exited 0"
[ "$rc" != 124 ] || fail "the runner hung on an unreachable server"
assert_match "the missing host is named" "no results from $h2 " "$(cat "$T/bad.log")"
[ -e "$T/out" ] && fail "a run missing a host left $T/out, which looks complete"
p=$(ls -d "$T"/out.partial.* 2>/dev/null | head -n 1)
[ -n "$p" ] || fail "no $T/out.partial.* kept"
assert_match "marked incomplete" '^status: incomplete \(0 of 1 fio runs done\)' "$(grep '^status' "$p/run.txt")"
exit 0
