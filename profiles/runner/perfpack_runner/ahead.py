# SPDX-License-Identifier: GPL-2.0-only
"""Starting the fio runs of a variant ahead of their turn, so that fio's
start-up (~0.3 s in fio 3.33, most of it fixed 100 ms sleeps while a job
starts) overlaps the run before instead of adding to it.  Each one waits
at its gate (gate.py) and its I/O starts only when the runner opens it:
after the run before has exited and the caches have been dropped, so the
runs' I/O stays strictly one after the other, in the plan's order.

Only what fio does before the gate limits this: the main fio process's
setup_files (create_serialize=1) looks at the target's size, and would lay
out (write) a regular file smaller than the job, or prepopulate it; an
external engine may do anything in its setup hook.  So a run is started
ahead only when its job is one section and one job on one target that
needs no layout: a block device, or an existing file at least as large as
the job's I/O end, with a built-in engine that has no setup hook.  Any
other run starts at its turn, as without this (nothing started ahead of
it either: a later run may need the file it lays out)."""

import os
import re
import stat

from . import fiorun, gate, plan
from .util import Refusal, to_bytes

DEPTH = 4  # runs started ahead at most
MEM = 256 << 20  # and the I/O buffers they hold (bs x iodepth) at most
_ENGINES = ('psync', 'sync', 'pvsync', 'pvsync2', 'vsync', 'libaio', 'io_uring', 'posixaio')
# options that make fio create, lay out, read ahead or remove files, or use several
_LAYOUT = ('directory', 'opendir', 'nrfiles', 'filesize', 'file_size', 'unlink', 'unlink_each_loop',
           'create_only', 'fill_device', 'fill_fs', 'pre_read', 'create_on_open', 'numjobs',
           'read_iolog', 'write_iolog', 'iolog', 'replay_redirect', 'filename_format')


_SOURCES = {'1': 'gettimeofday', '2': 'clock_gettime', '3': 'cpu'}
_source = []


def clock_source(fio):
    """The clocksource fio picks when not told (its debug output), or None."""
    if not _source:
        rc, out = fiorun.capture([fio, '--debug=time', '--parse-only', '--name=clock', '--size=4k',
                                  '--filename=/dev/null'])
        m = re.search(r'gettime: clocksource=([0-9]+)', out)
        _source.append(_SOURCES.get(m.group(1)) if m and rc == 0 else None)
    return _source[0]


def depth():
    """Runs started ahead at most: DEPTH, or PERFPACK_AHEAD (for measuring)."""
    ahead = os.environ.get('PERFPACK_AHEAD', str(DEPTH))
    if not ahead.isdigit():
        raise Refusal('PERFPACK_AHEAD=%s: not a whole number (fio runs started ahead)' % ahead)
    return int(ahead)


def buffers(sec):
    """Bytes of I/O buffers a job of SEC allocates (largest bs x iodepth)."""
    bss = [to_bytes(b) or 0 for b in sec.bs.split(',')]
    depth = to_bytes(sec.opts.get('iodepth', '1')) or 1
    return max(bss + [4096]) * depth


def eligible(ctx, pl, step, cwd, target):
    """The I/O buffers of STEP's fio if it may be started ahead, else None.
    TARGET: the variant's TARGET (the plan parsed the job files without it)."""
    if ctx.clients or len(step.sections) != 1:
        return None
    sec = pl.sections.get((step.variant, step.sections[0]))
    if sec is None:
        return None
    o = sec.opts
    if o.get('ioengine', 'psync') not in _ENGINES or gate.has_gate_opts(o):
        return None
    if any(k in o and not (k in ('numjobs', 'nrfiles') and o[k] == '1') for k in _LAYOUT):
        return None
    name = o.get('filename', '')
    if name == (pl.vars[step.variant].get('TARGET') or plan.PLACEHOLDER):
        name = target
    if not name or ':' in name:
        return None
    path = os.path.join(cwd, name)
    try:
        st = os.stat(path)
    except OSError:
        return None
    if stat.S_ISREG(st.st_mode):
        if not isinstance(sec.end, int) or st.st_size < sec.end:
            return None
    elif not stat.S_ISBLK(st.st_mode):
        return None
    return buffers(sec)


class Lookahead:
    """The fio runs of one variant (RUNS: [run.Invocation]): take(i) gives
    run i's Fio, started before (held at its gate) or now."""

    def __init__(self, ctx, pl, runs):
        self.ctx, self.pl, self.runs = ctx, pl, runs
        self.procs = {}  # i -> [Fio, gate, its buffers]
        self.next = 0  # first run not started
        self.depth = depth()

    def _start(self, i, gated, need=0):
        r = self.runs[i]
        g = gate.Gate(clock_source(self.ctx.fio)) if gated else None
        args = r.args[:1] + (g.options() if g else []) + r.args[1:]
        self.procs[i] = [fiorun.Fio(args, r.log, gate=g, env=r.full, cwd=r.cwd), g, need]
        self.next = i + 1

    def gated(self, i):
        """Run I waits at a gate: it was started ahead, or could have been."""
        if i in self.procs:
            return self.procs[i][1] is not None
        r = self.runs[i]
        return self.depth > 0 and eligible(self.ctx, self.pl, r.step, r.cwd, r.target) is not None

    def take(self, i, gated):
        """(Fio, gate or None) of run I, started now if it was not (call
        after the cache drop when not GATED)."""
        if i not in self.procs:
            self._start(i, gated)
        p, g, _ = self.procs.pop(i)
        return p, g

    def fill(self):
        """While a run does its I/O: start the next runs ahead, in order, as
        long as each may be and the bounds allow."""
        held = sum(need for _, _, need in self.procs.values())
        while self.next < len(self.runs) and len(self.procs) < self.depth:
            r = self.runs[self.next]
            need = eligible(self.ctx, self.pl, r.step, r.cwd, r.target)
            if need is None or held + need > MEM:
                return
            self._start(self.next, True, need)
            held += need
