# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by test scripts.  Gives a scratch directory, loop devices and
# filesystems that are always torn down (trap on exit), and a fio wrapper
# that preloads the sanitizer runtime when the engines were built with one.
#
# Never touches a real disk: every device a test writes to is a loop device
# this file created over a file in the scratch directory.

set -u
: "${TOP:?run tests through make check}"
: "${B:?run tests through make check}"
: "${FIO:=fio}"

T=$(mktemp -d "${TMPDIR:-/tmp}/perfpack-test.XXXXXX")
# What to tear down is recorded in files, not shell arrays: make_loop and
# make_fs are usually called as $(make_loop ...), i.e. in a subshell whose
# variables die with it, while the files survive until teardown reads them.
_pp_loops=$T/.teardown-loops
_pp_mounts=$T/.teardown-mounts
: >"$_pp_loops"
: >"$_pp_mounts"

_pp_teardown() {
	local m l
	if [ -f "$_pp_mounts" ]; then
		# Innermost (last) mount first.
		tac "$_pp_mounts" | while read -r m; do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		done
	fi
	if [ -f "$_pp_loops" ]; then
		while read -r l; do
			losetup -d "$l" 2>/dev/null
		done <"$_pp_loops"
	fi
	rm -rf "$T"
}
trap _pp_teardown EXIT
trap 'exit 130' INT TERM

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "skip: $*"
	exit 77
}

note() {
	echo "# $*"
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
}

need_cmd() {
	local c
	for c; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# assert_match WHAT REGEX TEXT
assert_match() {
	echo "$3" | grep -Eq -- "$2" || fail "$1: '$2' not found in: $3"
}

# make_loop SIZE_MB [NAME]: a loop device over a sparse file; prints its path.
make_loop() {
	local size=$1 name=${2:-disk$RANDOM} dev
	truncate -s "${size}M" "$T/$name.img" || fail "cannot create $T/$name.img"
	dev=$(losetup --find --show "$T/$name.img") || fail "losetup failed for $T/$name.img"
	echo "$dev" >>"$_pp_loops"
	echo "$dev"
}

# wait_released DEV: until DEV opens O_EXCL again (up to 10 s) -- the
# kernel lets a filesystem's claim go shortly after umount returns
wait_released() {
	python3 - "$1" <<'PY' || fail "$1 still held 10 s after its umount"
import os, sys, time
for _ in range(100):
    try:
        os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
PY
}

# make_fs TYPE DEV [mkfs options...]: mkfs and mount under $T; prints the mountpoint.
make_fs() {
	local type=$1 dev=$2 mnt
	shift 2
	mnt=$T/mnt-$(basename "$dev")
	mkdir -p "$mnt"
	case $type in
	xfs) mkfs.xfs -q -f "$@" "$dev" >/dev/null ;;
	ext*) mkfs."$type" -q -F "$@" "$dev" >/dev/null ;;
	btrfs) mkfs.btrfs -q -f "$@" "$dev" >/dev/null ;;
	*) fail "make_fs: unknown type $type" ;;
	esac || fail "mkfs.$type $dev failed"
	mount ${MOUNT_OPTS:+-o "$MOUNT_OPTS"} "$dev" "$mnt" || fail "mount $dev failed"
	echo "$mnt" >>"$_pp_mounts"
	echo "$mnt"
}

# open_pty: a pseudo-terminal to test with, its path in $pty, held open by
# $pty_holder, which ends with this shell whatever way it exits.
open_pty() {
	python3 -c 'import os, pty, time
m, s = pty.openpty()
print(os.ttyname(s), flush=True)
parent = os.getppid()
while os.getppid() == parent:
    time.sleep(0.2)' >"$T/pty" &
	pty_holder=$!
	for _ in $(seq 50); do [ -s "$T/pty" ] && break; sleep 0.1; done
	pty=$(cat "$T/pty")
	[ -c "$pty" ] || { kill $pty_holder; fail "no pseudo-terminal to test with"; }
}

# engine NAME: absolute path of the built engine.
engine() {
	local so="$ENGDIR/fio-$1.so"
	[ -f "$so" ] || fail "engine $so not built"
	echo "$so"
}

# san_env: the environment an uninstrumented fio needs to load a sanitizer
# build of an engine, as "VAR=value" words in the array SAN_ENV (empty in
# a normal build): the runtime preloaded (it must come first), and under
# TSan the suppressions for races inside fio itself (tests/fio-tsan.supp;
# the engines' races are not suppressed).  For wrappers that start fio.
san_env() {
	SAN_ENV=()
	case ${SANITIZE:-} in
	*address*)
		SAN_ENV=("LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so)"
			"ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}") ;;
	*thread*)
		SAN_ENV=("LD_PRELOAD=$(${CC:-cc} -print-file-name=libtsan.so)"
			"TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 suppressions=$TOP/tests/fio-tsan.supp}") ;;
	esac
}

# run_fio ARGS...: fio, with san_env's environment in sanitizer builds.
run_fio() {
	san_env
	env "${SAN_ENV[@]}" "$FIO" "$@"
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
}
