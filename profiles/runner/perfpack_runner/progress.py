# SPDX-License-Identifier: GPL-2.0-only
"""Progress of a run: "[k/N] name" per fio run; on a terminal the line is
redrawn every second with the elapsed time and an ETA (from the runs done
so far), then completed with the run's result (MB/s, IOPS, from fio's JSON);
a summary at the end."""

import json
import sys
import threading
import time

from . import util

TICK_S = 1.0    # how often the terminal's status line is redrawn


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
        self.durations, self._t = [], None
        self._k, self._label = 0, ''
        self._lock = threading.Lock()
        self._stop = None

    def _status(self, now, eta=True):
        line = '[%d/%d] %s  elapsed %s' % (self._k, self.total, self._label, _clock(now - self.t0))
        if eta and self.durations:
            per = sum(self.durations) / len(self.durations)
            # this run's share: what is left of a mean run, never below 0
            left = per * (self.total - self._k) + max(per - (now - self._t), 0)
            line += '  ETA %s' % _clock(left)
        return line

    def _draw(self):
        with self._lock:
            if self._stop is not None:
                self.stream.write('\r%s\033[K' % self._status(time.monotonic()))
                self.stream.flush()

    def erase(self):
        """Clear the status line (a message follows); the next tick redraws it."""
        with self._lock:
            if self._stop is not None:
                self.stream.write('\r\033[K')
                self.stream.flush()

    def _ticker(self, stop):
        while not stop.wait(TICK_S):
            self._draw()

    def _halt(self):
        """Stop redrawing; the status line is left as it was last drawn."""
        with self._lock:
            stop, self._stop = self._stop, None
        if stop is not None:
            stop.set()
            if util.live_line is self:
                util.live_line = None

    def begin(self, k, label):
        self._halt()
        self._k, self._label, self._t = k, label, time.monotonic()
        if not self.tty:
            print('[%d/%d] %s' % (k, self.total, label), file=self.stream, flush=True)
            return
        self._stop = threading.Event()
        util.live_line = self
        self._draw()
        threading.Thread(target=self._ticker, args=(self._stop,), daemon=True).start()

    def end(self, json_path):
        now = time.monotonic()
        took = now - self._t
        self._halt()
        self.durations.append(took)
        if not self.tty:
            return
        res = result(json_path)
        parts = ['%s %.1f MB/s %.0f IOPS' % (d, bw, iops) for d, (bw, iops) in res.items()]
        print('\r%s\033[K\n      %s  (%.1f s)' % (self._status(now, eta=False), ', '.join(parts) or 'no I/O', took),
              file=self.stream, flush=True)

    def close(self):
        """Stop redrawing, ending the status line (a run failed or was
        interrupted: what follows starts on a line of its own)."""
        active = self._stop is not None
        self._halt()
        if active:
            print(file=self.stream, flush=True)

    def summary(self):
        self._halt()
        if self.tty:
            print('%d fio runs in %s' % (len(self.durations), _clock(time.monotonic() - self.t0)),
                  file=self.stream, flush=True)
