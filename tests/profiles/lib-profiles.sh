# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for the profile tests: where the runner and profiles are, a profile's
# job-file environment, fio's own count of the jobs in a job file, and a check
# that a run left no loop device or mount behind.

PERFPACK=$TOP/profiles/perfpack
PROFDIR=$TOP/profiles
export FIO FIOTAB ENGDIR
# scratch targets of the runner live in the test's directory
export TMPDIR=$T

# profile_env PROFILE VARIANT [--full|--quick]: fills the array penv with the
# VAR=VALUE words the runner exports to fio for that variant.
profile_env() {
	local p=$1 v=$2
	shift 2
	mapfile -t penv < <("$PERFPACK" run "$p" --variant "$v" --env "$@" | grep -v '^#') ||
		fail "perfpack run $p --env failed"
	[ ${#penv[@]} -gt 0 ] || fail "no environment for $p/$v"
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
