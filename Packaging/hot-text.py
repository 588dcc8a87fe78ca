#!/usr/bin/env python3
"""Writes the linker script that gathers the code a session runs (Packaging/hot-text.lds).

    hot-text.py MAP BINARY-NAME OUTPUT PROFILE [PROFILE ...]

MAP is lld's -Map of the profiled build; each PROFILE was recorded from that binary with
`valgrind --tool=callgrind --dump-instr=yes`. Sections are listed in the order the first
profile lists them, then what each later profile adds. The script names input sections, not
symbols: many small functions (value witnesses, object destroyers, thunks) have only a local
label, which a symbol ordering file cannot name.
"""
import bisect
import re
import sys

MAP_LINE = re.compile(r'\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s{9}(\S.*)$')
NAMED = re.compile(r'(c?(?:ob|fn|fl|fi|fe))=\((\d+)\)(?: (.*))?$')


def load_map(path):
    """The input sections of the link, sorted by address: (start, size, 'file:(section)')."""
    sections = []
    with open(path, errors='replace') as f:
        for line in f:
            m = MAP_LINE.match(line.rstrip('\n'))
            if m and ':(' in m.group(3):
                sections.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3)))
    sections.sort()
    return sections


def executed(profile, binary_name):
    """The addresses run in `binary_name`, in the order the profile first lists them."""
    objects, current, last = {}, None, [0, 0]
    seen, order = set(), []

    def position(tokens):
        # Callgrind compresses each position column against the previous one.
        for i, tok in enumerate(tokens[:2]):
            if tok.startswith('0x'):
                last[i] = int(tok, 16)
            elif tok[0] in '+-':
                delta = int(tok[1:], 0)
                last[i] += delta if tok[0] == '+' else -delta
            elif tok != '*':
                last[i] = int(tok)
        return last[0]

    with open(profile, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = NAMED.match(line)
            if m:
                kind, ident, name = m.groups()
                if kind in ('ob', 'cob'):
                    if name:
                        objects[ident] = name
                    if kind == 'ob':
                        current = objects.get(ident)
                continue
            if line.startswith('calls='):
                position(line.split()[2:])
                continue
            if not line or line[0] not in '+-*0123456789':
                continue
            address = position(line.split())
            if current and current.endswith('/' + binary_name) and address not in seen:
                seen.add(address)
                order.append(address)
    return order


def pattern(description):
    """A linker-script input section description for 'file:(section)', or None."""
    m = re.match(r'(.*?):\((\.text[^)]*)\)$', description)
    if not m:
        return None
    path, section = m.groups()
    member = re.match(r'.*/([^/]+\.a)\(([^)]+)\)$', path)
    if member:
        return f'*{member.group(1)}:{member.group(2)}({section})'
    # SwiftPM's layout, TARGET.build/FILE.o, without the scratch path.
    return '*/' + '/'.join(path.split('/')[-2:]) + f'({section})'


def main():
    map_path, binary_name, output, *profiles = sys.argv[1:]
    sections = load_map(map_path)
    starts = [s[0] for s in sections]
    listed, lines = set(), []
    for profile in profiles:
        for address in executed(profile, binary_name):
            i = bisect.bisect_right(starts, address) - 1
            if i < 0 or address >= sections[i][0] + max(sections[i][1], 1):
                continue
            description = sections[i][2]
            if description in listed:
                continue
            listed.add(description)
            p = pattern(description)
            if p:
                lines.append('    ' + p)
    with open(output, 'w') as f:
        f.write('/* Written by Packaging/profile-layout; do not edit by hand.\n'
                '   The code sessions of the app ran, gathered at the start of the text so that\n'
                '   its pages hold little else. A section no longer in the build matches nothing. */\n')
        f.write('SECTIONS {\n  .text.hot : {\n' + '\n'.join(lines) + '\n  }\n} INSERT BEFORE .text;\n')
    print(f'{len(lines)} sections from {len(profiles)} profiles', file=sys.stderr)


if __name__ == '__main__':
    main()
