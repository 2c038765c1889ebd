#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every shipped engine loads into the fio binary by 'external:' path and by
# plain path, runs a short job to completion, and lists its options (each
# with help text) in 'fio --enghelp'.
source "$TOP/tests/lib.sh"
source "$TOP/tests/build/lib-build.sh"

[ -n "${ENGINES:-}" ] || fail "no engines built"

for e in $ENGINES; do
	so=$(engine "$e")
	smoke_job "$e"

	for how in "external:$so" "$so"; do
		out=$(run_fio --name="smoke-$e" --ioengine="$how" "${SMOKE_ARGS[@]}" \
			--output-format=json 2>"$T/err") ||
			fail "$e via '$how': fio failed: $(cat "$T/err")"
		err=$(echo "$out" | sed -n '/^{/,$p' | ${JQ:-jq} '.jobs[0].error')
		assert_eq "$e via '$how': job error" 0 "$err"
		io=$(echo "$out" | sed -n '/^{/,$p' | ${JQ:-jq} '.jobs[0].read.io_bytes')
		assert_eq "$e via '$how': bytes read" $((4 << 20)) "$io"
	done

	# --enghelp=external:... does not work in fio 3.33; the plain path does.
	help=$(run_fio --enghelp="$so" 2>&1) || fail "$e: fio --enghelp failed: $help"
	n=0 nenum=0
	# "name<pad>: help"; a 24-character name leaves no pad before the colon.
	while IFS= read -r line; do
		case $line in *:*) ;; *) continue ;; esac
		name=${line%%:*}
		name=${name%"${name##*[! ]}"}
		text=${line#*:}
		text=${text# }
		case $name in
		"${e}_"*|sim_*) ;;
		*) fail "$e: option '$name' is not prefixed with '${e}_'" ;;
		esac
		[ -n "$text" ] || fail "$e: option '$name' has no help text"
		n=$((n + 1))
		# The engine's own options (sim_* are the model's): a one-line help
		# text (provenance belongs in the code), and an enum's default is
		# its first value (engines/common/enumtab.h: the table's first row).
		case $name in "${e}_"*) ;; *) continue ;; esac
		[ ${#text} -le 100 ] ||
			fail "$e: help of '$name' is ${#text} characters (at most 100): $text"
		one=$(run_fio --enghelp="$so,$name" 2>&1) || fail "$e: fio --enghelp=$so,$name: $one"
		first=$(sed -n 's/^ *valid values: \([^ ]*\).*/\1/p' <<<"$one")
		[ -n "$first" ] || continue
		assert_eq "$e: default of enum option $name" "$first" \
			"$(sed -n 's/^ *default: //p' <<<"$one")"
		nenum=$((nenum + 1))
		# "valid values: NAME HELP", then ": NAME HELP" a line
		while IFS= read -r v; do
			[ ${#v} -le 100 ] ||
				fail "$e: help of a value of '$name' is ${#v} characters (at most 100): $v"
		done < <(sed -n 's/^ *\(valid values\)\{0,1\}: [^ ]* *//p' <<<"$one")
	done <<<"$help"
	[ $n -gt 0 ] || fail "$e: --enghelp listed no options: $help"
	[ $nenum -gt 0 ] || fail "$e: no enum option found in --enghelp"
	note "$e: loads both ways, $n options with help, $nenum enum defaults checked"

	# Only the ops table is exported: nothing else may clash with fio.
	syms=$(nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ && $2 != "U" {print $3}' |
		grep -v -E '^(_init|_fini|__bss_start|_edata|_end|__odr_asan\..*)$' || true)
	assert_eq "$e: exported symbols" ioengine "$syms"
done
