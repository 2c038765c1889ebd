# SPDX-License-Identifier: GPL-2.0-only
"""A profile: its folder, its manifest's fields (profiles/README.md)."""

import glob
import os
import re

from . import manifest
from .util import Refusal

DEFAULTS = {
    'TITLE': '', 'THREAD': '', 'JOBFILES': '', 'ENGINES': '', 'WRITES': '1',
    'TARGET_KIND': 'target', 'NEEDS_ROOT': '0', 'RUN_BY': 'section', 'QUICK': '',
    'FULL': '', 'VARIANTS': 'default', 'PLOT': '', 'DROP_CACHES': '1', 'HOLD_OPEN': '0',
}


class Profile:
    def __init__(self, profdir, name):
        if not re.match(r'^[A-Za-z0-9._-]+$', name):
            raise Refusal("bad profile name '%s'" % name)
        self.name = name
        self.dir = os.path.join(profdir, name)
        self.conf = os.path.join(self.dir, 'profile.conf')
        if not os.path.isfile(self.conf):
            raise Refusal("no profile '%s' in %s (perfpack list shows them)" % (name, profdir))
        self.values = dict(DEFAULTS)
        self.values['TABLES'] = []
        self.values.update(manifest.read(self.conf))
        self._check()

    def __getitem__(self, key):
        v = self.values.get(key, '')
        return v if isinstance(v, list) else str(v)

    def words(self, key):
        return self[key].split()

    def _check(self):
        conf = self.conf
        if not self['JOBFILES'].strip():
            raise Refusal('%s: JOBFILES is empty' % conf)
        for j in self.words('JOBFILES'):
            if not os.path.isfile(os.path.join(self.dir, j)):
                raise Refusal('%s: job file %s not found' % (conf, j))
        if self['RUN_BY'] not in ('section', 'file'):
            raise Refusal('%s: RUN_BY must be section or file' % conf)
        if self['TARGET_KIND'] not in ('target', 'none'):
            raise Refusal('%s: TARGET_KIND must be target or none' % conf)
        if not isinstance(self.values.get('TABLES', []), list):
            raise Refusal('%s: TABLES must be a list: TABLES=( ... )' % conf)

    def variant_names(self):
        return sorted(k[len('VARIANT_'):] for k in self.values
                      if k.startswith('VARIANT_') and not k.endswith(('_QUICK', '_FULL')))

    def has_variant(self, v):
        return v == 'default' or ('VARIANT_' + v) in self.values

    def jobfile_paths(self):
        return sorted(glob.glob(os.path.join(self.dir, '*.fio')))

    def known_names(self):
        """${VAR} of the job files and VAR= set in the manifest's variables."""
        known = set()
        for path in self.jobfile_paths():
            with open(path, encoding='utf-8', errors='replace') as f:
                known.update(re.findall(r'\$\{([A-Za-z_][A-Za-z0-9_]*)\}', f.read()))
        for key in ['QUICK', 'FULL'] + [k for k in self.values if k.startswith('VARIANT_')]:
            known.update(re.findall(r'(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=', self[key]))
        return known


def list_profiles(profdir):
    """(name, Profile or Refusal) of every folder with a profile.conf."""
    out = []
    for conf in sorted(glob.glob(os.path.join(profdir, '*', 'profile.conf'))):
        name = os.path.basename(os.path.dirname(conf))
        try:
            out.append((name, Profile(profdir, name)))
        except Refusal as e:
            out.append((name, e))
    return out
