# SPDX-License-Identifier: GPL-2.0-only
"""`perfpack run`: plan, check, set up, run fio step by step, finish."""

import os
import shutil
import tempfile

from . import bundle, fiorun, plan, safety, tables, target
from .progress import Progress
from .util import Refusal, info, is_root, warn


def check_target(ctx, pl, variants):
    """Everything about the target that can be refused before output exists."""
    p, t = ctx.profile, ctx.target_arg
    if t and not ctx.clients and p['TARGET_KIND'] != 'none':
        target.classify(t)
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
    # a profile's own TARGET (e.g. /dev/zero): a block device there is checked
    if not ctx.clients:
        for v in variants:
            own = pl.vars[v].get('TARGET')
            if own and target.is_bdev(own):
                wend, need = safety.plan_ends(pl, [v], 'target')
                safety.check_write_ok(own, wend, need, ctx.force)


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
        out += ['--client=' + fiorun.client_arg(h)] + secs + [jobfile]
    return out


def run_step(ctx, pl, step, env, fio_target, tgt):
    """One fio run of STEP: raw/<variant>/<stem>.json, or Refusal."""
    v = step.variant
    rawv = os.path.join(ctx.out.path, 'raw', v)
    stem = step.jobfile[:-4] if ctx.profile['RUN_BY'] == 'file' else step.sections[0]
    if ctx.profile['DROP_CACHES'] == '1' and not ctx.clients:
        drop_caches(ctx)
    elif ctx.profile['DROP_CACHES'] == '1' and not ctx.warned_caches:
        warn('--client: the page caches of the servers are not dropped (only what the job files do, '
             'e.g. invalidate=1, applies there)')
        ctx.warned_caches = True
    args = [ctx.fio, '--output-format=' + ctx.fio_format, '--output=%s.json' % stem] + fio_args(ctx, step)
    ctx.commands.append((v, env, args))
    tgt.devstat(os.path.join(rawv, stem + '.diskstat'), 'before')
    hold = None
    if ctx.profile['HOLD_OPEN'] == '1' and not ctx.clients and fio_target and target.is_bdev(fio_target):
        # Linux drops a block device's page cache at its last close
        hold = os.open(fio_target, os.O_RDONLY)
    full = dict(os.environ)
    full.update(env)
    log = os.path.join(rawv, stem + '.log')
    try:
        rc = fiorun.run(args, log, env=full, cwd=rawv)
    finally:
        if hold is not None:
            os.close(hold)
    if rc != 0:
        _fio_failed(ctx, pl, step, rc, log, rawv)
    tgt.devstat(os.path.join(rawv, stem + '.diskstat'), 'after')
    if os.path.getsize(log) == 0:
        os.unlink(log)
    js = os.path.join(rawv, stem + '.json')
    if ctx.clients:
        missing = fiorun.missing_hosts(js, ctx.clients)
        if missing:
            raise Refusal('fio has no results from %s for %s [%s], variant %s (fio exits 0 when a server '
                          'cannot be reached; see %s): the run is incomplete'
                          % (', '.join(missing), step.jobfile, ' '.join(step.sections), v, log))
    with open(js, 'rb') as f:
        data = f.read()
    for name in ('%s.%s.json' % (v, step.jobfile[:-4]), v + '.json'):
        with open(os.path.join(ctx.out.path, 'raw', name), 'ab') as f:
            f.write(data)
    return js


def _fio_failed(ctx, pl, step, rc, log, rawv):
    lines = ['    | ' + ln for ln in fiorun.error_lines(log)]
    job = []
    for s in step.sections:
        sec = pl.sections.get((step.variant, s))
        if sec:
            job.append('    [%s] %s' % (s, ' '.join('%s=%s' % kv for kv in sec.opts.items())))
    info('fio said:\n' + '\n'.join(lines or ['    | (nothing)']))
    if job:
        info('the job (%s, as fio parsed it):\n%s' % (step.jobfile, '\n'.join(job)))
    raise Refusal('fio failed (exit %d) on %s [%s], variant %s; raw output in %s'
                  % (rc, step.jobfile, ' '.join(step.sections), step.variant, rawv))


def execute(ctx, pl, variants):
    """Run every step; the output directory ends complete or .partial."""
    ctx.out.start()
    bundle.start(ctx, variants)
    prog = Progress(len(pl.steps))
    ctx.out.total = len(pl.steps)
    tgt, cur = target.Target(ctx), None
    ctx.teardown = tgt.teardown
    env = fio_target = None
    for k, step in enumerate(pl.steps, 1):
        v = step.variant
        if v != cur:
            tgt.teardown()
            cur = v
            fio_target = tgt.setup(v, pl.vars[v])
            env = plan.fio_env(pl.vars[v], ctx.engdir, fio_target)
            with open(os.path.join(ctx.out.path, 'env', v + '.env'), 'w') as f:
                f.write(''.join('%s=%s\n' % kv for kv in env))
            os.makedirs(os.path.join(ctx.out.path, 'raw', v), exist_ok=True)
            bundle.variant(ctx, pl, v, env, tgt)
            info('%s: TARGET=%s' % (v, dict(env)['TARGET']))
        prog.begin(k, step.label)
        js = run_step(ctx, pl, step, env, fio_target, tgt)
        prog.end(js)
        ctx.out.done = k
    tgt.teardown()
    bundle.finish(ctx)
    ctx.out.finish()
    prog.summary()
    info('raw fio JSON: %s' % os.path.join(ctx.out.path, 'raw'))


def cmd_run(ctx):
    p = ctx.profile
    variants = ctx.variants or p.words('VARIANTS')
    if ctx.mode == 'env':
        for v in variants:
            vs = plan.variant_vars(p, v, ctx.scale, ctx.sets)
            print('# variant %s' % v)
            print(''.join('%s=%s\n' % kv for kv in plan.fio_env(vs, ctx.engdir, ctx.target_arg or 'TARGET')), end='')
        return 0
    ctx.work = tempfile.mkdtemp(prefix='perfpack.', dir=os.environ.get('TMPDIR') or '/tmp')
    if ctx.mode != 'list':
        target.check_no_colon(ctx.work, 'work directory ($TMPDIR)', ctx.clients)
        engines = p.words('ENGINES')
        for v in variants:
            engines += plan.variant_vars(p, v, ctx.scale, ctx.sets).get('PP_ENGINES', '').split()
        fiorun.check_engines(ctx, engines)
    pl = plan.Plan(ctx, variants)
    n = len(pl.steps)
    if n == 0:
        raise Refusal('%s: nothing to run (the filters leave no job)' % p.name)
    if ctx.mode == 'list':
        for k, s in enumerate(pl.steps, 1):
            print('[%d/%d] %s\t%s\t%s' % (k, n, s.label, s.jobfile, ' '.join(s.sections)))
        return 0
    check_target(ctx, pl, variants)
    execute(ctx, pl, variants)
    if ctx.no_tables:
        return 0
    return 0 if tables.write(ctx.fiotab, ctx.out.path, p.name, p['TABLES'], p['PLOT']) else 1
