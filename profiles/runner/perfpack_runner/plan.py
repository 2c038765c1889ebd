# SPDX-License-Identifier: GPL-2.0-only
"""The matrix: each variant's variables, its job sections as fio parses
them, the PP_* filters, and the fio runs ("steps") in order."""

import os
import re
import stat
import subprocess

from . import iters, manifest
from .profile import BOOL_OPTIONS, NUMBER_OPTIONS, PERCENT_OPTIONS, POSITIVE_OPTIONS, jobfile_problem
from .util import Refusal, to_bytes

PP_VARS = ('PP_SETUP PP_FS PP_MKFS_OPTS PP_MOUNT_OPTS PP_FILE_MB PP_SCRATCH_MB PP_MINBS '
           'PP_MAXBS PP_RW PP_ITERS PP_SECTIONS PP_JOBFILES PP_ENGINES').split()
# a filesystem recipe's variables (target.py), read only where PP_SETUP=fs
RECIPE_VARS = ('PP_FS', 'PP_MKFS_OPTS', 'PP_MOUNT_OPTS')  # what filesystem a recipe makes
FS_VARS = RECIPE_VARS + ('PP_FILE_MB',)
# the most iterations PP_ITERS asks for (perfpack(1)); SCST's blockdev-perftest makes 3
MAX_ITERS = 1000
# pick which of a variant's runs are made, not how each one measures
FILTER_VARS = ('PP_MINBS', 'PP_MAXBS', 'PP_RW', 'PP_ITERS', 'PP_SECTIONS')
READS = ('read', 'randread')
# options that place I/O where offset/size/numjobs do not say: the whole target
_PLACEMENT = ('filesize', 'zonemode', 'zonesize', 'zonerange', 'zoneskip', 'offset_align')


class Step:
    def __init__(self, variant, jobfile, sections, label, path):
        self.variant, self.jobfile, self.sections, self.label = variant, jobfile, sections, label
        self.path = path  # the job file fio gets (a copy when PP_ITERS adds iterations)

    def stem(self, run_by):
        """raw/<variant>/<stem>.json, .log, .diskstat: the job file's name
        (RUN_BY=file) or the section's."""
        return self.jobfile[:-4] if run_by == 'file' else self.sections[0]


class Section:
    def __init__(self, name, opts):
        self.name, self.opts = name, opts
        self.rw = opts.get('rw') or opts.get('readwrite') or 'read'
        self.bs = opts.get('bs') or opts.get('blocksize') or '4096'
        self.end = _end(opts, self.bs)

    def writes(self):
        return self.rw not in READS

    def moved_bs(self):
        """The block sizes of the directions the job moves, as fio reads
        bs=R[,W[,T]] (one value: every direction; with a comma an empty
        one is fio's default, 4096); None where one is no size."""
        parts = self.bs.split(',')
        if len(parts) == 1:
            parts = parts * 3
        parts = (parts + ['', ''])[:3]
        rw = self.rw.split(':')[0]
        dirs = ([0] if rw in ('read', 'randread', 'rw', 'readwrite', 'randrw') else []) + \
               ([1] if rw in ('write', 'randwrite', 'rw', 'readwrite', 'randrw', 'trimwrite') else []) + \
               ([2] if rw in ('trim', 'randtrim', 'trimwrite') else [])
        out = [to_bytes(parts[d].strip() or '4096') for d in dirs or [0, 1]]
        return None if None in out else out


def _end(opts, bs):
    """Where the section's I/O ends on its file (bytes), or 'all'."""
    maxbs = max([to_bytes(b) or 0 for b in bs.split(',')] or [0])
    size = to_bytes(opts.get('size', ''))
    off = to_bytes(opts.get('offset', '0'))
    inc = to_bytes(opts.get('offset_increment', '0'))
    nj = opts.get('numjobs', '1')
    if (not size or off is None or inc is None or not nj.isdigit() or maxbs <= 0
            or any(k in opts for k in _PLACEMENT)):
        return 'all'
    end = off + size + (int(nj) - 1) * inc
    return -(-end // maxbs) * maxbs


def _is_bdev(path):
    try:
        return stat.S_ISBLK(os.stat(path).st_mode)
    except OSError:
        return False


def _true(value):
    """A fio boolean option's value as fio reads it."""
    return value.strip().lower() in ('1', 'true', 'on', 'yes')


def max_end(a, b):
    if 'all' in (a, b):
        return 'all'
    return max([x for x in (a, b) if x is not None], default=None)


# fio's job-file keywords (options.c fio_keyword_replace), replaced in every
# option line after its ${VAR}s: '$ncpus' in a --target had fio write
# another file
FIO_KEYWORDS = ('$pagesize', '$mb_memory', '$ncpus')


def fio_value_problem(value):
    """What fio 3.33 would read differently in VALUE on a job-file line
    (parse.c strip_blank_end, options.c), or None: it ends the value at ';'
    or '#' (a comment) and strips blanks around it, replaces its keywords
    with this machine's values (then has bc compute the line if it has
    + - * /), and a ${VAR} in the bundle's job files (values substituted)
    with the environment's, without a word."""
    for c in ';#':
        if c in value:
            return "has '%s', where fio ends the value (a comment) and would use what is before it" % c
    for k in FIO_KEYWORDS:
        if k in value:
            return "has '%s', which fio replaces with this machine's value (its keywords: %s)" % (
                k, ' '.join(FIO_KEYWORDS))
    if '${' in value:
        return "has '${', which fio replaces with an environment variable in the bundle's job files"
    if value != value.strip():
        return 'has a blank at its start or end, which fio strips'
    return None


def check_sets(sets):
    """--set VAR=VALUE words (-s SIZE is the last, SIZE=bytes) as understood:
    no control character, not the runner's own variables, no variable twice
    with two values (which one was meant?)."""
    given = {}
    for s in sets:
        if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', s):
            raise Refusal("--set %s: not VAR=VALUE" % _shown(s))
        name, _, value = s.partition('=')
        if given.setdefault(name, value) != value:
            raise Refusal('--set %s: given twice, as %s and as %s (-s SIZE sets SIZE too, in bytes): give it once'
                          % (name, _shown(given[name]), _shown(value)))
        if manifest.control_char(value):
            raise Refusal('--set %s: the value %s has %s (values go into job files and comments as they are)'
                          % (name, _shown(value), manifest.control_char(value)))
        if name == 'TARGET':
            raise Refusal('--set TARGET: the runner sets TARGET (and checks it is safe to write): use --target PATH')
        if name == 'ENGDIR':
            raise Refusal('--set ENGDIR: the runner sets ENGDIR (and checks the engines there): set it in the environment (ENGDIR=DIR perfpack run ...)')


def _shown(text):
    """TEXT quoted as in a message, control characters escaped."""
    if manifest.control_char(text):
        return repr(text)
    return "'%s'" % text


def check_set_names(profile, sets):
    known = profile.known_names()
    for s in sets:
        k = s.split('=', 1)[0]
        if not k.startswith('PP_') and k not in known:
            raise Refusal('--set %s: no job file of %s uses ${%s} and its profile.conf does not set it '
                          '(runner variables start with PP_)' % (k, profile.name, k))


def variant_vars(profile, v, scale, sets):
    """The variables of variant V at SCALE ('quick' or 'full'), --set last."""
    if not profile.has_variant(v):
        raise Refusal("%s: no variant '%s' (profile.conf has: %s)"
                      % (profile.name, v, ' '.join(profile.variant_names())))
    up = scale.upper()
    out = {}
    for key in (up, 'VARIANT_' + v, 'VARIANT_%s_%s' % (v, up)):
        out.update(manifest.words_to_vars(profile[key], profile.name))
    if 'ENGDIR' in out:
        raise Refusal("%s/%s: ENGDIR is the runner's; profile.conf must not set it" % (profile.name, v))
    # profile.conf's values were checked as it was read (profile.Profile)
    given = dict(s.split('=', 1) for s in sets)
    check_vars('%s/%s, --set' % (profile.name, v), given, profile.option_names())
    out.update(given)
    return out


def value_problem(value, opts):
    """What is wrong with VALUE of a variable fio reads as the options OPTS
    (profile.option_names), or None: a size (util.to_bytes; 1% ... 100%
    where all of OPTS take one), an integer (4, 1k), a boolean (0, 1)."""
    bools = [o for o in opts if o in BOOL_OPTIONS]
    if bools:
        if value in ('0', '1'):
            return None
        return 'is not 0 or 1, as fio reads %s' % ', '.join(o + '=' for o in sorted(bools))
    nums = [o for o in opts if o in NUMBER_OPTIONS]
    if nums:
        if re.match(r'^[0-9]+[kmgt]?$', value.lower()):
            zero = [o for o in nums if o in POSITIVE_OPTIONS]
            if zero and not value.lower().strip('0kmgt'):
                return 'is zero, which fio does not read as a count for %s (it wants 1 or more)' % (
                    ', '.join(o + '=' for o in sorted(zero)))
            return None
        return 'is not a number (4, 64, 1k), as fio reads %s' % ', '.join(o + '=' for o in sorted(nums))
    pct = not set(opts) - set(PERCENT_OPTIONS)
    if to_bytes(value) is not None:
        return None
    if pct and re.match(r'^[0-9]+%$', value) and 0 < int(value[:-1]) <= 100:
        return None
    return 'is not a size as fio reads %s (4096, 4k, 1m, 2g%s)' % (
        ', '.join(o + '=' for o in sorted(opts)), '; or 1% ... 100%' if pct else '')


def check_vars(where, vs, sizes):
    """Refuse a value of VS (VAR -> value, all from WHERE) that is not
    understood: a runner variable's value, a value of the wrong type for the
    fio options it is used in (SIZES: VAR -> options, profile.option_names),
    a job file's value fio would cut (fio_value_problem).
    A control character never gets here: the manifest reader refuses its
    line, check_sets the --set."""
    for k, val in vs.items():
        if k in sizes:
            problem = value_problem(val, sizes[k])
            if problem:
                raise Refusal('%s: %s=%s %s' % (where, k, val, problem))
        if not k.startswith('PP_'):
            # a job file's variable: fio must read it as it is
            problem = fio_value_problem(val)
            if problem:
                raise Refusal("%s: %s='%s' %s" % (where, k, val, problem))
            continue
        if k not in PP_VARS:
            raise Refusal('%s: %s is not a runner variable (they are: %s)' % (where, k, ' '.join(PP_VARS)))
        if not val and k not in ('PP_ITERS', 'PP_SCRATCH_MB', 'PP_FILE_MB', 'PP_MINBS', 'PP_MAXBS'):
            continue
        if k in ('PP_ITERS', 'PP_SCRATCH_MB', 'PP_FILE_MB') and not re.match(r'^[1-9][0-9]*$', val):
            raise Refusal('%s: %s=%s is not a positive integer' % (where, k, val))
        if k in ('PP_ITERS', 'PP_SCRATCH_MB', 'PP_FILE_MB') and len(val) > 18:
            # int() of a few thousand digits raises (a traceback)
            raise Refusal('%s: %s=%s... is too large (%d digits)' % (where, k, val[:18], len(val)))
        if k == 'PP_ITERS' and int(val) > MAX_ITERS:
            # the plan holds every repeated section (extend): 1e8 of them took minutes and GiBs
            raise Refusal('%s: PP_ITERS=%s is more iterations than perfpack runs (at most %d)'
                          % (where, val, MAX_ITERS))
        if k in ('PP_MINBS', 'PP_MAXBS') and to_bytes(val) is None:
            raise Refusal('%s: %s=%s is not a size (4096, 4k, 1m ...)' % (where, k, val))
        if k in ('PP_RW', 'PP_SECTIONS'):
            try:
                re.compile(val)
            except re.error:
                raise Refusal('%s: %s=%s is not a valid regular expression (ERE)' % (where, k, val))
        if k == 'PP_SETUP' and val not in ('dev', 'fs', 'none'):
            raise Refusal('%s: PP_SETUP=%s is not dev, fs or none' % (where, val))
        if k in ('PP_MKFS_OPTS', 'PP_MOUNT_OPTS') and _names_elsewhere(val):
            raise Refusal("%s: %s='%s' names %s, a file or device other than the target: mkfs and the filesystem "
                          "would write it (an external log, realtime section or journal, another device: logdev=, "
                          "rtdev=, -d name=, -J device=, journal_path=, journal_dev=, btrfs's devices) unchecked, "
                          'where perfpack writes only its target, checked first (mounted, held, signature, data)'
                          % (where, k, val, _names_elsewhere(val)))


def _names_elsewhere(opts):
    """The word of mkfs or mount options OPTS that names a file or device
    (a path, a block device or file in the current directory, a device by
    tag, LABEL=j as in mkfs.ext4 -J device=LABEL=j, or by number, ext4's
    journal_dev=N), or None."""
    m = re.search(r'(?:^|[\s,=])((?:LABEL|UUID|PARTLABEL|PARTUUID)=[^\s,]*|journal_dev=[^\s,]*)', opts)
    if m:
        return m.group(1)
    for w in re.split(r'[\s,=]+', opts):
        if '/' in w or (w and os.path.exists(w) and not os.path.isdir(w)):
            return w
    return None


# TARGET as the plan's parse sees it, before the target is set up
PLACEHOLDER = '/perfpack-target-placeholder'
# options that place files elsewhere than filename= says
_ELSEWHERE = ('directory', 'opendir', 'filename_format')


def check_files(secs, vs, where):
    """Refusal unless every section of SECS does its I/O on the target:
    filename=${TARGET} (or the variant's own TARGET), no directory=,
    opendir=, filename_format=.  The runner checks, holds and tears down
    the target only: a file named otherwise would be written unchecked, a
    missing filename= makes fio create one in the output directory (whose
    filesystem would be measured)."""
    own = vs.get('TARGET')
    for sec in secs:
        other = [k for k in _ELSEWHERE if k in sec.opts]
        name = sec.opts.get('filename')
        if other:
            why = 'sets %s=%s' % (other[0], sec.opts[other[0]])
        elif name is None:
            why = 'has no filename= (fio would make its own file in the output directory)'
        elif name != (own or PLACEHOLDER):
            why = 'has filename=%s' % name
        else:
            continue
        raise Refusal('%s: job [%s] %s, not filename=${TARGET}: the runner checks, holds and tears down only its '
                      'target (--target, --scratch%s)' % (where, sec.name, why, ', or TARGET=%s' % own if own else ''))


def fio_env(vs, engdir, target_path):
    """[(VAR, VALUE)] fio's job files get: ENGDIR, the variables, TARGET."""
    target = vs.get('TARGET') or target_path or 'none'
    env = [('ENGDIR', engdir)] + [(k, v) for k, v in vs.items() if k != 'TARGET']
    return env + [('TARGET', target)]


def sections(fio, path, env):
    """(writes through the device, [Section]) of job file PATH, by fio --showcmd."""
    full = dict(os.environ)
    full.update(env)
    r = subprocess.run([fio, '--showcmd', path], env=full, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise Refusal('%s does not parse with these variables: %s' % (path, r.stdout.strip()))
    bdev = bool(re.search(r'--blkfile_allow_bdev_write=(1|true|on|yes)', r.stdout))
    out, glob_opts, cur, name = [], {}, None, None
    for part in r.stdout.strip().split(' --')[1:]:
        k, _, v = part.partition('=')
        if k == 'name':
            if name is not None:
                out.append(Section(name, cur))
            name, cur = v, dict(glob_opts)
        elif name is None:
            glob_opts[k] = v
        else:
            cur[k] = v
    if name is not None:
        out.append(Section(name, cur))
    return bdev, out


def keep(sec, vs, size_cap):
    # every direction's block size the job moves (bs=4k,1m on rw=write is 1m)
    bss = sec.moved_bs()
    if bss is not None:
        if vs.get('PP_MINBS') and min(bss) < to_bytes(vs['PP_MINBS']):
            return False
        if vs.get('PP_MAXBS') and max(bss) > to_bytes(vs['PP_MAXBS']):
            return False
        if size_cap is not None and max(bss) > size_cap:
            return False
    if vs.get('PP_RW') and not re.fullmatch('(?:%s)' % vs['PP_RW'], sec.rw):
        return False
    m = re.search(r'-([0-9]+)$', sec.name)
    if vs.get('PP_ITERS') and m and int(m.group(1)) > int(vs['PP_ITERS']):
        return False
    if vs.get('PP_SECTIONS') and not re.search(vs['PP_SECTIONS'], sec.name):
        return False
    return True


def label(sec, iterated):
    """SEC's progress line; 'iter N' only when it is in ITERATED, the
    sections that are iterations of a job (iters.iterations)."""
    m = re.match(r'^perftest-(.+)-[wr]-[0-9]+-([0-9]+)$', sec.name)
    if m and sec.name in iterated:
        return '%s %s bs=%s iter %s' % (m.group(1), sec.rw, sec.bs, m.group(2))
    m = re.search(r'-([0-9]+)$', sec.name)
    if m and sec.name in iterated:
        return '%s bs=%s iter %s' % (sec.rw, sec.bs, m.group(1))
    return '%s (%s bs=%s)' % (sec.name, sec.rw, sec.bs)


def check_run_sets(ctx, variants):
    """The refusals of a run's --set that the plan makes (Plan: one no
    variant reads, one against a variant's own recipe), for --env, which
    prints the variables without planning the fio runs."""
    vs = {v: variant_vars(ctx.profile, v, ctx.scale, ctx.sets) for v in variants}
    Plan._runner_sets_read(ctx, variants, vs)
    Plan._recipe_sets_fit(ctx, variants, vs)


class Plan:
    """Every variant's fio runs; per variant its variables, where its I/O
    and its writes end on the target, and whether it writes through the
    device under its file (blkfile)."""

    def __init__(self, ctx, variants):
        self.steps, self.vars, self.plan_end, self.write_end, self.bdev_write = [], {}, {}, {}, {}
        self.sections, self.iterated = {}, False
        for v in variants:
            self._variant(ctx, v, len(variants) > 1)
            self._one_output_each(ctx.profile, v)
        self._runner_sets_read(ctx, variants, self.vars)
        if not self.iterated and any(s.split('=', 1)[0] == 'PP_ITERS' for s in ctx.sets):
            raise Refusal('--set PP_ITERS: no job of this run has iterations (sections NAME-1, NAME-2, ... that '
                          'differ in nothing else), so nothing would be repeated and each job would run once: '
                          'leave it out')
        self._recipe_sets_fit(ctx, variants, self.vars)
        for v in variants:
            self._file_holds_plan(ctx, v)

    def _file_holds_plan(self, ctx, v):
        """Refusal if variant V's filesystem recipe makes its file with dd
        (PP_FILE_MB, as in seed 000) shorter than its plan: fio unlinks a
        file shorter than a write job's size and lays out its own
        (fallocate, unwritten extents), so the variant would not measure the
        file it names.  The runner makes that file on a scratch or device
        target and in a directory target, not on a file target."""
        vs, end = self.vars[v], self.plan_end[v]
        t = ctx.target_arg
        if ((vs.get('PP_SETUP') or 'dev') != 'fs' or not vs.get('PP_FILE_MB') or not isinstance(end, int)
                or ctx.clients or (t and not os.path.isdir(t) and not _is_bdev(t))):
            return
        if end > int(vs['PP_FILE_MB']) << 20:
            raise Refusal('%s/%s: its jobs use the first %d bytes of its file, but PP_FILE_MB=%s makes it %d '
                          '(dd, as in the thread): fio would unlink that file and lay out its own, unwritten, '
                          'and the table would not be of the file the variant names; --set PP_FILE_MB=%d, or '
                          'a smaller SIZE' % (ctx.profile.name, v, end, vs['PP_FILE_MB'],
                                              int(vs['PP_FILE_MB']) << 20, -(-end >> 20)))

    @staticmethod
    def _runner_sets_read(ctx, variants, vs):
        """Refusal for a --set of a runner variable that nothing of this run
        reads: a filesystem recipe's (FS_VARS) where no variant makes one
        (PP_SETUP=fs), the scratch device's size with --target.  The run went
        on without it, its env/VARIANT.env recording PP_FS=btrfs for a run on
        the bare device."""
        p = ctx.profile
        fs = [v for v in variants if p['TARGET_KIND'] != 'none' and (vs[v].get('PP_SETUP') or 'dev') == 'fs']
        for s in ctx.sets:
            k = s.split('=', 1)[0]
            if k in FS_VARS and not fs:
                raise Refusal('--set %s: no variant of this run makes a filesystem (%s), so nothing would read it: '
                              'run a variant with PP_SETUP=fs, or leave it out'
                              % (k, 'the profile has no target' if p['TARGET_KIND'] == 'none' else
                                 ', '.join('%s: PP_SETUP=%s' % (v, vs[v].get('PP_SETUP') or 'dev')
                                           for v in variants)))
            if k == 'PP_SCRATCH_MB' and (ctx.target_arg or p['TARGET_KIND'] == 'none'):
                raise Refusal('--set PP_SCRATCH_MB: the size of the scratch device, and %s: leave it out'
                              % ('the profile has no target' if p['TARGET_KIND'] == 'none' else
                                 'this run has none (--target %s)' % ctx.target_arg))

    @staticmethod
    def _recipe_sets_fit(ctx, variants, vs):
        """Refusal for a --set of PP_SETUP, or of a filesystem recipe's PP_FS,
        PP_MKFS_OPTS or PP_MOUNT_OPTS, that contradicts what a variant fixes
        itself (iozone's xfs, blockdev-perftest's file: PP_SETUP=fs PP_FS=xfs;
        block: PP_SETUP=dev): the run would set up another target than its
        variant's name, raw/ and tables say (the old runner ran xfs on ext4, or
        on the bare device, and tabled it as xfs); so is one of any other
        variable its VARIANT_<v> fixes but the FILTER_VARS (bonnie's raw:
        DIRECT=1, the model's BACKEND=sim: the old runner tabled buffered I/O
        as raw, and the coop pool reading /dev/zero as the model); and of mkfs or mount
        options where the run's variants make different filesystems, which
        would hand one filesystem's options to another's mkfs; and any --set
        that leaves two variants of the run with the same variables
        (blockdev-perftest's block and block_buffered, --set DIRECT=0)."""
        p = ctx.profile
        given = dict(s.split('=', 1) for s in ctx.sets)
        fs = [v for v in variants if p['TARGET_KIND'] != 'none' and (vs[v].get('PP_SETUP') or 'dev') == 'fs']
        for v in variants:
            own = variant_vars(p, v, ctx.scale, [])
            fixed = {k for k, _ in manifest.words_to_vars(p['VARIANT_' + v], p.name)} - set(FILTER_VARS)
            for k in sorted({'PP_SETUP'} | fixed | (set(RECIPE_VARS) if v in fs else set())):
                if k in given and own.get(k) and given[k] != own[k]:
                    raise Refusal('--set %s=%s: variant %s fixes %s=%s in its recipe: it would run with the '
                                  '--set while its name, raw/%s/ and tables say its own; leave the --set out, or '
                                  'run a variant whose recipe it is' % (k, given[k], v, k, own[k], v))
        made = {}
        for v in fs:
            made.setdefault(vs[v].get('PP_FS') or 'xfs', []).append(v)
        for k in ('PP_MKFS_OPTS', 'PP_MOUNT_OPTS'):
            if k in given and len(made) > 1:
                raise Refusal('--set %s=%s: the variants of this run make different filesystems (%s), and one '
                              "set of options would go to each one's %s; run one filesystem's variants at a "
                              'time (--variant)'
                              % (k, given[k], '; '.join('%s: %s' % (f, ' '.join(vs)) for f, vs in sorted(made.items())),
                                 'mkfs' if k == 'PP_MKFS_OPTS' else 'mount'))
        for i, a in enumerate(variants):
            for b in variants[i + 1:]:
                if vs[a] == vs[b]:
                    own = [variant_vars(p, x, ctx.scale, []) for x in (a, b)]
                    made = ['%s=%s' % (k, given[k]) for k in sorted(given) if own[0].get(k) != own[1].get(k)]
                    raise Refusal('--set %s: variants %s and %s would run with the same variables, one and the same '
                                  'matrix under two names (their tables and plot a comparison of a thing with '
                                  'itself); run one of them (--variant)' % (' --set '.join(made), a, b))

    def _one_output_each(self, p, v):
        """Refusal if two runs of variant V would write one raw/V/<stem>.json:
        a job file named twice (JOBFILES, PP_JOBFILES), one section name in
        two job files or twice in one.  The second run would take the
        first's output and log (its fio failed on a log the first run's end
        had removed)."""
        field = 'PP_JOBFILES' if self.vars[v].get('PP_JOBFILES') else 'JOBFILES'
        files = (self.vars[v].get('PP_JOBFILES') or p['JOBFILES']).split()
        seen = {}
        for s in self.steps:
            if s.variant != v:
                continue
            stem = s.stem(p['RUN_BY'])
            o = seen.setdefault(stem, s)
            if o is s:
                continue
            if o.jobfile != s.jobfile:
                why, fix = 'in %s and in %s' % (o.jobfile, s.jobfile), 'give the sections distinct names'
            elif files.count(s.jobfile) > 1:
                why, fix = '%s is named twice in %s' % (s.jobfile, field), 'name each job file once'
            else:
                why, fix = '%s has two sections [%s]' % (s.jobfile, stem), 'give the sections distinct names'
            raise Refusal("%s/%s: %s would write raw/%s/%s.json twice (%s): one run's results would be taken "
                          "for the other's; %s" % (p.name, v, 'job file %s' % s.jobfile if p['RUN_BY'] == 'file'
                                                   else 'job [%s]' % stem, v, stem, why, fix))

    def reads_first(self, v):
        """Whether variant V reads a range of its target before it has
        written it (PP_RW=read, a job file starting with reads): those reads
        must meet the target's blocks, not a sparse scratch file's holes."""
        written = None
        for s in self.steps:
            for name in s.sections if s.variant == v else ():
                sec = self.sections[(v, name)]
                if sec.writes():
                    written = max_end(written, sec.end)
                elif written is None or max_end(written, sec.end) != written:
                    return True
        return False

    def direct_job(self, variants):
        """'job [NAME] (variant V)' of the first job of VARIANTS that asks for
        direct I/O (direct=1 or buffered=0), or None."""
        for (v, name), sec in self.sections.items():
            if v in variants and (_true(sec.opts.get('direct', '0')) or not _true(sec.opts.get('buffered', '1'))):
                return 'job [%s] (variant %s)' % (name, v)
        return None

    def _variant(self, ctx, v, multi):
        p = ctx.profile
        vs = variant_vars(p, v, ctx.scale, ctx.sets)
        self.vars[v] = vs
        self.plan_end[v] = self.write_end[v] = None
        env = fio_env(vs, ctx.engdir, PLACEHOLDER)
        prefix = v + ': ' if multi else ''
        for j in (vs.get('PP_JOBFILES') or p['JOBFILES']).split():
            problem = jobfile_problem(j)
            if problem:
                raise Refusal('%s/%s: %s: %s' % (p.name, v, 'PP_JOBFILES' if vs.get('PP_JOBFILES') else 'JOBFILES',
                                                 problem))
            path = os.path.join(p.dir, j)
            if not os.path.isfile(path):
                raise Refusal('%s/%s: job file %s not found' % (p.name, v, j))
            bdev, secs = sections(ctx.fio, path, env)
            check_files(secs, vs, '%s/%s' % (p.name, j))
            self.bdev_write[v] = self.bdev_write.get(v, False) or bdev
            self.iterated = self.iterated or bool(iters.iterations(secs))
            if vs.get('PP_ITERS'):
                iters.check(secs, int(vs['PP_ITERS']), '%s/%s' % (p.name, j))
                with open(path, encoding='utf-8') as f:
                    text = f.read()
                secs, extra = iters.extend(secs, text, int(vs['PP_ITERS']), '%s/%s' % (p.name, j))
                if extra:
                    path = iters.write(ctx.work, v, j, text + extra)
            kept = [s for s in secs if keep(s, vs, ctx.size_cap)]
            for s in kept:
                self.sections[(v, s.name)] = s
                self.plan_end[v] = max_end(self.plan_end[v], s.end)
                if s.writes():
                    self.write_end[v] = max_end(self.write_end[v], s.end)
            if p['RUN_BY'] == 'file':
                if kept:
                    self.steps.append(Step(v, j, [s.name for s in kept], prefix + j, path))
            else:
                iterated = iters.iterations(secs)
                self.steps += [Step(v, j, [s.name], prefix + label(s, iterated), path) for s in kept]
