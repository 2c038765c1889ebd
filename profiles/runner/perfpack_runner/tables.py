# SPDX-License-Identifier: GPL-2.0-only
"""The tables of a run (fiotab): rendered into a fresh DIR/tables.new.XXXXXX,
each file whole or not at all, which then replaces DIR/tables."""

import json
import os
import re
import shutil
import subprocess
import tempfile

from . import manifest, modelmatrix, outdir
from .profile import table_writes
from .util import PROG, Refusal, have, umask_mode, warn


# The files a render writes in tables/ (outdir.foreign tells them from yours):
# the plot's, each table's (table_files), and beside a table file the
# temporary one _run_to writes it through.
PLOT_FILES = ('plot.svg', 'plot.err')
TMP = '.tmp'


def table_files(name):
    """(text, CSV, fiotab's errors) of table NAME."""
    return name + '.txt', name + '.csv', name + '.err'


def rendered_names(tables):
    """Every name a render of TABLES ('NAME=command ...') writes in tables/
    (the .tmp ones: a render cut short)."""
    names = set(PLOT_FILES)
    for t in tables:
        txt, csv, err = table_files(t.partition('=')[0])
        names |= {txt, csv, err, txt + TMP, csv + TMP}
    return names


class Missing(Exception):
    """A table's input from a variant that was run is not there."""


def _resolve(out, args, ran):
    """@v / @v.stem -> raw JSON paths; None when one is of a variant not in
    RAN (not run: no table); Missing when one of a variant run is absent
    or empty (its output lost)."""
    res = []
    for a in args:
        if a.startswith('@'):
            f = os.path.join(out, 'raw', a[1:] + '.json')
            if not (os.path.isfile(f) and os.path.getsize(f) > 0):
                if a[1:].split('.')[0] in ran:
                    raise Missing('%s is missing or empty, but variant %s was run'
                                  % (os.path.relpath(f, out), a[1:].split('.')[0]))
                return None
            res.append(f)
        else:
            res.append(a)
    return res


def _unmade(out, args):
    """What the runner wrote in env/V.unmade for the @V inputs in ARGS: a
    variant that ran without its filesystem recipe, which its table's name
    (xfs, ext3, file ...) would otherwise claim."""
    notes = []
    for a in args:
        if a.startswith('@'):
            try:
                with open(os.path.join(out, 'env', a[1:].split('.')[0] + '.unmade')) as f:
                    notes += [ln for ln in f.read().splitlines() if ln and ln not in notes]
            except OSError:
                continue
    return notes


def _run_to(path, args, err_path, head=''):
    """ARGS' stdout into PATH (whole or not at all); stderr appended to
    ERR_PATH.  Exit 0 with nothing printed is a failure too: an empty table
    is no table."""
    tmp = path + TMP
    with open(tmp, 'w') as f, open(err_path, 'a') as err:
        f.write(head)
        f.flush()
        start = f.tell()
        rc = subprocess.run(args, stdout=f, stderr=err).returncode
        if rc == 0 and os.path.getsize(tmp) == start:
            err.write('%s exited 0 but printed nothing\n' % os.path.basename(args[0]))
            rc = 1
    if rc != 0:
        os.unlink(tmp)
        return False
    os.rename(tmp, path)
    return True


def _head(path, n=3):
    try:
        with open(path, errors='replace') as f:
            return ' '.join(f.read().splitlines()[:n])
    except OSError:
        return ''


def labels(out):
    """fiotab options naming the run (from DIR/bundle/meta.json): profile,
    kernel and device as tags, and the host the run was made on (fio names
    no host for a local run, and a re-render may run elsewhere)."""
    try:
        with open(os.path.join(out, 'bundle', 'meta.json')) as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return []
    args = []
    for k in ('profile', 'kernel'):
        if meta.get(k):
            args += ['--tag', '%s=%s' % (k, meta[k])]
    devices = {d for d in (meta.get('devices') or {}).values() if d}
    if len(devices) == 1:
        args += ['--tag', 'device=%s' % devices.pop()]
    if meta.get('hostname') and not meta.get('clients'):
        args += ['--host', meta['hostname']]
    return args


def _one(fiotab, new, profile, t, mark, incomplete, tags, ran, notes):
    """Render table T ('name=cmd args...'): False on a failure."""
    name, _, spec = t.partition('=')
    args = spec.split()
    try:
        resolved = _resolve(os.path.dirname(new), args, ran)
    except Missing as e:
        if incomplete:  # the run stopped before that variant's output
            warn('table %s left out: %s (the run is incomplete: %s)' % (name, e, incomplete))
            return True
        warn('table %s: %s' % (name, e))
        return False
    if resolved is None:
        return True
    print('\n== %s: %s (%s) ==%s' % (profile, name, ' '.join(args), mark), flush=True)
    txt, csv, err = (os.path.join(new, f) for f in table_files(name))
    head = '# INCOMPLETE RUN (%s): partial data\n' % incomplete if incomplete else ''
    head += ''.join('# NOTE: %s\n' % n for n in _unmade(os.path.dirname(new), args))
    head += ''.join('# NOTE: %s\n' % notes[v] for v in dict.fromkeys(a[1:].split('.')[0] for a in args
                                                                    if a.startswith('@')) if v in notes)
    if not _run_to(txt, [fiotab] + resolved, err, head):
        warn('fiotab %s failed: %s' % (' '.join(resolved), _head(err)))
        return False
    with open(txt) as f:
        print(f.read(), end='', flush=True)
    ok = _run_to(csv,
                 [fiotab, resolved[0], '--format=csv'] + tags + resolved[1:], err)
    if not ok:
        warn('fiotab --format=csv failed for %s' % name)
    if os.path.getsize(err) == 0:
        os.unlink(err)
    return ok


def write(fiotab, out, profile, tables, plot, ran, incomplete=None, notes=None):
    """Render TABLES and PLOT of run directory OUT, whose variants RAN were
    run: True when all rendered; NOTES {variant: line} heads the text of
    each table of that variant.  When one fails, tables made before are
    kept as they were, and this render goes to OUT/tables.failed."""
    if not (os.path.isfile(fiotab) and os.access(fiotab, os.X_OK)) and not have(fiotab):
        warn('fiotab not found (%s): raw fio JSON kept in %s/raw, no tables' % (fiotab, out))
        return False
    for t in tables:  # checked again here: perfpack tables reads DIR/jobs/profile.conf
        problem = table_writes(t.partition('=')[2].split())
        if problem:
            raise Refusal("%s: TABLES entry '%s': %s" % (os.path.join(out, 'jobs', 'profile.conf'), t, problem))
    problem = table_writes(['plot'] + plot.split())
    if problem:
        raise Refusal('%s: PLOT: %s' % (os.path.join(out, 'jobs', 'profile.conf'), problem))
    mine = outdir.foreign_rendered(out)
    if mine:
        raise Refusal('%s is not a file a render of this run writes, and a render replaces %s/tables and '
                      '%s/tables.failed whole: move it out of the run directory first' % (mine, out, out))
    mark = ' [INCOMPLETE RUN: %s: partial data]' % incomplete if incomplete else ''
    try:
        new = tempfile.mkdtemp(prefix='tables.new.', dir=out)
    except OSError as e:
        raise Refusal('cannot create a directory in %s: %s' % (out, e.strerror))
    os.chmod(new, umask_mode())
    try:
        tags = labels(out)
        ok = all([_one(fiotab, new, profile, t, mark, incomplete, tags, ran, notes or {}) for t in tables])
        ok = _plot(fiotab, new, out, plot, tags, ran, incomplete) and ok
        dest, failed = (os.path.join(out, r) for r in outdir.RENDERED)
        if not ok and os.path.isdir(dest):
            # nothing lost, nothing stale beside an error: the tables made
            # before stay whole, this render and its errors go beside them
            shutil.rmtree(failed, ignore_errors=True)
            os.rename(new, failed)
            new = None
            warn('%s kept as it was; this render and its errors are in %s' % (dest, failed))
            return False
        try:
            shutil.rmtree(dest, ignore_errors=True)
            os.rename(new, dest)
        except OSError:
            kept, new = new, None
            raise Refusal('cannot replace %s: the tables are in %s' % (dest, kept))
        new = None
        shutil.rmtree(failed, ignore_errors=True)
        if os.path.exists(os.path.join(dest, PLOT_FILES[0])):
            print('\nplot: %s' % os.path.join(dest, PLOT_FILES[0]), flush=True)
        return ok
    finally:
        if new:
            shutil.rmtree(new, ignore_errors=True)


def _plot(fiotab, new, out, plot, tags, ran, incomplete):
    inputs = []
    for a in plot.split():
        try:
            r = _resolve(out, [a], ran)
        except Missing as e:
            if incomplete:
                warn('plot: %s left out: %s (the run is incomplete: %s)' % (a, e, incomplete))
                continue
            warn('plot: %s' % e)
            return False
        if r:
            inputs += r
    if not inputs:
        return True
    svg, err = (os.path.join(new, f) for f in PLOT_FILES)
    with open(err, 'w') as e:
        rc = subprocess.run([fiotab, 'plot', '-o', svg] + tags + inputs, stderr=e).returncode
    if rc == 0 and not (os.path.isfile(svg) and os.path.getsize(svg) > 0):
        with open(err, 'a') as e:
            e.write('%s plot exited 0 but wrote no %s\n' % (os.path.basename(fiotab), svg))
        rc = 1
    if rc == 0:
        os.unlink(err)
        return True
    if os.path.exists(svg):
        os.unlink(svg)
    warn('fiotab plot failed: %s' % _head(err))
    return False


def _pieces(data, runs):
    """The set of names of RUNS ({name: bytes}) whose bytes, one after
    another, make DATA; or (None, offset of the first byte no run's file
    starts)."""
    pos, used = 0, set()
    while pos < len(data):
        name = next((n for n, b in runs.items() if n not in used and b and data.startswith(b, pos)), None)
        if name is None:
            return None, pos
        used.add(name)
        pos += len(runs[name])
    return used, None


def check_raw(out, complete):
    """Refusal unless every raw/V.json and raw/V.STEM.json (what the tables
    read) is made of the runs' raw/V/JOB.json as they are now, and, of a
    complete run, raw/V.json of every one of them: a run's file removed or
    edited after the run would still be tabled from the concatenation.
    Returns {variant: note} for a complete run whose raw/V/ no longer holds
    the runs its inventory lists (one left out of both, whole, or added):
    its tables are then of other runs than the run's, and say so."""
    raw, made, notes = os.path.join(out, 'raw'), outdir.inventory(out) if complete else None, {}
    for n in sorted(os.listdir(raw)):
        v = n[:-5].split('.')[0]
        d = os.path.join(raw, v)
        if n.endswith('.json') and os.path.isfile(os.path.join(raw, n)) and (
                not os.path.isdir(d) or os.path.islink(d)):
            raise Refusal('%s: raw/%s, which the tables read, has no raw/%s/, the runs it is made of: removed '
                          'after the run, it can no longer be checked against them; restore it' % (out, n, v))
    for v in sorted(os.listdir(raw)):
        d = os.path.join(raw, v)
        if not os.path.isdir(d) or os.path.islink(d):
            continue
        runs = {}
        for n in sorted(os.listdir(d)):
            if n.endswith('.json') and os.path.isfile(os.path.join(d, n)):
                with open(os.path.join(d, n), 'rb') as f:
                    runs[n] = f.read()
        # raw/V.json first: it holds every run, so a run not in it is named
        for c in sorted((n for n in os.listdir(raw) if n == v + '.json' or n.startswith(v + '.')
                         and n.endswith('.json') and '.' not in n[len(v) + 1:-5]), key=lambda n: n != v + '.json'):
            with open(os.path.join(raw, c), 'rb') as f:
                data = f.read()
            used, off = _pieces(data, runs)
            why = None
            absent = []
            if used is None:
                why = 'its bytes from offset %d on are in none of raw/%s/*.json' % (off, v)
                if c == v + '.json':  # edited ones (of an incomplete run, also a failed run's)
                    absent = [n for n in runs if data.find(runs[n]) < 0]
            elif complete and c == v + '.json':
                absent = sorted(set(runs) - used)
            if absent:
                why = (why + '; ' if why else '') + '%s not in it' % ', '.join('raw/%s/%s' % (v, n) for n in absent)
            if why:
                raise Refusal('%s: raw/%s, which the tables read, does not hold the runs of raw/%s/ as the run '
                              'wrote them (%s): a run\'s file removed or edited after the run (its fio output as '
                              'it was is in raw/%s); restore it, or make raw/%s agree (a run left out of both, '
                              'whole)' % (out, c, v, why, c, c))
        if made is not None:
            ran = {e for e in made if e.startswith('raw/%s/' % v) and e.endswith('.json') and '/' not in e[len(v) + 5:]}
            now = {'raw/%s/%s' % (v, n) for n in runs}
            if ran != now:
                notes[v] = '%d of the run\'s %d fio runs of raw/%s/%s%s' % (
                    len(ran & now), len(ran), v,
                    '; removed after the run: %s' % ', '.join(sorted(ran - now)) if ran - now else '',
                    '; added after the run: %s' % ', '.join(sorted(now - ran)) if now - ran else '')
    return notes


def cmd_tables(ctx, args, usage):
    """`perfpack tables [--partial] DIR`: the tables of a run again, from its
    raw JSON and its own copy of the manifest (same parser as for runs)."""
    d, partial_ok = None, False
    for a in args:
        if a == '--partial':
            partial_ok = True
        elif a in ('-h', '--help'):
            print(usage, end='')
            return 0
        elif a.startswith('-'):
            raise Refusal('unknown option %s (perfpack help)' % a)
        elif d:
            raise Refusal('usage: %s tables [--partial] DIR' % PROG)
        else:
            d = a
    if not d:
        raise Refusal('usage: %s tables [--partial] DIR' % PROG)
    out = os.path.realpath(d)
    if not outdir.is_run_dir(out):
        raise Refusal('%s is not a perfpack run directory' % d)
    with open(os.path.join(out, 'run.txt')) as f:
        lines = f.read().splitlines()
    if lines and lines[0] == modelmatrix.RUN_TXT_FIRST:
        raise Refusal('%s is a perfpack model-matrix directory: its tables are made as it runs, in %s/tables; '
                      'perfpack tables renders those of a perfpack run' % (d, d))
    m = re.match(r'^perfpack run (\S+) ', lines[0] if lines else '')
    ran = next((ln.split()[1:] for ln in lines if ln.startswith('variants:')), None)
    if ran is None:
        raise Refusal('%s: run.txt names no variants (no "variants:" line): cannot tell a variant not run '
                      'from one whose output is missing' % d)
    status, incomplete = outdir.read_status(os.path.join(out, 'run.txt')), None
    if status is None:
        warn('%s: no status in run.txt (made by an older perfpack): cannot tell whether the run completed' % d)
    elif status != 'complete':
        if not partial_ok:
            raise Refusal('%s is an incomplete run (%s): its tables would show partial data as if complete; '
                          'pass --partial to render them anyway (marked as such)' % (d, status))
        incomplete = status
    notes = check_raw(out, status == 'complete')
    lost = sorted(e for e in outdir.inventory(out) or () if e.startswith('env/') and e.endswith('.unmade')
                  and not os.path.isfile(os.path.join(out, e))) if status == 'complete' else []
    if lost:
        raise Refusal('%s: %s, which the run wrote, is gone: the tables of its variant would lose the note that it '
                      'ran without its filesystem recipe; restore it' % (d, lost[0]))
    conf = manifest.read(os.path.join(out, 'jobs', 'profile.conf'))
    tabs = conf.get('TABLES', [])
    plot = conf.get('PLOT', '')
    if not isinstance(tabs, list) or not isinstance(plot, str):
        raise Refusal('%s: TABLES must be a list and PLOT a string' % os.path.join(out, 'jobs', 'profile.conf'))
    return 0 if write(ctx.fiotab, out, m.group(1) if m else '?', tabs, plot, ran, incomplete, notes) else 1
