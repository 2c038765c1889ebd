#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every job file of every profile passes `fio --parse-only` with the variables
# the runner gives it, for every variant at both scales -- and fails to parse
# without them (the variables are really used, not decoration).
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"

n=0
for conf in "$PROFDIR"/*/profile.conf; do
	p=$(basename "$(dirname "$conf")")
	variants=$(bash -c '. "$1"; v=$VARIANTS; for x in $(compgen -v VARIANT_); do
		case $x in *_QUICK|*_FULL) ;; *) v="$v ${x#VARIANT_}" ;; esac; done
		echo $v | tr " " "\n" | sort -u' _ "$conf")
	jobs=$(bash -c '. "$1"; echo $JOBFILES' _ "$conf")
	for v in $variants; do
		for scale in --quick --full; do
			profile_env "$p" "$v" $scale
			for j in $jobs; do
				# run_fio: sanitizer builds need their runtime preloaded to load an engine
				out=$(export "${penv[@]}"; run_fio --parse-only "$PROFDIR/$p/$j" 2>&1) ||
					fail "$p/$j ($v, $scale) does not parse: $out"
				n=$((n + 1))
			done
		done
	done
	# the header rules for the profiles of this area (others own theirs)
	case $p in
	blockdev-perftest | bonnie-direct-vs-raw | iozone | buffered-vs-raw) ;;
	*) continue ;;
	esac
	for j in $jobs; do
		if grep -q '\${TARGET}' "$PROFDIR/$p/$j"; then
			if (unset TARGET; run_fio --parse-only "$PROFDIR/$p/$j") >/dev/null 2>&1; then
				fail "$p/$j parses without \${TARGET} set"
			fi
		fi
		head -n 30 "$PROFDIR/$p/$j" | grep -qi 'thread' ||
			fail "$p/$j: header does not say which thread it reproduces"
		head -n 40 "$PROFDIR/$p/$j" | grep -qi 'runtime' ||
			fail "$p/$j: header does not give the full-scale runtime"
		for var in $(grep -o '\${[A-Z_]*}' "$PROFDIR/$p/$j" | sort -u | tr -d '${}'); do
			[ "$var" = ENGDIR ] && continue
			head -n 45 "$PROFDIR/$p/$j" | grep -q "^;.*\b$var\b" ||
				fail "$p/$j uses \${$var} but its header does not document it"
		done
	done
done
[ $n -ge 20 ] || fail "only $n job-file parses ran"
note "$n parses"
