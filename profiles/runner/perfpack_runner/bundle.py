# SPDX-License-Identifier: GPL-2.0-only
"""What a run records about itself: jobs/ (the profile as run), run.txt
(status and metadata), and DIR/bundle/, the bug-report bundle: resolved
job files that run with bare fio (variables substituted, engine paths
explicit), the exact fio commands and the run's metadata."""

import datetime
import json
import os
import platform
import re
import shlex
import shutil
import sys

from .util import info, output


def start(ctx, variants):
    out = ctx.out.path
    for j in ctx.profile.jobfile_paths():
        shutil.copy(j, os.path.join(out, 'jobs'))
    shutil.copy(ctx.profile.conf, os.path.join(out, 'jobs'))
    ctx.meta = {
        'profile': ctx.profile.name, 'scale': ctx.scale, 'variants': variants,
        'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
        'fio': output([ctx.fio, '--version']).strip(), 'kernel': platform.release(),
        'hostname': platform.node(), 'clients': ctx.clients,
        'target': ctx.target_arg or ('scratch' if ctx.profile['TARGET_KIND'] != 'none' else 'none'),
        'command': [os.path.abspath(sys.argv[0])] + sys.argv[1:], 'devices': {}, 'fio_commands': [],
    }
    m = ctx.meta
    given = ' (--target %s)' % ctx.target_given if ctx.target_given not in (None, ctx.target_arg) else ''
    lines = ['perfpack run %s (%s) %s' % (m['profile'], m['scale'], m['date']),
             'fio: %s  kernel: %s  host: %s' % (m['fio'], m['kernel'], m['hostname']),
             'target: %s%s%s' % (m['target'], given, '  clients: ' + ','.join(ctx.clients) if ctx.clients else ''),
             'variants: %s' % ' '.join(variants),
             'command: %s' % ' '.join(shlex.quote(a) for a in m['command'])]
    with open(os.path.join(out, 'run.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\nstatus: incomplete (running)\n')
    info('\n'.join(lines[:4]))
    info('output: %s (written as %s until the run completes)' % (ctx.out.final, out))


def device_model(tgt):
    """What the block device under the target is (model, or a loop's file)."""
    if tgt.kind != 'bdev' or not tgt.path:
        return None
    name = os.path.basename(os.path.realpath(tgt.path))
    sysd = '/sys/class/block/' + name
    for rel, fmt in (('loop/backing_file', 'loop device over %s'), ('device/model', '%s'),
                     ('dm/name', 'device-mapper %s')):
        try:
            with open(os.path.join(sysd, rel)) as f:
                return fmt % f.read().strip()
        except OSError:
            continue
    return name


def resolve(text, env):
    """TEXT with every ${VAR} of ENV substituted (fio's own expansion)."""
    values = dict(env)
    return re.sub(r'\$\{([A-Za-z_][A-Za-z0-9_]*)\}', lambda m: values.get(m.group(1), m.group(0)), text)


def header(profile, v, jobfile, env, gone):
    return ('; perfpack bug-report bundle: %s/%s, variant %s, with every variable substituted\n'
            '; (%s).  Runs with bare fio, one job: fio --section=NAME %s\n'
            '%s;\n' % (profile, jobfile, v, ' '.join('%s=%s' % kv for kv in env), jobfile,
                        '; %s\n' % gone if gone else ''))


def gone_target(ctx, pl, v, env, tgt):
    """Why variant V's TARGET names nothing of the user's after the run
    (the runner's scratch target or its filesystem recipe's mount, torn
    down: the name may be another's device or directory then), or None."""
    t = dict(env)['TARGET']
    if ctx.clients or t in ('none', pl.vars[v].get('TARGET')):
        return None
    if ctx.target_arg and not t.startswith(ctx.work + '/'):
        return None
    scratch = "perfpack's scratch %s" % ('loop device' if tgt.kind == 'bdev' else 'file')
    if t != tgt.path:  # the file on its filesystem recipe's mount
        what = "a file on perfpack's own %s filesystem on %s" % (pl.vars[v].get('PP_FS') or 'xfs',
                                                                 ctx.target_arg or scratch)
    else:
        what = scratch
    return ('variant %s ran on %s, TARGET=%s, torn down after the run (that name may be another\'s now): '
            'set filename= to a target of yours before running it' % (v, what, t))


def variant(ctx, pl, v, env, tgt):
    d = os.path.join(ctx.out.path, 'bundle', v)
    os.makedirs(d, exist_ok=True)
    gone = ctx.gone[v] = gone_target(ctx, pl, v, env, tgt)
    for j, path in sorted({(s.jobfile, s.path) for s in pl.steps if s.variant == v}):
        with open(path, encoding='utf-8') as f:
            text = f.read()
        with open(os.path.join(d, j), 'w') as f:
            f.write(header(ctx.profile.name, v, j, env, gone) + resolve(text, env))
    ctx.meta['devices'][v] = device_model(tgt)


def finish(ctx):
    b = os.path.join(ctx.out.path, 'bundle')
    cmds = ['#!/bin/sh', '# the fio runs of this perfpack run, as the runner started them (in raw/VARIANT/;',
            '# here in VARIANT/, next to its job files)']
    said = set()
    for v, env, args in ctx.commands:
        # the bundle's resolved job file instead of the profile's, so no variable is needed
        args = [os.path.basename(a) if a.endswith('.fio') else a for a in args]
        line = '(cd "$(dirname "$0")/%s" && %s)' % (shlex.quote(v), ' '.join(shlex.quote(a) for a in args))
        if ctx.gone.get(v):
            if v not in said:
                cmds.append('# ' + ctx.gone[v])
                said.add(v)
            line = '# ' + line
        cmds.append(line)
        ctx.meta['fio_commands'].append({'variant': v, 'dir': v, 'env': dict(env), 'args': args})
    with open(os.path.join(b, 'fio-commands.sh'), 'w') as f:
        f.write('\n'.join(cmds) + '\n')
    with open(os.path.join(b, 'meta.json'), 'w') as f:
        json.dump(ctx.meta, f, indent=1)
        f.write('\n')
