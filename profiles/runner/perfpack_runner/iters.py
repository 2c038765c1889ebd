# SPDX-License-Identifier: GPL-2.0-only
"""More iterations than a job file has (PP_ITERS above its -N suffixes):
each series' last iteration is repeated under the next names, in a copy
of the job file the run uses (and keeps in its bundle)."""

import os
import re

from .util import Refusal

_ITER = re.compile(r'^(.*-)([0-9]+)$')
_HEADER = re.compile(r'^\s*\[([^\]]+)\]\s*$')


def _bodies(text):
    """Section name -> its own lines (up to the next [section])."""
    bodies, name, order = {}, None, []
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            name = m.group(1)
            order.append(name)
            bodies[name] = []
        elif name is not None:
            bodies[name].append(line)
    return bodies, order


def _series(secs):
    """NAME- -> [(k, Section)] of the sections NAME-k of SECS."""
    series = {}
    for s in secs:
        m = _ITER.match(s.name)
        if m:
            series.setdefault(m.group(1), []).append((int(m.group(2)), s))
    return series


def _not_iterations(its):
    """Why the sections ITS ([(k, Section)]) are not iterations of one job,
    as fiotab takes them (numbered 1, 2, ... and differing in nothing but
    that number), or None."""
    nums = sorted(k for k, _ in its)
    if nums != list(range(1, len(nums) + 1)):
        return 'the sections %s are numbered %s, not 1, 2, ... as iterations are' % (
            ' '.join(s.name for _, s in its[:3]) + (' ...' if len(its) > 3 else ''),
            ' '.join(map(str, nums[:6])) + (' ...' if len(nums) > 6 else ''))
    first = its[0][1]
    for _, s in its[1:]:
        diff = sorted(k for k in set(first.opts) | set(s.opts) if first.opts.get(k) != s.opts.get(k))
        if diff:
            return '[%s] and [%s] are not iterations of one job: they differ in %s' % (
                first.name, s.name, ', '.join('%s=' % k for k in diff))
    return None


def iterations(secs):
    """The names of the sections of SECS that are iterations of a job."""
    return {s.name for its in _series(secs).values() if not _not_iterations(its) for _, s in its}


def check(secs, n, where):
    """Refusal unless every series of SECS (NAME-1, NAME-2, ...) is
    iterations of one job: PP_ITERS=N would otherwise drop or repeat the
    points of a sweep (an iodepth qd-1, qd-4, qd-16; a lone job-4096) as if
    they were repeats."""
    for _, its in sorted(_series(secs).items()):
        why = _not_iterations(its)
        if why:
            raise Refusal('%s: PP_ITERS=%d: %s (PP_ITERS counts iterations, a job repeated as NAME-1, NAME-2, '
                          '... and differing in nothing else; not the points of a sweep)' % (where, n, why))


def extend(secs, text, n, where):
    """(SECS with clones up to iteration N, text of the added sections)."""
    last = {}
    for s in secs:
        m = _ITER.match(s.name)
        if m:
            last[m.group(1)] = max(last.get(m.group(1), 0), int(m.group(2)))
    if not any(k < n for k in last.values()):
        return secs, ''
    bodies, order = _bodies(text)
    globals_at = [i for i, name in enumerate(order) if name == 'global']
    if globals_at != [0]:
        raise Refusal('%s: PP_ITERS=%d is more iterations than it has, and its [global] sections are not one '
                      'at the top (a repeated job would not get the options it has there)' % (where, n))
    out, extra = [], []
    for s in secs:
        out.append(s)
        m = _ITER.match(s.name)
        if not m or int(m.group(2)) != last[m.group(1)]:
            continue
        for k in range(int(m.group(2)) + 1, n + 1):
            name = '%s%d' % (m.group(1), k)
            out.append(type(s)(name, s.opts))
            extra.append('[%s]\n%s' % (name, '\n'.join(bodies.get(s.name, []))))
    return out, '\n; added by perfpack: PP_ITERS=%d\n%s\n' % (n, '\n'.join(extra))


def write(work, v, jobfile, text):
    d = os.path.join(work, 'iters-' + v)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, jobfile)
    with open(path, 'w') as f:
        f.write(text)
    return path
