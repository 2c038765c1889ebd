# SPDX-License-Identifier: GPL-2.0-only
"""The target of each variant: --target as given (block device, directory,
file) or a scratch loop device / file, a filesystem recipe on it; and an
undo stack that tears all of it down in reverse order, however the run ends."""

import os
import random
import stat
import subprocess

from .util import Refusal, have, is_root, output, run_quiet, warn


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


def classify(t):
    """'bdev', 'dir' or 'file' for target T, or Refusal."""
    if os.path.exists(t):
        mode = os.stat(t).st_mode
        if stat.S_ISBLK(mode):
            return 'bdev'
        if stat.S_ISDIR(mode):
            return 'dir'
        if stat.S_ISREG(mode):
            return 'file'
        kind = output(['stat', '-L', '-c', '%F', t]).strip() or 'special file'
        raise Refusal('target %s: is a %s, not a block device, regular file or directory' % (t, kind))
    if os.path.islink(t):
        raise Refusal('target %s: a symbolic link to nothing (%s)' % (t, os.readlink(t)))
    parent = os.path.dirname(t) or '.'
    fstype = output(['findmnt', '-n', '-o', 'FSTYPE', '-T', parent]).strip()
    if t.startswith('/dev/') or fstype == 'devtmpfs':
        raise Refusal('target %s: no such device (a file made there would live in RAM on devtmpfs; '
                      'check the device name)' % t)
    if os.path.isdir(parent):
        return 'file'
    raise Refusal('target %s: no such file, directory or block device' % t)


def check_no_colon(path, what, clients):
    """PATH (made absolute by resolving a link when it is --target) has no
    ':', which fio's filename= takes as a separator of files."""
    if ':' not in path:
        return path
    if what == '--target' and not clients:
        r = os.path.realpath(path)
        if ':' not in r:
            return r
    raise Refusal("%s %s: contains ':', which fio's filename= takes as a separator between files; use a "
                  "path without ':' (e.g. a symbolic link to it)" % (what, path))


class Target:
    """Sets up variant after variant (teardown() between them)."""

    def __init__(self, ctx):
        self.ctx, self.undo = ctx, Undo()
        self.kind = self.path = None

    def teardown(self):
        self.undo.run()
        self.kind = self.path = None

    def _scratch(self, vs):
        ctx = self.ctx
        mb = int(vs.get('PP_SCRATCH_MB') or 256)
        img = os.path.join(ctx.work, 'scratch.%d.img' % random.randrange(32768))
        fill = ctx.profile['WRITES'] == '0'  # a read-only profile must read real blocks
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

    def setup(self, v, vs):
        """The TARGET path fio gets for variant V (None: the profile has none)."""
        ctx = self.ctx
        setup = 'none' if ctx.profile['TARGET_KIND'] == 'none' else vs.get('PP_SETUP') or 'dev'
        if setup == 'none':
            return None
        if ctx.clients:
            if setup == 'fs':
                warn('%s: client mode: using %s on the servers as is (no filesystem recipe)' % (v, ctx.target_arg))
            return ctx.target_arg
        if not ctx.target_arg:
            self._scratch(vs)
        elif self.kind is None:
            self.kind, self.path = classify(ctx.target_arg), ctx.target_arg
        fs = vs.get('PP_FS') or 'xfs'
        key = (setup, self.kind)
        if key in (('dev', 'bdev'), ('dev', 'file')):
            path = self.path
        elif key in (('dev', 'dir'), ('fs', 'dir')):
            if setup == 'fs':
                warn('%s: target %s is a directory: its own filesystem is used (no %s recipe)' % (v, self.path, fs))
            path = os.path.join(self.path, 'perfpack.%s.dat' % ctx.profile.name)
            self.undo.push(_rm, path)
        elif key == ('fs', 'bdev'):
            path = self._mkfs(v, vs, fs)
        elif key == ('fs', 'file'):
            warn('%s: target %s is a file: no %s recipe, using it as is' % (v, self.path, fs))
            path = self.path
        else:
            raise Refusal('%s: PP_SETUP=%s is not dev, fs or none' % (ctx.profile.name, setup))
        if setup == 'fs' and vs.get('PP_FILE_MB') and path != self.path:
            # as in seed 000: dd if=/dev/zero of=block bs=1M count=1K
            rc, msg = run_quiet(['dd', 'if=/dev/zero', 'of=' + path, 'bs=1M', 'count=' + vs['PP_FILE_MB'],
                                 'conv=fsync', 'status=none'])
            if rc != 0:
                raise Refusal('%s: dd of=%s bs=1M count=%s failed: %s' % (v, path, vs['PP_FILE_MB'], msg.strip()))
        return path

    def _mkfs(self, v, vs, fs):
        ctx = self.ctx
        if not is_root():
            raise Refusal('%s: making a %s filesystem on %s needs root' % (v, fs, self.path))
        mnt = os.path.join(ctx.work, 'mnt-' + v)
        os.makedirs(mnt, exist_ok=True)
        opts = (vs.get('PP_MKFS_OPTS') or '').split()
        force = '-f' if fs in ('xfs', 'btrfs') else '-F'
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
        with open(img, 'wb') as f:
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
