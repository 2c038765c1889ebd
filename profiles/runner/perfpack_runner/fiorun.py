# SPDX-License-Identifier: GPL-2.0-only
"""Running fio: each fio in its own process group, which is killed (TERM,
then KILL) however the runner ends, and which dies with the runner even
when the runner is SIGKILLed (PR_SET_PDEATHSIG, and the guard, guard.py,
for a fio that does not end by itself); engine checks; fio's own error
lines when a run fails; --client hosts."""

import ctypes
import os
import re
import secrets
import select
import signal
import subprocess
import sys
import threading
import time

from . import gate, guard
from .util import STOP_SIGNALS, Refusal

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_running = set()


def _child_setup():
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the runner is already gone
        os._exit(1)


def _child_setup_nice():
    _child_setup()
    os.nice(NICE)


NICE = 10  # of a fio started ahead, until its turn (root only: it is undone then)


_guard = None  # (Popen, token, pipe write end) of the guard, once a fio has been started


def _guarded_env(env):
    """ENV (None: the runner's) with the guard's token, the guard started
    first if it is not running yet."""
    global _guard
    if _guard is None:
        token = secrets.token_hex(16)
        r, w = os.pipe()  # w: the runner's alone (not inheritable), kept open until it exits
        try:
            p = subprocess.Popen([sys.executable, '-I', guard.__file__, token], stdin=r,
                                 stdout=subprocess.DEVNULL, start_new_session=True)
        except OSError as e:
            os.close(w)
            raise Refusal('cannot start the guard that stops fio if the runner is killed: %s' % e)
        finally:
            os.close(r)
        _guard = (p, token, w)
    env = dict(os.environ if env is None else env)
    env[guard.VAR] = _guard[1]
    return env


def start(args, nice=False, env=None, **kw):
    """Popen of ARGS in a new process group, registered for kill_all();
    NICE: at nice NICE (its start-up then yields to the run doing I/O)."""
    env = _guarded_env(env)
    p = subprocess.Popen(args, process_group=0, preexec_fn=_child_setup_nice if nice else _child_setup,
                         env=env, **kw)
    _running.add(p)
    return p


def wait(p):
    """Forget P once it has ended, killing what is left of its group (job
    processes); one still running is left to kill_all() (never waited for
    here: a signal may be on its way out through this)."""
    if p.poll() is not None:
        _running.discard(p)
        _kill_group(p.pid, signal.SIGKILL)


_KILLED = re.compile(r'fio: pid=[0-9]+, got signal=[0-9]+')


class Fio:
    """One fio run (output to LOG), started at once; with a GATE (gate.Gate)
    its jobs wait for gate.open() before their I/O.  A job process killed
    under fio (fio says "pid=N, got signal=S" and goes on with the next job)
    stops the whole run at once: its numbers would be wrong."""

    def __init__(self, args, log, gate=None, **kw):
        self.log, self.gate, self.killed = log, gate, []
        self.niced = bool(gate) and os.geteuid() == 0
        self.done = threading.Event()
        if gate:
            kw['pass_fds'] = (gate.fd,)
        with open(log, 'w') as lf:
            self.p = start(args, nice=self.niced, stdout=lf, stderr=subprocess.STDOUT, **kw)
        if gate:
            gate.started()
        # the watcher blocks the signals (its mask is inherited): they go to
        # the main thread, which is waiting for fio and stops it
        old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            threading.Thread(target=self._watch, daemon=True).start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def _watch(self):
        while not self.done.wait(0.5):
            try:
                with open(self.log, errors='replace') as f:
                    m = _KILLED.search(f.read())
            except OSError:
                continue    # the run failing and being undone took the log away
            if m:
                # fio's SIGTERM stops its jobs (they are in sessions of their own)
                self.killed.append(m.group(0))
                _kill_group(self.p.pid, signal.SIGTERM)
                return

    def unnice(self):
        """Back to the runner's priority, every thread of fio and its jobs
        (before its gate opens)."""
        if not self.niced:
            return
        base = os.getpriority(os.PRIO_PROCESS, 0)
        # fio first: a job it forks from now on has the priority back
        for pid in [self.p.pid, None]:
            for p in [pid] if pid else self._jobs():
                for tid in _tasks(p):
                    try:
                        os.setpriority(os.PRIO_PROCESS, tid, base)
                    except OSError:
                        pass
        self.niced = False

    def _jobs(self):
        """fio's job processes now (its main thread's children)."""
        try:
            with open('/proc/%d/task/%d/children' % (self.p.pid, self.p.pid)) as f:
                return [int(x) for x in f.read().split()]
        except OSError:
            return []

    def wait_io(self):
        """Until the I/O is over: a gated fio's job process has exited
        (fio's job closes its files before it exits; fio's main process
        then only writes its output), any other fio has exited.  With
        PERFPACK_RELEASE=exit, always until fio has exited (the strict
        variant, for measuring)."""
        jobs = self._jobs() if self.gate and os.environ.get('PERFPACK_RELEASE') != 'exit' else []
        fds = []
        try:
            for pid in jobs:
                try:
                    fds.append(os.pidfd_open(pid))
                except ProcessLookupError:  # gone (and reaped) already
                    pass
            # a pid fio reaped before its pidfd was opened may be another process now
            if fds and set(jobs) - set(self._jobs()):
                fds = []
            if fds:
                main = os.pidfd_open(self.p.pid)
                fds.append(main)
                while len(fds) > 1:
                    ready, _, _ = select.select(fds, [], [])
                    if main in ready:
                        break
                    fds = [fd for fd in fds if fd not in ready]
                    for fd in ready:
                        os.close(fd)
                return
        finally:
            for fd in fds:
                os.close(fd)
        self.p.wait()

    def wait(self):
        """fio's exit status, once its gate (if any) is open."""
        try:
            rc = self.p.wait()
        finally:
            self.done.set()
            wait(self.p)
            if self.gate:
                self.gate.close()
        if self.killed:
            raise Refusal('a fio job process was killed (%s): fio stopped, the run is incomplete' % self.killed[0])
        return rc


def run(args, log, **kw):
    """Status of fio ARGS (output to LOG), run now."""
    return Fio(args, log, **kw).wait()


def capture(args, env=None, cwd=None):
    """(status, stdout+stderr) of a short fio run, in its own group."""
    p = start(args, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = p.communicate()
    finally:
        wait(p)
    return p.returncode, out


def _kill_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def become_subreaper():
    """fio's job processes (setsid: not in fio's group) whose fio died come
    to the runner, not to init, so that kill_all() finds them."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1)
    except (OSError, AttributeError):
        pass


def _children():
    """PID -> PPID of every process (from /proc)."""
    out = {}
    for d in os.listdir('/proc'):
        if d.isdigit():
            try:
                with open('/proc/%s/stat' % d) as f:
                    out[int(d)] = int(f.read().rsplit(')', 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    return out


def _descendants(root):
    ppid, found, todo = _children(), [], [root]
    while todo:
        parent = todo.pop()
        kids = [pid for pid, pp in ppid.items() if pp == parent]
        found += kids
        todo += kids
    return found


def kill_all():
    """Stop every fio still running: TERM to fio (it stops its jobs), KILL
    after 5 s to it and to every process left under the runner.  Every
    gate is closed first: a fio held at one ends its job at once."""
    gate.close_all()
    for p in list(_running):
        _kill_group(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + 5
    for p in list(_running):
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        _kill_group(p.pid, signal.SIGKILL)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        _running.discard(p)
    for pid in _descendants(os.getpid()):
        if _guard and pid == _guard[0].pid:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    _reap()


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _tasks(pid):
    try:
        return [int(t) for t in os.listdir('/proc/%d/task' % pid)]
    except OSError:
        return []
