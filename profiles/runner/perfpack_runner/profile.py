# SPDX-License-Identifier: GPL-2.0-only
"""A profile: its folder, its manifest's fields (profiles/README.md)."""

import glob
import os
import re

from . import manifest
from .util import Refusal

# The fields of profile.conf (profiles/README.md, "profile.conf"), the one
# list: KEY -> (type, default).  text: any string; words: names split at
# blanks; flag: 0 or 1; a tuple: one of these words; vars: VAR=value words
# (exported to fio, PP_* read by the runner); list: KEY=( items ).  Besides:
# VARIANT_<v>, VARIANT_<v>_QUICK and VARIANT_<v>_FULL, all vars.
FIELDS = {
    'TITLE': ('text', ''), 'THREAD': ('text', ''),
    'JOBFILES': ('words', ''), 'ENGINES': ('words', ''),
    'WRITES': ('flag', '1'), 'NEEDS_ROOT': ('flag', '0'),
    'DROP_CACHES': ('flag', '1'), 'HOLD_OPEN': ('flag', '0'),
    'TARGET_KIND': (('target', 'none'), 'target'), 'RUN_BY': (('section', 'file'), 'section'),
    'QUICK': ('vars', ''), 'FULL': ('vars', ''),
    'VARIANTS': ('words', 'default'),
    'TABLES': ('list', None), 'PLOT': ('text', ''),
}
VARIANT_FIELD = re.compile(r'^VARIANT_([A-Za-z0-9_]+)$')
DEFAULTS = {k: d for k, (_, d) in FIELDS.items() if d is not None}
# the fiotab commands that print a table (fiotab.1, COMMANDS; plot draws)
TABLE_COMMANDS = ('perftest', 'ratio', 'series', 'iozone', 'bonnie', 'dd', 'summary', 'hist')
# fio options whose value is a size (bytes, 4k, 1m ...), those of them that
# also take a percentage (of the file or device), integers (read with the
# same suffixes) and booleans (0 or 1): a variable a job file uses as the
# whole value of one must be one (plan.value_problem), as fio would not say
SIZE_OPTIONS = ('size', 'filesize', 'io_size', 'io_limit', 'offset', 'offset_increment',
                'bs', 'blocksize', 'ba', 'blockalign', 'zonesize', 'zonerange', 'zoneskip')
PERCENT_OPTIONS = ('size', 'io_size', 'io_limit', 'offset', 'offset_increment')
NUMBER_OPTIONS = ('numjobs', 'iodepth', 'iodepth_batch', 'iodepth_low', 'loops', 'number_ios',
                  'nrfiles', 'log_avg_msec')
# ... of which 0 is no count fio reads as one: numjobs=0 fails with 'maximum
# number of jobs reached', iodepth=0 is refused, loops=0 runs once and
# nrfiles=0 runs no I/O at all, number_ios=0 is no limit (Bonnie's SEEKS=0
# seeked over the whole file), each without naming the value
POSITIVE_OPTIONS = ('numjobs', 'iodepth', 'loops', 'nrfiles', 'number_ios')
BOOL_OPTIONS = ('direct', 'buffered', 'invalidate')

def jobfile_problem(name):
    """What is wrong with NAME as a JOBFILES/PP_JOBFILES entry, or None: it
    must be NAME.fio in the profile's folder, the files the variable types
    are read from (Profile.option_names) and whose stem names the raw
    output (raw/<variant>.<stem>.json) and the bundle's copy."""
    if '/' in name or not name.endswith('.fio') or name.startswith('.') or len(name) == 4:
        return ("job file '%s' is not NAME.fio in the profile's folder (the job files are that "
                "folder's *.fio)" % name)
    return None


def _writes(arg):
    """Whether fiotab may read ARG as -o/--output: a long option fiotab's
    getopt_long takes as a prefix of --output (--o, --out=F, ...), or a
    cluster of short options with an o before one that takes a value
    (-o, -oF, -ko F; -fo is --format=o).  Conservative: a value that only
    looks like one is refused too."""
    if arg.startswith('--'):
        name = arg[2:].split('=', 1)[0]
        return bool(name) and 'output'.startswith(name)
    if arg.startswith('-') and arg != '-':
        for ch in arg[1:]:
            if ch == 'o':
                return True
            if ch in 'fsx':
                return False
    return False


def table_writes(args):
    """What in ARGS (a TABLES entry's fiotab arguments) has fiotab write a
    file, or None: a table is fiotab's standard output, kept in DIR/tables,
    and a run (or a re-render of one received in a bug report) writes
    nothing else."""
    skip = False
    for i, a in enumerate(args[1:]):
        if skip:  # the value of the option before it
            skip = False
            continue
        if a != '--' and _writes(a):
            return ("'%s' is fiotab's -o/--output, which writes the file it names, outside DIR/tables "
                    "(the tables are fiotab's standard output, and the plot DIR/tables/plot.svg)" % a)
        if a == '--' or not a.startswith('-') or a == '-':
            # fiotab's inputs: the run's own raw JSON (@variant) only
            for f in (args[i + 2:] if a == '--' else [a]):
                if f.startswith('@') and not re.match(r'^@[A-Za-z0-9_]+(\.[A-Za-z0-9_][A-Za-z0-9_.-]*)?$', f):
                    return ("'%s' is not @variant or @variant.STEM (a variant's name, a job file's stem): "
                            "it would name a file elsewhere than the run's raw/" % f)
                if not f.startswith('@'):
                    return ("'%s' is an input of fiotab that is not the run's (@variant, @variant.STEM): a "
                            "table of the run would hold its data" % f)
            if a == '--':
                break
            continue
        skip = _takes_value(a)
    return None


_LONG_VALUED = ('format', 'series', 'baseline-series', 'candidate-series', 'alpha', 'output', 'tag', 'host',
                'start', 'x')
_LONG = _LONG_VALUED + ('keep-going', 'unix-epoch', 'no-iterations', 'help', 'version')


def _takes_value(arg):
    """Whether fiotab's getopt_long takes the next argument as ARG's value
    (-f csv, --series RE; not -fcsv, --series=RE)."""
    if arg.startswith('--'):
        if '=' in arg:
            return False
        name = arg[2:]
        full = [o for o in _LONG if o == name] or [o for o in _LONG if o.startswith(name)]
        return len(full) == 1 and full[0] in _LONG_VALUED
    for k, ch in enumerate(arg[1:]):
        if ch in 'fsxo':
            return k == len(arg) - 2
    return False


def field_type(key):
    if key in FIELDS:
        return FIELDS[key][0]
    return 'vars' if VARIANT_FIELD.match(key) else None


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
        self.manifest = manifest.read(self.conf)
        self.values.update(self.manifest)
        self._check()

    def __getitem__(self, key):
        v = self.values.get(key, '')
        return v if isinstance(v, list) else str(v)

    def words(self, key):
        return self[key].split()

    def where(self, key, item=None):
        """FILE:LINE of KEY in profile.conf (of its ITEMth item), or FILE."""
        m = self.manifest
        n = m.item_lines[key][item] if item is not None else m.lines.get(key)
        return '%s:%d' % (self.conf, n) if n else self.conf

    def _check(self):
        conf = self.conf
        errors = []
        sizes = self.option_names()
        for key in sorted(self.manifest, key=lambda k: self.manifest.lines[k]):
            val, at = self.manifest[key], self.where(key)
            kind = field_type(key)
            if kind is None:
                errors.append('%s: %s is not a profile.conf field (they are: %s, VARIANT_<v>, '
                              'VARIANT_<v>_QUICK, VARIANT_<v>_FULL)' % (at, key, ' '.join(FIELDS)))
            elif (kind == 'list') != isinstance(val, list):
                errors.append('%s: %s must be %s' % (at, key, '%s=( ... )' % key if kind == 'list'
                                                      else 'one value, not a list'))
            elif kind == 'flag' and val not in ('0', '1'):
                errors.append("%s: %s=%s: must be 0 or 1" % (at, key, val))
            elif isinstance(kind, tuple) and val not in kind:
                errors.append('%s: %s=%s: must be %s' % (at, key, val, ' or '.join(kind)))
            elif kind == 'vars':
                try:
                    from . import plan
                    pairs = manifest.words_to_vars(val, at)
                    names = [k for k, _ in pairs]
                    twice = sorted({k for k in names if names.count(k) > 1})
                    if twice:
                        raise Refusal('%s: %s sets %s twice' % (at, key, ' '.join(twice)))
                    plan.check_vars('%s: %s' % (at, key), dict(pairs), sizes)
                except Refusal as e:
                    errors.append(str(e))
        if errors:
            raise Refusal('\n'.join(errors))
        if not self['JOBFILES'].strip():
            raise Refusal('%s: JOBFILES is empty' % conf)
        for j in self.words('JOBFILES'):
            problem = jobfile_problem(j)
            if problem:
                raise Refusal('%s: JOBFILES: %s' % (self.where('JOBFILES'), problem))
            if not os.path.isfile(os.path.join(self.dir, j)):
                raise Refusal('%s: job file %s not found' % (self.where('JOBFILES'), j))
        for key in self.manifest:
            m = re.match(r'^VARIANT_(.+)_(QUICK|FULL)$', key)
            if m and not self.has_variant(m.group(1)):
                errors.append("%s: %s: no variant '%s' (variants: %s)"
                              % (self.where(key), key, m.group(1), ' '.join(self.variant_names())))
        vw = self.words('VARIANTS')
        for v in sorted({v for v in vw if vw.count(v) > 1}):
            errors.append("%s: VARIANTS names '%s' twice (its runs would write one raw/%s)"
                          % (self.where('VARIANTS'), v, v))
        for v in self.words('VARIANTS'):
            if not self.has_variant(v):
                errors.append("%s: VARIANTS names '%s': no VARIANT_%s (variants: %s)"
                              % (self.where('VARIANTS'), v, v, ' '.join(self.variant_names())))
        names = set()
        for i, t in enumerate(self['TABLES']):
            problem = self._table_problem(t, names)
            if problem:
                errors.append("%s: TABLES entry '%s': %s" % (self.where('TABLES', i), t, problem))
        problem = table_writes(['plot'] + self.words('PLOT'))
        if problem:
            errors.append('%s: PLOT: %s' % (self.where('PLOT'), problem))
        for ref in self.words('PLOT'):
            problem = self._input_problem(ref) if ref.startswith('@') else None
            if problem:
                errors.append('%s: PLOT %s: %s' % (self.where('PLOT'), ref, problem))
        if errors:
            raise Refusal('\n'.join(errors))

    def _table_problem(self, t, names):
        """What is wrong with TABLES entry T ('name=command args @variant ...'), or None."""
        name, eq, spec = t.partition('=')
        args = spec.split()
        if not eq or not re.match(r'^[A-Za-z0-9_.-]+$', name) or name.startswith('.'):
            return 'not NAME=COMMAND ARGS (NAME: letters, digits, _ . -)'
        if name in names:
            return 'a second table %s' % name
        names.add(name)
        if not args or args[0] not in TABLE_COMMANDS:
            return "'%s' is not a table of fiotab (%s)" % (args[0] if args else '', ' '.join(TABLE_COMMANDS))
        problem = table_writes(args)
        if problem:
            return problem
        inputs = [a for a in args if a.startswith('@')]
        if not inputs:
            return 'no @variant input'
        for a in inputs:
            problem = self._input_problem(a)
            if problem:
                return problem
        return None

    def _input_problem(self, ref):
        """What is wrong with @variant or @variant.STEM, or None."""
        v, dot, stem = ref[1:].partition('.')
        if not self.has_variant(v) or not v:
            return "%s: no variant '%s' (variants: %s)" % (ref, v, ' '.join(self.variant_names()))
        if dot and not os.path.isfile(os.path.join(self.dir, stem + '.fio')):
            return '%s: no job file %s.fio' % (ref, stem)
        return None

    def variant_names(self):
        return sorted(k[len('VARIANT_'):] for k in self.values
                      if k.startswith('VARIANT_') and not k.endswith(('_QUICK', '_FULL')))

    def has_variant(self, v):
        """A VARIANT_<v> of profile.conf, or 'default' where VARIANTS names
        it (a profile without VARIANTS has that one, from the scale alone):
        --variant default elsewhere ran the scale's variables under a name
        no TABLES entry reads."""
        return ('VARIANT_' + v) in self.values or (v == 'default' and v in self.words('VARIANTS'))

    def jobfile_paths(self):
        return sorted(glob.glob(os.path.join(self.dir, '*.fio')))

    def option_names(self):
        """VAR -> the fio options (SIZE_OPTIONS, NUMBER_OPTIONS, BOOL_OPTIONS)
        a job file sets to ${VAR}: the variables with a type."""
        out = {}
        opts = SIZE_OPTIONS + NUMBER_OPTIONS + BOOL_OPTIONS
        pat = re.compile(r'^\s*(%s)\s*=\s*\$\{([A-Za-z_][A-Za-z0-9_]*)\}\s*$' % '|'.join(opts))
        for path in self.jobfile_paths():
            with open(path, encoding='utf-8', errors='replace') as f:
                for line in f:
                    m = pat.match(line)
                    if m:
                        out.setdefault(m.group(2), set()).add(m.group(1))
        return out

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
