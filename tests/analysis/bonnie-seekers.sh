#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fiotab bonnie: Bonnie's seeks run in several processes, "(03)" in its
# header, and its seeks/sec is theirs together.  A bonnie-seeks job of
# numjobs=3 without group_reporting writes one record a job: refused
# saying so, with group_reporting as the remedy (the old message called
# the clones two runs of the phase: "appears twice ... (run 1, run 1): a
# bonnie table holds one run").  With group_reporting the table has one
# seeks cell, fio's IOPS of the three.  A phase other than seeks run as
# clones is refused for its numjobs, not as two runs.
source "$TOP/tests/lib.sh"
source "$TOP/tests/analysis/lib-analysis.sh"

cd "$T" || fail "cd $T"
head -c 1048576 /dev/zero > file
# clones OUT PHASE [OPTION]: a phase of numjobs=3 on a 1 MiB file
clones() {
	run_fio --name=bonnie-$2 --filename=file --ioengine=psync --size=1m --rw=randread --bs=4k \
		--rate=1m --numjobs=3 "${@:3}" --output-format=json > $1.json 2> fio.err ||
		fail "fio: $(cat fio.err)"
}
clones seeks seeks
clones grouped seeks --group_reporting
clones read read

"$FIOTAB" bonnie seeks.json > out 2> err && fail "clones tabled: $(cat out)"
[ -s out ] && fail "output beside the refusal: $(cat out)"
grep -qF "bonnie: job 'bonnie-seeks' (seeks.json, run 1) refused: numjobs=3 without group_reporting writes a record a job, where Bonnie's seeks/sec is its 3 seekers' together; give it group_reporting" err ||
	fail "not refused for its clones: $(cat err)"

"$FIOTAB" bonnie grouped.json > out 2> err || fail "group_reporting refused: $(cat err)"
grep -qF -- '--04k (03)-' out || fail "seek header: $(cat out)"
want=$("$JQ" -r '.jobs[0].read.iops * 10 | round / 10 | tostring | if test("\\.") then . else . + ".0" end' grouped.json)
assert_eq "seeks/sec" "$want" "$(awk '$1 == "file" { print $(NF - 1) }' out)"

"$FIOTAB" bonnie read.json > out 2> err && fail "read clones tabled: $(cat out)"
grep -qF "bonnie: job 'bonnie-read' (read.json, run 1) refused: numjobs=3" err || fail "read clones: $(cat err)"
exit 0
