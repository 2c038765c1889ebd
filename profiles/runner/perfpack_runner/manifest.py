# SPDX-License-Identifier: GPL-2.0-only
"""profile.conf: a profile manifest, read as data (never sourced).

The format is KEY=VALUE lines in shell-like quoting, so that the files
stay readable and a shell could read them too, but nothing is evaluated:

    TITLE="words"          a string ("double" or 'single' quoted, or bare)
    PLOT+=" @x"            appended to a string
    TABLES=(               a list, one quoted item or more per line
        "name=cmd @variant"
    )
    TABLES+=("more")       appended to a list
    # comment

Double quotes allow \\" and \\\\; a $ or ` anywhere is refused, and so is
any line that is not one of the above, a control character (a tab only
between words) and a KEY given twice with = (KEY+= appends).  The same
reader serves runs and `perfpack tables DIR` (a run directory may come
from anyone); which keys a profile has is profile.FIELDS.
"""

import re
import unicodedata

from .util import Refusal

_NAME = r'[A-Za-z_][A-Za-z0-9_]*'
_ASSIGN = re.compile(r'^(' + _NAME + r')(\+?)=(.*)$')
_BARE = re.compile(r'[A-Za-z0-9_@.,:=+/%^*?\[\]{}~!-]+')


class ManifestError(Exception):
    pass


class Manifest(dict):
    """KEY -> str or list; .lines: KEY -> line of its first assignment;
    .item_lines: KEY -> the line of each item of a list."""

    def __init__(self):
        super().__init__()
        self.lines, self.item_lines = {}, {}


def control_char(text):
    """A description of the first control character of TEXT, or None
    (a value with one could end a line of a job file or a comment)."""
    for c in str(text):
        if unicodedata.category(c) in ('Cc', 'Zl', 'Zp'):
            names = {'\n': 'a newline', '\r': 'a carriage return', '\t': 'a tab', '\0': 'a NUL'}
            return names.get(c, 'U+%04X' % ord(c))
    return None


def split_words(text):
    """Words of TEXT: [(word, ...)], the rest after a ')' or None.

    Quoting as in the shell without expansions; stops at an unquoted '#'
    that starts a word (a comment: one inside a word is the word's, as the
    shell reads X=a#b) or ')' (the end of a list: returns what follows)."""
    words, i, n = [], 0, len(text)
    while True:
        while i < n and text[i] in ' \t':
            i += 1
        if i >= n or text[i] == '#':
            return words, None
        if text[i] == ')':
            return words, text[i + 1:]
        word, i = _one_word(text, i)
        words.append(word)


def _one_word(text, i):
    word, n = '', len(text)
    while i < n and text[i] not in ' \t)':
        c = text[i]
        if c == '#':
            # not at the word's start (split_words takes that as a comment):
            # the shell's X=a#b is 'a#b'; dropping '#b' cut values silently
            word += c
            i += 1
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                raise ManifestError("unclosed '")
            if '\t' in text[i + 1:j]:
                raise ManifestError('a tab in a quoted string')
            word += text[i + 1:j]
            i = j + 1
        elif c == '"':
            i += 1
            while True:
                if i >= n:
                    raise ManifestError('unclosed "')
                c = text[i]
                if c == '"':
                    i += 1
                    break
                if c in '$`':
                    raise ManifestError('%s in a quoted string (nothing is expanded)' % c)
                if c == '\t':
                    raise ManifestError('a tab in a quoted string')
                if c == '\\' and i + 1 < n and text[i + 1] in '"\\':
                    i += 1
                    c = text[i]
                elif c == '\\':
                    raise ManifestError('\\ before %r' % text[i + 1:i + 2])
                word += c
                i += 1
        else:
            m = _BARE.match(text, i)
            if not m:
                raise ManifestError('%r is not data (quoted strings, no $ or `)' % c)
            word += m.group(0)
            i = m.end()
    return word, i


def parse(text, path):
    """The Manifest of TEXT; ManifestError lists every bad line."""
    values, errors = Manifest(), []
    lines = text.split('\n')
    k = 0
    while k < len(lines):
        lineno, line = k + 1, lines[k].strip(' \t')
        k += 1
        bad = control_char(line.replace('\t', ' '))
        if bad:
            errors.append('%s:%d: %s in the line (values go into job files and comments as they are)'
                          % (path, lineno, bad))
            continue
        if not line or line.startswith('#'):
            continue
        m = _ASSIGN.match(line)
        if not m:
            errors.append('%s:%d: not KEY=VALUE (nothing in a manifest is run): %s' % (path, lineno, line))
            continue
        key, append, rest = m.groups()
        if key in values and not append:
            errors.append('%s:%d: %s is given twice (first at line %d; %s+= appends): %s'
                          % (path, lineno, key, values.lines[key], key, line))
        try:
            if rest.startswith('('):
                items, k = _parse_list(rest[1:], lines, k)
                old = values.get(key, []) if append else []
                if isinstance(old, str):
                    raise ManifestError('%s is a string, not a list' % key)
                values[key] = old + [w for w, _ in items]
                values.item_lines[key] = values.item_lines.get(key, []) + [n for _, n in items]
            else:
                words, after = split_words(rest)
                if after is not None or len(words) > 1:
                    raise ManifestError('one value (quote it)')
                old = values.get(key, '') if append else ''
                if isinstance(old, list):
                    raise ManifestError('%s is a list: KEY+=(...)' % key)
                values[key] = old + (words[0] if words else '')
            values.lines.setdefault(key, lineno)
        except ManifestError as e:
            errors.append('%s:%d: cannot read %s as data (%s): %s' % (path, lineno, key, e, line))
    if errors:
        raise ManifestError('\n'.join(errors))
    return values


def _parse_list(rest, lines, k):
    """([(item, line number)], index of the line after the list)."""
    items = []
    while True:
        words, after = split_words(rest)
        items += [(w, k) for w in words]
        if after is not None:
            if after.strip() and not after.strip().startswith('#'):
                raise ManifestError('text after )')
            return items, k
        if k >= len(lines):
            raise ManifestError('( is not closed')
        rest = lines[k]
        if control_char(rest.replace('\t', ' ')):
            raise ManifestError('%s in line %d' % (control_char(rest.replace('\t', ' ')), k + 1))
        k += 1


def read(path):
    try:
        with open(path, encoding='utf-8', newline='') as f:
            text = f.read()
    except OSError as e:
        raise Refusal('%s: cannot be read (%s)' % (path, e.strerror))
    except UnicodeDecodeError as e:
        raise Refusal('%s: not UTF-8 text (byte %d)' % (path, e.start))
    try:
        return parse(text, path)
    except ManifestError as e:
        raise Refusal(str(e))


def words_to_vars(text, where):
    """'A=1 B="x y"' -> [('A', '1'), ('B', 'x y')] (a variant's variables)."""
    try:
        words, after = split_words(text)
        if after is not None:
            raise ManifestError('unexpected )')
    except ManifestError as e:
        raise Refusal('%s: cannot parse variables: %s (%s)' % (where, text, e))
    out = []
    for w in words:
        if not re.match('^' + _NAME + '=', w):
            raise Refusal("%s: '%s' is not VAR=VALUE (in: %s)" % (where, w, text))
        name, _, value = w.partition('=')
        out.append((name, value))
    return out
