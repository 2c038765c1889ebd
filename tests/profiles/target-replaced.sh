#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fio opens the target by name at every run: a file target replaced (a file
# renamed over it) during the run had the later runs measure, and write, the
# other file, tabled as the target's.  The runner checks after every run that
# the name still is the file it checked and holds, and stops the run (exit
# 1, incomplete, naming it) when it is not.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"
need_cmd python3

truncate -s 8M "$T/tgt" "$T/other"
cat >"$T/swap-fio" <<EOS
#!/bin/bash
case " \$* " in *" --output="*)
	[ -e "$T/other" ] && mv "$T/other" "$T/tgt" ;;
esac
exec "$FIO" "\$@"
EOS
chmod +x "$T/swap-fio"
msg=$(FIO=$T/swap-fio "$PERFPACK" run blockdev-perftest --target "$T/tgt" --no-tables --variant block \
	--set PP_SECTIONS='^perftest-[wr]-65536-' --set SIZE=1m --set DIRECT=0 -o "$T/o1" 2>&1) &&
	fail "a run whose target was replaced during it completed: $msg"
assert_match "the replaced target named" "target $T/tgt: .*no longer the file .*checked and held" "$msg"
compgen -G "$T/o1.partial.*" >/dev/null || fail "no incomplete run directory kept"
[ -e "$T/o1" ] && fail "the run was completed as $T/o1"


# fio's own replacing of a file target is no other file: a new file laid out
# by the first run (the runner made it empty), or removed by iozone's
# unlink=1 and made anew by the next run
"$PERFPACK" run blockdev-perftest --target "$T/new1" --no-tables --variant block \
	--set PP_SECTIONS='^perftest-[wr]-65536-' --set SIZE=1m --set DIRECT=0 -o "$T/o2" >"$T/o2.log" 2>&1 ||
	fail "a run on a new file target stopped: $(tail -n 3 "$T/o2.log")"
"$PERFPACK" run iozone --target "$T/new2" --no-tables --variant ext4_wb,xfs --set SIZE=1m \
	--set PP_SECTIONS='^iozone-(randwrite|write)-' -o "$T/o3" >"$T/o3.log" 2>&1 ||
	fail "iozone (unlink=1) on a new file target stopped: $(tail -n 3 "$T/o3.log")"
