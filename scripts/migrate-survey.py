#!/usr/bin/env python3
"""What `dpstub --migrate` would do to a tree: loops found, converted, refused
by reason, per file and in all.

    python3 scripts/migrate-survey.py [--dpstub PATH] [--json OUT] DIR... -- FLAGS...

Every C and C++ source under DIR that holds an OpenMP or OpenACC directive
(or a `_Pragma`), or includes (`#include "h"`, beside it) a header that
does, is migrated with --list (nothing is written), parsed as the
language it is written in (a .c file as GNU C99, as its makefile builds it; others as
C++17) with FLAGS as its compile flags (-I, -D). A header's loop counts
once, however many sources include it; where its warning says to run
--migrate on the header, the survey does (parsed as the language of the
source that includes it) and counts that run's verdict. Prints a line per
file and the totals by reason; --json keeps every loop's entry.

With --compile, each file with a converted loop is migrated for real (to a
temporary folder) and its migration compiled as C++17 with dp's headers
(-fsyntax-only, CXX or g++, FLAGS too): a line names each that does not
compile, and the totals say how many do; it exits 1 if one does not.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

# A directive line, or the _Pragma operator (written by a macro, as
# ParRes Kernels' OMP_FOR() is: its header holds the operator).
DIRECTIVE = re.compile(r'^\s*#\s*pragma\s+(omp|acc)\b|\b_Pragma\s*\(', re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def has_directive(path, seen=None):
    """The file, or a header it includes from beside it, holds a directive."""
    seen = set() if seen is None else seen
    if path in seen or not os.path.isfile(path):
        return False
    seen.add(path)
    with open(path, errors='replace') as h:
        text = h.read()
    if DIRECTIVE.search(text):
        return True
    return any(has_directive(os.path.join(os.path.dirname(path), inc), seen)
               for inc in INCLUDE.findall(text))


def sources(dirs):
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith(('.c', '.cc', '.cpp', '.cxx')):
                    path = os.path.join(root, f)
                    if has_directive(path):
                        yield path


def main():
    argv = sys.argv[1:]
    flags = []
    if '--' in argv:
        at = argv.index('--')
        argv, flags = argv[:at], argv[at + 1:]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('dirs', nargs='+')
    p.add_argument('--dpstub', default=os.path.join(os.path.dirname(__file__), '..', 'build', 'tool', 'dpstub'))
    p.add_argument('--json', help='write every loop entry here')
    p.add_argument('--compile', action='store_true',
                   help='migrate each file with a converted loop and compile the result (C++17, -fsyntax-only)')
    args = p.parse_args(argv)
    include = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'include')
    compiled = []  # (path, None or the first error)

    def compiles(path, extra):
        """None when path's migration compiles as C++17, else the first error."""
        with tempfile.TemporaryDirectory() as out:
            run = subprocess.run([args.dpstub, '--migrate', '--quiet', '--out-dir', out, path, '--'] + extra +
                                 ['-I' + os.path.dirname(path)] + flags, capture_output=True, text=True)
            migrated = os.path.join(out, os.path.basename(path))
            if run.returncode != 0 or not os.path.isfile(migrated):
                return 'migration failed: ' + next((l for l in run.stderr.splitlines() if 'error' in l),
                                                   run.stderr.strip()[:200] or f'exit {run.returncode}')
            compiler = os.environ.get('CXX', 'g++')
            cxx = subprocess.run([compiler, '-std=c++17', '-fsyntax-only', '-w', '-x', 'c++',
                                  '-I' + include, '-I' + os.path.dirname(path)] + flags + [migrated],
                                 capture_output=True, text=True)
            if cxx.returncode != 0:
                return next((l for l in cxx.stderr.splitlines() if 'error' in l),
                            cxx.stderr.strip()[:200] or f'{compiler} exited {cxx.returncode}')
        return None

    totals = collections.Counter()
    reasons = collections.Counter()
    regions = collections.Counter()  # device regions of statements alone, by verdict
    entries = []
    failed = []
    counted = set()

    def migrate(path, extra):
        """The loops --list reports for path (None: not parsed) and the error."""
        cmd = [args.dpstub, '--migrate', '--list', '--quiet', path, '--'] + extra + \
              ['-I' + os.path.dirname(path)] + flags
        run = subprocess.run(cmd, capture_output=True, text=True)
        try:
            loops = json.loads(run.stdout) if run.stdout.strip() else []
        except json.JSONDecodeError:
            loops = []
        first = next((l for l in run.stderr.splitlines() if 'error:' in l), run.stderr.strip()[:200])
        if run.returncode != 0 and not loops:
            return None, first
        if run.returncode != 0:
            # The file's loops would convert, but its migration stops at an
            # error (C that C++ rejects) and writes nothing.
            for l in loops:
                if l['verdict'] == 'converted':
                    l.update(verdict='refused', diagnostic='migrationStopped', reason=first)
        # A loop's file is named relative to the input's folder.
        for l in loops:
            l['path'] = os.path.normpath(os.path.join(os.path.dirname(path), l['file']))
            l['source'] = path
        return loops, first

    def key(l):
        return (l['path'], l['line'], l['column'])

    for src in sources(args.dirs):
        extra = ['-std=gnu99'] if src.endswith('.c') else ['-std=c++17']
        loops, first = migrate(src, extra)
        if loops is None:
            failed.append((src, first))
            continue
        # A loop in an included header: --migrate on the header, as its
        # warning says, in the language of the source.
        headers = sorted({l['path'] for l in loops if l.get('diagnostic') == 'migrateInHeader'} -
                         {k[0] for k in counted})
        for h in headers:
            own, why = migrate(h, ['-x', 'c' if src.endswith('.c') else 'c++'] + extra)
            if own is None:
                failed.append((h, why))
                continue
            loops = [l for l in loops if l['path'] != h] + [l for l in own if l['path'] == h]
        # A header's loops, once (each source including it reports them).
        loops = [l for l in loops if key(l) not in counted]
        counted.update(key(l) for l in loops)
        # Device regions of statements alone are no loops: counted apart.
        regions.update(l['verdict'] for l in loops if l.get('statements'))
        loops = [l for l in loops if not l.get('statements')]
        c = collections.Counter(l['verdict'] for l in loops)
        print(f"{src}: {len(loops)} loops, {c['converted']} converted, {c['refused']} refused")
        if args.compile:
            # The source, and each header migrated on its own, where a loop converts.
            for path in sorted({l['path'] for l in loops if l['verdict'] == 'converted'}):
                lang = [] if path == src else ['-x', 'c' if src.endswith('.c') else 'c++']
                why = compiles(path, lang + extra)
                compiled.append((path, why))
                if why:
                    print(f"  does not compile: {path}: {why}")
        for l in loops:
            entries.append(l)
            totals[l['verdict']] += 1
            if l['verdict'] == 'refused':
                reasons[l.get('diagnostic', '?')] += 1
    found = totals['converted'] + totals['refused']
    print()
    print(f"files with directives: {len(set(e['source'] for e in entries))} analysed, {len(failed)} not parsed")
    for src, why in failed:
        print(f"  not parsed: {src}: {why}")
    print(f"loops: {found} found, {totals['converted']} converted, {totals['refused']} refused")
    if args.compile:
        print(f"migrated files that compile: {sum(1 for _, why in compiled if not why)} of {len(compiled)}")
        if any(why for _, why in compiled):
            sys.exit(1)
    for r, n in reasons.most_common():
        print(f"  {n:4d} {r}")
    if regions:
        print(f"device regions of statements alone: {regions['converted']} kernel{'' if regions['converted'] == 1 else 's'} of one point, "
              f"{regions['refused']} run on the host")
    if args.json:
        with open(args.json, 'w') as h:
            json.dump(entries, h, indent=2)


if __name__ == '__main__':
    main()
