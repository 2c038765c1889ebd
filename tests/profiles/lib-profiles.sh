# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Helpers for the profile tests: where the runner and profiles are, a profile's
# job-file environment, fio's own count of the jobs in a job file, a check
# that a run left no loop device or mount behind, and a paced fio.

PERFPACK=$TOP/profiles/perfpack
PROFDIR=$TOP/profiles
export FIO FIOTAB ENGDIR
# scratch targets of the runner live in the test's directory
export TMPDIR=$T

# paced_fio: from here on the runner's fio (FIO) is the real one with each
# job paced to ~10 ms a MiB (--rate=100m): a quick profile's 1 MiB on a
# loop device or cached file moves in under 1 ms, which fio writes as 1 ms
# and fiotab refuses (its rate is unknown)
paced_fio() {
	local real
	real=$(command -v "$FIO") || fail "no fio"
	printf '#!/bin/bash\ncase " $* " in *" --version "* | *" --showcmd "* | *" --parse-only "*) exec "%s" "$@" ;; esac\nexec "%s" --rate=100m "$@"\n' \
		"$real" "$real" > "$T/pacedfio"
	chmod +x "$T/pacedfio"
	FIO=$T/pacedfio
}

# profile_env PROFILE VARIANT [--full|--quick]: fills the array penv with the
# VAR=VALUE words the runner exports to fio for that variant.
profile_env() {
	local p=$1 v=$2
	shift 2
	mapfile -t penv < <("$PERFPACK" run "$p" --variant "$v" --env "$@" | grep -v '^#') ||
		fail "perfpack run $p --env failed"
	[ ${#penv[@]} -gt 0 ] || fail "no environment for $p/$v"
	# no --target: --env leaves TARGET out (fio would make a file of a
	# placeholder's name); fio's parser needs one, never opened here
	printf '%s\n' "${penv[@]}" | grep -q '^TARGET=' || penv+=("TARGET=$T/no-target")
}

# showcmd PROFILE JOBFILE VARIANT [--full]: fio --showcmd with that environment
showcmd() {
	local p=$1 j=$2 v=$3
	shift 3
	profile_env "$p" "$v" "$@"
	env "${penv[@]}" "$FIO" --showcmd "$PROFDIR/$p/$j" || fail "fio --showcmd $p/$j failed"
}

# job_names PROFILE JOBFILE VARIANT [--full]: the job sections, as fio sees them
job_names() {
	showcmd "$@" | grep -o -- '--name=[^ ]*' | sed 's/^--name=//'
}

# no_leftovers: nothing the runner set up in $T is still attached or mounted
no_leftovers() {
	if losetup -a 2>/dev/null | grep -q -- "$T/perfpack\."; then
		fail "loop device left attached: $(losetup -a | grep -- "$T/perfpack\.")"
	fi
	if grep -q -- "$T/perfpack\." /proc/mounts; then
		fail "mount left behind: $(grep -- "$T/perfpack\." /proc/mounts)"
	fi
	if ls -d "$T"/perfpack.* >/dev/null 2>&1; then
		fail "runner work directory left behind: $(ls -d "$T"/perfpack.*)"
	fi
}

# quick_run PROFILE [RUN-ARGS...]: `perfpack run PROFILE --scratch --quick` into
# $T/out; checks the progress covers the planned matrix, every fio run left
# JSON without job errors and with I/O done, every table of a variant that ran
# rendered (text + CSV) and nothing is left set up.  Tables are in $T/out.txt.
quick_run() {
	local p=$1 n got f bad t name
	shift
	n=$("$PERFPACK" run "$p" --quick --list "$@" | wc -l)
	[ "$n" -gt 0 ] || fail "$p: empty quick matrix"
	"$PERFPACK" run "$p" --scratch --quick -o "$T/out" "$@" >"$T/out.txt" 2>"$T/progress.txt" ||
		fail "perfpack run $p failed: $(tail -n 20 "$T/progress.txt")"
	cat "$T/progress.txt" "$T/out.txt"
	got=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$T/progress.txt")
	assert_eq "$p: progress lines" "$n" "$got"
	assert_match "$p: last progress line" "^\[$n/$n\] " "$(grep '^\[' "$T/progress.txt" | tail -n 1)"
	got=0
	for f in "$T"/out/raw/*/*.json; do
		got=$((got + 1))
		bad=$(sed -n '/^{/,$p' "$f" | jq -r '(.jobs // .client_stats)[] |
			select(.error != 0 or (.read.io_bytes + .write.io_bytes) == 0) | .jobname') ||
			fail "$f is not fio JSON"
		[ -z "$bad" ] || fail "$f: jobs with errors or no I/O: $bad"
	done
	assert_eq "$p: one JSON per fio run" "$n" "$got"
	# every table whose variants ran (the manifest says which) was written
	(. "$PROFDIR/$p/profile.conf"; for t in "${TABLES[@]}"; do echo "$t"; done) >"$T/tables.list"
	while IFS= read -r t; do
		name=${t%%=*}
		f=ok
		for a in ${t#*=}; do
			[[ $a == @* ]] && [ ! -s "$T/out/raw/${a#@}.json" ] && f=skip
		done
		[ $f = skip ] && continue
		[ -s "$T/out/tables/$name.txt" ] || fail "$p: table $name not rendered"
		[ -s "$T/out/tables/$name.csv" ] || fail "$p: table $name has no CSV"
		grep -q "== $p: $name " "$T/out.txt" || fail "$p: table $name not printed"
	done <"$T/tables.list"
	no_leftovers
}
