# SPDX-License-Identifier: GPL-2.0-only
"""What the runner asks fio before a run and reads from it after: engine
checks (here and on every --client server), fio's client syntax, fio's
own error lines from a failed run's log, hosts missing from the JSON."""

import ipaddress
import json
import os
import re
import socket

from .fiorun import capture
from .util import Refusal


def client_arg(host):
    """fio's client syntax is host[,port]; we take host[:port] or [v6]:port.
    A sock: path is made absolute: fio runs in the run's raw/VARIANT/."""
    if host.startswith('sock:'):
        return 'sock:' + os.path.abspath(host[5:])
    m = re.match(r'^\[(.*)\]:([0-9]+)$', host)
    if m:
        return 'ip6:%s,%s' % m.groups()
    m = re.match(r'^([^:]+):([0-9]+)$', host)
    if m:
        return '%s,%s' % m.groups()
    return host


FIO_NET_PORT = 8765  # fio's server port when none is given (server.h)


def _client_problem(host):
    """What is wrong with --client HOST as the runner takes it (HOST,
    HOST:PORT, [v6]:PORT, a bare IPv6 address; fio's ip:/ip6:/sock: forms),
    or None: fio reads a bad one only at the run, after the output
    directory exists (and h:8911x, a port above 65535 or 0 fail there)."""
    def bad_port(port):
        return not (port.isdigit() and 0 < int(port) < 65536)

    if host.startswith('sock:'):
        return None if len(host) > 5 else 'no socket path after sock:'
    m = re.match(r'^(ip6?):([^,]+)(?:,(.*))?$', host)
    if m:
        if m.group(3) is not None and bad_port(m.group(3)):
            return "port '%s' is not a number from 1 to 65535" % m.group(3)
        return None
    m = re.match(r'^\[([^\]]*)\](?::(.*))?$', host)
    if m:
        try:
            ipaddress.IPv6Address(m.group(1))
        except ValueError:
            return "'%s' is no IPv6 address" % m.group(1)
        if m.group(2) is None or bad_port(m.group(2)):
            return "port '%s' is not a number from 1 to 65535" % (m.group(2) or '')
        return None
    if host.count(':') > 1:
        try:
            ipaddress.IPv6Address(host)
            return None
        except ValueError:
            return 'not HOST, HOST:PORT or [IPv6]:PORT (an IPv6 address with a port goes in brackets)'
    name, colon, port = host.partition(':')
    if not name or not re.match(r'^[A-Za-z0-9._-]+$', name):
        return "'%s' is no host name or address" % name
    if name.isdigit():  # fio's ip:HOST,PORT split at the comma, or a port alone
        return ("'%s' is a number, no host (a port goes after the host, HOST:PORT; commas separate "
                "servers)" % name)
    if colon and bad_port(port):
        return "port '%s' is not a number from 1 to 65535" % port
    return None


def check_client_syntax(hosts):
    """Refusal naming the first of HOSTS (--client) that is not understood."""
    for h in hosts:
        problem = _client_problem(h)
        if problem:
            raise Refusal('--client %s: %s' % (h, problem))


def _fio_server(host):
    """(name, port or '') of --client HOST as fio keeps it: fio's ip:, ip6:
    and sock: taken off (its JSON's client_stats hostname; a sock: server's
    is its path as client_arg gives it, absolute)."""
    arg = client_arg(host)
    if arg.startswith(('sock:', 'ip:', 'ip6:')):
        arg = arg.split(':', 1)[1]
    name, _, port = arg.partition(',')
    return name, port


def _endpoints(host):
    """(address, port) pairs HOST (HOST, HOST:PORT, [v6]:PORT) resolves to,
    or for sock:PATH ('socket', the socket's (st_dev, st_ino), else its
    normalised path); empty when it does not resolve (fio then reports it
    missing)."""
    name, port = _fio_server(host)
    if host.startswith('sock:'):
        try:
            st = os.stat(name)
            return {('socket', (st.st_dev, st.st_ino))}
        except OSError:
            return {('socket', os.path.normpath(name))}
    try:
        port = int(port or FIO_NET_PORT)
        infos = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        return set()
    return {(ipaddress.ip_address(i[4][0].split('%')[0]), port) for i in infos}


def check_distinct_servers(hosts):
    """Refusal when two --client HOSTS are one fio server (one address and
    port: localhost and 127.0.0.1, a name and its address, HOST and
    HOST:8765; or two loopback addresses at one port, which one server
    listening on all addresses takes both): it would run every job twice at
    once on one target, and the tables would show two hosts."""
    seen = {}
    for h in hosts:
        for addr, port in sorted(_endpoints(h), key=str):
            sock = addr == 'socket'
            keys = [(addr, port)] + ([('loopback', port)] if not sock and addr.is_loopback else [])
            for key in keys:
                other = seen.setdefault(key, h)
                if other != h and (key[0] != 'loopback' or _one_listener(port)):
                    raise Refusal('--client %s and %s are one fio server (%s): it would run every job '
                                  'twice at once on one target, and the tables would show two hosts; name each '
                                  'server once' % (other, h, 'one socket' if sock else '%s port %d' % (addr, port)))


# fio's log options: with --client each server's log is PREFIX_KIND.N.log.HOST
_LOG_OPTIONS = ('write_bw_log', 'write_lat_log', 'write_iops_log', 'write_hist_log')


def _fio_host(host):
    """The host name fio --client keeps for HOST (its address or name,
    without the port): what it appends to each server's log names."""
    return _fio_server(host)[0]


def check_client_logs(hosts, sections):
    """Refusal when two --client HOSTS have one host name (two servers on
    one machine, at two ports) and a job of the plan writes a log: fio's
    client names each server's log by that name alone (client.c), so the
    second server's file replaced the first's, one server's samples lost
    without a word; and a sock: server when a job writes a log: its name
    is the socket's path, and fio cannot create LOG.PATH.  SECTIONS:
    {(variant, name): Section}."""
    seen = {}
    logs = [(v, name, k, sec.opts[k]) for (v, name), sec in sorted(sections.items()) for k in _LOG_OPTIONS
            if sec.opts.get(k)]
    for h in hosts:
        if h.startswith('sock:') and logs:
            v, name, log, val = logs[0]
            raise Refusal('--client %s: job [%s] (variant %s) sets %s=%s, and fio names a server\'s log by its '
                          'host, a sock: server\'s by its socket path (%s_*.log.%s), which fio cannot create: the '
                          'run would complete without the log; give that server as HOST:PORT'
                          % (h, name, v, log, val, val, _fio_host(h)))
        other = seen.setdefault(_fio_host(h), h)
        if other == h:
            continue
        for (v, name), sec in sorted(sections.items()):
            log = next((k for k in _LOG_OPTIONS if sec.opts.get(k)), None)
            if log:
                raise Refusal('--client %s and %s are servers on one host, %s: job [%s] (variant %s) sets %s=%s, '
                              'and fio names each server\'s log %s_*.log.%s by the host alone, so one would replace '
                              'the other\'s; run them from two hosts, or one server per host'
                              % (other, h, _fio_host(h), name, v, log, sec.opts[log], sec.opts[log], _fio_host(h)))


def _one_listener(port):
    """Whether a socket listens on PORT on all addresses of this host (then
    every loopback address at PORT is that one server)."""
    for table, wild in (('/proc/net/tcp', '00000000'), ('/proc/net/tcp6', '0' * 32)):
        try:
            with open(table) as f:
                rows = [ln.split() for ln in f.readlines()[1:]]
        except OSError:
            continue
        if any(r[1] == '%s:%04X' % (wild, port) and r[3] == '0A' for r in rows if len(r) > 3):
            return True
    return False


_LOAD = re.compile(r'built for .*loaded by|failed to load|dlopen|cannot open shared')


def check_engines(ctx, names):
    """Every engine of NAMES is in ENGDIR and loads into this fio (and on
    every --client server, at the same path)."""
    version = capture([ctx.fio, '--version'])[1].strip()
    for e in sorted(set(names)):
        so = os.path.join(ctx.engdir, 'fio-%s.so' % e)
        if not os.path.isfile(so):
            raise Refusal('engine %s: %s not found (build it with make, or set ENGDIR)' % (e, so))
        _, out = capture([ctx.fio, '--name=perfpack-engine-check', '--ioengine=external:' + so,
                          '--filename=' + os.path.join(ctx.work, 'engine-check'), '--size=4k', '--bs=4k',
                          '--rw=read'])
        m = _LOAD.search(out)
        if m:
            line = next(ln for ln in out.splitlines() if re.search(r'built for|load|dlopen|shared', ln))
            raise Refusal('engine %s (%s) does not load into %s: %s' % (e, so, version, line))
        # fio --client runs job files only (command-line jobs are not sent)
        job = os.path.join(ctx.work, 'engine-check.fio')
        with open(job, 'w') as f:
            f.write('[perfpack-engine-check]\nioengine=external:%s\nfilename=perfpack-engine-check\n'
                    'size=4k\nbs=4k\nrw=read\n' % so)
        for host in ctx.clients:
            _, out = capture([ctx.fio, '--client=' + client_arg(host), job])
            if re.search(_LOAD.pattern + '|No such file', out):
                line = next(ln for ln in out.splitlines() if re.search(r'built for|load|dlopen|shared|No such', ln))
                raise Refusal('engine %s on server %s: must be installed at the same path (%s): %s'
                              % (e, host, so, line))


_ERR = re.compile(r'^(fio: |.*\b(error|err=\s*[1-9]|failed|No space|Input/output|Permission|refus|'
                  r'cannot|unable|invalid|not found)\b)', re.I)


def error_lines(log_path, limit=12):
    """fio's own error lines from its log (not the JSON)."""
    try:
        with open(log_path, errors='replace') as f:
            lines = [ln.rstrip('\n') for ln in f]
    except OSError:
        return []
    hits = [ln for ln in lines if _ERR.search(ln)]
    return (hits or lines)[-limit:]


def job_errors(json_path):
    """'job NAME: error N (strerror)' of each job fio's JSON records with an
    error (fio does not always print one: a read past a device's end)."""
    try:
        with open(json_path, errors='replace') as f:
            text = f.read()
        data = json.loads(text[text.index('{'):])
    except (OSError, ValueError):
        return []
    return ['job %s: error %s (%s)' % (j.get('jobname'), j['error'], os.strerror(j['error']))
            for j in data.get('jobs', []) if isinstance(j.get('error'), int) and j['error']]


def missing_hosts(json_path, hosts):
    """Planned --client hosts with no result in fio's JSON."""
    try:
        with open(json_path, errors='replace') as f:
            text = f.read()
        data = json.loads(text[text.index('{'):])
    except (OSError, ValueError):
        return list(hosts)
    seen = set()
    for c in data.get('client_stats', []):
        if c.get('jobname') != 'All clients':
            seen.add((str(c.get('hostname', '')), str(c.get('port', ''))))
    missing = []
    for h in hosts:
        name, port = _fio_server(h)
        if not any(s[0] == name and (not port or s[1] == port) for s in seen):
            missing.append(h)
    return missing
