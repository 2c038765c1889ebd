# SPDX-License-Identifier: GPL-2.0-only
"""The output directory: written as DIR.partial.XXXXXX, renamed to DIR when
every fio run is done; a failed or interrupted run stays .partial, marked
"status: incomplete (k of N fio runs done)" in its run.txt."""

import datetime
import os
import re
import shutil
import tempfile

from .util import Refusal, umask_mode, warn


def is_run_dir(d):
    return (os.path.isfile(os.path.join(d, 'run.txt')) and os.path.isfile(os.path.join(d, 'jobs', 'profile.conf'))
            and os.path.isdir(os.path.join(d, 'raw')))


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
        self.final = os.path.abspath(out or default_dir(profile))
        self.overwrite = overwrite
        self.path = self.final
        self.partial = None
        self.done = self.total = 0
        self._check()

    def _check(self):
        out = self.final
        if not os.path.lexists(out):
            return
        if not os.path.isdir(out) or os.path.islink(out):
            raise Refusal('-o %s: exists and is not a directory' % out)
        if os.listdir(out):
            if not self.overwrite:
                raise Refusal('-o %s: exists and is not empty (an earlier run?): choose another -o, or pass '
                              '--overwrite to replace it once this run completes' % out)
            if not is_run_dir(out):
                raise Refusal('-o %s: not a perfpack run directory (no run.txt, jobs/, raw/): --overwrite '
                              'replaces only those' % out)

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
            warn('incomplete run (%d of %d fio runs done): what it produced is in %s (perfpack tables '
                 '--partial renders it)' % (self.done, self.total, self.partial))
            self.partial = None

    def finish(self):
        """Mark the run complete and rename it to DIR."""
        set_status(os.path.join(self.path, 'run.txt'), 'complete')
        final, old = self.final, None
        if os.path.lexists(final) and (not os.path.isdir(final) or os.listdir(final)):
            # made meanwhile (another run?) unless --overwrite asked for it
            if self.overwrite and is_run_dir(final):
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
