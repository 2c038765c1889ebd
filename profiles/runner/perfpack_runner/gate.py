# SPDX-License-Identifier: GPL-2.0-only
"""A gate holds a fio started ahead of its turn: fio's exec_prerun runs a
shell that reads one line from a pipe whose only writer is the runner.
gate.open() writes "go" and the job goes on to its I/O; if the runner
ends or dies first, the pipe's write end closes, the read sees EOF, the
command fails and fio's job ends there without I/O (nothing can hang).

fio 3.33 runs exec_prerun in thread_main() after td_io_init, init_io_u and
(in the job, only with create_serialize=0) setup_files, and before the job's
clock starts (set_epoch_time, ru_start): fio's start-up, its 100 ms polls
for the job to initialise, the job's fork and its buffer set-up all happen
before the gate.  The target is opened after it: do_io -> get_next_file ->
td_io_open_file (ioengines.c), which is also where invalidate=1 drops the
file's cache.  What fio does before it is in ahead.eligible().

Two more options go with the gate: disk_util=0, since fio's device
counters would start when fio does, during the run before (the runner's
raw/VARIANT/JOB.diskstat has the device's counters from just before the
gate opens to the job's exit); and clocksource=, set to the source fio
picks itself (asked once, ahead.clock_source()), so that fio does not calibrate and
test its clocks twice: that is half of the CPU a fio start costs (~64 ms
of busy loops), spent while the run before does its I/O.  What the gate
changes in fio's output is undone by clean_json(): fio lists command-line
options in the JSON's "global options"."""

import os
import re

_open = set()
GATE_OPTS = ('exec_prerun', 'disk_util', 'clocksource')
class Gate:
    def __init__(self, source):
        self.source = source  # fio's clocksource (ahead.clock_source()), or None
        self.fd, self._w = os.pipe()
        os.set_inheritable(self.fd, True)
        self.command = 'read -r pp_gate <&%d && [ "$pp_gate" = go ]' % self.fd
        _open.add(self)

    def options(self):
        """fio's command-line options of the gate (before the job file)."""
        return (['--exec_prerun=' + self.command, '--disk_util=0']
                + (['--clocksource=' + self.source] if self.source else []))

    def started(self):
        """The read end is fio's now (inherited): the runner keeps the writer only."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def open(self):
        try:
            os.write(self._w, b'go\n')
        except BrokenPipeError:
            pass  # fio ended before its turn: its status says why

    def close(self):
        self.started()
        if self._w is not None:
            os.close(self._w)
            self._w = None
        _open.discard(self)


def close_all():
    for g in list(_open):
        g.close()


def _json_str(s):
    """S as fio's JSON writer quotes it (\\ and " escaped)."""
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def clean_json(path, g, section):
    """fio's JSON at PATH as without the gate: the gate's options taken
    out of "global options" (the object dropped if nothing is left), the
    "disk_util" fio writes with disk_util=0 (zeros) dropped; and the
    prerun's own output file (SECTION.prerun.txt, empty) removed."""
    try:
        os.unlink(os.path.join(os.path.dirname(path), section + '.prerun.txt'))
    except FileNotFoundError:
        pass
    with open(path, errors='surrogateescape') as f:
        lines = f.read().split('\n')
    ours = {'    "exec_prerun" : %s' % _json_str(g.command), '    "disk_util" : "0"',
            '    "clocksource" : "%s"' % g.source}
    out, where = [], None
    for ln in lines:
        if where is None and ln in ('  "global options" : {', '  "disk_util" : ['):
            where = ln[3:-5]
            if where == 'disk_util':
                out[-1] = out[-1].rstrip(',')
                continue
        elif where == 'global options' and ln.startswith('  }'):
            where = None
            if out[-1] == '  "global options" : {':
                out.pop()
                continue
        elif where == 'disk_util':
            if ln.startswith('  ]'):
                where = None
            continue
        elif where == 'global options' and ln.rstrip(',') in ours:
            continue
        out.append(ln)
    with open(path, 'w', errors='surrogateescape') as f:
        f.write('\n'.join(out))


def has_gate_opts(opts):
    """A job of its own with exec_prerun/disk_util (not gated: ours would override or be overridden)."""
    return any(k in opts for k in GATE_OPTS) or any(re.match(r'exec_', k) for k in opts)
