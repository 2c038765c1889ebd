# SPDX-License-Identifier: GPL-2.0-only
"""May the plan use this target?  A block device must be as large as the
plan; what the plan writes must be unused: not mounted, not swap, not held,
no signature, and every byte of it zero (read at device speed), else the
refusal says what and where; --force overrides all but the size.  A file
or directory target (or scratch file) must have the room the plan takes on
its filesystem (no --force either).  The claim on the target (O_EXCL,
flock) is target.Claim's."""

import os
import re
import stat
import sys

from .util import Refusal, have, output, warn

CHUNK = 4 << 20


def _real(path):
    return os.path.realpath(path)


def _in_proc(table, path):
    real = _real(path)
    try:
        with open(table) as f:
            return any(line.split()[:1] == [real] for line in f)
    except OSError:
        return False


def in_swaps(path):
    """PATH is in use as swap: the device or file a line of /proc/swaps
    names (its path, octal-escaped), compared as the device or the inode
    it is, not by name (a hard link, a symbolic link, another device node)."""
    try:
        st = os.stat(path)
        with open('/proc/swaps') as f:
            names = [line.split()[0] for line in f.read().splitlines()[1:] if line.split()]
    except OSError:
        return False
    for name in names:
        try:
            sw = os.stat(re.sub(r'\\([0-7]{3})', lambda m: chr(int(m.group(1), 8)), name))
        except OSError:
            continue
        if stat.S_ISBLK(st.st_mode) and stat.S_ISBLK(sw.st_mode):
            if st.st_rdev == sw.st_rdev:
                return True
        elif (st.st_dev, st.st_ino) == (sw.st_dev, sw.st_ino):
            return True
    return False


def device_held(dev):
    """Why block device DEV is held (mounted, swap, dm/md), or None."""
    mp = next((line for line in output(['lsblk', '-nro', 'MOUNTPOINT', dev]).splitlines() if line), '')
    if mp or _in_proc('/proc/mounts', dev):
        return 'it is mounted' + (' (on %s)' % mp if mp else '')
    if in_swaps(dev):
        return 'it is in use as swap'
    try:
        holders = sorted(os.listdir('/sys/class/block/%s/holders' % os.path.basename(_real(dev))))
    except OSError:
        holders = []
    if holders:
        return 'it is held by %s (device-mapper/md)' % ' '.join(holders)
    return None


def device_in_use(dev):
    """Why block device DEV is in use, or None."""
    why = device_held(dev)
    if why:
        return why
    sig = ''
    for line in output(['blkid', '-p', '-o', 'export', dev]).splitlines():
        if line.startswith(('TYPE=', 'PTTYPE=')) and not sig:
            sig = line.split('=', 1)[1]
    if not sig and have('wipefs'):
        sig = (output(['wipefs', '-n', '--noheadings', '-O', 'TYPE', dev]).splitlines() or [''])[0]
    if sig:
        return 'it holds a filesystem/partition signature (%s, found by blkid/wipefs -n)' % sig
    return None


def _open_direct(path):
    if stat.S_ISBLK(os.stat(path).st_mode):
        try:
            return os.open(path, os.O_RDONLY | os.O_DIRECT), True
        except OSError:
            pass
    return os.open(path, os.O_RDONLY), False


def first_nonzero(path, nbytes):
    """Offset of the first non-zero byte in PATH's first NBYTES, or None.

    O_DIRECT reads of 4 MiB on a block device (device speed, no page cache);
    progress on a terminal from 1 GiB."""
    fd, direct = _open_direct(path)
    progress = sys.stderr.isatty() and nbytes >= 1 << 30
    if progress:
        warn('checking that the %d MiB of %s it will write hold zeros only' % (nbytes >> 20, path))
    zero = bytes(CHUNK)
    buf = None
    try:
        if direct:
            import mmap
            buf = mmap.mmap(-1, CHUNK)
        off = 0
        while off < nbytes:
            n = min(CHUNK, nbytes - off)
            if direct and n % 4096 == 0:
                got = os.preadv(fd, [memoryview(buf)[:n]], off)
                data = memoryview(buf)[:got]
            else:
                data = os.pread(fd, n, off)
                got = len(data)
            if got == 0:
                raise Refusal('%s: ends at %d bytes, before the %d the plan uses' % (path, off, nbytes))
            if data != zero[:got]:
                return off + got - len(bytes(data).lstrip(b'\0'))
            off += got
            if progress and off % (256 << 20) == 0:
                print('\r  %d of %d MiB zero' % (off >> 20, nbytes >> 20), end='', file=sys.stderr, flush=True)
    finally:
        os.close(fd)
        if progress:
            print(file=sys.stderr)
    return None


def zeros_only(path, nbytes):
    """Why PATH's first NBYTES are not all zero, or None."""
    if nbytes <= 0:
        return None
    try:
        off = first_nonzero(path, nbytes)
    except OSError as e:
        return 'it could not be read to check it holds zeros (%s)' % e.strerror
    if off is None:
        return None
    with open(path, 'rb') as f:
        f.seek(off)
        there = ' '.join('%02x' % b for b in f.read(16))
    return ('it holds non-zero data (the first non-zero byte is at offset %d, MiB %d: %s; '
            'checked every byte of the %d it would write)' % (off, off >> 20, there, nbytes))


def first_hole(path, start, end):
    """The offset of the first hole of file PATH in [START, END), or None:
    SEEK_HOLE also finds unwritten extents (fallocate) on ext4, XFS and
    btrfs; a filesystem without it reports none but the file's end."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        hole = os.lseek(fd, start, os.SEEK_HOLE)
    except OSError:  # ENXIO: START at or past the end
        return None
    finally:
        os.close(fd)
    return hole if hole < end else None


def _file_why(path, wend):
    # an active swap file is refused (or warned about) as the target is held (target._not_swap)
    size = os.stat(path).st_size
    if wend != 'all' and wend < size:
        size = wend
    return zeros_only(path, size)


def check_write_ok(path, wend, need, force):
    """PATH may serve a plan writing up to WEND and using up to NEED (bytes,
    'all' or None), or Refusal.  A file shorter than a read plan is laid out
    anew by fio (unlinked and rewritten): a write."""
    if stat.S_ISBLK(os.stat(path).st_mode):
        size = dev_size(path)
        if need not in (None, 'all') and need > size:
            raise Refusal('refusing to use %s: the plan needs %d bytes (%d MiB) of it, but it holds only %d '
                          'bytes (%d MiB), and fio would silently do less; use a larger device or a smaller '
                          'size (--set SIZE=...)' % (path, need, need >> 20, size, size >> 20))
        if wend is None:
            return
        why = device_in_use(path) or zeros_only(path, size if wend == 'all' else min(wend, size))
    else:
        if not os.path.isfile(path):
            return
        size, layout = os.stat(path).st_size, ''
        if wend is None:
            if need is not None and need != 'all' and need <= size:
                return
            wend = 'all'
            layout = ('the plan reads %s bytes but it holds %d, so fio would lay it out anew (unlink and '
                      'rewrite it), and ' % ('all of it' if need in (None, 'all') else need, size))
        why = _file_why(path, wend)
        why = layout + why if why else None
    if not why:
        return
    if force:
        warn('writing to %s although %s (--force)' % (path, why))
    else:
        raise Refusal('refusing to write to %s: %s; pass --force to use it anyway' % (path, why))


def free_bytes(path):
    """Bytes free to an unprivileged writer on PATH's filesystem."""
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def check_room(path, grow, what, advice='free some space, use a smaller size (--set SIZE=...) or another target',
               at=None):
    """Refusal unless PATH's filesystem has GROW bytes free for WHAT (no --force:
    fio would fill the filesystem, ENOSPC, and leave what it wrote); AT: a
    path on that filesystem when PATH does not exist yet."""
    if not grow or grow <= 0:
        return
    free = free_bytes(at or path)
    if grow > free:
        mp = fs_of(at or path)[1]
        raise Refusal('refusing to use %s: %s %d bytes (%d MiB), but the filesystem it is on (mounted on %s) has '
                      'only %d bytes (%d MiB) free, and fio would fill it (ENOSPC) and leave what it wrote; %s'
                      % (path, what, grow, grow >> 20, mp, free, free >> 20, advice))


def dev_size(dev):
    """The size of block device DEV in bytes (what fio moves of it at most)."""
    fd = os.open(dev, os.O_RDONLY)
    try:
        return os.lseek(fd, 0, os.SEEK_END)
    finally:
        os.close(fd)


def plan_ends(plan, variants, target_kind):
    """(WEND, NEED) of VARIANTS: a filesystem recipe writes the whole
    device and needs room for its PP_FILE_MB file."""
    wend = need = None
    for v in variants:
        vs, we, ne = plan.vars[v], plan.write_end[v], plan.plan_end[v]
        if vs.get('PP_SETUP', 'dev') == 'fs' and target_kind != 'none':
            we = 'all'
            ne = int(vs['PP_FILE_MB']) << 20 if vs.get('PP_FILE_MB') else None
        wend = _max(wend, we)
        need = _max(need, ne)
    return wend, need


def _max(a, b):
    if 'all' in (a, b):
        return 'all'
    return max([x for x in (a, b) if x is not None], default=None)


def check_fs_device_ok(v, path, force):
    """Variant V writes through the block device under PATH's filesystem,
    which the runner did not make: name the device, refuse unless --force."""
    p = path
    while not os.path.exists(p) and p != '/':
        p = os.path.dirname(p)
    found = output(['findmnt', '-n', '-o', 'SOURCE,TARGET', '-T', p]).split()
    src = found[0] if found else 'the device under %s (findmnt found none)' % p
    mp = ' (mounted on %s)' % found[1] if len(found) > 1 else ''
    why = ('variant %s writes through the block device under its file (blkfile_allow_bdev_write=1), and %s '
           'is on %s%s, a filesystem perfpack did not make' % (v, path, src, mp))
    if force:
        warn('writing to %s although %s (--force)' % (src, why))
    else:
        raise Refusal('refusing to write to %s: %s; pass --force to use it anyway (or give it an unused block '
                      'device, or --scratch, on which perfpack makes the filesystem itself)' % (src, why))


# filesystems whose files are pages of memory: direct=1 (O_DIRECT, which
# tmpfs accepts since Linux 6.6) copies memory there and reaches no device
MEMORY_FS = ('tmpfs', 'ramfs', 'hugetlbfs', 'devtmpfs')


def fs_of(path):
    """(type, mount point) of the filesystem PATH is on (findmnt -T: the
    top one where mounts are stacked), or ('', '?')."""
    found = (output(['findmnt', '-n', '-o', 'FSTYPE,TARGET', '-T', path]).splitlines() or [''])[0].split(None, 1)
    return (found[0] if found else '', found[1] if len(found) > 1 else '?')


def _memory_fs(path):
    """'tmpfs (mounted on /x)' when PATH is on a memory filesystem, or on an
    overlay with a layer (upper, lower or data directory) on one, or None:
    an overlay's files are its layers' (direct I/O on one over tmpfs
    measured memory as a device: 1600 MB/s, unrefused)."""
    fs, mp = fs_of(path)
    if fs in MEMORY_FS:
        return '%s (mounted on %s)' % (fs, mp)
    for kind, d in overlay_layers(path)[1]:
        why = _memory_fs(d)
        if why:
            return 'overlay (mounted on %s), whose %s %s is on %s' % (mp, kind, d, why)
    return None


def overlay_layers(path):
    """(mount point, [(kind, directory)]) of the overlay PATH is on: its
    upperdir, lowerdirs and datadirs, where its files are; (None, []) when
    PATH is on no overlay."""
    fs, mp = fs_of(path)
    if fs != 'overlay':
        return None, []
    layers = []
    for opt in output(['findmnt', '-n', '-o', 'FS-OPTIONS', '-T', path]).strip().split(','):
        k, _, dirs = opt.partition('=')
        if k.rstrip('+') in ('upperdir', 'lowerdir', 'datadir'):
            layers += [(k.rstrip('+'), d.replace('\\:', ':')) for d in re.split(r'(?<!\\):', dirs)]
    return mp, layers


def memory_backed(path):
    """Why what PATH names lives in memory, not on a device ('is ...'), or None: a file
    or directory on a memory filesystem, a RAM disk (brd, zram), a loop
    device over a file on a memory filesystem or over such a device."""
    if not stat.S_ISBLK(os.stat(path).st_mode):
        d = path if os.path.isdir(path) else os.path.dirname(path) or '.'
        fs = _memory_fs(d)
        if fs:
            return 'is on %s' % fs
        # a filesystem on a device that is memory (ext4 on a loop device
        # over a file on tmpfs: direct=1 there measured 1143 MB/s, unrefused)
        src = re.sub(r'\[.*\]$', '', output(['findmnt', '-n', '-o', 'SOURCE', '-T', d]).strip())
        if src.startswith('/') and os.path.exists(src) and stat.S_ISBLK(os.stat(src).st_mode):
            why = memory_backed(src)
            if why:
                return 'is on %s (mounted on %s), which %s' % (src, fs_of(d)[1], why)
        return None
    name = os.path.basename(_real(path))
    sysd = '/sys/class/block/' + name
    if os.path.exists(os.path.join(sysd, 'comp_algorithm')) or name.startswith('zram'):
        return 'is a compressed RAM disk (zram)'
    if os.major(os.stat(path).st_rdev) == 1:
        return 'is a RAM disk (brd)'
    try:
        with open(os.path.join(sysd, 'loop', 'backing_file')) as f:
            backing = f.read().strip()
    except OSError:
        return None
    backing = backing[:-len(' (deleted)')] if backing.endswith(' (deleted)') else backing
    try:
        under = stat.S_ISBLK(os.stat(backing).st_mode)
    except OSError:
        under = False
    if under:
        # a loop device over a device: where that one's blocks are (its
        # node on devtmpfs says nothing of them)
        why = memory_backed(backing)
        return 'is a loop device over %s, which %s' % (backing, why) if why else None
    fs = _memory_fs(os.path.dirname(backing) or '/')
    if fs:
        return 'is a loop device over %s, on %s' % (backing, fs)
    # a file on a filesystem on a device that is memory
    why = memory_backed(backing) if os.path.exists(backing) else None
    return 'is a loop device over %s, which %s' % (backing, why) if why else None


def check_not_memory(path, what, direct_job, memory_ok):
    """Refusal when the plan asks for direct I/O (DIRECT_JOB names the first
    job that does, or None) on PATH and what PATH names is memory: the
    figures would be memory copies, not a device's; MEMORY_OK: a warning."""
    if not direct_job:
        return
    why = memory_backed(path)
    if not why:
        return
    msg = ('%s %s: it %s, so the direct I/O of %s (direct=1) copies memory and reaches no device'
           % (what, path, why, direct_job))
    if memory_ok:
        warn('%s; measuring memory as asked (--memory-ok)' % msg)
    else:
        raise Refusal('refusing %s: the figures would be memory speed; give a target on a device, or pass '
                      '--memory-ok to measure memory' % msg)
