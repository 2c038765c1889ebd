# SPDX-License-Identifier: GPL-2.0-only
"""The runner's guard: a process that outlives the runner, however the
runner ends (SIGKILL included), and kills what is left of the fio
processes it started.

fiorun starts it (python3 guard.py TOKEN) with its standard input the read
end of a pipe that only the runner holds open, in a session of its own (a
signal to the runner's process group does not reach it), and puts
PERFPACK_RUN=TOKEN into the environment of every fio it starts; fio's job
processes and whatever they run inherit it.  When the pipe ends, the
runner has exited: every process whose environment holds the token gets
GRACE seconds to end (PR_SET_PDEATHSIG has sent fio SIGTERM, which stops
its jobs), and is then SIGKILLed.

Why the grace is not enough alone: fio 3.33's SIGTERM handler prints with
log_info(), which allocates; a SIGTERM that lands while fio's main process
forks a job (holding the allocator's locks) deadlocks it, and the job waits
for it forever.  The environment, not the process tree, finds them: fio's
job processes run in sessions of their own, and once the runner is gone
they have init as their parent.

Standalone (no package imports): it runs as its own interpreter."""

import os
import signal
import sys
import time

VAR = 'PERFPACK_RUN'
GRACE = 5.0  # seconds for fio to stop by itself (as the runner's kill_all gives it)
POLL = 0.1


def marked(token):
    """PID -> pidfd of every process (but this one) whose environment holds
    VAR=TOKEN; the pidfd is opened before the environment is read, so a
    pid reused since cannot be signalled by mistake."""
    entry = ('%s=%s' % (VAR, token)).encode()
    found = {}
    for d in os.listdir('/proc'):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            fd = os.pidfd_open(int(d))
        except OSError:
            continue
        try:
            with open('/proc/%s/environ' % d, 'rb') as f:
                env = f.read()
        except OSError:
            env = b''
        if entry in env.split(b'\0'):
            found[int(d)] = fd
        else:
            os.close(fd)
    return found


def comm(pid):
    try:
        with open('/proc/%d/comm' % pid) as f:
            return f.read().strip()
    except OSError:
        return '?'


def main(token):
    for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(s, signal.SIG_IGN)
    while os.read(0, 4096):  # the runner never writes: until it is gone
        pass
    deadline = time.monotonic() + GRACE
    while True:
        left = marked(token)
        if not left:
            return 0
        if time.monotonic() >= deadline:
            break
        for fd in left.values():
            os.close(fd)
        time.sleep(POLL)
    # kill them all; what a killed process had forked meanwhile comes next round
    killed = {}
    for _ in range(50):
        for pid, fd in left.items():
            try:
                signal.pidfd_send_signal(fd, signal.SIGKILL)
                killed.setdefault(pid, comm(pid))
            except ProcessLookupError:
                pass
            os.close(fd)
        time.sleep(POLL)
        left = marked(token)
        if not left:
            break
    print('perfpack: the runner ended with fio still running %.0f s later; killed %s' %
          (GRACE, ', '.join('%d (%s)' % kv for kv in sorted(killed.items()))), file=sys.stderr)
    for fd in left.values():
        os.close(fd)
    return 1 if left else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
