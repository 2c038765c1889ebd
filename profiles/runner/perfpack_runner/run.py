# SPDX-License-Identifier: GPL-2.0-only
"""`perfpack run`: plan, check, set up, run fio step by step, finish."""

import os
import shutil
import signal
import stat
import tempfile

from . import ahead, bundle, fioout, gate, plan, safety, tables, target
from .progress import Progress
from .util import STOP_SIGNALS, Refusal, info, is_root, warn


def check_target(ctx, pl, variants):
    """Everything about the target that can be refused before output exists."""
    p, t = ctx.profile, ctx.target_arg
    if t and not ctx.clients and p['TARGET_KIND'] != 'none':
        target.classify(t)
    # on fio servers the target cannot be looked at from here: a plan that
    # writes it does so only as named with --force
    if t and ctx.clients and p['TARGET_KIND'] != 'none' and not ctx.force:
        wend, _ = safety.plan_ends(pl, variants, p['TARGET_KIND'])
        if wend is not None:
            raise Refusal('--client: the plan writes --target %s on the fio servers (%s), where perfpack cannot '
                          'check it (mounted, a filesystem signature, data in the range written) as it checks a '
                          'local target: pass --force to write it as named' % (t, ', '.join(ctx.clients)))
    # held for the whole run; no plan that fills a filesystem
    if not ctx.clients and p['TARGET_KIND'] != 'none':
        target.hold(ctx, pl, variants)
    # direct=1 on memory measures memory: said on a scratch file in $TMPDIR,
    # refused on a target named (unless --memory-ok)
    if not ctx.clients and p['TARGET_KIND'] != 'none':
        _check_memory(ctx, pl, variants)
    # a device must be as large as the plan; what it writes must be unused
    if t and not ctx.clients and (target.is_bdev(t) or os.path.isfile(t) and p['TARGET_KIND'] != 'none'):
        wend, need = safety.plan_ends(pl, variants, p['TARGET_KIND'])
        safety.check_write_ok(t, wend, need, ctx.force)
    # writes through the device under the file (blkfile): on a filesystem
    # the runner makes itself only
    if not ctx.clients and p['TARGET_KIND'] != 'none':
        for v in variants:
            if not pl.bdev_write.get(v):
                continue
            if t:
                if not target.is_bdev(t):
                    safety.check_fs_device_ok(v, t, ctx.force)
            elif not (is_root() and shutil.which('losetup')):
                safety.check_fs_device_ok(v, ctx.work, ctx.force)
    # a profile's own TARGET (e.g. /dev/zero): a block device there is
    # checked; a file or directory, which nothing would check or hold, is
    # refused
    if not ctx.clients:
        for v in variants:
            own = pl.vars[v].get('TARGET')
            if own and target.is_bdev(own):
                wend, need = safety.plan_ends(pl, [v], 'target')
                safety.check_write_ok(own, wend, need, ctx.force)
            elif own and not _is_chardev(own):
                raise Refusal('%s/%s: the profile sets TARGET=%s, which is no character device (/dev/zero) or '
                              'block device: a file or directory is checked and held only as --target'
                              % (p.name, v, own))


def _is_chardev(path):
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


def _check_memory(ctx, pl, variants):
    direct = pl.direct_job(variants)
    if ctx.target_arg:
        safety.check_not_memory(ctx.target_arg, '--target', direct, ctx.memory_ok)
        return
    scratch = [v for v in variants if (pl.vars[v].get('PP_SETUP') or 'dev') in ('dev', 'fs')]
    why = safety.memory_backed(ctx.work) if direct and scratch else None
    if why:
        warn('the scratch target of %s is a file in $TMPDIR (%s), which %s: its direct I/O (%s) measures '
             'memory, not a device; set TMPDIR to a directory on a disk, or give --target'
             % (' '.join(scratch), ctx.work, why, direct))


def drop_caches(ctx):
    os.sync()
    try:
        with open('/proc/sys/vm/drop_caches', 'w') as f:
            f.write('3\n')
    except OSError as e:
        if not ctx.warned_caches:
            warn('cannot drop the page cache (%s: %s): reads may come from memory; run as root to drop '
                 'caches before every fio run' % ('/proc/sys/vm/drop_caches', e.strerror))
            ctx.warned_caches = True


def fio_args(ctx, step):
    jobfile = step.path
    secs = ['--section=' + s for s in step.sections]
    if not ctx.clients:
        return secs + [jobfile]
    out = []
    for h in ctx.clients:
        out += ['--client=' + fioout.client_arg(h)] + secs + [jobfile]
    return out


class Invocation:
    """One fio run of STEP: its command, log, working directory, environment."""

    def __init__(self, ctx, step, env):
        self.step, self.env, self.target = step, env, dict(env)['TARGET']
        self.cwd = os.path.join(ctx.out.path, 'raw', step.variant)
        self.stem = step.stem(ctx.profile['RUN_BY'])
        self.args = [ctx.fio, '--output-format=' + ctx.fio_format, '--output=%s.json' % self.stem] + fio_args(ctx, step)
        self.log = os.path.join(self.cwd, self.stem + '.log')
        self.diskstat = os.path.join(self.cwd, self.stem + '.diskstat')
        self.full = dict(os.environ)
        self.full.update(env)


def _drop_or_warn(ctx):
    if ctx.profile['DROP_CACHES'] != '1':
        return
    if not ctx.clients:
        drop_caches(ctx)
    elif not ctx.warned_caches:
        warn('--client: the page caches of the servers are not dropped (only what the job files do, '
             'e.g. invalidate=1, applies there)')
        ctx.warned_caches = True


def release(ctx, la, i, fio_target, tgt):
    """Start run I's I/O (of lookahead LA), right after the cache drop: a
    run started ahead is released from its gate, another one started.
    The next runs are started ahead then, while this one does its I/O."""
    r = la.runs[i]
    gated = la.gated(i)
    if gated:
        proc, g = la.take(i, True)
    _drop_or_warn(ctx)
    ctx.commands.append((r.step.variant, r.env, r.args))
    tgt.devstat(r.diskstat, 'before')
    hold = None
    if ctx.profile['HOLD_OPEN'] == '1' and not ctx.clients and fio_target and target.is_bdev(fio_target):
        # Linux drops a block device's page cache at its last close
        hold = os.open(fio_target, os.O_RDONLY)
    try:
        if gated:
            proc.unnice()
            g.open()
        else:
            proc, g = la.take(i, False)
        la.fill()
    except BaseException:
        if hold is not None:
            os.close(hold)
        raise
    return proc, g, hold


def io_done(r, proc, hold, tgt):
    """Until run R's I/O is over: its fio's job processes have exited
    (their files closed; fio's main process may still be writing its
    JSON), or fio itself for a run that was not gated."""
    try:
        proc.wait_io()
    finally:
        if hold is not None:
            os.close(hold)
    tgt.devstat(r.diskstat, 'after')


def finish(ctx, r, proc, g):
    """Run R's fio has exited: raw/<variant>/<stem>.json, or Refusal."""
    step, v, rawv = r.step, r.step.variant, r.cwd
    rc = proc.wait()
    js = os.path.join(rawv, r.stem + '.json')
    if g and os.path.isfile(js):
        gate.clean_json(js, g, step.sections[0])
    if rc != 0:
        _fio_failed(ctx, r, rc)
    if ctx.claim:
        ctx.claim.check_same()
    if os.path.getsize(r.log) == 0:
        os.unlink(r.log)
    if ctx.clients:
        missing = fioout.missing_hosts(js, ctx.clients)
        if missing:
            raise Refusal('fio has no results from %s for %s [%s], variant %s (fio exits 0 when a server '
                          'cannot be reached; see %s): the run is incomplete'
                          % (', '.join(missing), step.jobfile, ' '.join(step.sections), v, r.log))
    with open(js, 'rb') as f:
        data = f.read()
    _append_whole(data, [os.path.join(ctx.out.path, 'raw', name)
                         for name in ('%s.%s.json' % (v, step.jobfile[:-4]), v + '.json')])
    return js


def _append_whole(data, paths):
    """DATA appended to every file of PATHS, or to none: a failed write
    (ENOSPC) truncates each back to its size before, so every file holds
    whole fio documents and the concatenations agree; then Refusal."""
    done = []
    try:
        for path in paths:
            with open(path, 'ab') as f:
                done.append((path, f.tell()))
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
    except OSError as e:
        for path, size in done:
            try:
                os.truncate(path, size)
            except OSError:
                pass
        raise Refusal('cannot append fio\'s output to %s: %s (what was written of it is undone; '
                      'the earlier runs\' output is whole)' % (path, e.strerror))


def _parsed_job(ctx, step, env):
    """Lines '[section] opt=value ...' of STEP as fio parses it with ENV, the
    run's environment (the plan's parse had no target yet)."""
    try:
        _, secs = plan.sections(ctx.fio, step.path, env)
    except Refusal:
        return []
    return ['    [%s] %s' % (s.name, ' '.join('%s=%s' % kv for kv in s.opts.items()))
            for s in secs if s.name in step.sections]


def _fio_failed(ctx, r, rc):
    step, log, rawv = r.step, r.log, r.cwd
    lines = ['    | ' + ln for ln in fioout.error_lines(log)]
    job = _parsed_job(ctx, step, r.env)
    if not lines:
        errs = fioout.job_errors(os.path.join(rawv, r.stem + '.json'))
        lines = ['    | (nothing); its JSON records ' + e for e in errs] or ['    | (nothing)']
    info('fio said:\n' + '\n'.join(lines))
    if job:
        info('the job (%s, as fio parsed it):\n%s' % (step.jobfile, '\n'.join(job)))
    raise Refusal('fio failed (exit %d) on %s [%s], variant %s; raw output in %s'
                  % (rc, step.jobfile, ' '.join(step.sections), step.variant, rawv))


def _variant(ctx, pl, v, tgt):
    """Set up variant V's target; its fio environment."""
    tgt.teardown()
    fio_target = tgt.setup(v, pl.vars[v], pl.reads_first(v))
    env = plan.fio_env(pl.vars[v], ctx.engdir, fio_target)
    with open(os.path.join(ctx.out.path, 'env', v + '.env'), 'w') as f:
        f.write(''.join('%s=%s\n' % kv for kv in env))
    os.makedirs(os.path.join(ctx.out.path, 'raw', v), exist_ok=True)
    bundle.variant(ctx, pl, v, env, tgt)
    info('%s: TARGET=%s' % (v, dict(env)['TARGET']))
    return fio_target, env


def _variant_runs(ctx, la, fio_target, tgt, prog, k):
    """The runs of one variant, one's I/O after the other's.  A gated run's
    fio finishes (its JSON; a failure is reported then) while the next
    run's I/O runs; any other run is finished before the next starts."""
    pending = None
    for i, r in enumerate(la.runs):
        if pending and pending[2] is None:
            prog.end(finish(ctx, *pending))
            ctx.out.done, pending = k, None
        proc, g, hold = release(ctx, la, i, fio_target, tgt)
        if pending:
            prog.end(finish(ctx, *pending))
            ctx.out.done = k
        k += 1
        prog.begin(k, r.step.label)
        io_done(r, proc, hold, tgt)
        pending = (r, proc, g)
    if pending:
        prog.end(finish(ctx, *pending))
        ctx.out.done = k
    return k


def execute(ctx, pl, variants):
    """Run every step, variant by variant; the output directory ends
    complete or .partial."""
    ctx.out.total = len(pl.steps)
    # a stop signal waits until run.txt is there to say the run is incomplete
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        ctx.out.start()
        bundle.start(ctx, variants)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    prog = Progress(len(pl.steps))
    tgt = target.Target(ctx)
    ctx.teardown = tgt.teardown
    k = 0
    try:
        for v in variants:
            steps = [s for s in pl.steps if s.variant == v]
            if not steps:
                continue
            fio_target, env = _variant(ctx, pl, v, tgt)
            la = ahead.Lookahead(ctx, pl, [Invocation(ctx, s, env) for s in steps])
            k = _variant_runs(ctx, la, fio_target, tgt, prog, k)
    finally:
        prog.close()
    tgt.teardown()
    bundle.finish(ctx)
    ctx.out.finish()
    prog.summary()
    info('raw fio JSON: %s' % os.path.join(ctx.out.path, 'raw'))


def _uses_target(ctx, variants):
    """The variants that run on --target (or the scratch target): in a
    profile with one, those without their own TARGET and PP_SETUP=none."""
    if ctx.profile['TARGET_KIND'] == 'none':
        return []
    vs = {v: plan.variant_vars(ctx.profile, v, ctx.scale, ctx.sets) for v in variants}
    return [v for v in variants if not vs[v].get('TARGET') and (vs[v].get('PP_SETUP') or 'dev') != 'none']


def _print_env(ctx, variants):
    """perfpack run --env: each variant's variables, as fio gets them.  A
    target the run would choose (no --target, no TARGET of the variant's
    own) is a comment: a placeholder line fed to fio made a file of its
    name in the current directory."""
    for v in variants:
        vs = plan.variant_vars(ctx.profile, v, ctx.scale, ctx.sets)
        print('# variant %s' % v)
        env = plan.fio_env(vs, ctx.engdir, ctx.target_arg)
        if not ctx.target_arg and not vs.get('TARGET'):
            env = [kv for kv in env if kv[0] != 'TARGET']
            print('# TARGET not set: give --target, or the run makes a scratch target '
                  '(PP_SETUP=%s)' % (vs.get('PP_SETUP') or 'dev'))
        print(''.join('%s=%s\n' % kv for kv in env), end='')
    return 0


def cmd_run(ctx):
    p = ctx.profile
    variants = ctx.variants or p.words('VARIANTS')
    if ctx.target_arg and not _uses_target(ctx, variants):
        raise Refusal('--target %s: no variant of this run uses a target (%s), so it would be ignored while '
                      'run.txt names it: leave --target out'
                      % (ctx.target_given or ctx.target_arg,
                         'profile %s has none: TARGET_KIND=none' % p.name if p['TARGET_KIND'] == 'none' else
                         'each has its own TARGET or PP_SETUP=none'))
    # the plan's refusals of a --set hold for --env too: it does not print
    # what a run would refuse as if it would go.  It plans the fio runs (parses
    # the job files, which loads their engines) only for a --set PP_ITERS,
    # whose refusals need the job files' sections
    iters_set = any(s.split('=', 1)[0] == 'PP_ITERS' for s in ctx.sets)
    if ctx.mode == 'env' and not iters_set:
        plan.check_run_sets(ctx, variants)
        return _print_env(ctx, variants)
    ctx.work = tempfile.mkdtemp(prefix='perfpack.', dir=os.environ.get('TMPDIR') or '/tmp')
    if ctx.mode == 'run':
        target.check_fio_path(ctx.work, 'work directory ($TMPDIR)', ctx.clients)
        if ctx.target_arg and not ctx.clients and p['TARGET_KIND'] != 'none':
            target.check_out_apart(ctx.work, ctx.target_arg, 'the work directory')
        target.check_fio_path(ctx.engdir, 'ENGDIR', ctx.clients)
        engines = p.words('ENGINES')
        for v in variants:
            engines += plan.variant_vars(p, v, ctx.scale, ctx.sets).get('PP_ENGINES', '').split()
        fioout.check_engines(ctx, engines)
    pl = plan.Plan(ctx, variants)
    if ctx.mode == 'env':
        return _print_env(ctx, variants)
    if ctx.clients:
        fioout.check_client_logs(ctx.clients, {k: s for k, s in pl.sections.items() if k[0] in variants})
    n = len(pl.steps)
    if n == 0:
        raise Refusal('%s: nothing to run (the filters leave no job)' % p.name)
    if ctx.mode == 'list':
        for k, s in enumerate(pl.steps, 1):
            print('[%d/%d] %s\t%s\t%s' % (k, n, s.label, s.jobfile, ' '.join(s.sections)))
        return 0
    check_target(ctx, pl, variants)
    ahead.depth()
    execute(ctx, pl, variants)
    if ctx.no_tables:
        return 0
    return 0 if tables.write(ctx.fiotab, ctx.out.path, p.name, p['TABLES'], p['PLOT'], variants) else 1
