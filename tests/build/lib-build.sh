# SPDX-License-Identifier: GPL-2.0-only
#
# A minimal job each engine can run, so the build tests can load every
# engine without knowing its internals.  A new engine must add a case here
# (the tests fail on an engine they do not know, rather than skip it).

# smoke_job ENGINE: sets SMOKE_ARGS to fio arguments for a short job.
# Call it directly, not in $(...): the scratch filesystem it may create
# must be set up in the test's own shell.
smoke_job() {
	case $1 in
	coop)
		SMOKE_ARGS=(--filename="$T/coop.dat" --size=4m --bs=64k --rw=read
			--coop_threads=2 --iodepth=4)
		;;
	blkfile)
		# blkfile needs a file on a block-backed filesystem.
		need_root
		if [ -z "${_smoke_blkfs:-}" ]; then
			_smoke_blkfs=$(make_fs ext4 "$(make_loop 64 smoke)")
		fi
		SMOKE_ARGS=(--filename="$_smoke_blkfs/blkfile.dat" --size=4m --bs=64k
			--rw=read --blkfile_via=file)
		;;
	*)
		fail "no smoke job for engine '$1': add one to tests/build/lib-build.sh"
		;;
	esac
	# ThreadSanitizer cannot follow threads started after fio forks a job.
	[ "${SANITIZE:-}" != thread ] || SMOKE_ARGS+=(--thread)
}
