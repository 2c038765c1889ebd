# SPDX-License-Identifier: GPL-2.0-only
"""What every module needs: the refusal, messages, sizes, small commands."""

import os
import re
import shutil
import signal
import subprocess
import sys

PROG = 'perfpack'

# The signals that stop a run, and the exit status each gives (128 + signal).
STOP_SIGNALS = {signal.SIGHUP: 129, signal.SIGINT: 130, signal.SIGTERM: 143}


class Refusal(Exception):
    """A refusal or an error: the message names the culprit; exit 1."""

    def __init__(self, msg, status=1):
        super().__init__(msg)
        self.status = status


# A status line being redrawn on the terminal (progress.Progress): it is
# erased before a message so the message starts at column 0, and redrawn
# on its next tick.
live_line = None


def _message(text):
    if live_line is not None:
        live_line.erase()
    print(text, file=sys.stderr, flush=True)


def warn(msg):
    _message('%s: %s' % (PROG, msg))


def info(msg):
    _message(msg)


def not_utf8(text):
    """Whether TEXT (an argument or a path, the OS's bytes as Python decodes
    them) is not UTF-8: the run's records (run.txt, the bundle's job files
    and metadata) are UTF-8 text, and could not say it."""
    try:
        text.encode('utf-8')
        return False
    except UnicodeEncodeError:
        return True


_SIZE = re.compile(r'^([0-9]+)([kmgt]?)(i?b)?$')
_MULT = {'': 1, 'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40}


def to_bytes(text):
    """fio-style size (4096, 4k, 64K, 1m, 1g, 2t; base 1024) or None; also
    None above 2^64 - 1, which fio cannot read (and int() of a few thousand
    digits raises)."""
    m = _SIZE.match(str(text).strip().lower())
    if not m or len(m.group(1).lstrip('0')) > 20:
        return None
    n = int(m.group(1)) * _MULT[m.group(2)]
    return n if n < 1 << 64 else None


def abspath(path):
    """PATH made absolute, naming what the kernel opens: os.path.abspath,
    but a path with '..' has its directories resolved (a symbolic link,
    then '..' from where it points), its last name kept (it may be a link,
    or not exist).  os.path.abspath drops 'link/..' as text, naming another
    file: --target dirlink/../f.img had fio write f.img beside dirlink, not
    beside the directory it points to."""
    full = os.path.join(os.getcwd(), path)
    if '..' not in full.split('/'):
        return os.path.abspath(full)
    head, tail = os.path.split(full.rstrip('/') or '/')
    if tail in ('', '.', '..'):
        return os.path.realpath(full)
    return os.path.join(os.path.realpath(head), tail)


def is_root():
    return os.geteuid() == 0


def have(cmd):
    return shutil.which(cmd) is not None


def output(args, **kw):
    """stdout of ARGS ('' when it fails or is missing), stderr dropped."""
    try:
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, **kw)
    except OSError:
        return ''
    return r.stdout if r.returncode == 0 else ''


def run_quiet(args, **kw):
    """(status, stdout+stderr) of ARGS."""
    try:
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, **kw)
    except OSError as e:
        return 127, str(e)
    return r.returncode, r.stdout


def umask_mode():
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask
