# SPDX-License-Identifier: GPL-2.0-only
"""perfpack's command line: run, tables, list, help; signals and exit status."""

import os
import re
import shutil
import signal
import sys

from . import fioout, fiorun, modelmatrix, outdir, plan, profile, run, tables, target
from .util import STOP_SIGNALS, Refusal, abspath, is_root, not_utf8, to_bytes, warn

USAGE = """usage: perfpack run PROFILE [--target PATH | --scratch] [--quick | --full]
                   [-o DIR [--overwrite]] [--client HOST[:PORT],...] [--force] [--memory-ok]
                   [--variant V,...] [--set VAR=VALUE]... [-s SIZE] [--list | --env]
                   [--no-tables]
       perfpack tables [--partial] DIR   (the tables of a run again, from its raw JSON)
       perfpack model-matrix [-o DIR] ...   (the scst-coop model matrix and its calibration;
                                              perfpack model-matrix --help)
       perfpack list
       perfpack help

run options:
  --target PATH   block device, file or directory to test (written unless the
                  plan only reads; a block device must be as large as the plan,
                  held by no one exclusively (mounted, mkfs, md/dm, another run;
                  even with --force) and, if written, carry no filesystem
                  signature and hold zeros where the plan writes -- or --force;
                  what the plan writes of an existing file must be zeros -- or
                  --force; a file or directory target must have room for the
                  plan); no ':', ';', '#', '${', $ncpus, $mb_memory,
                  $pagesize, control character or blank at either end in
                  PATH (fio reads those otherwise), no character
                  devices, no missing paths under /dev
  --scratch       (default) a loop device over a file in $TMPDIR with a scratch
                  filesystem when root, a scratch file in $TMPDIR otherwise;
                  always torn down
  --quick         small scale, under a minute per profile (default)
  --full          the thread's scale (see the header of each job file)
  -s, --size SIZE bytes per job (--set SIZE=SIZE); block sizes above SIZE are
                  dropped, as blockdev-perftest -s does
  -o DIR          output directory (default ./perfpack-out/PROFILE-DATE): raw fio
                  JSON in DIR/raw, tables (text, CSV, SVG) in DIR/tables, a
                  bug-report bundle (job files for bare fio, commands, metadata)
                  in DIR/bundle; written as DIR.partial.XXXXXX, renamed to DIR
                  when every fio run is done (a failed or interrupted run stays
                  DIR.partial.XXXXXX, marked "status: incomplete" in its run.txt);
                  an existing non-empty DIR is refused, and so is a DIR that is
                  the target, inside a directory target, holds the target, or
                  is on a filesystem stored on the target
  --overwrite     replace an existing DIR (an earlier perfpack run only, holding
                  nothing but the files it lists in DIR/.perfpack-files and its
                  tables), once this run has completed
  --client LIST   run on fio servers (fio --server) through fio --client;
                  HOST, HOST:PORT, [IPv6]:PORT or fio's ip:H, ip6:H, sock:PATH,
                  comma-separated or repeated; needs --target
                  (a path on the servers); engines must be at the same path there;
                  a host missing from fio's results makes the run incomplete;
                  a plan that writes the target needs --force (the servers'
                  paths cannot be checked from here); one server named twice
                  (localhost and 127.0.0.1, h and h:8765) is refused, and two
                  servers on one host when a job writes fio logs
  --force         write to a block device even if a safety check fails (also:
                  a variant writing through the device under a filesystem the
                  runner did not make, e.g. same_sectors on a directory)
  --memory-ok     run direct I/O (direct=1) on a target that is memory (a file
                  or directory on tmpfs/ramfs, a RAM disk, a loop device over a
                  file on tmpfs), refused otherwise: it measures memory copies
  --variant LIST  run these variants instead of the profile's default set
  --set VAR=VAL   override a job-file or runner variable (repeatable); not
                  TARGET (use --target) nor ENGDIR (set it in the environment)
  --list          print the matrix (one line per fio run) and exit
  --no-tables     keep the raw fio JSON only (perfpack tables DIR renders it later)
  --env           print each variant's job-file variables (VAR=VALUE) and exit;
                  TARGET only as --target or the variant gives it (a target
                  the run would make is a comment)

tables options:
  --partial       render an incomplete run (refused otherwise), marked as such
profiles: %s
"""


class Ctx:
    """Everything one command needs (set from the command line)."""

    def __init__(self, layout):
        self.__dict__.update(layout)
        self.profile = self.target_arg = self.target_given = self.out = self.work = self.size_cap = self.claim = None
        self.scale, self.mode, self.clients, self.variants, self.sets = 'quick', 'run', [], [], []
        self.force = self.overwrite = self.no_tables = self.warned_caches = self.memory_ok = False
        self.commands, self.teardown, self.fio_format, self.gone = [], None, 'json+', {}


def layout():
    here = os.path.dirname(os.path.realpath(sys.argv[0]))
    top = None
    if os.environ.get('PERFPACK_PROFILES'):
        profdir = os.environ['PERFPACK_PROFILES']
    elif os.path.isfile(os.path.join(here, 'README.md')) and os.path.isdir(os.path.join(here, 'blockdev-perftest')):
        profdir, top = here, os.path.dirname(here)
    else:
        profdir = os.path.join(os.path.dirname(here), 'share', 'perfpack', 'profiles')
    engdir = os.environ.get('ENGDIR') or (os.path.join(top, 'engines') if top else
                                          os.path.join(os.path.dirname(here), 'lib', 'fio'))
    engdir = os.path.realpath(engdir)
    fiotab = os.environ.get('FIOTAB')
    if not fiotab:
        cands = ([os.path.join(top, 'analysis', 'fiotab')] if top else []) + [os.path.join(here, 'fiotab')]
        fiotab = next((c for c in cands if os.access(c, os.X_OK)), 'fiotab')
    return {'profdir': profdir, 'engdir': engdir, 'fio': os.environ.get('FIO') or 'fio', 'fiotab': fiotab}


def add_list(lst, opt, text):
    if re.search(r'\s', text):
        raise Refusal("%s '%s': no spaces (comma-separated)" % (opt, text))
    for item in text.split(','):
        if not item:
            raise Refusal("%s '%s': empty name" % (opt, text))
        if opt == '--variant' and not re.match(r'^[A-Za-z0-9_]+$', item):
            raise Refusal('--variant %s: not a variant name (letters, digits, _)' % item)
        if item not in lst:
            lst.append(item)


def _value(args, i, opt, what):
    a = args[i]
    if '=' in a and a.startswith('--'):
        return a.split('=', 1)[1], i
    if i + 1 >= len(args):
        raise Refusal('%s needs %s' % (opt, what))
    return args[i + 1], i + 1


def parse_run(ctx, args):
    """Fill CTX from `perfpack run` ARGS (may exit: --help)."""
    name, scratch, target_given, size, i = None, False, False, None, 0
    given = {}  # one-valued options and exclusive flags: the first spelling and value

    def once(key, shown, value=None):
        """Refusal for a one-valued option given twice, or two flags that
        exclude each other (--quick --full): the old parser kept the last."""
        if key in given and given[key] != (shown, value):
            old_shown, old_value = given[key]
            if value is None or old_value is None:
                raise Refusal('%s and %s exclude each other: give one' % (old_shown, shown))
            raise Refusal('%s given twice (%s, then %s): give it once' % (shown, old_value, value))
        given[key] = (shown, value)

    flags = {'--scratch': 'scratch', '--quick': 'quick', '--full': 'full', '--force': 'force',
             '--overwrite': 'overwrite', '--memory-ok': 'memory_ok', '--list': 'list', '--env': 'env', '--no-tables': 'no_tables'}
    while i < len(args):
        a = args[i]
        opt = a.split('=', 1)[0] if a.startswith('--') else a
        if a in flags:
            f = flags[a]
            if f in ('quick', 'full'):
                once('scale', a)
                ctx.scale = f
            elif f in ('list', 'env'):
                once('mode', a)
                ctx.mode = f
            elif f == 'scratch':
                scratch = True
            else:
                setattr(ctx, f, True)
        elif opt == '--target':
            ctx.target_arg, i = _value(args, i, opt, 'a path')
            once('target', opt, repr(ctx.target_arg))
            target_given = True
        elif opt in ('-o', '--output'):
            ctx.out, i = _value(args, i, opt, 'a directory')
            if not ctx.out:
                raise Refusal('%s needs a directory' % opt)
            once('out', '-o', repr(ctx.out))
        elif opt == '--client':
            v, i = _value(args, i, opt, 'hosts')
            add_list(ctx.clients, '--client', v)
        elif opt == '--variant':
            v, i = _value(args, i, opt, 'names')
            add_list(ctx.variants, '--variant', v)
        elif opt == '--set':
            v, i = _value(args, i, opt, 'VAR=VALUE')
            ctx.sets.append(v)
        elif opt in ('-s', '--size'):
            size, i = _value(args, i, opt, 'a size')
            once('size', '-s', repr(size))
        elif a in ('-h', '--help'):
            print(USAGE % ctx.profdir, end='')
            sys.exit(0)
        elif a.startswith('-'):
            raise Refusal('unknown option %s (perfpack help)' % a)
        elif name:
            raise Refusal('one profile at a time (%s, %s)' % (name, a))
        else:
            name = a
        i += 1
    if not name:
        raise Refusal('which profile? (perfpack list)')
    if target_given and not ctx.target_arg:
        raise Refusal('--target: empty path')
    if scratch and ctx.target_arg:
        raise Refusal('--scratch and --target exclude each other')
    if size is not None:
        ctx.size_cap = to_bytes(size)
        if not ctx.size_cap:
            raise Refusal('-s %s: not a size (4096, 4k, 1m ...)' % size)
        ctx.sets.append('SIZE=%d' % ctx.size_cap)
    return name


def cmd_run(ctx, args):
    name = parse_run(ctx, args)
    if ctx.target_arg:
        # fio runs in DIR/raw/<variant>: a local target is made absolute
        # (a path on fio servers is theirs: left as given)
        if not ctx.clients:
            if ctx.target_arg.endswith('/') and not os.path.isdir(ctx.target_arg):
                # the kernel opens no file by it (ENOTDIR, EISDIR); the old
                # runner dropped the / and used or made the file
                bare = ctx.target_arg.rstrip('/')
                raise Refusal('--target %s: a path ending in / names a directory, and %s %s: give it without '
                              'the /, or a directory' % (ctx.target_arg, bare, 'is none' if os.path.lexists(bare)
                                                        else 'does not exist (the runner would make it a file)'))
            ctx.target_arg = abspath(ctx.target_arg)
        ctx.target_given = ctx.target_arg
        ctx.target_arg = target.check_fio_path(ctx.target_arg, '--target', ctx.clients)
        if not ctx.clients:
            ctx.target_arg = target.resolve_target(ctx.target_arg)
    fioout.check_client_syntax(ctx.clients)
    fioout.check_distinct_servers(ctx.clients)
    plan.check_sets(ctx.sets)
    ctx.profile = p = profile.Profile(ctx.profdir, name)
    plan.check_set_names(p, ctx.sets)
    if ctx.clients and not ctx.target_arg and p['TARGET_KIND'] != 'none':
        raise Refusal('--client needs --target PATH (a path on every server; relative paths are relative to '
                      "each fio --server's working directory)")
    if p['NEEDS_ROOT'] == '1' and not is_root() and ctx.mode == 'run':
        raise Refusal('profile %s needs root (%s)' % (name, p['TITLE']))
    if not shutil.which(ctx.fio):
        raise Refusal('fio not found (%s)' % ctx.fio)
    if ctx.mode == 'run':
        out = ctx.out
        ctx.out = outdir.OutDir(name, out, ctx.overwrite)
        if ctx.target_arg and not ctx.clients and p['TARGET_KIND'] != 'none':
            target.check_out_apart(ctx.out.final, ctx.target_arg, '-o' if out is not None else 'the default output directory')
    return run.cmd_run(ctx)


def cmd_list(ctx):
    rc = 0
    for name, p in profile.list_profiles(ctx.profdir):
        if isinstance(p, Refusal):
            warn(str(p))
            rc = 1
        else:
            print('%-22s %s' % (name, p['TITLE']))
    if rc:
        warn('some profiles in %s are broken (above)' % ctx.profdir)
    return rc


class Stop(BaseException):
    def __init__(self, status):
        super().__init__(status)
        self.status = status


def _ignore_signals():
    for s in STOP_SIGNALS:
        signal.signal(s, signal.SIG_IGN)


def _on_signal(sig, _frame):
    """The first signal stops the run; the ones after it are ignored from
    here on, so that a second (timeout(1) sends one to its child, then one
    to the whole group) cannot interrupt the stop and its cleanup."""
    _ignore_signals()
    raise Stop(STOP_SIGNALS[sig])


def main(argv):
    for s in STOP_SIGNALS:
        if s == signal.SIGHUP and signal.getsignal(s) == signal.SIG_IGN:
            continue  # nohup: the run goes on when the terminal hangs up
        signal.signal(s, _on_signal)
    ctx = None
    status = 0
    try:
        ctx = Ctx(layout())
        fiorun.become_subreaper()
        if not argv:
            print(USAGE % ctx.profdir, end='', file=sys.stderr)
            return 2
        cmd, rest = argv[0], argv[1:]
        bad = next((a for a in argv if not_utf8(a)), None)
        if bad is not None:
            raise Refusal('argument %s is not valid UTF-8: perfpack records its command, target and output in '
                          'UTF-8 text (run.txt, the bundle); for a file so named, give a symbolic link to it'
                          % ascii(bad))
        if cmd == 'run':
            status = cmd_run(ctx, rest)
        elif cmd == 'tables':
            status = tables.cmd_tables(ctx, rest, USAGE % ctx.profdir)
        elif cmd == 'model-matrix':
            status = modelmatrix.cmd(ctx, rest)
        elif cmd == 'list':
            status = cmd_list(ctx)
        elif cmd in ('help', '-h', '--help'):
            print(USAGE % ctx.profdir, end='')
        else:
            raise Refusal("unknown command '%s' (perfpack help)" % cmd)
    except Refusal as e:
        warn(str(e))
        status = e.status
    except Stop as e:
        status = e.status
    except OSError as e:
        # the last resort (a full disk under -o, say): one line, not a traceback
        warn('%s%s' % (e.filename + ': ' if e.filename else '', e.strerror or e))
        status = 1
    finally:
        if ctx:
            _cleanup(ctx)
        else:
            _ignore_signals()
            fiorun.kill_all()
    return status


def _cleanup(ctx):
    """However the command ends: no fio left, the target torn down, the
    work directory gone, an unfinished output directory marked so."""
    _ignore_signals()
    fiorun.kill_all()
    if ctx.teardown:
        ctx.teardown()
    if ctx.claim:
        ctx.claim.drop_made()
    if ctx.work:
        shutil.rmtree(ctx.work, ignore_errors=True)
    if isinstance(ctx.out, outdir.OutDir):
        ctx.out.abandon()
