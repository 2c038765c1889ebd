#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner's refusals and error paths, without running a real fio: a fake
# fio (fio --showcmd/--version/--parse-only go to the real one; a run only logs
# its arguments and TARGET, writes a stub JSON and exits) so that a run the
# runner should refuse -- but might not -- can never write anything.  Each
# check reports on its own (all of them run), the test fails if any did.
. "$TOP/tests/lib.sh"
. "$TOP/tests/profiles/lib-profiles.sh"

nbad=0
bad() {
	echo "FAIL: $*" >&2
	nbad=$((nbad + 1))
}
# refuses WHAT REGEX CMD...: CMD fails and its output matches REGEX
refuses() {
	local what=$1 re=$2 msg
	shift 2
	if msg=$("$@" 2>&1); then
		bad "$what: not refused: $msg"
	elif ! echo "$msg" | grep -Eq -- "$re"; then
		bad "$what: '$re' not in: $msg"
	else
		echo "ok: $what"
	fi
}
# ok WHAT CMD...: CMD succeeds
ok() {
	local what=$1 msg
	shift
	if msg=$("$@" 2>&1); then
		echo "ok: $what"
	else
		bad "$what: failed: $msg"
	fi
}

realfio=$(command -v "$FIO") || skip "no fio"
# a run that falls back to the default ./perfpack-out stays in $T
cd "$T" || fail "cd $T"
cat >"$T/fakefio" <<FAKE
#!/bin/bash
for a; do
	case \$a in --showcmd | --version | --parse-only) exec "$realfio" "\$@" ;; esac
done
echo "run cwd=\$PWD TARGET=\${TARGET-} args=\$*" >>"$T/fio.log"
# FAKEFIO_FAIL_AT=N: the Nth fio run (of a job section) fails
n=\$(grep -c '^run .*--section' "$T/fio.log")
[ -n "\${FAKEFIO_FAIL_AT:-}" ] && [ "\$n" -ge "\$FAKEFIO_FAIL_AT" ] && { echo "fakefio: failing run \$n" >&2; exit 1; }
[ -n "\${FAKEFIO_SLEEP:-}" ] && echo \$\$ >"$T/fio.pid" && exec sleep "\$FAKEFIO_SLEEP"
# FAKEFIO_REAL=1: really run fio, but only on a target in the test directory,
# paced to ~10 ms a MiB (fio writes 1 ms for any shorter run, which fiotab
# refuses), but not with FAKEFIO_FAIL_AT: the runner starts the next run
# ahead, which would fail while a paced first one still runs
if [ "\${FAKEFIO_REAL:-0}" = 1 ]; then
	pace=--rate=100m
	[ -n "\${FAKEFIO_FAIL_AT:-}" ] && pace=
	case \$TARGET in "$T"/*) exec "$realfio" \$pace "\$@" ;; esac
	echo "fakefio: no real run on \$TARGET" >&2
	exit 1
fi
for a; do
	case \$a in --output=*) echo '{"fio version": "fio-3.33", "jobs": []}' >"\${a#--output=}" ;; esac
done
exit \${FAKEFIO_RC:-0}
FAKE
chmod +x "$T/fakefio"
pp() { FIO=$T/fakefio "$PERFPACK" "$@"; }
ran() { grep -c '^run .*--section' "$T/fio.log" 2>/dev/null; }
: >"$T/fio.log"
truncate -s 8M "$T/t.img"
one=(--variant block --set PP_SECTIONS='^perftest-w-65536-1$' --no-tables)
# a small profile of our own: a sweep (qd-1, qd-2) with an untyped variable
mkdir -p "$T/profsw/sw"
printf '[global]\nfilename=${TARGET}\nsize=${SIZE}\nrw=read\nioengine=${ENG}\n[qd-1]\niodepth=1\n[qd-2]\niodepth=2\n' \
	>"$T/profsw/sw/sw.fio"
printf '[global]\nfilename=${TARGET}\nsize=${SIZE}\nrw=read\n[one-4096]\nbs=4096\n' >"$T/profsw/sw/lone.fio"
printf 'TITLE=sweep\nJOBFILES=sw.fio\nQUICK="SIZE=1m ENG=psync"\nVARIANT_lone="PP_JOBFILES=lone.fio"\n' >"$T/profsw/sw/profile.conf"
printf 'VARIANT_own="TARGET=%s/victim"\n' "$T" >>"$T/profsw/sw/profile.conf"
# ... and one whose counts come from variables (numjobs=, nrfiles=)
printf '[global]\nfilename=${TARGET}\nsize=${SIZE}\nrw=read\n[counts]\nnumjobs=${NJ}\nnrfiles=${NF}\n' >"$T/profsw/sw/counts.fio"
printf 'VARIANT_counts="PP_JOBFILES=counts.fio NJ=1 NF=1"\n' >>"$T/profsw/sw/profile.conf"
# ... and runs that would write one raw/<variant>/<stem>.json: a section
# name in two job files, a job file named twice, a variant named twice
printf '[global]\nfilename=${TARGET}\nsize=${SIZE}\nrw=read\n[qd-1]\nbs=8k\n' >"$T/profsw/sw/other.fio"
printf 'VARIANT_dupsec="PP_JOBFILES=\\"sw.fio other.fio\\""\n' >>"$T/profsw/sw/profile.conf"
printf 'VARIANT_dupfile="PP_JOBFILES=\\"lone.fio lone.fio\\""\n' >>"$T/profsw/sw/profile.conf"
mkdir -p "$T/profdv/dv"
cp "$T/profsw/sw/lone.fio" "$T/profdv/dv/"
printf 'TITLE=twice\nJOBFILES=lone.fio\nQUICK="SIZE=1m"\nVARIANTS="a b a"\nVARIANT_a=""\nVARIANT_b=""\n' >"$T/profdv/dv/profile.conf"
# ... and job files the variable checks do not read (they read the folder's
# *.fio): one in a subfolder (its SIZE=2mfoo went to fio; a run failed on
# bundle/default/sub/x.fio after DIR.partial.* existed), one not NAME.fio
mkdir -p "$T/profjf/jf/sub"
printf '[global]\nfilename=${TARGET}\nsize=${SZ}\nrw=read\n[s-1]\nbs=4k\n' >"$T/profjf/jf/sub/x.fio"
cp "$T/profjf/jf/sub/x.fio" "$T/profjf/jf/x.job"
cp "$T/profsw/sw/lone.fio" "$T/profjf/jf/"
printf 'TITLE=jf\nJOBFILES=lone.fio\nQUICK="SIZE=1m SZ=1m"\nVARIANT_sub="PP_JOBFILES=sub/x.fio"\nVARIANT_job="PP_JOBFILES=x.job"\n' \
	>"$T/profjf/jf/profile.conf"

# 1. --set TARGET would bypass the block-device check: refused, fio never run
refuses "--set TARGET" "--set TARGET: .*--target" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" --set TARGET=/dev/vda -o "$T/o1"
refuses "--set ENGDIR" "--set ENGDIR: " \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" --set ENGDIR=/tmp -o "$T/o1"
# ... and a runner variable nothing of the run reads: a filesystem recipe's
# where no variant makes one, the scratch size with --target (the old runner
# ran on the bare device, env/block.env saying PP_FS=btrfs)
for set in PP_FS=btrfs PP_MKFS_OPTS=-m0 PP_MOUNT_OPTS=noatime PP_FILE_MB=4; do
	refuses "--set $set on a variant without PP_SETUP=fs" \
		"--set ${set%%=*}: no variant of this run makes a filesystem \(block: PP_SETUP=dev\)" \
		pp run blockdev-perftest "${one[@]}" --target "$T/t.img" --set $set -o "$T/o1"
done
refuses "--set PP_FS in a profile without a target" "--set PP_FS: no variant of this run makes a filesystem \(the profile has no target\)" \
	pp run scst-coop --set PP_FS=ext4 -o "$T/o1"
refuses "--set PP_SCRATCH_MB with --target" "--set PP_SCRATCH_MB: the size of the scratch device, and this run has none \(--target $T/t.img\)" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" --set PP_SCRATCH_MB=64 -o "$T/o1"
# ... and a --target no variant of the run uses (the model runs on its own
# /dev/zero: the old runner ignored the --target and named it in run.txt)
refuses "--target in a profile without a target" "--target $T/t.img: no variant of this run uses a target \(profile scst-coop has none: TARGET_KIND=none\)" \
	pp run scst-coop --target "$T/t.img" -o "$T/o1"
# ... and a size the file its recipe makes with dd (PP_FILE_MB, as in seed
# 000) does not hold: fio unlinked the dd-written file and laid out its own
# (fallocate, unwritten extents), tabled as the file; on a file target the
# recipe makes no file, and PP_FILE_MB is not read
refuses "-s above PP_FILE_MB" "blockdev-perftest/file: its jobs use the first 16777216 bytes of its file, but PP_FILE_MB=8 makes it 8388608" \
	pp run blockdev-perftest --variant file -s 16m -o "$T/o1"
ok "-s with PP_FILE_MB as large" pp run blockdev-perftest --variant file -s 16m --set PP_FILE_MB=16 --list
ok "-s above PP_FILE_MB on a file target" pp run blockdev-perftest --variant file -s 16m --target "$T/t.img" --list
# ... and --variant default where profile.conf has none (VARIANTS names
# it, or is not given): it ran the scale's variables as raw/default/, which
# no TABLES entry reads, and completed, exit 0, without a table
refuses "--variant default in a profile without it" "blockdev-perftest: no variant 'default' \(profile.conf has: block " \
	pp run blockdev-perftest --variant default --target "$T/t.img" -o "$T/o1"
[ "$(ran)" = 0 ] || bad "fio ran after a refused --set: $(cat "$T/fio.log")"
[ -e "$T/o1" ] && bad "a refused --set left $T/o1"
# ... whose run.txt says it had none, not a scratch target
pp run scst-coop --no-tables -o "$T/onone" >/dev/null 2>&1
grep -qx 'target: none' "$T/onone"*/run.txt || bad "run.txt of a run without a target: $(grep '^target' "$T/onone"*/run.txt)"
rm -rf "$T/onone"*
: >"$T/fio.log"
# ... but read where a variant makes a filesystem
pp run blockdev-perftest --variant block,file --set PP_MOUNT_OPTS=noatime --list >/dev/null 2>"$T/err" ||
	bad "--set PP_MOUNT_OPTS with a PP_SETUP=fs variant refused: $(cat "$T/err")"
# ... unless it contradicts the recipe a variant fixes (its name, raw/ and
# tables say xfs: the old runner made ext4 under iozone's xfs), or hands
# one filesystem's mkfs/mount options to variants making different ones
refuses "--set PP_FS against a variant's own" "--set PP_FS=ext4: variant xfs fixes PP_FS=xfs in its recipe" \
	pp run iozone --variant xfs --set PP_FS=ext4 --set SIZE=1m --no-tables -o "$T/ofs1"
# ... with --env too, which printed the variant's variables with the --set,
# exit 0, as if it would run (the plan's refusals were skipped)
refuses "--env with a --set against a variant's own" "--set PP_FS=ext4: variant xfs fixes PP_FS=xfs in its recipe" \
	pp run iozone --variant xfs --set PP_FS=ext4 --env
refuses "--env with a --set no variant reads" "--set PP_FS: no variant of this run makes a filesystem" \
	pp run scst-coop --set PP_FS=ext4 --env
# --env without --target printed TARGET=TARGET: fed to fio, as the job
# files' headers suggest, it made and wrote a file TARGET in the current
# directory.  The target the run would choose is a comment; with --target,
# or a variant's own, the line is there.
out=$(pp run coop-local --env) || fail "--env without --target failed: $out"
case $out in *TARGET=*) fail "--env without --target printed a TARGET line: $out" ;; esac
assert_match "--env says TARGET is not set" '^# TARGET not set: give --target' "$out"
assert_match "--env with --target" "^TARGET=$T/t.img\$" "$(pp run coop-local --env --target "$T/t.img")"
assert_match "--env of a variant with its own TARGET" '^TARGET=/dev/zero$' "$(pp run scst-coop --variant model --env)"
refuses "--set PP_MOUNT_OPTS against a variant's own" \
	"--set PP_MOUNT_OPTS=noatime: variant xfs_tuned fixes PP_MOUNT_OPTS=logbufs=8,noatime,nodiratime in its recipe" \
	pp run iozone --variant xfs,xfs_tuned --set PP_MOUNT_OPTS=noatime --set SIZE=1m --no-tables -o "$T/ofs2"
refuses "--set PP_MKFS_OPTS on variants of two filesystems" \
	"--set PP_MKFS_OPTS=-m0: the variants of this run make different filesystems \(ext4: ext4_wb; xfs: xfs\)" \
	pp run iozone --variant xfs,ext4_wb --set PP_MKFS_OPTS=-m0 --set SIZE=1m --no-tables -o "$T/ofs3"
# ... or that names a file or device for the filesystem besides the target
# (mkfs.xfs -l logdev=DEV wrote an external log over DEV's ext4, unchecked)
refuses "--set PP_MKFS_OPTS naming a device" "PP_MKFS_OPTS='-l logdev=$T/t.img,size=64m' names $T/t.img, a file or device other than the target" \
	pp run iozone --variant xfs --set "PP_MKFS_OPTS=-l logdev=$T/t.img,size=64m" --set SIZE=1m --no-tables -o "$T/ofs8"
refuses "--set PP_MOUNT_OPTS naming a device" "PP_MOUNT_OPTS='logdev=$T/t.img' names $T/t.img, a file or device other than the target" \
	pp run iozone --variant xfs --set "PP_MOUNT_OPTS=logdev=$T/t.img" --set SIZE=1m --no-tables -o "$T/ofs9"
refuses "--set PP_MKFS_OPTS naming a file in the current directory" "PP_MKFS_OPTS='-l logdev=t.img' names t.img" \
	bash -c 'cd "$1" && shift && "$@"' - "$T" env FIO="$T/fakefio" "$PERFPACK" run iozone --variant xfs --set "PP_MKFS_OPTS=-l logdev=t.img" --list
# ... or by a tag (mkfs.ext4 -J device=LABEL=j wrote the journal device so
# labelled, unchecked), or by number (ext4's journal_dev=)
refuses "--set PP_MKFS_OPTS naming a device by its label" "PP_MKFS_OPTS='-J device=LABEL=pp-jdev' names LABEL=pp-jdev" \
	pp run bonnie-direct-vs-raw --variant file_direct --set "PP_MKFS_OPTS=-J device=LABEL=pp-jdev" --list
refuses "--set PP_MKFS_OPTS naming a device by its UUID" "PP_MKFS_OPTS='-J device=UUID=0c5e' names UUID=0c5e" \
	pp run bonnie-direct-vs-raw --variant file_direct --set "PP_MKFS_OPTS=-J device=UUID=0c5e" --list
refuses "--set PP_MOUNT_OPTS naming a device by number" "PP_MOUNT_OPTS='journal_dev=1795' names journal_dev=1795" \
	pp run bonnie-direct-vs-raw --variant file_direct --set "PP_MOUNT_OPTS=journal_dev=1795" --list
ok "--set PP_MKFS_OPTS with a filesystem label" pp run bonnie-direct-vs-raw --variant file_direct --set "PP_MKFS_OPTS=-L mine -U clear" --list
refuses "--set PP_SETUP against a variant's own (no filesystem)" "--set PP_SETUP=dev: variant xfs fixes PP_SETUP=fs in its recipe" \
	pp run iozone --variant xfs --set PP_SETUP=dev --set SIZE=1m --no-tables -o "$T/ofs4"
refuses "--set PP_SETUP against a variant's own (a filesystem)" "--set PP_SETUP=fs: variant block fixes PP_SETUP=dev in its recipe" \
	pp run blockdev-perftest "${one[@]}" --set PP_SETUP=fs -o "$T/ofs5"
# ... and any other variable a variant fixes (bonnie's raw and file_direct:
# DIRECT=1, tabled as raw when buffered; the model's BACKEND=sim: coop's real
# pool reading /dev/zero tabled as the model), but the filters picking which
# of its runs are made (PP_MINBS, PP_RW, ...)
refuses "--set DIRECT against a variant's own" "--set DIRECT=0: variant file_direct fixes DIRECT=1 in its recipe" \
	pp run bonnie-direct-vs-raw --set DIRECT=0 --no-tables -o "$T/ofs6"
refuses "--set BACKEND against a variant's own" "--set BACKEND=psync: variant model fixes BACKEND=sim in its recipe" \
	pp run scst-coop --set BACKEND=psync --no-tables -o "$T/ofs7"
# ... and one that leaves two variants of the run with the same variables:
# blockdev-perftest's block takes DIRECT=1 from the scale, so --set DIRECT=0
# ran it as block_buffered, the two tabled and plotted as a comparison
refuses "--set making two variants the same" \
	"--set DIRECT=0: variants block and block_buffered would run with the same variables" \
	pp run blockdev-perftest --variant block,block_buffered --set DIRECT=0 --set SIZE=1m --no-tables -o "$T/ofs10"
ok "--set DIRECT as the variant's own" pp run bonnie-direct-vs-raw --variant bdev --set DIRECT=0 --list
ok "--set PP_MINBS against a variant's own (a filter)" pp run blockdev-perftest --variant seed001 --set PP_MINBS=64k --list
[ "$(ran)" = 0 ] || bad "fio ran after a refused recipe --set: $(cat "$T/fio.log")"
compgen -G "$T/ofs*" >/dev/null && bad "a refused recipe --set left $(ls -d "$T"/ofs*)"
pp run iozone --variant xfs,xfs_tuned --set PP_FS=xfs --list >/dev/null 2>"$T/err" ||
	bad "--set PP_FS as the variants' own refused: $(cat "$T/err")"
# ... and the TARGET fio gets is the one the progress line shows
ok "plain --target run" pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o1b"
grep -q "^run .*TARGET=$T/t.img args=" "$T/fio.log" || bad "fio did not get TARGET=$T/t.img: $(cat "$T/fio.log")"
: >"$T/fio.log"

# 2. -o: an existing non-empty directory is not wiped; a run is written as
# DIR.partial.XXXXXX and becomes DIR only when complete
mkdir -p "$T/mine" && echo keep >"$T/mine/precious"
refuses "-o on a non-empty directory" "exists and is not empty.*--overwrite" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/mine"
refuses "--overwrite on a directory that is no run" "not a perfpack run directory" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/mine" --overwrite
[ "$(cat "$T/mine/precious" 2>/dev/null)" = keep ] || bad "-o wiped $T/mine"
# ... nor a mount point: the run was written beside it, on its parent's
# filesystem, then not renamed to it ('cannot rename ...'), after every fio run
mkdir -p "$T/mp"
if mount -t tmpfs -o size=4m pp-test-mp "$T/mp"; then
	echo "$T/mp" >>"$_pp_mounts"
	n=$(ran)
	refuses "-o on a mount point" "-o $T/mp: is a mount point: .*give a directory inside it" \
		pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/mp"
	[ "$(ran)" = "$n" ] || bad "fio ran for -o on a mount point"
	compgen -G "$T/mp.partial.*" >/dev/null && bad "output made beside the mount point: $(ls -d "$T"/mp.partial.*)"
	umount "$T/mp"
else
	note "cannot mount a tmpfs: -o on a mount point not tested"
fi
refuses "-o the --target" "-o $T/same is the --target" pp run blockdev-perftest "${one[@]}" --target "$T/same" -o "$T/same"
[ -e "$T/same" ] || compgen -G "$T/same.partial.*" >/dev/null && bad "-o the --target: left $(ls -d "$T"/same*)"
[ "$(ran)" = 0 ] || bad "fio ran although -o was refused"
ok "first run into o2" pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2"
grep -qx 'status: complete' "$T/o2/run.txt" || bad "complete run not marked complete: $(cat "$T/o2/run.txt")"
refuses "second run into o2" "o2: exists and is not empty" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2"
# --overwrite replaces what a run wrote, never a file the user put beside
# it (the old runner removed o2/notes/mine and o2/raw/mark with the run)
mkdir "$T/o2/notes" && echo keep >"$T/o2/notes/mine"
refuses "--overwrite of a run holding a user's directory" "o2 --overwrite: $T/o2/notes/ is not a file the run wrote" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2" --overwrite
rm -r "$T/o2/notes"
echo keep >"$T/o2/raw/mark"
refuses "--overwrite of a run holding a user's file" "o2 --overwrite: $T/o2/raw/mark is not a file the run wrote" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2" --overwrite
mkdir "$T/o2/tables" && echo keep >"$T/o2/tables/notes.txt"
rm "$T/o2/raw/mark"
refuses "--overwrite of a run holding a user's file in tables/" "o2/tables/notes.txt is not a file the run wrote" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2" --overwrite
[ "$(cat "$T/o2/tables/notes.txt" 2>/dev/null)" = keep ] || bad "--overwrite removed a user's file"
rm "$T/o2/tables/notes.txt"
mv "$T/o2/.perfpack-files" "$T/o2.files"
refuses "--overwrite of a run with no list of its files" "o2 --overwrite: it has no readable .perfpack-files" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2" --overwrite
mv "$T/o2.files" "$T/o2/.perfpack-files"
# ... the run's own files go, a render of its tables (perfpack tables) too
echo '<svg/>' >"$T/o2/tables/plot.svg"
ok "--overwrite of a run directory" pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2" --overwrite
[ -e "$T/o2/tables" ] && bad "--overwrite kept files of the old run: $(ls "$T/o2/tables")"
[ -s "$T/o2/.perfpack-files" ] || bad "no .perfpack-files in a complete run"
# ... and a file put there while the run ran is not replaced with it
printf '#!/bin/bash\nfor a; do case $a in --section=*) echo late >"%s/o2/raw/late" ;; esac; done\nexec "%s" "$@"\n' \
	"$T" "$T/fakefio" >"$T/latefio"
chmod +x "$T/latefio"
refuses "--overwrite of a run given a user's file during the run" \
	"o2 --overwrite: $T/o2/raw/late is not a file the run wrote \(since this run started\); left as is: the complete run is in $T/o2\.partial\." \
	env FIO="$T/latefio" "$PERFPACK" run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2" --overwrite
[ "$(cat "$T/o2/raw/late" 2>/dev/null)" = late ] || bad "--overwrite removed a file put in the run during the run"
rm -r "$T"/o2.partial.* "$T/o2/raw/late"
ls -d "$T"/o2.* >/dev/null 2>&1 && bad "left behind: $(ls -d "$T"/o2.*)"
# a DIR that appears during the run (another run with the same name) is
# left alone; the complete run stays DIR.partial.* and is named
printf '#!/bin/bash\nfor a; do case $a in --section=*) mkdir -p "%s/o2c"; echo other >"%s/o2c/theirs" ;; esac; done\nexec "%s" "$@"\n' \
	"$T" "$T" "$T/fakefio" >"$T/racefio"
chmod +x "$T/racefio"
refuses "a DIR made during the run" "o2c appeared during the run: left as is; the complete run is in $T/o2c\.partial\." \
	env FIO="$T/racefio" "$PERFPACK" run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o2c"
[ "$(cat "$T/o2c/theirs" 2>/dev/null)" = other ] || bad "a run removed a directory made during it"
grep -qx 'status: complete' "$T"/o2c.partial.*/run.txt 2>/dev/null || bad "the complete run was not kept as complete"
: >"$T/fio.log"
# a failing run: no DIR, a DIR.partial.* marked incomplete, and said where
truncate -s 8M "$T/p.img"
two=(--variant block --set PP_SECTIONS='^perftest-[wr]-65536-1$' --set SIZE=1m --target "$T/p.img")
: >"$T/fio.log"
refuses "a run whose fio fails" "incomplete run \(1 of 2 fio runs done\).*$T/o3\.partial\." \
	env FAKEFIO_REAL=1 FAKEFIO_FAIL_AT=2 FIO="$T/fakefio" "$PERFPACK" run blockdev-perftest "${two[@]}" -o "$T/o3"
[ -e "$T/o3" ] && bad "a failed run left $T/o3, which looks complete"
p3=$(ls -d "$T"/o3.partial.* 2>/dev/null | head -n 1)
if [ -z "$p3" ]; then
	bad "no $T/o3.partial.* kept"
else
	grep -q '^status: incomplete' "$p3/run.txt" || bad "partial run not marked incomplete: $(cat "$p3/run.txt")"
	# 4. its tables: refused, or rendered with --partial and marked
	refuses "tables of an incomplete run" "incomplete run .*--partial" "$PERFPACK" tables "$p3"
	if msg=$("$PERFPACK" tables --partial "$p3" 2>&1); then
		echo "$msg" | grep -q '== blockdev-perftest: block .*INCOMPLETE RUN' || bad "forced tables not marked: $msg"
		grep -q '^# INCOMPLETE RUN' "$p3/tables/block.txt" || bad "block.txt not marked incomplete"
	else
		bad "tables --partial failed: $msg"
	fi
fi
truncate -s 8M "$T/q.img"
two=(--variant block --set PP_SECTIONS='^perftest-[wr]-65536-1$' --set SIZE=1m --target "$T/q.img")
ok "a complete real run" env FAKEFIO_REAL=1 FIO="$T/fakefio" "$PERFPACK" run blockdev-perftest "${two[@]}" -o "$T/o4"
ok "tables of a complete run" "$PERFPACK" tables "$T/o4"
grep -q INCOMPLETE "$T/o4/tables/block.txt" && bad "complete run marked incomplete"
: >"$T/fio.log"

# 3. same_sectors (blkfile, allow_bdev_write) on a directory or file: it would
# write through the device under $T's filesystem: named, refused without --force
if [ -f "$ENGDIR/fio-blkfile.so" ]; then
	src=$(findmnt -n -o SOURCE -T "$T")
	ss=(--variant same_sectors --set PP_SECTIONS='^perftest-(bdev|file)-w-65536-1$')
	mkdir -p "$T/d"
	refuses "same_sectors on a directory" "refusing to write to $src: variant same_sectors writes through the block device .*--force" \
		pp run blockdev-perftest "${ss[@]}" --target "$T/d" -o "$T/o5"
	refuses "same_sectors on a file" "refusing to write to $src: .*$T/t.img is on $src" \
		pp run blockdev-perftest "${ss[@]}" --target "$T/t.img" -o "$T/o5"
	[ "$(ran)" = 0 ] || bad "fio ran although same_sectors was refused"
	[ -e "$T/o5" ] && bad "output made although same_sectors was refused"
	# --force: said, and the (fake) fio is started
	if msg=$(pp run blockdev-perftest "${ss[@]}" --target "$T/d" --force --no-tables -o "$T/o5" 2>&1); then
		echo "$msg" | grep -q "writing to $src although variant same_sectors" || bad "--force not reported: $msg"
		[ "$(ran)" = 2 ] || bad "same_sectors --force: 2 fio runs expected: $(cat "$T/fio.log")"
	else
		bad "same_sectors --force refused: $msg"
	fi
	: >"$T/fio.log"
else
	note "no blkfile engine: same_sectors refusal not exercised"
fi

# 5. a relative --target is the one in the current directory, not in
# DIR/raw/<variant> where fio runs
truncate -s 8M "$T/rel.img"
(cd "$T" && FIO=$T/fakefio "$PERFPACK" run blockdev-perftest "${one[@]}" --target rel.img -o o6) >"$T/o6.log" 2>&1 ||
	bad "relative --target run failed: $(cat "$T/o6.log")"
grep -q "^run .*TARGET=$T/rel.img args=" "$T/fio.log" || bad "relative --target: fio got $(grep -o 'TARGET=[^ ]*' "$T/fio.log")"
: >"$T/fio.log"

# 6. neither file, directory nor block device; a device name that does not
# exist (a typo would make a RAM file on devtmpfs); an empty --target
refuses "--target /dev/null" "/dev/null: is a character special file, not a block device" \
	pp run blockdev-perftest "${one[@]}" --target /dev/null -o "$T/o7"
refuses "--target of a missing device" "/dev/sdz9-perfpack-no-such: no such device" \
	pp run blockdev-perftest "${one[@]}" --target /dev/sdz9-perfpack-no-such -o "$T/o7"
[ -e /dev/sdz9-perfpack-no-such ] && bad "a file was made under /dev" && rm -f /dev/sdz9-perfpack-no-such
refuses "--target ''" "--target: empty path" pp run blockdev-perftest "${one[@]}" --target '' -o "$T/o7"
# a path ending in / names a directory: the old runner dropped the / and made
# (or used) a file of that name
refuses "--target NEW/" "--target $T/newdir/: a path ending in / names a directory, and $T/newdir does not exist" \
	pp run blockdev-perftest "${one[@]}" --target "$T/newdir/" -o "$T/o-slash"
[ -e "$T/newdir" ] && bad "a file $T/newdir was made for --target $T/newdir/" && rm -f "$T/newdir"
refuses "--target FILE/" "--target $T/t.img/: a path ending in / names a directory, and $T/t.img is none" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img/" -o "$T/o-slash2"
[ "$(ran)" = 0 ] || bad "fio ran on a --target ending in /: $(cat "$T/fio.log")"
: >"$T/fio.log"
rm -rf "$T"/o-slash*
# a kernel pseudo filesystem's files are settings, sized 0 (so no data check
# finds anything there): refused, the fake fio never started
for t in /proc/sys/vm/swappiness /sys/kernel/mm /proc/perfpack-no-such; do
	refuses "--target $t" "target $t: is on (proc|sysfs), a kernel pseudo filesystem" \
		pp run blockdev-perftest "${one[@]}" --target "$t" -o "$T/o7"
done

# 7. ':' separates file names in fio's filename=
truncate -s 8M "$T/a:b.img"
refuses "--target with ':'" "a:b.img: contains ':'" \
	pp run blockdev-perftest "${one[@]}" --target "$T/a:b.img" -o "$T/o7"
# ... and so does every character fio reads otherwise in a job-file value: it
# ends it at ';' or '#' and strips blanks, so fio would write $T/cut, a file
# never named (a newline would end the line)
echo precious >"$T/cut"
for name in 'cut;b.img' 'cut#b.img' 'cut ' $'cut\nb.img'; do
	truncate -s 8M "$T/$name"
	refuses "--target with $(printf %q "$name")" "--target [^ ]*cut[^:]*: (has|contains) .*(fio ends the value|fio strips|a newline)" \
		pp run blockdev-perftest "${one[@]}" --target "$T/$name" -o "$T/o7"
	rm -f "$T/$name"
done
[ "$(cat "$T/cut")" = precious ] || bad "fio wrote to $T/cut, which was never named"
# ... and replaces its keywords ($ncpus, $mb_memory, $pagesize) in every
# line: --target "it's\$ncpus.img" had fio write "it's2.img", never named nor
# checked (the quote spares the line from bc); a ${VAR} the bundle's job file
# (values substituted) would take from the environment when run again
printf 'precious\n' >"$T/kw-it's$(nproc).img"
truncate -s 8M "$T/kw-it's\$ncpus.img" "$T/d\${HOME}.img"
FAKEFIO_REAL=1 refuses "--target with a fio keyword" '--target [^ ]*kw-it.s\$ncpus\.img: has .\$ncpus., which fio replaces' \
	pp run blockdev-perftest "${one[@]}" --target "$T/kw-it's\$ncpus.img" -o "$T/o-kw"
[ "$(cat "$T/kw-it's$(nproc).img")" = precious ] || bad "fio wrote to $T/kw-it's$(nproc).img, which was never named"
refuses "--target with \${" '--target [^ ]*d\$\{HOME\}\.img: has .\$\{., which fio replaces' \
	pp run blockdev-perftest "${one[@]}" --target "$T/d\${HOME}.img" -o "$T/o-kw2"
refuses "a job variable with \$mb_memory" "ENG='psync\\\$mb_memory' has '\\\$mb_memory'" \
	env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --target "$T/t.img" --list --set 'ENG=psync$mb_memory'
[ "$(ran)" = 0 ] || bad "fio ran on a target with a fio keyword: $(cat "$T/fio.log")"
: >"$T/fio.log"
rm -rf "$T/kw-it's"* "$T/d\${HOME}.img" "$T"/o-kw*
# ... and a name that is not UTF-8, which run.txt and the bundle cannot hold
# (the old runner: a Python traceback, DIR.partial.* left with an empty
# run.txt); through a symbolic link with a UTF-8 name, the run goes on
nu="$T/nu-"$'\xff'".img"
truncate -s 8M "$nu"
ln -s "$nu" "$T/nu-link"
refuses "--target not UTF-8" "argument '[^']*nu-.udcff\.img' is not valid UTF-8: .*give a symbolic link to it" \
	pp run blockdev-perftest "${one[@]}" --target "$nu" -o "$T/o-nu"
compgen -G "$T/o-nu*" >/dev/null && bad "output made for a --target not UTF-8: $(ls -d "$T"/o-nu*)"
FAKEFIO_REAL=1 ok "--target not UTF-8, through a symbolic link" \
	pp run blockdev-perftest "${one[@]}" --target "$T/nu-link" -o "$T/o-nu"
grep -qx "target: $T/nu-link" "$T/o-nu/run.txt" 2>/dev/null || bad "run.txt does not name $T/nu-link: $(grep target: "$T/o-nu/run.txt")"
: >"$T/fio.log"
rm -rf "$nu" "$T/nu-link" "$T/o-nu"
# ... and an -o with a control character: run.txt names it on its command
# line, and a newline there made a line of its own ('status: complete' in
# the name was rewritten with the run's status, the command cut there)
refuses "-o with a newline" "-o '[^']*o-nl\\\\nstatus: complete': contains a newline" \
	pp run blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o-nl"$'\n''status: complete'
compgen -G "$T/o-nl*" >/dev/null && bad "output made for an -o with a newline: $(ls -d "$T"/o-nl*)"
[ "$(ran)" = 0 ] || bad "fio ran for an -o with a newline: $(cat "$T/fio.log")"
: >"$T/fio.log"
refuses "a job variable with ';'" "sw/default, --set: ENG='psync;x' has ';', where fio ends the value" \
	env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --target "$T/t.img" --list --set 'ENG=psync;x'
# ... and a '#' inside a profile.conf word is the word's, as the shell reads
# it (VARIANT_x=ENG=psync#x is 'ENG=psync#x'), not a comment that cuts the
# value: the old reader ran ENG=psync, '#x' dropped without a word
mkdir -p "$T/profhash/hs"
cp "$T/profsw/sw/sw.fio" "$T/profhash/hs/"
for conf in 'QUICK=SIZE=1m\nVARIANT_default=ENG=psync#x' 'QUICK=SIZE=1m\nVARIANT_default="ENG=psync#x"' \
	"QUICK='SIZE=1m ENG=psync#x'"; do
	printf "TITLE=hash\\nJOBFILES=sw.fio\\n$conf\\n" >"$T/profhash/hs/profile.conf"
	refuses "profile.conf $conf" "ENG='psync#x' has '#', where fio ends the value" \
		env PERFPACK_PROFILES="$T/profhash" FIO="$T/fakefio" "$PERFPACK" run hs --target "$T/t.img" --list
done
printf 'TITLE=hash # a comment\nJOBFILES=sw.fio # and one\nQUICK="SIZE=1m ENG=psync" #\n' >"$T/profhash/hs/profile.conf"
ok "profile.conf comments after a blank" env PERFPACK_PROFILES="$T/profhash" FIO="$T/fakefio" "$PERFPACK" run hs --target "$T/t.img" --list
refuses "ENGDIR with '#'" "ENGDIR $T/e#x: has '#'" env ENGDIR="$T/e#x" FIO="$T/fakefio" "$PERFPACK" run \
	blockdev-perftest "${one[@]}" --target "$T/t.img" -o "$T/o7"
[ "$(ran)" = 0 ] || bad "fio ran on a refused target: $(cat "$T/fio.log")"
[ -e "$T/o7" ] && bad "output made for a refused target"

# 8. an existing file with data is not overwritten silently
# (written in full: a read plan on a file with holes is refused, read-first.sh)
head -c 65536 /dev/urandom >"$T/data.img"
head -c $((8 * 1048576 - 65536)) /dev/zero >>"$T/data.img"
sum=$(md5sum <"$T/data.img")
refuses "a file with data" "refusing to write to $T/data.img: it holds non-zero data .*--force" \
	pp run blockdev-perftest "${one[@]}" --target "$T/data.img" -o "$T/o8"
[ "$(ran)" = 0 ] || bad "fio ran on a file with data"
ok "--force on a file with data" pp run blockdev-perftest "${one[@]}" --target "$T/data.img" --force -o "$T/o8"
[ "$(ran)" = 1 ] || bad "--force on a file with data: fio not run"
[ "$(md5sum <"$T/data.img")" = "$sum" ] || bad "the fake fio changed data.img"
: >"$T/fio.log"
ok "a read-only profile on a file with data" pp run buffered-vs-raw --set PP_SECTIONS='^dd-raw' --no-tables \
	--set SIZE=8m --target "$T/data.img" -o "$T/o9"
# ... but not on one shorter than its reads: fio would unlink it and lay it out anew
refuses "a read-only profile on a shorter file with data" \
	"refusing to write to $T/data.img: the plan reads 268435456 bytes but it holds 8388608, so fio would lay it out anew .*non-zero data" \
	pp run buffered-vs-raw --set PP_SECTIONS='^dd-raw' --no-tables --target "$T/data.img" -o "$T/o9b"
[ "$(ran)" = 1 ] || bad "fio ran on a file shorter than the read plan"
: >"$T/fio.log"

# 9. teardown with odd paths: a space in $TMPDIR must not make it remove
# another file; a quote in a directory target must not leave its file behind
echo victim >"$T/a"
mkdir -p "$T/a b"
TMPDIR="$T/a b" ok "scratch run with a space in TMPDIR" pp run blockdev-perftest "${one[@]}" --scratch \
	--set PP_SCRATCH_MB=8 -o "$T/o10"
[ -f "$T/a" ] || bad "teardown removed $T/a (unquoted path with a space)"
ls "$T/a b"/perfpack.* >/dev/null 2>&1 && bad "scratch left in '$T/a b'"
mkdir -p "$T/it's"
ok "fs variant on a directory with a quote" pp run blockdev-perftest --variant file --no-tables \
	--set PP_SECTIONS='^perftest-w-65536-1$' --target "$T/it's" -o "$T/o11"
[ -e "$T/it's/perfpack.blockdev-perftest.dat" ] && bad "teardown left $T/it's/perfpack.blockdev-perftest.dat"
: >"$T/fio.log"
no_leftovers

# 11. a failing fiotab leaves no partial table, loses nothing of an earlier
# render, and puts nothing stale next to its error: the tables made before
# stay as they were, the failed render and its errors go to tables.failed
printf '#!/bin/sh\necho "partial output"\necho "badtab: failing" >&2\nexit 1\n' >"$T/badtab"
chmod +x "$T/badtab"
[ -s "$T/o4/tables/block.csv" ] || bad "o4: no block.csv from the first render"
sums=$(cd "$T/o4/tables" && md5sum * 2>/dev/null)
refuses "tables with a failing fiotab" "fiotab .* failed: badtab: failing" env FIOTAB="$T/badtab" "$PERFPACK" tables "$T/o4"
[ "$(cd "$T/o4/tables" && md5sum * 2>/dev/null)" = "$sums" ] || bad "a failed render changed the tables made before"
for f in block.txt block.csv plot.svg; do
	[ -e "$T/o4/tables.failed/$f" ] && bad "a failed render left $f: $(head -c 200 "$T/o4/tables.failed/$f")"
done
[ -s "$T/o4/tables.failed/block.err" ] || bad "a failed render left no block.err"
ls -d "$T"/o4/tables.new.* >/dev/null 2>&1 && bad "left behind: $(ls -d "$T"/o4/tables.new.*)"
# ... and so does one that exits 0 without printing anything: an empty table is no table
refuses "tables with a silent fiotab" "fiotab .* failed: true exited 0 but printed nothing" \
	env FIOTAB="$(command -v true)" "$PERFPACK" tables "$T/o4"
[ "$(cd "$T/o4/tables" && md5sum * 2>/dev/null)" = "$sums" ] || bad "a silent fiotab changed the tables made before"
ok "tables again with a working fiotab" "$PERFPACK" tables "$T/o4"
[ -e "$T/o4/tables/block.err" ] && bad "stale block.err after a good render"
[ -e "$T/o4/tables.failed" ] && bad "a stale tables.failed after a good render"
[ -s "$T/o4/tables/block.txt" ] || bad "no block.txt after a good render"
# ... and a render replaces tables/ whole: a file of the user's there is
# refused by name, kept, nothing rendered (the old runner removed it)
echo mine >"$T/o4/tables/my-notes.txt"
sums=$(cd "$T/o4/tables" && md5sum * 2>/dev/null)
refuses "tables over a user's file in tables/" "o4/tables/my-notes.txt is not a file a render of this run writes" \
	"$PERFPACK" tables "$T/o4"
[ "$(cd "$T/o4/tables" && md5sum * 2>/dev/null)" = "$sums" ] || bad "a refused render changed tables/"
rm "$T/o4/tables/my-notes.txt"
mkdir -p "$T/o4/tables.failed/mine"
refuses "tables over a user's directory in tables.failed/" "o4/tables.failed/mine/ is not a file a render of this run writes" \
	"$PERFPACK" tables "$T/o4"
[ -d "$T/o4/tables.failed/mine" ] || bad "a refused render removed tables.failed/mine"
rm -r "$T/o4/tables.failed"
# ... but a render's own files are its, also one cut short (its NAME.txt.tmp)
mkdir "$T/o4/tables.failed" && echo partial >"$T/o4/tables.failed/block.txt.tmp"
ok "tables over a render cut short" "$PERFPACK" tables "$T/o4"
[ -e "$T/o4/tables.failed" ] && bad "a good render left tables.failed"
# ... a TABLES entry with fiotab's -o writes the file it names, outside
# DIR/tables (hist -o: an SVG anywhere, then 'printed nothing'): refused in a
# profile.conf, and in a run directory's own copy that perfpack tables reads
# (a run received in a bug report), before anything is rendered
mkdir -p "$T/proftw/tw"
cp "$T/profsw/sw/lone.fio" "$T/proftw/tw/"
for e in "-o $T/evil.svg" "--out=$T/evil.svg" "-ko$T/evil.svg"; do
	printf 'TITLE=tw\nJOBFILES=lone.fio\nQUICK="SIZE=1m"\nTABLES=( "h=hist %s @default" )\n' "$e" >"$T/proftw/tw/profile.conf"
	refuses "TABLES with $e" "proftw/tw/profile.conf:4: TABLES entry 'h=hist $e @default': '${e%% *}' is fiotab's -o/--output" \
		env PERFPACK_PROFILES="$T/proftw" FIO="$T/fakefio" "$PERFPACK" run tw --target "$T/t.img" --list
done
# ... nor an input that is not the run's raw JSON (@variant): its data would
# be in the run's tables (a run received in a bug report, re-rendered)
for e in "summary $T/o4/raw/block.json @default" "summary @default -" "summary -- -f @default"; do
	printf 'TITLE=tw\nJOBFILES=lone.fio\nQUICK="SIZE=1m"\nTABLES=( "h=%s" )\n' "$e" >"$T/proftw/tw/profile.conf"
	refuses "TABLES input $e" "TABLES entry 'h=$e': '[^']*' is an input of fiotab that is not the run's" \
		env PERFPACK_PROFILES="$T/proftw" FIO="$T/fakefio" "$PERFPACK" run tw --target "$T/t.img" --list
done
printf 'TITLE=tw\nJOBFILES=lone.fio\nQUICK="SIZE=1m"\nTABLES=( "h=perftest -s ^one- -f csv --tag k=v @default" )\n' >"$T/proftw/tw/profile.conf"
ok "TABLES with option values" env PERFPACK_PROFILES="$T/proftw" FIO="$T/fakefio" "$PERFPACK" run tw --target "$T/t.img" --list
# ... and so does PLOT's (the runner's fiotab plot -o DIR/tables/plot.svg
# took the last -o: the plot went to evil.svg, 'wrote no .../plot.svg')
printf 'TITLE=tw\nJOBFILES=lone.fio\nQUICK="SIZE=1m"\nPLOT="-o %s/evil.svg @default"\n' "$T" >"$T/proftw/tw/profile.conf"
refuses "PLOT with -o" "proftw/tw/profile.conf:4: PLOT: '-o' is fiotab's -o/--output" \
	env PERFPACK_PROFILES="$T/proftw" FIO="$T/fakefio" "$PERFPACK" run tw --target "$T/t.img" --list
cp "$T/o4/jobs/profile.conf" "$T/o4.conf"
printf 'PLOT+=" -o %s/evil.svg"\n' "$T" >>"$T/o4/jobs/profile.conf"
refuses "a re-render whose PLOT writes a file" "o4/jobs/profile.conf: PLOT: '-o' is fiotab's -o/--output" "$PERFPACK" tables "$T/o4"
[ -e "$T/evil.svg" ] && bad "perfpack tables had fiotab plot write $T/evil.svg"
cp "$T/o4.conf" "$T/o4/jobs/profile.conf"
sums=$(cd "$T/o4/tables" && md5sum * 2>/dev/null)
printf 'TABLES+=( "h=hist -o %s/evil.svg @block" )\n' "$T" >>"$T/o4/jobs/profile.conf"
refuses "a re-render whose TABLES write a file" "o4/jobs/profile.conf: TABLES entry 'h=hist -o $T/evil.svg @block': '-o' is fiotab's -o/--output" \
	"$PERFPACK" tables "$T/o4"
[ -e "$T/evil.svg" ] && bad "perfpack tables had fiotab write $T/evil.svg"
[ "$(cd "$T/o4/tables" && md5sum * 2>/dev/null)" = "$sums" ] || bad "a refused render changed the tables made before"
# ... nor an @input that leads out of DIR/raw (raw/../../x.json: another
# run's JSON, tabled as this run's)
cp "$T/o4.conf" "$T/o4/jobs/profile.conf"
cp "$T/o4/raw/block.json" "$T/outside.json"
printf 'TABLES+=( "z=summary @../../outside" )\n' >>"$T/o4/jobs/profile.conf"
refuses "a re-render reading outside raw/" "TABLES entry 'z=summary @../../outside': '@../../outside' is not @variant or @variant.STEM" \
	"$PERFPACK" tables "$T/o4"
cp "$T/o4.conf" "$T/o4/jobs/profile.conf"

# 10. perfpack tables reads a run's profile.conf as data, never runs it
cp -r "$T/o4" "$T/evil"
printf 'touch "%s/pwned1"\nPLOT="$(touch %s/pwned2)"\n' "$T" "$T" >>"$T/evil/jobs/profile.conf"
refuses "tables with commands in profile.conf" "cannot read PLOT as data" "$PERFPACK" tables "$T/evil"
cp "$T/o4/jobs/profile.conf" "$T/evil/jobs/profile.conf"
printf 'touch "%s/pwned1"\nTABLES+=("x=perftest $(touch %s/pwned2)")\n' "$T" "$T" >>"$T/evil/jobs/profile.conf"
refuses "tables with a command in TABLES" "cannot read TABLES as data" "$PERFPACK" tables "$T/evil"
ls "$T"/pwned* >/dev/null 2>&1 && bad "perfpack tables ran code from the run directory: $(ls "$T"/pwned*)"

# 12. variable and option mistakes are said, not ignored or left to bash
l=(pp run blockdev-perftest --target "$T/t.img" --list)
refuses "misspelt runner variable" "PP_MINSB is not a runner variable" "${l[@]}" --set PP_MINSB=64k
refuses "job variable no job file uses" "--set SIZ: no job file of blockdev-perftest uses" "${l[@]}" --set SIZ=1m
refuses "PP_ITERS not a number" "PP_ITERS=x is not a positive integer" "${l[@]}" --set PP_ITERS=x
# ... nor is an empty one, which was taken as unset: PP_SCRATCH_MB= made a
# 256 MiB scratch device (the profile's is 512) and the run stopped at the
# file variant's mkfs.xfs, the block variant written; PP_ITERS= ran the job
# files' 3 iterations under --quick's 2
for k in PP_ITERS PP_SCRATCH_MB PP_FILE_MB PP_MINBS PP_MAXBS; do
	refuses "$k empty" "$k= is not a (positive integer|size)" pp run blockdev-perftest --scratch --quick --list --set "$k="
done
# ... and one of more iterations than a run can make: PP_ITERS=99999999 built
# 1.4e9 sections in memory, for minutes, before any check (timeout: the old runner)
refuses "PP_ITERS above the limit" "PP_ITERS=99999999 is more iterations than perfpack runs \(at most 1000\)" \
	env FIO="$T/fakefio" timeout 60 "$PERFPACK" "${l[@]:1}" --set PP_ITERS=99999999
ok "PP_ITERS at the limit" env FIO="$T/fakefio" timeout 60 "$PERFPACK" "${l[@]:1}" --set PP_ITERS=1000
refuses "PP_SCRATCH_MB of 5000 digits" "PP_SCRATCH_MB=9{18}\.\.\. is too large \(5000 digits\)" \
	pp run blockdev-perftest "${one[@]}" --scratch --set PP_SCRATCH_MB="$(printf '9%.0s' {1..5000})" -o "$T/o-big"
rm -rf "$T"/o-big*
refuses "PP_MINBS not a size" "PP_MINBS=1q is not a size" "${l[@]}" --set PP_MINBS=1q
refuses "PP_SECTIONS not a regex" "PP_SECTIONS=\(perftest is not a valid regular expression" "${l[@]}" --set 'PP_SECTIONS=(perftest'
refuses "PP_RW not a regex" "PP_RW=\[ is not a valid regular expression" "${l[@]}" --set 'PP_RW=['
refuses "--set without =" "--set 'SIZE': not VAR=VALUE" "${l[@]}" --set SIZE
refuses "--variant a-b" "--variant a-b: not a variant name" "${l[@]}" --variant a-b
refuses "--variant ''" "--variant '': empty name" "${l[@]}" --variant ''
refuses "--client ''" "--client '': empty name" "${l[@]}" --client ''
# ... a server fio cannot read is refused before any output (fio failed at
# the first run, after DIR.partial.* existed): a port that is no number or out
# of range, no host, fio's own ip:HOST,PORT (the comma splits it: '8911' was
# taken as a second server)
for c in h:8911x 127.0.0.1:99999 127.0.0.1:0 :8911 ip:127.0.0.1,8911 '[zz]:1' '[::1]'; do
	refuses "--client $c" "--client [^ ]*: (port '[^']*' is not a number from 1 to 65535|'[^']*' is no host name or address|'8911' is a number, no host|'zz' is no IPv6 address)" \
		"${l[@]}" --client "$c" --force
done
for c in srv-a srv-a:8765 '[::1]:8765' ::1 sock:/run/fio.sock; do
	ok "--client $c" "${l[@]}" --client "$c" --force
done
# ... two servers on one host (two ports) when a job writes a log: fio's
# client names each server's log by the host alone (cache-raw-bs64k_bw.1.log.
# 127.0.0.1), and the old runner let the second replace the first's
refuses "two servers on one host, a job writing logs" \
	"--client 127.0.0.1:18765 and 127.0.0.1:18766 are servers on one host, 127.0.0.1: job \[[a-z0-9-]+\] \(variant default\) sets write_(bw|iops)_log=[a-z0-9-]+, and fio names each server's log [a-z0-9-]+_\*\.log\.127\.0\.0\.1 by the host alone" \
	pp run buffered-vs-raw --target "$T/t.img" --list --client 127.0.0.1:18765,127.0.0.1:18766
refuses "two servers on one host, by name, a job writing logs" "--client srv-a and srv-a:8766 are servers on one host, srv-a:" \
	pp run buffered-vs-raw --target "$T/t.img" --list --client srv-a,srv-a:8766
ok "two servers on one host, no job writing logs" "${l[@]}" --client 127.0.0.1:18765,127.0.0.1:18766 --force
ok "two hosts, jobs writing logs" pp run buffered-vs-raw --target "$T/t.img" --list --client 127.0.0.1:18765,localhost:18766
# ... a one-valued option given twice, or flags that exclude each other,
# are refused (the old parser kept the last: --quick --full ran the full
# matrix, --target a --target b wrote b)
refuses "--quick with --full" "--quick and --full exclude each other" "${l[@]}" --quick --full
refuses "--list with --env" "--list and --env exclude each other" "${l[@]}" --env
refuses "--target twice" "--target given twice \('$T/t.img', then '$T/u.img'\)" "${l[@]}" --target "$T/u.img"
refuses "-o twice" "-o given twice \('$T/x1', then '$T/x2'\)" "${l[@]}" -o "$T/x1" --output="$T/x2"
refuses "-s twice" "-s given twice \('1m', then '2m'\)" "${l[@]}" -s 1m --size 2m
ok "a flag or value given twice alike" "${l[@]}" --quick --quick -s 1m --size=1m --target "$T/t.img"
refuses "-o ''" "-o needs a directory" pp run blockdev-perftest --target "$T/t.img" -o ''
ok "a job variable the profile uses" "${l[@]}" --set SIZE=1m --set PP_MINBS=64k
# ... and values are understood, not passed on for fio to guess (F5): a
# variable a job file uses as a size (size=${SIZE}) must be one; no value may
# hold a control character (a newline would add a line to the bundle's job file)
refuses "--set SIZE not a size" "blockdev-perftest/block, --set: SIZE=2mfoo is not a size as fio reads size=" \
	"${l[@]}" --variant block --set SIZE=2mfoo
refuses "--set SIZE over 100%" "SIZE=150% is not a size" "${l[@]}" --set SIZE=150%
refuses "--set SIZE empty" "SIZE= is not a size" "${l[@]}" --set SIZE=
# ... a number longer than any size: Python's int() raised (a traceback)
refuses "--set SIZE of 5000 digits" "SIZE=9{5000}m is not a size" "${l[@]}" --set SIZE="$(printf '9%.0s' {1..5000})m"
refuses "-s of 5000 digits" "-s 9{5000}: not a size" "${l[@]}" -s "$(printf '9%.0s' {1..5000})"
refuses "--set with a newline" "--set SIZE: the value '2m\\\\nfilename=/elsewhere' has a newline" \
	"${l[@]}" --set $'SIZE=2m\nfilename=/elsewhere'
refuses "--set with a CR" "--set DIRECT: the value '1\\\\r' has a carriage return" "${l[@]}" --set $'DIRECT=1\r'
refuses "--set with a tab" "--set PP_RW: the value 'read\\\\t' has a tab" "${l[@]}" --set $'PP_RW=read\t'
refuses "--set DIRECT not 0 or 1" "DIRECT=1foo is not 0 or 1, as fio reads direct=" "${l[@]}" --set DIRECT=1foo
refuses "--set CACHE_LOOPS not a number" "CACHE_LOOPS=2x is not a number .*as fio reads loops=" \
	pp run buffered-vs-raw --target "$T/t.img" --list --set CACHE_LOOPS=2x
# ... 0 of a count fio does not read as one (numjobs=0 fails with 'maximum
# number of jobs reached', loops=0 runs once, nrfiles=0 no I/O at all)
refuses "--set CACHE_LOOPS=0" "CACHE_LOOPS=0 is zero, which fio does not read as a count for loops=" \
	pp run buffered-vs-raw --target "$T/t.img" --list --set CACHE_LOOPS=0
refuses "--set CACHE_LOOPS=0k" "CACHE_LOOPS=0k is zero, which fio does not read as a count for loops=" \
	pp run buffered-vs-raw --target "$T/t.img" --list --set CACHE_LOOPS=0k
ok "--set CACHE_LOOPS=10" pp run buffered-vs-raw --target "$T/t.img" --list --set CACHE_LOOPS=10
# ... number_ios=0 is no limit: bonnie's seekers ran over the whole file
refuses "--set SEEKS=0 (number_ios=)" "SEEKS=0 is zero, which fio does not read as a count for number_ios=" \
	pp run bonnie-direct-vs-raw --target "$T/t.img" --list --set SEEKS=0
cnt=(env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --variant counts --target "$T/t.img" --list)
ok "numjobs=, nrfiles= of 1" "${cnt[@]}"
refuses "--set NJ=0 (numjobs=)" "NJ=0 is zero, which fio does not read as a count for numjobs=" "${cnt[@]}" --set NJ=0
refuses "--set NF=00 (nrfiles=)" "NF=00 is zero, which fio does not read as a count for nrfiles=" "${cnt[@]}" --set NF=00
refuses "one section name in two job files" \
	"sw/dupsec: job \[qd-1\] would write raw/dupsec/qd-1.json twice \(in sw.fio and in other.fio\)" \
	env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --variant dupsec --target "$T/t.img" --list
refuses "a job file named twice" \
	"sw/dupfile: job \[one-4096\] would write raw/dupfile/one-4096.json twice \(lone.fio is named twice in PP_JOBFILES\)" \
	env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --variant dupfile --target "$T/t.img" --list
refuses "a variant named twice" "profile.conf:4: VARIANTS names 'a' twice" \
	env PERFPACK_PROFILES="$T/profdv" FIO="$T/fakefio" "$PERFPACK" run dv --target "$T/t.img" --list
jf=(env PERFPACK_PROFILES="$T/profjf" FIO="$T/fakefio" "$PERFPACK" run jf --target "$T/t.img" --list)
refuses "a job file in a subfolder" "jf/sub: PP_JOBFILES: job file 'sub/x.fio' is not NAME.fio in the profile's folder" \
	"${jf[@]}" --variant sub --set SZ=2mfoo
refuses "a job file not NAME.fio" "jf/job: PP_JOBFILES: job file 'x.job' is not NAME.fio" "${jf[@]}" --variant job --set SZ=2mfoo
sed -i 's/^JOBFILES=lone.fio$/JOBFILES=x.job/' "$T/profjf/jf/profile.conf"
refuses "JOBFILES not NAME.fio" "profile.conf:2: JOBFILES: job file 'x.job' is not NAME.fio" "${jf[@]}"
# ... PP_MINBS/PP_MAXBS and -s SIZE filter by the block sizes a job moves:
# bs=4k,1m on rw=write writes 1m blocks (they read the first value only)
mkdir -p "$T/profbs/bsf"
printf '[global]\nfilename=${TARGET}\nsize=${SIZE}\n[a-1]\nrw=write\nbs=4k,1m\n[b-1]\nrw=read\nbs=4k,1m\n[c-1]\nrw=randrw\nbs=4k,64k\n' \
	>"$T/profbs/bsf/bsf.fio"
printf 'TITLE=bsf\nJOBFILES=bsf.fio\nQUICK="SIZE=1m"\n' >"$T/profbs/bsf/profile.conf"
bsf=(env PERFPACK_PROFILES="$T/profbs" FIO="$T/fakefio" "$PERFPACK" run bsf --target "$T/t.img" --list)
assert_eq "PP_MAXBS=16k keeps what moves 4k" "b-1" "$("${bsf[@]}" --set PP_MAXBS=16k 2>&1 | cut -f3 | paste -sd' ')"
assert_eq "PP_MINBS=16k keeps what moves 16k or more" "a-1" "$("${bsf[@]}" --set PP_MINBS=16k 2>&1 | cut -f3 | paste -sd' ')"
assert_eq "-s 128k drops the 1m writes" "b-1 c-1" "$("${bsf[@]}" -s 128k 2>&1 | cut -f3 | paste -sd' ')"
ok "--set SIZE=4MiB" "${l[@]}" --set SIZE=4MiB
# a variable given twice with two values: which one was meant is not guessed
refuses "--set SIZE twice" "--set SIZE: given twice, as '1m' and as '2m'" "${l[@]}" --set SIZE=1m --set SIZE=2m
refuses "-s and --set SIZE" "--set SIZE: given twice, as '1m' and as '2097152'" "${l[@]}" --set SIZE=1m -s 2m
ok "--set SIZE twice, the same" "${l[@]}" --set SIZE=1m --set SIZE=1m
ok "--set SIZE=50%" "${l[@]}" --set SIZE=50%
[ "$(ran)" = 0 ] || bad "fio ran for a --list: $(cat "$T/fio.log")"
# ... PP_ITERS counts iterations (NAME-1, NAME-2, ... differing in nothing
# else, as fiotab takes them): the points of a sweep are not dropped or
# repeated as if they were, nor shown as iterations
sw=(env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --target "$T/t.img" --list)
refuses "PP_ITERS on a sweep" "sw/sw.fio: PP_ITERS=1: \[qd-1\] and \[qd-2\] are not iterations of one job: they differ in iodepth=" \
	"${sw[@]}" --set PP_ITERS=1
refuses "PP_ITERS on a lone NAME-4096" "sw/lone.fio: PP_ITERS=3: the sections one-4096 are numbered 4096, not 1, 2" \
	"${sw[@]}" --variant lone --set PP_ITERS=3
# ... and a run with no iterations at all does not take it (bonnie's jobs ran
# once each, its tables of single runs, the PP_ITERS=3 asked for unsaid)
refuses "PP_ITERS on a run without iterations" "--set PP_ITERS: no job of this run has iterations" \
	pp run bonnie-direct-vs-raw --target "$T/t.img" --list --set PP_ITERS=3
ok "PP_ITERS on a run with iterations" pp run blockdev-perftest --target "$T/t.img" --list --set PP_ITERS=3
# ... with --env too, which printed the variables with PP_ITERS=3 (exit 0)
refuses "--env with PP_ITERS on a run without iterations" "--set PP_ITERS: no job of this run has iterations" \
	pp run bonnie-direct-vs-raw --env --set PP_ITERS=3
refuses "--env with PP_ITERS on a sweep" "sw/sw.fio: PP_ITERS=1: \[qd-1\] and \[qd-2\] are not iterations" \
	env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --env --set PP_ITERS=1
ok "--env with PP_ITERS on a run with iterations" pp run blockdev-perftest --env --set PP_ITERS=3
if msg=$("${sw[@]}" 2>&1); then
	echo "$msg" | grep -q 'iter [0-9]' && bad "the points of a sweep shown as iterations: $msg"
else
	bad "--list of a sweep failed: $msg"
fi
# ... every job does its I/O on the target the runner checks and holds: a
# job file naming another file, none (fio would make one in the output
# directory) or another directory is refused before anything is written
for bad in "filename=$T/other.img" '' "filename=\${TARGET}\\ndirectory=$T" "opendir=$T"; do
	printf "[global]\n$bad\nsize=\${SIZE}\nrw=write\n[j-1]\n" >"$T/profsw/sw/hc.fio"
	refuses "a job file with '$bad'" "sw/hc.fio: job \[j-1\] (has filename=$T/other.img|has no filename= \(fio would make its own file in the output directory\)|sets directory=$T|sets opendir=$T), not filename=\\\$\{TARGET\}" \
		env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --target "$T/t.img" --list \
		--set PP_JOBFILES=hc.fio
done
# ... a profile's own TARGET that is a file (not /dev/zero, not a checked
# block device) would be written unchecked and unheld: refused
echo data >"$T/victim"
refuses "a profile's own TARGET file" "sw/own: the profile sets TARGET=$T/victim, which is no character device" \
	env PERFPACK_PROFILES="$T/profsw" FIO="$T/fakefio" "$PERFPACK" run sw --variant own -o "$T/o13"
[ -e "$T/o13" ] || compgen -G "$T/o13.partial.*" >/dev/null && bad "output made for a profile's own TARGET file"
# 13. profile.conf mistakes are refused with FILE:LINE, not guessed at (F6)
# conf6 WHAT REGEX SED-SCRIPT [APPENDED-TEXT]: blockdev-perftest's profile.conf so
# changed is refused by a run and by perfpack list, with REGEX
conf6() {
	local what=$1 re=$2
	rm -rf "$T/profs6"
	mkdir -p "$T/profs6"
	cp -a "$PROFDIR/blockdev-perftest" "$T/profs6/bp"
	sed -i -e "$3" "$T/profs6/bp/profile.conf"
	[ $# -lt 4 ] || printf '%s\n' "$4" >>"$T/profs6/bp/profile.conf"
	refuses "profile.conf: $what" "$re" env PERFPACK_PROFILES="$T/profs6" \
		"$PERFPACK" run bp --target "$T/t.img" --list
	refuses "profile.conf: $what (list)" "$re" env PERFPACK_PROFILES="$T/profs6" "$PERFPACK" list
}
c6="$T/profs6/bp/profile.conf"
conf6 "a key twice" "$c6:14: VARIANT_block is given twice \(first at line 13; VARIANT_block\+= appends\)" \
	'/^VARIANT_block=/a VARIANT_block="PP_SETUP=dev DIRECT=0"'
conf6 "an unknown key" "$c6:14: TABEL is not a profile.conf field" '/^VARIANT_block=/a TABEL=("x=perftest @block")'
conf6 "DROP_CACHES=yes" "$c6:14: DROP_CACHES=yes: must be 0 or 1" '/^VARIANT_block=/a DROP_CACHES=yes'
conf6 "HOLD_OPEN=maybe" "$c6:14: HOLD_OPEN=maybe: must be 0 or 1" '/^VARIANT_block=/a HOLD_OPEN=maybe'
conf6 "NEEDS_ROOT=yes" "$c6:14: NEEDS_ROOT=yes: must be 0 or 1" '/^VARIANT_block=/a NEEDS_ROOT=yes'
conf6 "WRITES=no" "$c6:7: WRITES=no: must be 0 or 1" 's/^WRITES=1/WRITES=no/'
conf6 "RUN_BY=job" "$c6:14: RUN_BY=job: must be section or file" '/^VARIANT_block=/a RUN_BY=job'
conf6 "TABLES naming no variant" "$c6:21: TABLES entry 'block=perftest @blokc': @blokc: no variant 'blokc'" \
	's/"block=perftest @block"/"block=perftest @blokc"/'
conf6 "TABLES with an unknown table" "$c6:21: TABLES entry 'block=perftets @block': 'perftets' is not a table of fiotab" \
	's/"block=perftest @block"/"block=perftets @block"/'
conf6 "TABLES with a missing job file" "TABLES entry 'x=dd @block.nosuch': @block.nosuch: no job file nosuch.fio" \
	'' 'TABLES+=("x=dd @block.nosuch")'
conf6 "TABLES name twice" "TABLES entry 'block=dd @file': a second table block" '' 'TABLES+=("block=dd @file")'
conf6 "a QUICK size not a size" "$c6:9: QUICK: SIZE=8mfoo is not a size" 's/^QUICK="SIZE=8388608/QUICK="SIZE=8mfoo/'
conf6 "a CR in a line" "$c6:9: a carriage return in the line" 's/^QUICK=.*/&\r/'
conf6 "VARIANT_<v>_FULL of no variant" "VARIANT_seed01_FULL: no variant 'seed01'" 's/^VARIANT_seed001_FULL=/VARIANT_seed01_FULL=/'
conf6 "VARIANTS naming no variant" "VARIANTS names 'blok': no VARIANT_blok" 's/^VARIANTS="block file"/VARIANTS="blok file"/'
# 14. a repeated variant runs once
n1=$("${l[@]}" --variant block | wc -l)
n2=$("${l[@]}" --variant block,block --variant block | wc -l)
[ "$n1" = "$n2" ] || bad "--variant block,block: $n2 runs, not $n1"

# 14. SIGTERM: exit 143, fio stopped, the run left as DIR.partial.* incomplete
FAKEFIO_SLEEP=60 FIO=$T/fakefio "$PERFPACK" run blockdev-perftest "${one[@]}" --target "$T/t.img" \
	-o "$T/o12" >"$T/o12.log" 2>&1 &
pid=$!
for i in $(seq 100); do
	[ "$(ran)" -ge 1 ] && break
	sleep 0.1
done
sleep 0.2
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 143 ] || bad "SIGTERM: exit $rc, not 143: $(cat "$T/o12.log")"
grep -q "incomplete run (0 of 1 fio runs done).*$T/o12.partial" "$T/o12.log" || bad "SIGTERM: no partial run named: $(cat "$T/o12.log")"
[ -e "$T/o12" ] && bad "SIGTERM left $T/o12, which looks complete"
if [ -s "$T/fio.pid" ]; then
	kill -0 "$(cat "$T/fio.pid")" 2>/dev/null && bad "fio left running after SIGTERM" && kill "$(cat "$T/fio.pid")"
else
	bad "SIGTERM: the fake fio never started"
fi
: >"$T/fio.log"

# 14. no arguments: usage on stderr, nonzero; help for tables; a broken profile
# fails perfpack list
if "$PERFPACK" >"$T/noargs.out" 2>"$T/noargs.err"; then
	bad "perfpack without arguments exits 0"
fi
[ -s "$T/noargs.out" ] && bad "perfpack without arguments: usage on stdout"
grep -q '^usage: ' "$T/noargs.err" || bad "perfpack without arguments: no usage on stderr"
ok "perfpack tables --help" "$PERFPACK" tables --help
"$PERFPACK" help | grep -q -- '--no-tables' || bad "help omits --no-tables"
"$PERFPACK" help | grep -q -- '--env' || bad "help omits --env"
# every --client form the runner takes (fioout.py), not HOST[:PORT] alone
"$PERFPACK" help | grep -q -- '\[IPv6\]:PORT' || bad "help omits --client [IPv6]:PORT"
mkdir -p "$T/profs/good" "$T/profs/broken"
printf 'TITLE=good\nJOBFILES=x.fio\n' >"$T/profs/good/profile.conf"
touch "$T/profs/good/x.fio"
printf 'TITLE=broken\nJOBFILES=missing.fio\n' >"$T/profs/broken/profile.conf"
refuses "perfpack list with a broken profile" "job file missing.fio not found" env PERFPACK_PROFILES="$T/profs" "$PERFPACK" list

[ "$nbad" = 0 ] || fail "$nbad check(s) failed"
