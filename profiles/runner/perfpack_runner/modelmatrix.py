# SPDX-License-Identifier: GPL-2.0-only
"""`perfpack model-matrix`: the scst-coop matrix in the model
(coop_backend=sim) through stock fio, several job files at once (the model
paces itself, so they hardly compete), every table with fiotab, and the
calibration report (modeled vs published MB/s of cases 1-11, mean absolute
error).  The output directory follows every run's rules (outdir.py).
profiles/scst-coop/run-model-matrix is this command."""

import os
import re
import shutil
import subprocess
import time

from . import fioout, fiorun, outdir
from .util import Refusal, info, warn

# run.txt's first line, by which perfpack tables knows such a directory
RUN_TXT_FIRST = 'profile: scst-coop (model matrix)'

USAGE = """usage: perfpack model-matrix [-o DIR] [--overwrite] [--scale N] [--later-scale N]
                            [--size BYTES] [-j N] [--calibration | --later]

  -o DIR           output directory (default model-out): raw/ (fio JSON, fio's
                   stderr, the model reports STEM.model), tables/ (fiotab tables,
                   calibration.md, later-*.summary.md); written as DIR.partial.XXXXXX
  --overwrite      replace an earlier run in DIR once this one has completed
  --scale N        sim_time_scale of cases 1-11 (default 20)
  --later-scale N  sim_time_scale of the later matrix (default 25)
  --size BYTES     bytes per job, at least 67108864 (default 1073741824, the thread's)
  -j N             fio processes at a time (default 4)
  --calibration    cases 1-11 only;  --later  the later matrix only
"""

CASES = ['case%02d' % c for c in range(1, 12)]
LATER = ['later-cfq-threads', 'later-deadline', 'later-inorder', 'later-client-sched', 'later-noop']
_COUNTS = {'--scale': 'scale', '--later-scale': 'later_scale', '--size': 'size', '-j': 'par'}


def parse(args):
    o = {'out': 'model-out', 'overwrite': False, 'scale': 20, 'later_scale': 25,
         'size': 1 << 30, 'par': 4, 'parts': ('calibration', 'later')}
    i, given = 0, {}
    while i < len(args):
        a = args[i]
        if a in ('-h', '--help'):
            print(USAGE, end='')
            raise SystemExit(0)
        if a == '--overwrite':
            o['overwrite'] = True
        elif a in ('--calibration', '--later'):
            # one part, or neither for both: the old parser ran the last given
            if given.setdefault('part', a) != a:
                raise Refusal('%s and %s exclude each other: give one, or neither for both' % (given['part'], a))
            o['parts'] = (a[2:],)
        elif a == '-o' or a in _COUNTS:
            if i + 1 >= len(args) or not args[i + 1]:
                raise Refusal('%s needs a value (perfpack model-matrix --help)' % a)
            if given.setdefault(a, args[i + 1]) != args[i + 1]:
                raise Refusal("%s given twice ('%s', then '%s'): give it once" % (a, given[a], args[i + 1]))
            i += 1
            if a == '-o':
                o['out'] = args[i]
            elif not re.match(r'^[1-9][0-9]*$', args[i]):
                raise Refusal("%s '%s': not a whole number >= 1" % (a, args[i]))
            else:
                o[_COUNTS[a]] = int(args[i])
        else:
            raise Refusal("unknown argument '%s' (perfpack model-matrix --help)" % a)
        i += 1
    # blockdev-perftest's largest block is 64 MiB: smaller jobs would not run it
    if o['size'] < 1 << 26:
        raise Refusal('--size %d: at least 67108864 (the 64 MiB block) is needed' % o['size'])
    return o


def series_means(paths):
    """[(series, mean MB/s)] of model reports: the per-job MiB/s (bytes over
    model time) averaged per series, series in order of first appearance."""
    sums, order = {}, []
    for path in paths:
        with open(path) as f:
            for line in f:
                v = dict(kv.split('=', 1) for kv in line.split() if '=' in kv)
                s = re.sub(r'-r-.*', '', re.sub(r'^perftest-', '', v.get('job', ''), count=1), count=1)
                if s not in sums:
                    order.append(s)
                    sums[s] = [0.0, 0]
                sums[s][0] += float(v['bytes']) / 1048576 / (float(v['model_time_ns']) / 1e9)
                sums[s][1] += 1
    return [(s, sums[s][0] / sums[s][1]) for s in order]


def published_means(tsv):
    """{case: mean published MB/s} of published.tsv (case, bs, MB/s)."""
    acc = {}
    with open(tsv) as f:
        for line in f:
            if line.startswith('#') or not line.split():
                continue
            c, _, mbps = line.split()[:3]
            acc.setdefault(int(c), []).append(float(mbps))
    return {c: sum(v) / len(v) for c, v in acc.items()}


def calibration_md(means, published):
    """The calibration report; errors from the printed (rounded) figures."""
    lines = ['', 'Calibration: blockdev-perftest read, mean R(avg, MB/s) over 13 block sizes',
             '| case | published MB/s | modeled MB/s | error |', '|---:|---:|---:|---:|']
    total = 0.0
    for s, m in means:
        c = int(s[1:])
        if c not in published:
            raise Refusal('series %s: case %d not in published.tsv' % (s, c))
        mm, pp = float('%.2f' % m), float('%.2f' % published[c])
        e = (mm - pp) / pp * 100
        total += abs(e)
        lines.append('| %d | %.2f | %.2f | %+.1f %% |' % (c, pp, mm, e))
    lines += ['', 'mean absolute error: %.1f %%' % (total / len(means))]
    return '\n'.join(lines) + '\n'


def summary_md(stem, means):
    rows = ['| %s | %.2f |' % sm for sm in means]
    return '\n'.join(['', '%s: mean modeled MB/s per series' % stem, '| series | MB/s |', '|---|---:|'] + rows) + '\n'


def _write(path, text):
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.rename(path + '.tmp', path)
    print(text, end='', flush=True)


class Matrix:
    def __init__(self, ctx, o):
        self.ctx, self.o = ctx, o
        self.here = os.path.join(ctx.profdir, 'scst-coop')
        self.raw = self.tables = None
        self.fiotab = shutil.which(ctx.fiotab)
        if not os.path.isfile(os.path.join(ctx.engdir, 'fio-coop.so')):
            raise Refusal('%s/fio-coop.so not found (make, or set ENGDIR)' % ctx.engdir)
        if not shutil.which(ctx.fio):
            raise Refusal('fio not found (%s)' % ctx.fio)
        if not self.fiotab:
            warn('fiotab not found (set FIOTAB): the model reports and calibration only, no fio tables')

    def _env(self, scale):
        env = dict(os.environ, ENGDIR=self.ctx.engdir, TARGET='/dev/zero', SIZE=str(self.o['size']),
                   BACKEND='sim', SIM_SCALE=str(scale))
        return env

    def _done(self, stem, took):
        err = os.path.join(self.raw, stem + '.err')
        with open(err, errors='replace') as f:
            text = f.read()
        model = [ln[len('coop: sim: '):] for ln in text.splitlines(True) if ln.startswith('coop: sim: job=')]
        with open(os.path.join(self.raw, stem + '.model'), 'w') as f:
            f.writelines(model)
        out = self.ctx.out
        out.done += 1
        info('[%d/%d] %-22s %4d jobs  %6.1f s' % (out.done, out.total, stem + '.fio', len(model), took))
        if 'fell behind' in text:
            info("  note: %s: real time fell behind the schedule (see raw/%s.err); fio's paced rates "
                 'understate the model, the model report is exact' % (stem, stem))

    def run_all(self, scale, stems):
        """STEMS' job files, up to -j fio processes at once; the first that
        fails ends the matrix (the others are killed on the way out)."""
        todo, running = list(stems), {}
        while todo or running:
            while todo and len(running) < self.o['par']:
                stem = todo.pop(0)
                with open(os.path.join(self.raw, stem + '.json'), 'w') as out, \
                        open(os.path.join(self.raw, stem + '.err'), 'w') as err:
                    p = fiorun.start([self.ctx.fio, '--output-format=json', os.path.join(self.here, stem + '.fio')],
                                     stdout=out, stderr=err, env=self._env(scale), cwd=self.raw)
                running[p] = (stem, time.monotonic())
            time.sleep(0.05)
            for p in [p for p in running if p.poll() is not None]:
                stem, t0 = running.pop(p)
                fiorun.wait(p)
                if p.returncode != 0:
                    lines = fioout.error_lines(os.path.join(self.raw, stem + '.err')) or ['(no error line)']
                    raise Refusal('fio failed on %s.fio (exit %d):\n  %s' % (stem, p.returncode, '\n  '.join(lines)))
                self._done(stem, time.monotonic() - t0)

    def table(self, stem):
        if not self.fiotab:
            return
        r = subprocess.run([self.fiotab, 'perftest', '--series', 'perftest-([^-]+)-r-',
                            os.path.join(self.raw, stem + '.json')], stdout=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise Refusal('fiotab failed on raw/%s.json' % stem)
        _write(os.path.join(self.tables, stem + '.txt'), r.stdout)

    def calibration(self):
        info('== calibration: cases 1-11 (scale %d, %d bytes per job)' % (self.o['scale'], self.o['size']))
        self.run_all(self.o['scale'], CASES)
        for stem in CASES:
            self.table(stem)
        means = series_means([os.path.join(self.raw, s + '.model') for s in CASES])
        pub = published_means(os.path.join(self.here, 'published.tsv'))
        _write(os.path.join(self.tables, 'calibration.md'), calibration_md(means, pub))

    def later(self):
        info('== later matrix (predictions, scale %d)' % self.o['later_scale'])
        self.run_all(self.o['later_scale'], LATER)
        for stem in LATER:
            self.table(stem)
            means = series_means([os.path.join(self.raw, stem + '.model')])
            _write(os.path.join(self.tables, stem + '.summary.md'), summary_md(stem, means))


def _record(path, here, argv):
    """run.txt and jobs/ (the job files as run), as every run directory has."""
    for name in os.listdir(here):
        if name.endswith('.fio') or name in ('profile.conf', 'cases.tsv', 'published.tsv'):
            shutil.copy(os.path.join(here, name), os.path.join(path, 'jobs', name))
    with open(os.path.join(path, 'run.txt'), 'w') as f:
        f.write('%s\ncommand: perfpack model-matrix %s\nstatus: running\n' % (RUN_TXT_FIRST, ' '.join(argv)))


def cmd(ctx, args):
    o = parse(args)
    m = Matrix(ctx, o)
    ctx.out = out = outdir.OutDir('scst-coop-model', o['out'], o['overwrite'])
    # its tables are made case by case as it runs, not by perfpack tables
    out.partial_hint = 'the tables of the cases done are in its tables/'
    out.total = (len(CASES) if 'calibration' in o['parts'] else 0) + (len(LATER) if 'later' in o['parts'] else 0)
    out.start()
    m.raw, m.tables = os.path.join(out.path, 'raw'), os.path.join(out.path, 'tables')
    os.makedirs(m.tables)
    _record(out.path, m.here, args)
    t0 = time.monotonic()
    if 'calibration' in o['parts']:
        m.calibration()
    if 'later' in o['parts']:
        m.later()
    out.finish()
    info('model-matrix: done in %d s; raw JSON and model reports in %s/raw, tables in %s/tables'
         % (time.monotonic() - t0, out.path, out.path))
    return 0
