# SPDX-License-Identifier: GPL-2.0-only
"""The target of each variant: --target as given (block device, directory,
file) or a scratch loop device / file, a filesystem recipe on it; and an
undo stack that tears all of it down in reverse order, however the run ends."""

import errno
import fcntl
import os
import random
import stat
import struct
import subprocess

from . import plan, safety
from .manifest import control_char
from .util import Refusal, have, is_root, not_utf8, output, run_quiet, warn


class Undo:
    def __init__(self):
        self.stack = []

    def push(self, fn, *args):
        self.stack.append((fn, args))

    def run(self):
        while self.stack:
            fn, args = self.stack.pop()
            try:
                fn(*args)
            except Exception:  # teardown goes on whatever one step does
                pass


def _rm(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _rm_made(path):
    """Remove PATH, a file the runner made (O_EXCL) in a directory the user
    named: only if it is still a regular file there (fio may have laid it
    out anew), never what a symbolic link or directory put there names."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(st.st_mode):
        os.unlink(path)
    else:
        warn('not removing %s: it is no longer the file perfpack made there' % path)


def make_exclusive(path, what):
    """Create PATH, which must not exist (O_CREAT|O_EXCL|O_NOFOLLOW: not over
    a file, nor through a symbolic link); its read-only fd, or Refusal."""
    try:
        return os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        _exists(path, what)
    except OSError as e:
        raise Refusal('%s %s: cannot create it (%s)' % (what, path, e.strerror)) from None


def _exists(path, what):
    kind = ' (a symbolic link to %s)' % os.readlink(path) if os.path.islink(path) else ''
    raise Refusal('%s %s: exists already%s; perfpack makes this file itself and removes it afterwards, and does '
                  'not write to or remove one it did not make (yours, or one another perfpack run on this '
                  'directory is using): remove it if it is a leftover, or give another --target'
                  % (what, path, kind)) from None


def _ident(st):
    """What a file or block device is compared by: a block device by its
    number (another node of it is the same device), a file by device and
    inode (a hard link or a path through a symbolic link is the same file)."""
    return ('b', st.st_rdev) if stat.S_ISBLK(st.st_mode) else ('f', st.st_dev, st.st_ino)


LOOP_GET_STATUS64 = 0x4C05  # linux/loop.h; struct loop_info64 is 232 bytes


def _loop_ident(dev):
    """The _ident of loop device DEV's backing file or device, from the
    kernel (LOOP_GET_STATUS64: st_dev, st_ino, st_rdev), not from the path
    sysfs gives."""
    fd = os.open(dev, os.O_RDONLY | os.O_CLOEXEC)
    try:
        sdev, ino, rdev = struct.unpack_from('=QQQ', fcntl.ioctl(fd, LOOP_GET_STATUS64, bytes(232)))
    finally:
        os.close(fd)
    return ('b', rdev) if rdev else ('f', sdev, ino)


def _loops():
    """[(/dev/loopN, its device number, its backing file's _ident, the
    backing file's path)] from sysfs and the loop devices.  The file is the
    one the kernel has, by inode: the path sysfs gives may open another
    file or none ('PATH (deleted)' while a hard link to it is another
    name), and is used only to find an overlay's layer file."""
    out = []
    for name in sorted(os.listdir('/sys/block')):
        try:
            with open('/sys/block/%s/loop/backing_file' % name) as f:
                path = f.read().rstrip('\n')
            with open('/sys/block/%s/dev' % name) as f:
                devno = os.makedev(*(int(n) for n in f.read().split(':')))
            try:
                ident = _loop_ident('/dev/' + name)
            except OSError:
                ident = None  # no node /dev/loopN here: the path alone
            try:
                if ident in (None, _ident(os.stat(path))):
                    ident = _ident(os.stat(_layer_file(path)))
            except OSError:
                pass
            if ident is not None:
                out.append(('/dev/' + name, devno, ident, path))
        except (OSError, ValueError):
            continue
    return out


def _sharing(st, also=()):
    """The block devices whose blocks are those of the file or block device
    of stat ST, as [(path, the path it is a loop device over and its
    _ident; or None, None for a device under ST)]: the backing file of a
    loop device ST, if a block device, and that one's, ...; then every loop
    device over one of these, and over such a loop device, and so on.  A
    loop device does not hold its backing file or device (O_EXCL on that
    one succeeds while a filesystem on the loop device is mounted), so each
    is looked for here.  A partition or dm/md device ST is walked from the
    devices under it too (_lowers; not returned: the kernel's claim of ST
    covers them).  ALSO: the _idents of the same file under another path
    with its own inode (in an overlay's layers)."""
    loops, ids, out = _loops(), {_ident(st)} | set(also), []
    back = {('b', devno): (bid, path) for _, devno, bid, path in loops}
    starts = [_ident(st)] + ([('b', d) for d in _lowers(st.st_rdev)] if _ident(st)[0] == 'b' else [])
    ids |= set(starts)
    for cur in starts:
        while cur in back and back[cur][0] not in ids:
            cur, path = back[cur]
            ids.add(cur)
            if cur[0] == 'b':
                out.append((path, None, None))
    grown = True
    while grown:
        grown = False
        for dev, devno, bid, path in loops:
            if bid in ids and ('b', devno) not in ids:
                ids.add(('b', devno))
                out.append((dev, path, bid))
                grown = True
    return out


def loop_backing(dev):
    """The backing file of loop device DEV (sysfs), or None."""
    try:
        with open('/sys/class/block/%s/loop/backing_file' % os.path.basename(os.path.realpath(dev))) as f:
            return f.read().rstrip('\n')
    except OSError:
        return None


def _openers(path):
    """'comm (pid N)' of the other processes that have PATH open."""
    real, me, out = os.path.realpath(path), os.getpid(), []
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            fds = os.listdir('/proc/%s/fd' % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink('/proc/%s/fd/%s' % (pid, fd)) != real:
                    continue
                with open('/proc/%s/comm' % pid) as f:
                    out.append('%s (pid %s)' % (f.read().strip(), pid))
            except OSError:
                continue
            break
    return out


class Claim:
    """The run's hold on its target, from before the safety checks to the
    end: a block device open O_EXCL (fio and the engines open it without
    O_EXCL, which an O_EXCL holder allows; mkfs, mount, md/dm and another
    perfpack run are refused), a file flock(LOCK_EX) (another perfpack run is
    refused).  Released for the runner's own mkfs + mount of the device
    (the mount holds it exclusively then) and taken again after umount."""

    def __init__(self, path, kind, writes):
        self.path, self.kind, self.writes, self.fd, self.wanted = path, kind, writes, None, False
        self.made = None  # (st_dev, st_ino) of a file target the runner made
        self.loops = []  # fds of the devices sharing the target's blocks (_sharing), held O_EXCL
        self.end = 0  # a file target: the plan's extent, past which fio lays the file out anew
        self.need = None  # a device target: the bytes the plan uses of it
        self.unlinked = False  # a file target fio removed (unlink=1), not yet made anew

    def make(self):
        """Make the file target, which does not exist (O_EXCL)."""
        self.fd = make_exclusive(self.path, 'target')
        st = os.fstat(self.fd)
        self.made = (st.st_dev, st.st_ino)

    def drop_made(self):
        """At the end of the command: the file target the runner made, if
        it is still that file and empty (the run was refused or stopped
        before fio wrote it), is removed; nothing else is."""
        if not self.made:
            return
        try:
            st = os.lstat(self.path)
        except OSError:
            return
        if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) == self.made and st.st_size == 0:
            os.unlink(self.path)
        self.made = None

    def _why_busy(self):
        if self.kind == 'bdev':
            try:
                self.fd = os.open(self.path, os.O_RDONLY | os.O_EXCL | os.O_CLOEXEC)
            except OSError as e:
                if e.errno != errno.EBUSY:
                    raise Refusal('target %s: cannot open it (%s)' % (self.path, e.strerror)) from None
            if self.fd is not None:
                return self._hold_loops()
            held, who = safety.device_held(self.path), _openers(self.path)
            detail = '; '.join(([held] if held else []) + (['processes with it open: ' + ', '.join(who)] if who else []))
            return ('it is in use by another process (it cannot be opened O_EXCL: it is mounted, or held by '
                    'mkfs, md/dm or another perfpack run; %s)'
                    % (detail or 'no process has it open: the kernel holds it, e.g. a mount in another '
                       'mount namespace'))
        fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise Refusal('target %s: cannot lock it (flock: %s)' % (self.path, e.strerror)) from None
            who = _openers(self.path)
            return ('it is locked by another process (flock LOCK_EX: another perfpack run on it, or a program '
                    'that locks it%s)'
                    % ('; processes with it open: ' + ', '.join(who) if who else ''))
        self.fd = fd
        return self._hold_loops()

    def _hold_loops(self):
        """A file target's blocks are also those of each loop device over
        it, a loop device target's those of each other loop device over its
        file and of a device under it, and a device's those of each loop
        device over it (and over those): each is held O_EXCL as a --target
        device is, or why not."""
        st = os.fstat(self.fd)
        # a file on an overlay is also its layers' file (a loop device over
        # UPPER/f is over OVERLAY/f), which has its own inode
        mine = {_ident(st)} | ({_ident(os.stat(v)) for v in _views(self.path)[1:] if os.path.exists(v)}
                               if self.kind == 'file' else set())
        for dev, over, oid in _sharing(st, mine):
            try:
                self.loops.append(os.open(dev, os.O_RDONLY | os.O_EXCL | os.O_CLOEXEC))
            except OSError as e:
                self.release()
                if e.errno != errno.EBUSY:
                    raise Refusal('target %s: cannot open the device %s sharing its blocks (%s)'
                                  % (self.path, dev, e.strerror)) from None
                held, who = safety.device_held(dev), _openers(dev)
                detail = '; '.join(([held] if held else []) + (['processes with it open: ' + ', '.join(who)]
                                                                if who else []))
                # a partition or dm/md target shares them through its lower devices
                lower = [_dev_name(d) for d in _lowers(st.st_rdev)] if self.kind == 'bdev' else []
                on = 'it lies on %s, ' % ' and '.join(lower) if lower else ''
                if over is None:
                    whose = on + ('which is' if on else 'it is') + ' a loop device over the device %s' % dev
                elif oid in mine:
                    whose = 'it is the backing %s of the loop device %s%s' % (
                        'file' if self.kind == 'file' else 'device', dev,
                        ' (as %s, in a layer of its overlay)' % over if oid != _ident(st) else '')
                elif self.kind == 'bdev' and oid[0] == 'f':
                    whose = on + ('whose' if on else 'its') + \
                        ' blocks are those of the file %s, as are those of the loop device %s' % (over, dev)
                else:
                    whose = on + ('whose' if on else 'its') + \
                        ' blocks are those of the loop device %s (over %s)' % (dev, over)
                return ('%s, which is in use by another process (it cannot be opened O_EXCL; '
                        '%s): what is written to the %s is written to that device'
                        % (whose, detail or 'the kernel holds it, e.g. a mount in another mount namespace',
                           'file' if self.kind == 'file' else 'device'))
        return None

    def take(self):
        """Hold the target, or Refusal (a warning when the plan only reads)."""
        if self.fd is not None and not self.wanted:  # a file the runner just made
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self.wanted = True
        if self.fd is not None:
            return
        why = self._why_busy()
        if why is None:
            self.wanted = True
            return
        if not self.writes and not self.wanted:
            warn('%s: %s; the plan only reads it, but what it measures is shared with that process' % (self.path, why))
            return
        raise Refusal('refusing to write to %s: %s; --force does not override this: unmount it or stop that '
                      'process first, or give another --target' % (self.path, why))

    def check_same(self):
        """Refusal when the target's name no longer is what the claim holds
        (a file renamed over it, a device node replaced): fio opens it by
        name at every run, so that run measured and wrote the other one."""
        if self.fd is None:
            if self.unlinked and os.path.lexists(self.path):
                self.unlinked = False  # made anew by the run after: held from now on
                self.take()
            return
        held = os.fstat(self.fd)
        try:
            now = os.stat(self.path)
            same = ((now.st_rdev == held.st_rdev) if self.kind == 'bdev'
                    else (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino))
        except FileNotFoundError:
            now, same = None, False
            if self.kind == 'file' and held.st_nlink == 0:
                # fio removed it (unlink=1, a file the runner made): the
                # next run makes it anew
                self.release()
                self.wanted, self.unlinked = False, True
                return
        if not same and now and self.kind == 'file' and held.st_size < self.end and stat.S_ISREG(now.st_mode):
            # fio laid the file out anew (unlink, create): a file shorter
            # than the plan (one the runner made, or --force), once; the
            # new one is held from now on
            self.release()
            self.wanted = False
            self.take()
            return
        if not same:
            raise Refusal('target %s: no longer the %s the runner checked and held when the run started (replaced '
                          'or renamed during the run), and fio opens it by name: the last run measured and wrote '
                          'what it names now; the run stops'
                          % (self.path, 'device' if self.kind == 'bdev' else 'file'))
        size = safety.dev_size(self.path) if self.kind == 'bdev' and self.need else None
        if size is not None and size < self.need:
            raise Refusal('target %s: holds %d bytes now, less than the %d the plan uses of it (it shrank during '
                          'the run: a resize, losetup -c): fio moves only what the device holds, without an error, '
                          'so the last run did less than its job says; the run stops'
                          % (self.path, size, self.need))

    def release(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        for fd in self.loops:
            os.close(fd)
        self.loops = []

    def retake(self):
        if self.wanted:
            self.take()


def _no_unlink(t, pl, variants):
    """Refusal if a job of the plan has fio unlink the user's file T."""
    for (v, name), sec in sorted(pl.sections.items()):
        if v not in variants:
            continue
        for k in ('unlink', 'unlink_each_loop'):
            val = sec.opts.get(k)
            if val is not None and val.strip().lower() not in ('0', 'false', 'no', 'off'):
                raise Refusal('refusing to use %s: job [%s] (variant %s) has %s=%s, and fio would delete the file '
                              'after it; give a directory (perfpack makes and removes its own file there), a block '
                              'device or --scratch' % (t, name, v, k, val))


def _not_swap(t, writes, swap=None):
    """An active swap file (listed by path in /proc/swaps; the kernel holds
    a swap device O_EXCL, which the claim refuses) is the kernel's, as a
    mount's device is: a plan that writes it (T, or SWAP: the file under
    the loop device T) is refused, --force or not (a write fails with
    ETXTBSY mid-run); a plan that only reads it runs with a warning, as on
    a device another process holds."""
    # a file on an overlay is the swap file in its layer (another inode)
    sw = next((v for v in _views(swap or t) if safety.in_swaps(v)), None)
    if sw is None:
        return
    what = 'it is' if not swap else 'its blocks are those of the file %s, which is' % swap
    if sw != (swap or t):
        what = 'it is the file %s in a layer of its overlay, which is' % sw
    if writes:
        raise Refusal('refusing to write to %s: %s in use as swap (/proc/swaps): the kernel writes it and '
                      'fails the writes of others (ETXTBSY); --force does not override this: swapoff it first, '
                      'or give another --target' % (t, what))
    warn("%s: %s in use as swap (/proc/swaps); the plan only reads it, but what it measures is written by the "
         "kernel's swapping meanwhile" % (t, what))


BLKROGET = 0x125E  # linux/fs.h: _IO(0x12, 94)


def _reads_data(t, pl, variants):
    """Refusal when a variant reads what it has not written of the file T
    and T has a hole or unwritten extent there: those reads return zeros
    without any I/O, and their rate would be tabled as the target's."""
    for v in variants:
        if not pl.reads_first(v):
            continue
        end = pl.plan_end[v]
        size = os.stat(t).st_size
        stop = size if end in (None, 'all') else min(size, end)
        hole = safety.first_hole(t, 0, stop)
        if hole is not None:
            raise Refusal('--target %s: variant %s reads its first %d bytes before it writes them, and the file has '
                          'a hole (or unwritten extent) at offset %d: reads there return zeros without I/O, and '
                          'their rate would be tabled as the target\'s; write the file first (dd if=/dev/zero of=%s '
                          'bs=1M conv=notrunc,fsync count=...)' % (t, v, stop, hole, t))


def _writable(t, kind, what):
    """Refusal unless T (of KIND, classify()) takes the writes the plan or
    the runner would make: a read-only block device (losetup -r, blockdev
    --setro, a write-protected disk), a file or directory on a read-only
    mount or immutable, are refused before any output exists, not at the
    first write of fio."""
    if kind == 'bdev':
        fd = os.open(t, os.O_RDONLY | os.O_CLOEXEC)
        try:
            ro = struct.unpack('i', fcntl.ioctl(fd, BLKROGET, struct.pack('i', 0)))[0]
        finally:
            os.close(fd)
        if ro:
            raise Refusal('refusing to use %s: %s, but the device is read-only (BLKROGET: losetup -r, '
                          'blockdev --setro or a write-protected disk); make it writable or give another '
                          '--target' % (t, what))
        return
    err = None
    if kind == 'dir':
        if os.statvfs(t).f_flag & os.ST_RDONLY:
            err = errno.EROFS
        elif not os.access(t, os.W_OK):
            err = errno.EACCES
    else:
        try:
            os.close(os.open(t, os.O_WRONLY | os.O_CLOEXEC))
        except OSError as e:
            err = e.errno
    if err is not None:
        raise Refusal('refusing to use %s: %s, but it cannot be written (%s%s); give another --target'
                      % (t, what, os.strerror(err), ': a read-only mount' if err == errno.EROFS else ''))


def hold(ctx, pl, variants):
    """Before the safety checks: claim --target (ctx.claim); refuse a plan
    that would fill the filesystem under a file or directory target, or
    under the scratch file in $TMPDIR."""
    t = ctx.target_arg
    ctx.claim = None
    if not t:
        if not any((pl.vars[v].get('PP_SETUP') or 'dev') in ('dev', 'fs') for v in variants):
            return
        # a read-only profile's scratch file is written in full, and so is
        # that of a plan reading what it has not written; another's is
        # sparse: what the plan writes (the extent of its file) plus, for
        # a filesystem recipe, 128 MiB for mkfs (metadata, an xfs log of up
        # to 64 MiB); one variant's scratch is gone before the next is made
        take = 0
        for v in variants:
            vs = pl.vars[v]
            mb = int(vs.get('PP_SCRATCH_MB') or 256)
            end = pl.plan_end[v]
            if (vs.get('PP_SETUP') or 'dev') == 'fs':
                end = safety._max(end, int(vs['PP_FILE_MB']) << 20 if vs.get('PP_FILE_MB') else None)
                end = end if end in (None, 'all') else end + (128 << 20)
            if ctx.profile['WRITES'] == '0' or end in (None, 'all') or pl.reads_first(v):
                end = mb << 20
            take = max(take, min(end, mb << 20), 0)
        safety.check_room(ctx.work, take, 'a scratch file in $TMPDIR (%s), of which the plan would take up to'
                          % ctx.work, 'set TMPDIR to a directory on a larger filesystem, or a smaller size '
                          '(--set SIZE=..., PP_SCRATCH_MB=...)')
        return
    kind = classify(t)
    wend, need = safety.plan_ends(pl, variants, ctx.profile['TARGET_KIND'])
    if kind == 'bdev':
        ctx.claim = Claim(t, kind, wend is not None)
        ctx.claim.need = need if need != 'all' else None
        ctx.claim.take()
        if loop_backing(t):
            _not_swap(t, wend is not None, loop_backing(t))
        if wend is not None:
            _writable(t, kind, 'the plan writes it')
        return
    end = None
    for v in variants:
        vs = pl.vars[v]
        e = pl.plan_end[v]
        if (vs.get('PP_SETUP') or 'dev') == 'fs' and vs.get('PP_FILE_MB'):
            e = safety._max(e, int(vs['PP_FILE_MB']) << 20)
        end = safety._max(end, e)
    if kind == 'file':
        made = not os.path.lexists(t)
        if not made:
            _no_unlink(t, pl, variants)
        size, used = (0, 0) if made else (os.stat(t).st_size, os.stat(t).st_blocks * 512)
        if end == 'all' or end is None:
            end = size if wend is not None else 0
        elif wend is None and end <= size:
            end = 0
        grow = end - min(used, end)
        safety.check_room(t, grow, 'the plan uses its first %d bytes; the file is %d bytes long with %d of them '
                          'allocated, so fio would take up to' % (end, size, used),
                          at=os.path.dirname(os.path.realpath(t)))
        ctx.claim = Claim(t, kind, wend is not None or end > size)
        ctx.claim.end = end
        if not made:
            _not_swap(t, ctx.claim.writes)
        if not made and ctx.claim.writes:
            _writable(t, kind, 'the plan writes it')
        if not made:
            _reads_data(t, pl, variants)
        if made:
            # a new file: the runner makes it (left afterwards if fio wrote
            # it, as fio would), not something that appears there meanwhile
            ctx.claim.make()
        ctx.claim.take()
    else:
        f = os.path.join(t, 'perfpack.%s.dat' % ctx.profile.name)
        if os.path.lexists(f):  # refused before any output; made O_EXCL at setup
            _exists(f, 'target')
        _writable(t, kind, 'the runner would make %s there' % f)
        if end not in (None, 'all'):
            safety.check_room(t, end, 'the plan would make %s there and take up to' % f)


def _losetup_d(dev):
    subprocess.run(['losetup', '-d', dev], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _umount(mnt):
    if subprocess.run(['umount', mnt], stderr=subprocess.DEVNULL).returncode != 0:
        subprocess.run(['umount', '-l', mnt], stderr=subprocess.DEVNULL)


def is_bdev(path):
    try:
        return stat.S_ISBLK(os.stat(path).st_mode)
    except OSError:
        return False


# filesystems whose files are the kernel's settings and state, not storage
# (a size of 0 there hides what a write would do)
PSEUDO_FS = ('proc', 'sysfs', 'debugfs', 'tracefs', 'securityfs', 'configfs', 'cgroup', 'cgroup2', 'bpf',
             'pstore', 'efivarfs', 'fusectl', 'devpts', 'mqueue', 'binfmt_misc', 'nsfs')


def _not_pseudo(t, kind):
    fs = safety.fs_of(t if kind == 'dir' else os.path.dirname(t))[0]
    if fs in PSEUDO_FS:
        raise Refusal('target %s: is on %s, a kernel pseudo filesystem (its files are settings and state, not '
                      'storage): give a block device, or a file or directory on a filesystem on one' % (t, fs))
    return kind


def classify(t):
    """'bdev', 'dir' or 'file' for target T, or Refusal."""
    if os.path.exists(t):
        mode = os.stat(t).st_mode
        if stat.S_ISBLK(mode):
            return 'bdev'
        if stat.S_ISDIR(mode):
            return _not_pseudo(t, 'dir')
        if stat.S_ISREG(mode):
            return _not_pseudo(t, 'file')
        kind = output(['stat', '-L', '-c', '%F', t]).strip() or 'special file'
        raise Refusal('target %s: is a %s, not a block device, regular file or directory' % (t, kind))
    if os.path.islink(t):
        raise Refusal('target %s: a symbolic link to nothing (%s)' % (t, os.readlink(t)))
    parent = os.path.dirname(t) or '.'
    fstype = safety.fs_of(parent)[0]
    if t.startswith('/dev/') or fstype == 'devtmpfs':
        raise Refusal('target %s: no such device (%scheck the device name)'
                      % (t, 'a file made there would live in RAM on devtmpfs; ' if fstype == 'devtmpfs' else ''))
    if os.path.isdir(parent):
        return _not_pseudo(t, 'file')
    raise Refusal('target %s: no such file, directory or block device' % t)


def path_problem(path):
    """What fio would read differently in PATH as a filename= value, or None."""
    if ':' in path:
        return "contains ':', which fio's filename= takes as a separator between files"
    if not_utf8(path):
        return 'is not valid UTF-8, which the run\'s records (run.txt, the bundle) are'
    if control_char(path):
        return 'contains %s, which would end the job-file line' % control_char(path)
    return plan.fio_value_problem(path)


def check_fio_path(path, what, clients):
    """PATH as fio reads it in a job file (a --target with a problem is
    replaced by the path it resolves to, if that has none), or Refusal:
    fio would use another file than the one named and checked."""
    problem = path_problem(path)
    if not problem:
        return path
    if what == '--target' and not clients:
        r = os.path.realpath(path)
        if not path_problem(r):
            return r
    raise Refusal('%s %s: %s; use a path without it (e.g. a symbolic link to it)'
                  % (what, repr(path) if control_char(path) else path, problem))


def resolve_target(path):
    """The path a local --target PATH is checked, held, set up and given to
    fio as: the one it resolves to now (fio and mkfs open it by name, and a
    symbolic link changed during the run would have them write what it then
    names), or PATH itself where fio would read that one differently.
    Refusal where what PATH opens has no path fio could open (a deleted
    file, a pipe or a socket through /proc/PID/fd/N or /dev/fd/N)."""
    real = os.path.realpath(path)
    if os.path.exists(path) and not (os.path.exists(real) and os.path.samefile(path, real)):
        raise Refusal('--target %s: opens %s, which no path names (a deleted file, a pipe or a socket that a '
                      'process has open): fio opens its target by name and would use another file; give a '
                      'path of the target' % (path, real))
    return path if path_problem(real) else real


def _views(path):
    """PATH and, where it is on an overlay, the same path in each of its
    layers (and theirs): where its bytes are."""
    p = path
    while not os.path.exists(p) and p != '/':
        p = os.path.dirname(p)
    mp, layers = safety.overlay_layers(p)
    out = [path]
    for _, d in layers:
        out += _views(os.path.normpath(os.path.join(d, os.path.relpath(path, mp))))
    return out


def _layer_file(path):
    """The file whose bytes file PATH is: on an overlay, the file of its
    upper layer, else of the first lower layer that has it (a loop device
    over OVERLAY/f is over UPPER/f, another inode); else PATH."""
    if os.major(os.stat(path).st_dev) != 0:  # overlays have anonymous devices
        return path
    mp, layers = safety.overlay_layers(path)
    for kind in ('upperdir', 'lowerdir', 'datadir'):
        for k, d in layers:
            f = os.path.normpath(os.path.join(d, os.path.relpath(path, mp)))
            if k == kind and os.path.isfile(f):
                return _layer_file(f)
    return path


def _inside(a, b):
    """Path A is B or under it (both real paths), also through another
    mount of B's filesystem (a bind mount, a device mounted twice) or an
    overlay and its layers (-o UPPER/out with --target OVERLAY)."""
    return any(_inside_path(x, y) for x in _views(a) for y in _views(b))


def _inside_path(a, b):
    """Path A is B or under it, also through another mount of B's
    filesystem: A or a directory above it is B's inode."""
    if a == b or a.startswith(b.rstrip('/') + '/'):
        return True
    try:
        bs = os.stat(b)
    except OSError:
        return False
    while True:
        try:
            st = os.stat(a)
            if (st.st_dev, st.st_ino) == (bs.st_dev, bs.st_ino):
                return True
        except OSError:
            pass
        if a == os.path.dirname(a):
            return False
        a = os.path.dirname(a)


def _sysfs_dev(devno):
    """The sysfs directory of block device DEVNO."""
    return os.path.realpath('/sys/dev/block/%d:%d' % (os.major(devno), os.minor(devno)))


def _lower(devno):
    """The block devices directly under block device DEVNO, whose blocks hold
    its own: the whole disk of a partition, the devices under device-mapper/
    md (slaves)."""
    sysd, out = _sysfs_dev(devno), []
    under = [os.path.dirname(sysd)] if os.path.exists(os.path.join(sysd, 'partition')) else []
    try:
        under += [os.path.join(sysd, 'slaves', s) for s in os.listdir(os.path.join(sysd, 'slaves'))]
    except OSError:
        pass
    for d in under:
        try:
            with open(os.path.join(d, 'dev')) as f:
                ma, mi = f.read().split(':')
            out.append(os.makedev(int(ma), int(mi)))
        except (OSError, ValueError):
            continue
    return out


def _lowers(devno):
    """Every block device under block device DEVNO (_lower, and under
    those), nearest first."""
    out, todo = [], _lower(devno)
    while todo:
        d = todo.pop(0)
        if d not in out and d != devno:
            out.append(d)
            todo += _lower(d)
    return out


def _dev_name(devno):
    """/dev/NAME of block device DEVNO, by its sysfs name."""
    return '/dev/' + os.path.basename(_sysfs_dev(devno))


def _beneath(devno, seen=None):
    """What the filesystem on block device DEVNO is stored on, all the way
    down: ('dev', devno) of the device, the whole disk of a partition, the
    devices under device-mapper/md (slaves), and ('file', path) of a loop
    device's backing file (and what that file's filesystem is on)."""
    seen = set() if seen is None else seen
    if devno in seen:
        return
    seen.add(devno)
    yield 'dev', devno
    for d in _lower(devno):
        yield from _beneath(d, seen)
    try:
        with open(os.path.join(_sysfs_dev(devno), 'loop', 'backing_file')) as f:
            backing = f.read().rstrip('\n')
    except OSError:
        return
    yield 'file', backing
    try:
        yield from _beneath(os.stat(backing).st_dev, seen)
    except OSError:
        pass


def check_out_apart(out, t, name='-o'):
    """Refusal when the directory OUT the run writes (NAME: '-o', 'the
    default output directory' ./perfpack-out/..., or 'the work directory'
    under $TMPDIR) and the target T share their bytes: OUT is T or inside
    the target directory, T inside OUT, or OUT on a filesystem stored on T
    (a device, a partition or dm/md over it, a loop device over the target
    file or a file in the target directory).  A cleanup of the one would
    touch the other, and the run's own writes would be measured with the
    target's I/O."""
    o, r = os.path.realpath(out), os.path.realpath(t)
    why = None
    if o == r or (os.path.exists(o) and os.path.exists(r) and os.path.samefile(o, r)):
        why = 'is the --target'
    elif _inside(o, r):
        why = 'is inside the --target directory %s, where the plan makes its files' % r
    elif _inside(r, o):
        why = 'holds the --target %s' % r
    else:
        p = o
        while not os.path.exists(p) and p != '/':
            p = os.path.dirname(p)
        try:
            trdev = os.stat(r).st_rdev if is_bdev(r) else None
        except OSError:
            trdev = None
        for kind, what in _beneath(os.stat(p).st_dev):
            if kind == 'dev' and what == trdev:
                why = ('is on a filesystem stored on the --target device %s (mounted on %s)'
                       % (r, safety.fs_of(p)[1]))
            elif kind == 'file' and _inside(os.path.realpath(what), r):
                why = ('is on a filesystem stored in the file %s (mounted on %s), %s'
                       % (what, safety.fs_of(p)[1], 'the --target' if os.path.realpath(what) == r
                          else 'in the --target directory %s' % r))
            if why:
                break
    if why:
        fix = 'TMPDIR' if name == 'the work directory' else 'an -o'
        raise Refusal('%s %s %s: the run would write its output where it measures (its cleanup or the '
                      'measurement could touch the results, and the results perturb the measurement); give '
                      '%s apart from the target' % (name, out, why, fix))


class Target:
    """Sets up variant after variant (teardown() between them)."""

    def __init__(self, ctx):
        self.ctx, self.undo = ctx, Undo()
        self.kind = self.path = None

    def teardown(self):
        self.undo.run()
        self.kind = self.path = None

    def _scratch(self, vs, reads_first):
        ctx = self.ctx
        mb = int(vs.get('PP_SCRATCH_MB') or 256)
        img = os.path.join(ctx.work, 'scratch.%d.img' % random.randrange(32768))
        # a plan reading what it has not written must read real blocks, not holes
        fill = ctx.profile['WRITES'] == '0' or reads_first
        if is_root() and have('losetup'):
            _make_file(img, mb, fill)
            rc, dev = run_quiet(['losetup', '--find', '--show', '--direct-io=on', img])
            if rc != 0:
                rc, dev = run_quiet(['losetup', '--find', '--show', img])
            if rc != 0:
                raise Refusal('losetup %s failed: %s' % (img, dev.strip()))
            self.undo.push(_rm, img)
            self.undo.push(_losetup_d, dev.strip())
            self.kind, self.path = 'bdev', dev.strip()
        else:
            _make_file(img, mb, fill)
            self.undo.push(_rm, img)
            self.kind, self.path = 'file', img

    def setup(self, v, vs, reads_first):
        """The TARGET path fio gets for variant V (None: the profile has none);
        READS_FIRST: V reads what it has not written (Plan.reads_first)."""
        ctx = self.ctx
        setup = 'none' if ctx.profile['TARGET_KIND'] == 'none' else vs.get('PP_SETUP') or 'dev'
        if setup == 'none':
            return None
        if ctx.clients:
            if setup == 'fs':
                self._unmade(v, vs, 'the servers\' %s as it is' % ctx.target_arg)
            return ctx.target_arg
        if not ctx.target_arg:
            self._scratch(vs, reads_first)
        elif self.kind is None:
            self.kind, self.path = classify(ctx.target_arg), ctx.target_arg
        if ctx.claim:
            ctx.claim.retake()  # given up for an earlier variant's mkfs + mount
        fs = vs.get('PP_FS') or 'xfs'
        key = (setup, self.kind)
        if key in (('dev', 'bdev'), ('dev', 'file')):
            path = self.path
        elif key in (('dev', 'dir'), ('fs', 'dir')):
            if setup == 'fs':
                self._unmade(v, vs, 'directory %s on %s, as it is' % (self.path, self._fs_name(self.path)))
            path = os.path.join(self.path, 'perfpack.%s.dat' % ctx.profile.name)
            fd = make_exclusive(path, 'target')
            self.undo.push(os.close, fd)
            self.undo.push(_rm_made, path)
            # the runner's own file: another perfpack run is refused by
            # O_EXCL; the lock names it for anyone who asks (flock)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        elif key == ('fs', 'bdev'):
            path = self._mkfs(v, vs, fs)
        elif key == ('fs', 'file'):
            self._unmade(v, vs, 'file %s on %s, as it is' % (self.path, self._fs_name(os.path.dirname(self.path))))
            path = self.path
        else:
            raise Refusal('%s: PP_SETUP=%s is not dev, fs or none' % (ctx.profile.name, setup))
        if setup == 'fs' and vs.get('PP_FILE_MB') and path != self.path:
            # as in seed 000: dd if=/dev/zero of=block bs=1M count=1K
            rc, msg = run_quiet(['dd', 'if=/dev/zero', 'of=' + path, 'bs=1M', 'count=' + vs['PP_FILE_MB'],
                                 'conv=fsync', 'oflag=nofollow', 'status=none'])
            if rc != 0:
                raise Refusal('%s: dd of=%s bs=1M count=%s failed: %s' % (v, path, vs['PP_FILE_MB'], msg.strip()))
        return path

    @staticmethod
    def _fs_name(path):
        fs, mp = safety.fs_of(path)
        return '%s (mounted on %s)' % (fs or 'an unknown filesystem', mp)

    def _unmade(self, v, vs, used):
        """Variant V asks for a filesystem recipe that the target (a file or
        directory; on fio servers) does not let the runner make: said, and
        kept in env/V.unmade for every render of its tables."""
        recipe = ' '.join('%s=%s' % (k, vs[k]) for k in ('PP_FS', 'PP_MKFS_OPTS', 'PP_MOUNT_OPTS') if vs.get(k))
        note = ('variant %s ran without its filesystem recipe (PP_SETUP=fs %s): on the %s'
                % (v, recipe or 'PP_FS=xfs', used))
        warn(note)
        with open(os.path.join(self.ctx.out.path, 'env', v + '.unmade'), 'w') as f:
            f.write(note + '\n')

    def _mkfs(self, v, vs, fs):
        ctx = self.ctx
        if not is_root():
            raise Refusal('%s: making a %s filesystem on %s needs root' % (v, fs, self.path))
        mnt = os.path.join(ctx.work, 'mnt-' + v)
        os.makedirs(mnt, exist_ok=True)
        opts = (vs.get('PP_MKFS_OPTS') or '').split()
        force = '-f' if fs in ('xfs', 'btrfs') else '-F'
        claim = ctx.claim
        if claim and claim.path == self.path:
            # mkfs and mount open it O_EXCL: ours gives way; the mount holds
            # it exclusively until umount, after which ours is taken again
            claim.release()
            self.undo.push(claim.retake)
        rc, msg = run_quiet(['mkfs.' + fs, '-q', force] + opts + [self.path])
        if rc != 0:
            raise Refusal('%s: mkfs.%s %s %s failed: %s' % (v, fs, ' '.join(opts), self.path,
                                                            ' '.join(msg.splitlines()[:2])))
        mopts = vs.get('PP_MOUNT_OPTS')
        rc, msg = run_quiet(['mount', '-t', fs] + (['-o', mopts] if mopts else []) + [self.path, mnt])
        if rc != 0:
            raise Refusal('%s: mount -t %s %s%s failed: %s' % (v, fs, '-o %s ' % mopts if mopts else '',
                                                              self.path, msg.strip()))
        self.undo.push(_umount, mnt)
        # what the recipe really gave (kernels drop or rename options)
        got = output(['findmnt', '-no', 'SOURCE,FSTYPE,OPTIONS', mnt])
        if fs == 'xfs':
            import re
            got += '\n'.join(re.findall(r'agcount=[0-9]*|log *=internal[^,]*', output(['xfs_info', mnt]))) + '\n'
        with open(os.path.join(ctx.out.path, 'env', v + '.fs'), 'w') as f:
            f.write(got)
        return os.path.join(mnt, 'perfpack.dat')

    def devstat(self, path, when):
        """The kernel's I/O counters of the block device under the target."""
        if self.ctx.clients or self.kind != 'bdev':
            return
        dev = os.path.basename(os.path.realpath(self.path))
        try:
            with open('/sys/class/block/%s/stat' % dev) as f:
                counters = f.read().strip()
        except OSError:
            return
        with open(path, 'a') as f:
            f.write('%s %s %s\n' % (when, dev, counters))


def _make_file(img, mb, fill):
    try:
        with os.fdopen(os.open(img, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), 'wb') as f:
            if fill:
                chunk = bytes(1 << 20)
                for _ in range(mb):
                    f.write(chunk)
                f.flush()
                os.fsync(f.fileno())
            else:
                f.truncate(mb << 20)
    except OSError as e:
        raise Refusal('cannot create scratch file %s (%s)' % (img, e.strerror))
