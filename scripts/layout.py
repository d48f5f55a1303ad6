#!/usr/bin/env python3
"""layout.py - the code's layout, measured (docs/ARCHITECTURE.md "The layout's rules").

    scripts/layout.py [--objects BUILD_DIR] [--report]
    scripts/layout.py --self-test

Checks, over every .c file of src/:
  1. no file is longer than 1,000 lines;
  2. no function is longer than 120 lines, unless the comment just above it
     says why it must be one piece (a line holding "one piece");
  3. with --objects, no two files call each other: from the object files of
     BUILD_DIR (nm), file A uses a symbol B defines and B one A defines.
Prints each breach as "layout: FILE:LINE: what" and exits 1 if there is any;
--report also lists the longest files and functions.
"""
import os
import re
import subprocess
import sys

FILE_LINES = 1000
FUNC_LINES = 120
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources():
    for d, _, names in sorted(os.walk(os.path.join(ROOT, "src"))):
        for n in sorted(names):
            if n.endswith(".c"):
                yield os.path.relpath(os.path.join(d, n), ROOT)


def functions(lines):
    """(name, first line, length, exempt) of each function defined at column 0:
    a line opening with "{" at column 0 after a signature, to the "}" at column 0."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip("\n") == "{":
            # the signature: back to the line that starts it (not blank, not a comment)
            j = i - 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(("}", "/*", " *", "#")) \
                    and not lines[j - 1].rstrip().endswith((";", "*/")):
                j -= 1
            sig = " ".join(l.strip() for l in lines[j:i])
            m = re.search(r"([A-Za-z_]\w*)\s*\(", sig)
            name = m.group(1) if m else "?"
            # the comment above the signature
            k = j - 1
            comment = []
            if k >= 0 and lines[k].rstrip().endswith("*/"):
                while k >= 0:
                    comment.append(lines[k])
                    if lines[k].lstrip().startswith("/*"):
                        break
                    k -= 1
            exempt = any("one piece" in c for c in comment)
            end = i + 1
            while end < len(lines) and lines[end].rstrip("\n") != "}" \
                    and not lines[end].startswith("};"):
                end += 1
            out.append((name, j + 1, end - i + 1, exempt))
            i = end
        i += 1
    return out


def object_calls(build):
    """{source: (defined, used)} from the object files of the build."""
    table = {}
    for d, _, names in os.walk(build):
        for n in names:
            rel = os.path.relpath(d, build)
            if not n.endswith(".c.o") or rel.startswith("tests") or "fuzz" in rel:
                continue
            path = os.path.join(d, n)
            m = re.search(r"\.dir/(src/.*\.c)\.o$", path)
            if not m:
                continue
            src = m.group(1)
            out = subprocess.run(["nm", path], capture_output=True, text=True).stdout
            defined, used = set(), set()
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    used.add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBR":
                    defined.add(parts[2])
            table.setdefault(src, (set(), set()))
            table[src][0].update(defined)
            table[src][1].update(used)
    return table


def self_test():
    """The checks catch what they are for: a long function, an excused one,
    and two object files that call each other (built with cc)."""
    import tempfile
    body = ["int long_one(void)\n", "{\n"] + ["    x++;\n"] * 119 + ["}\n"]
    excused = ["/* It must be one piece: a test. */\n"] + body
    got = functions(["static int x;\n", "\n"] + body + ["\n"] + excused)
    assert [(n, l, e) for n, _, l, e in got] == [("long_one", 121, False), ("long_one", 121, True)], got
    assert functions(["int short_one(int a,\n", "              int b)\n", "{\n", "}\n"]) == \
        [("short_one", 1, 2, False)]
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "t.dir", "src", "x")
        os.makedirs(obj)
        for name, defines, calls in (("a", "a_f", "b_f"), ("b", "b_f", "a_f"), ("c", "c_f", "a_f")):
            c = os.path.join(tmp, name + ".c")
            with open(c, "w") as f:
                f.write(f"int {calls}(void);\nint {defines}(void);\nint {defines}(void) {{ return {calls}(); }}\n")
            subprocess.run(["cc", "-c", c, "-o", os.path.join(obj, name + ".c.o")], check=True)
        table = object_calls(tmp)
        assert sorted(table) == ["src/x/a.c", "src/x/b.c", "src/x/c.c"], table
        assert mutual(table) == [("src/x/a.c", "src/x/b.c")], mutual(table)
    print("layout: self-test passed")
    return 0


def mutual(table):
    """The pairs of files that call each other."""
    owner = {}
    for src, (defined, _) in table.items():
        for s in defined:
            owner[s] = src
    edges = {src: {owner[s] for s in used if s in owner and owner[s] != src}
             for src, (_, used) in table.items()}
    return [(a, b) for a in sorted(edges) for b in sorted(edges[a])
            if a < b and a in edges.get(b, ())]


def main():
    args = sys.argv[1:]
    if "--self-test" in args:
        return self_test()
    report = "--report" in args
    build = args[args.index("--objects") + 1] if "--objects" in args else None
    breaches = []
    longest = []
    for src in sources():
        with open(os.path.join(ROOT, src)) as f:
            lines = f.readlines()
        if len(lines) > FILE_LINES:
            breaches.append(f"{src}:1: {len(lines)} lines (at most {FILE_LINES})")
        for name, line, length, exempt in functions(lines):
            longest.append((length, f"{src}:{line}: {name}", exempt))
            if length > FUNC_LINES and not exempt:
                breaches.append(f"{src}:{line}: {name} is {length} lines (at most {FUNC_LINES}, "
                                "or a comment saying why it is one piece)")
    if build:
        table = object_calls(build)
        if not table:
            breaches.append(f"{build}: no object files of src/ found")
        for a, b in mutual(table):
            breaches.append(f"{a}:1: calls {b}, which calls it back")
    if report:
        for length, where, exempt in sorted(longest, reverse=True)[:25]:
            print(f"{length:5d}  {where}{'  (one piece)' if exempt else ''}")
    for b in breaches:
        print("layout: " + b)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
