# SPDX-License-Identifier: GPL-2.0-only
"""The output directory: written as DIR.partial.XXXXXX, renamed to DIR when
every fio run is done; a failed or interrupted run stays .partial, marked
"status: incomplete (k of N fio runs done)" in its run.txt."""

import datetime
import json
import os
import re
import shutil
import tempfile

from .manifest import control_char
from .util import Refusal, abspath, not_utf8, umask_mode, warn


def is_run_dir(d):
    return (os.path.isfile(os.path.join(d, 'run.txt')) and os.path.isfile(os.path.join(d, 'jobs', 'profile.conf'))
            and os.path.isdir(os.path.join(d, 'raw')))


# Every path a run wrote (JSON list, relative, directories ending in '/'),
# written when the run completes: --overwrite replaces a directory holding
# these and nothing else; in tables/ and tables.failed/, which `perfpack
# tables` renders again later, also the names a render of its TABLES writes.
INVENTORY = '.perfpack-files'
RENDERED = ('tables', 'tables.failed')


def _entries(d, rel=''):
    """Every entry under D (relative; a directory, not a link to one, with a
    trailing '/' and its entries after it), sorted."""
    out = []
    with os.scandir(os.path.join(d, rel) if rel else d) as it:
        for e in sorted(it, key=lambda e: e.name):
            r = os.path.join(rel, e.name)
            if e.is_dir(follow_symlinks=False):
                out.append(r + '/')
                out += _entries(d, r)
            else:
                out.append(r)
    return out


def record_files(d):
    """D's inventory, every path in it."""
    files = _entries(d) + [INVENTORY]
    with open(os.path.join(d, INVENTORY), 'w') as f:
        json.dump(sorted(set(files)), f, indent=0)
        f.write('\n')


def _rendered_names(d):
    """The names a render of run directory D writes in tables/."""
    from . import manifest, tables  # tables imports this module
    try:
        tabs = manifest.read(os.path.join(d, 'jobs', 'profile.conf')).get('TABLES', [])
    except Refusal:
        tabs = []
    return tables.rendered_names(tabs if isinstance(tabs, list) else [])


def inventory(d):
    """The paths D's inventory lists, or None."""
    try:
        with open(os.path.join(d, INVENTORY)) as f:
            return set(json.load(f))
    except (OSError, ValueError):
        return None


def foreign(d):
    """A path in run directory D that its run did not write (or the reason
    it cannot tell), else None: --overwrite removes a run's own files only."""
    made = inventory(d)
    if made is None:
        return ('it has no readable %s (the list of files a run writes when it completes: a run made by an '
                'older perfpack, or not a completed run), so its files cannot be told from yours' % INVENTORY)
    rendered = _rendered_names(d)
    for e in _entries(d):
        top, _, rest = e.partition('/')
        if e in made or (top in RENDERED and (rest in rendered or rest == '')):
            continue
        return '%s is not a file the run wrote' % os.path.join(d, e)
    return None


def foreign_rendered(d):
    """A path in run directory D's tables/ or tables.failed/ that neither a
    render of its TABLES writes nor its run wrote, else None: a render
    replaces those directories whole (tables.py)."""
    made, rendered = inventory(d) or set(), _rendered_names(d)
    for top in RENDERED:
        if not os.path.isdir(os.path.join(d, top)) or os.path.islink(os.path.join(d, top)):
            continue
        for e in _entries(d, top):
            rest = e.partition('/')[2]
            if e not in made and rest not in rendered:
                return os.path.join(d, e)
    return None


def default_dir(profile):
    base = './perfpack-out/%s-%s' % (profile, datetime.datetime.now().strftime('%Y%m%d-%H%M%S'))
    out, i = base, 1
    while os.path.lexists(out):
        i += 1
        out = '%s.%d' % (base, i)
    return out


def set_status(run_txt, status):
    try:
        with open(run_txt) as f:
            text = f.read()
        with open(run_txt, 'w') as f:
            f.write(re.sub(r'(?m)^status: .*$', 'status: ' + status, text))
    except OSError:
        pass


def read_status(run_txt):
    with open(run_txt) as f:
        found = re.findall(r'(?m)^status: (.*)$', f.read())
    return found[-1] if found else None


class OutDir:
    def __init__(self, profile, out, overwrite):
        self.final = abspath(out or default_dir(profile))
        if not_utf8(self.final):
            raise Refusal('-o %s: is not valid UTF-8, which run.txt and the bundle that name it are: give another '
                          '-o' % ascii(self.final))
        if control_char(self.final):
            raise Refusal('-o %s: contains %s, which would end the line of run.txt that names it (its command, '
                          'and a "status:" line after it rewritten with the status): give another -o'
                          % (ascii(self.final), control_char(self.final)))
        self.overwrite = overwrite
        self.path = self.final
        self.partial = None
        self.done = self.total = 0
        # what to do with an incomplete run's directory (abandon)
        self.partial_hint = 'perfpack tables --partial renders it'
        self._check()

    def _check(self):
        out = self.final
        if not os.path.lexists(out):
            return
        if not os.path.isdir(out) or os.path.islink(out):
            raise Refusal('-o %s: exists and is not a directory' % out)
        if os.path.ismount(out):
            # DIR.partial.XXXXXX is made beside it, on its parent's filesystem,
            # and the rename to DIR (or DIR's move away) fails after the run
            raise Refusal('-o %s: is a mount point: a run is written as %s.partial.XXXXXX beside it, on the '
                          'filesystem of %s, and renamed to it when complete, which a mount point cannot be; '
                          'give a directory inside it (-o %s/NAME)' % (out, out, os.path.dirname(out), out))
        if os.listdir(out):
            if not self.overwrite:
                raise Refusal('-o %s: exists and is not empty (an earlier run?): choose another -o, or pass '
                              '--overwrite to replace it once this run completes' % out)
            if not is_run_dir(out):
                raise Refusal('-o %s: not a perfpack run directory (no run.txt, jobs/, raw/): --overwrite '
                              'replaces only those' % out)
            why = foreign(out)
            if why:
                raise Refusal('-o %s --overwrite: %s; --overwrite replaces only what a run wrote: move that '
                              'away, or choose another -o' % (out, why))

    def start(self):
        parent = os.path.dirname(self.final)
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as e:
            raise Refusal('-o: cannot create %s: %s' % (e.filename or parent, e.strerror))
        try:
            self.partial = tempfile.mkdtemp(prefix=os.path.basename(self.final) + '.partial.', dir=parent)
        except OSError as e:
            raise Refusal('-o: cannot create %s.partial.XXXXXX: %s' % (self.final, e.strerror))
        os.chmod(self.partial, umask_mode())
        self.path = self.partial
        for d in ('raw', 'jobs', 'env', 'bundle'):
            os.makedirs(os.path.join(self.path, d), exist_ok=True)

    def abandon(self):
        """The run did not complete: say so in run.txt and on stderr."""
        if self.partial and os.path.isdir(self.partial):
            status = 'incomplete (%d of %d fio runs done)' % (self.done, self.total)
            set_status(os.path.join(self.partial, 'run.txt'), status)
            warn('incomplete run (%d of %d fio runs done): what it produced is in %s (%s)'
                 % (self.done, self.total, self.partial, self.partial_hint))
            self.partial = None

    def finish(self):
        """Mark the run complete and rename it to DIR."""
        set_status(os.path.join(self.path, 'run.txt'), 'complete')
        record_files(self.path)
        final, old = self.final, None
        if os.path.lexists(final) and (not os.path.isdir(final) or os.listdir(final)):
            # made meanwhile (another run?) unless --overwrite asked for it;
            # checked again: files put there during this run are not its
            why = (not is_run_dir(final) and 'not a perfpack run directory') or foreign(final)
            if self.overwrite and why:
                self.partial = None
                raise Refusal('-o %s --overwrite: %s (since this run started); left as is: the complete run is '
                              'in %s' % (final, why, self.path))
            if self.overwrite:
                old = tempfile.mktemp(prefix=os.path.basename(final) + '.old.', dir=os.path.dirname(final))
                try:
                    os.rename(final, old)
                except OSError:
                    self.partial = None
                    raise Refusal('cannot move %s away: the complete run is in %s' % (final, self.path))
            else:
                self.partial = None
                raise Refusal('%s appeared during the run: left as is; the complete run is in %s' % (final, self.path))
        try:
            if os.path.isdir(final) and not os.listdir(final):
                os.rmdir(final)
            os.rename(self.path, final)
        except OSError:
            if old:
                os.rename(old, final)
            self.partial = None
            raise Refusal('cannot rename %s to %s: the complete run is in %s' % (self.path, final, self.path))
        self.partial = None
        self.path = final
        if old:
            shutil.rmtree(old, ignore_errors=True)
