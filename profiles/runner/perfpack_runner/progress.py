# SPDX-License-Identifier: GPL-2.0-only
"""Progress of a run: "[k/N] name" per fio run; on a terminal also the
elapsed time, an ETA from the runs done so far, a one-line result per run
(MB/s, IOPS, from fio's JSON) and a summary at the end."""

import json
import sys
import time


def _clock(s):
    s = int(s + 0.5)
    return '%d:%02d:%02d' % (s // 3600, s // 60 % 60, s % 60) if s >= 3600 else '%d:%02d' % (s // 60, s % 60)


def result(json_path):
    """{'read': (MB/s, IOPS), 'write': ...} of a fio JSON (all jobs, or
    fio's 'All clients' aggregate), directions without I/O left out."""
    try:
        with open(json_path, errors='replace') as f:
            text = f.read()
        data = json.loads(text[text.index('{'):])
    except (OSError, ValueError):
        return {}
    jobs = data.get('client_stats') or data.get('jobs') or []
    agg = [j for j in jobs if j.get('jobname') == 'All clients']
    jobs = agg or jobs
    out = {}
    for d in ('read', 'write', 'trim'):
        bw = sum(j.get(d, {}).get('bw_bytes', 0) for j in jobs)
        iops = sum(j.get(d, {}).get('iops', 0) for j in jobs)
        if sum(j.get(d, {}).get('io_bytes', 0) for j in jobs):
            out[d] = (bw / 1e6, iops)
    return out


class Progress:
    def __init__(self, total, stream=None):
        self.total, self.stream = total, stream or sys.stderr
        self.tty = self.stream.isatty()
        self.t0 = time.monotonic()
        self.durations, self.fio_time, self._t = [], 0.0, None

    def begin(self, k, label):
        now = time.monotonic()
        line = '[%d/%d] %s' % (k, self.total, label)
        if self.tty:
            line += '  elapsed %s' % _clock(now - self.t0)
            if self.durations:
                per = sum(self.durations) / len(self.durations)
                line += '  ETA %s' % _clock(per * (self.total - k + 1))
        print(line, file=self.stream, flush=True)
        self._t = now

    def end(self, json_path):
        took = time.monotonic() - self._t
        self.durations.append(took)
        if not self.tty:
            return
        res = result(json_path)
        parts = ['%s %.1f MB/s %.0f IOPS' % (d, bw, iops) for d, (bw, iops) in res.items()]
        print('      %s  (%.1f s)' % (', '.join(parts) or 'no I/O', took), file=self.stream, flush=True)

    def summary(self):
        if self.tty:
            print('%d fio runs in %s' % (len(self.durations), _clock(time.monotonic() - self.t0)),
                  file=self.stream, flush=True)
