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
	defaults=$(bash -c '. "$1"; echo ${VARIANTS:-default}' _ "$conf")
	for v in $variants; do
		# every variant at full scale; the default ones at quick scale too
		scales=--full
		[[ " $defaults " == *" $v "* ]] && scales="--quick --full"
		for scale in $scales; do
			profile_env "$p" "$v" $scale
			vjobs=$(printf '%s\n' "${penv[@]}" | sed -n 's/^PP_JOBFILES=//p')
			paths=()
			for j in ${vjobs:-$jobs}; do
				paths+=("$PROFDIR/$p/$j")
			done
			# one fio for all job files (fio costs ~0.3 s to start); on
			# failure, one per file to name the culprit
			# (run_fio: sanitizer builds need their runtime preloaded to load an engine)
			if ! (export "${penv[@]}"; run_fio --parse-only "${paths[@]}") >/dev/null 2>&1; then
				for j in "${paths[@]}"; do
					out=$(export "${penv[@]}"; run_fio --parse-only "$j" 2>&1) ||
						fail "$p/$(basename "$j") ($v, $scale) does not parse: $out"
				done
				fail "$p ($v, $scale): job files parse one by one but not together"
			fi
			n=$((n + ${#paths[@]}))
		done
	done
	# the header rules for the profiles of this area (others own theirs)
	case $p in
	blockdev-perftest | bonnie-direct-vs-raw | iozone | buffered-vs-raw) ;;
	*) continue ;;
	esac
	profile_env "$p" "${defaults%% *}" --full
	for j in $(cd "$PROFDIR/$p" && ls *.fio); do
		# everything set but TARGET: must not parse (the variable is used)
		if (export "${penv[@]}"; unset TARGET; run_fio --parse-only "$PROFDIR/$p/$j") >/dev/null 2>&1; then
			fail "$p/$j parses without \${TARGET} set"
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
