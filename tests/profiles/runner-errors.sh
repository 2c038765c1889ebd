#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner's refusals and error paths, without running a real fio: a fake
# fio (fio --showcmd/--version/--parse-only go to the real one; a run only logs
# its arguments and TARGET, writes a stub JSON and exits) so that a run the
# runner should refuse -- but might not -- can never write anything.  Each
# check reports on its own (all of them run), the test fails if any did.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"

nbad=0
bad() {
	echo "FAIL: $*" >&2
	nbad=$((nbad + 1))
}
# refuses WHAT REGEX CMD...: CMD fails and its output matches REGEX
refuses() {
	local what=$1 re=$2 msg
	shift 2
	if msg=$("$@" 2>&1); then
		bad "$what: not refused: $msg"
	elif ! echo "$msg" | grep -Eq -- "$re"; then
		bad "$what: '$re' not in: $msg"
	else
		echo "ok: $what"
	fi
}
# ok WHAT CMD...: CMD succeeds
ok() {
	local what=$1 msg
	shift
	if msg=$("$@" 2>&1); then
		echo "ok: $what"
	else
		bad "$what: failed: $msg"
	fi
}

realfio=$(command -v "$FIO") || skip "no fio"
cat >"$T/fakefio" <<FAKE
#!/bin/bash
for a; do
	case \$a in --showcmd | --version | --parse-only) exec "$realfio" "\$@" ;; esac
done
echo "run cwd=\$PWD TARGET=\${TARGET-} args=\$*" >>"$T/fio.log"
for a; do
	case \$a in --output=*) echo '{"fio version": "fio-3.33", "jobs": []}' >"\${a#--output=}" ;; esac
done
exit \${FAKEFIO_RC:-0}
FAKE
chmod +x "$T/fakefio"
pp() { FIO=$T/fakefio "$PERFPACK" "$@"; }
ran() { grep -c '^run .*--section' "$T/fio.log" 2>/dev/null; }
: >"$T/fio.log"
truncate -s 8M "$T/t.img"
one=(--variant block --set PP_SECTIONS='^perftest-w-65536-1$' --no-tables)

# 1. --set TARGET would bypass the block-device check: refused, fio never run
refuses "--set TARGET" "--set TARGET: .*--target" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" --set TARGET=/dev/vda -o "$T/o1"
refuses "--set ENGDIR" "--set ENGDIR: " \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" --set ENGDIR=/tmp -o "$T/o1"
[ "$(ran)" = 0 ] || bad "fio ran after a refused --set: $(cat "$T/fio.log")"
# ... and the TARGET fio gets is the one the progress line shows
ok "plain --target run" pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o1b"
grep -q "^run .*TARGET=$T/t.img args=" "$T/fio.log" || bad "fio did not get TARGET=$T/t.img: $(cat "$T/fio.log")"
: >"$T/fio.log"

[ "$nbad" = 0 ] || fail "$nbad check(s) failed"
