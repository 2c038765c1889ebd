#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner's status line on a terminal: redrawn every second while a run
# goes (elapsed time, then an ETA once a run is done), completed with the
# run's result; a message in the middle of a run (a failed run's report)
# starts on a line of its own; without a terminal, plain "[k/N] name" lines.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_root
need_cmd script

# fio that takes 2.5 s longer to run a job; FAIL_SECTION makes that run fail
cat >"$T/slowfio" <<EOS
#!/bin/bash
case " \$* " in
*" --output-format=json+ "*)
	sleep 2.5
	if [ -n "\$FAIL_SECTION" ] && [[ " \$* " == *"--section=\$FAIL_SECTION "* ]]; then
		echo "fio: injected failure" >&2
		exit 1
	fi ;;
esac
exec "$FIO" "\$@"
EOS
chmod +x "$T/slowfio"

make_loop 16 >"$T/dev"
dev=$(cat "$T/dev")
run() {	# run OUT [ENV...]: perfpack under a pseudo-terminal; typescript in OUT
	local out=$1
	shift
	env FIO="$T/slowfio" "$@" script -qfec "'$PERFPACK' run blockdev-perftest --target '$dev' --variant block \
		--no-tables --full -s 1m --set PP_SECTIONS='^perftest-r-1048576-(1|2)\$' --set PP_ITERS=2 \
		-o '$out.d' >/dev/null" "$out" >/dev/null 2>&1
}
esc=$(printf '\033')
cr=$(printf '\r')

run "$T/ok" || fail "the run under a terminal failed: $(cat "$T/ok")"
# the status line of run 1, redrawn at least once after a second
grep -a -q "${cr}\[1/2\] [^${cr}]*elapsed 0:0[1-9]${esc}\[K" "$T/ok" ||
	fail "run 1's status line is not redrawn: $(cat -v "$T/ok")"
# run 2's has an ETA
grep -a -q "${cr}\[2/2\] [^${cr}]*ETA 0:0[0-9]" "$T/ok" || fail "run 2's status line has no ETA: $(cat -v "$T/ok")"
# each run's line is completed with its result
assert_eq "result lines" 2 "$(grep -a -c 'read [0-9.]* MB/s [0-9]* IOPS' "$T/ok")"
grep -a -q '^2 fio runs in ' "$T/ok" || fail "no summary line: $(cat -v "$T/ok")"

# a failure reported while run 2's line is live starts at column 0
! run "$T/bad" FAIL_SECTION=perftest-r-1048576-1 || fail "the run with a failed fio succeeded"
line=$(tr -d '\r' <"$T/bad" | sed "s/${esc}\[K//g" | grep -a 'fio failed (exit 1)') ||
	fail "no failure message: $(cat -v "$T/bad")"
assert_match "the failure message at column 0" '^perfpack: fio failed' "$line"
tail -n 1 "$T/bad" | grep -a -q 'elapsed' && fail "the status line is redrawn after the failure: $(cat -v "$T/bad")"

# no terminal: plain lines, no carriage returns
FIO="$T/slowfio" "$PERFPACK" run blockdev-perftest --target "$dev" --variant block --no-tables --full -s 1m \
	--set PP_SECTIONS='^perftest-r-1048576-1$' -o "$T/plain.d" >/dev/null 2>"$T/plain.err" ||
	fail "the run without a terminal failed: $(cat "$T/plain.err")"
grep -q "$cr" "$T/plain.err" && fail "carriage returns without a terminal: $(cat -v "$T/plain.err")"
grep -qx '\[1/1\] .*' "$T/plain.err" || fail "no [1/1] line: $(cat "$T/plain.err")"
no_leftovers
