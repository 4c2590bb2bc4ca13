#!/usr/bin/env python3
"""Reports the import loops between the source files under src/.

Each file is a module; a file imports another when it names it in a `crate::`, `super::` or
`self::` path, or a child module by its bare name in a `use` line. A name a module re-exports
from a child (`pub use child::name`) counts as an import of the child that defines it, so a
facade `mod.rs` hides no loop. Loops are the strongly connected components of that graph with
more than one file, biggest first, and the two-way pairs are counted: the figures issue 25
asks to bring to zero. A parent's `mod` lines and its children's use of items defined in the
parent itself are not counted. Exit status 0 always; with --check, 1 when any loop is left.

usage: scripts/import-cycles.py [--check] [SRC_DIR]
"""
import os
import re
import sys
from collections import defaultdict


def modules(root):
    """Maps each module path (a tuple of names) to its file."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            parts = os.path.relpath(path, root)[:-3].split(os.sep)
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts in (["lib"], ["main"]):
                parts = []
            out[tuple(parts)] = path
    return out


def resolve(files, path, reexports=None):
    """The module file that defines what `path` names: the longest prefix of `path` that is a
    module file, followed through that module's re-exports of its children."""
    for k in range(len(path), 0, -1):
        mod = tuple(path[:k])
        if mod in files:
            rest = path[k:]
            child = (reexports or {}).get(mod, {}).get(rest[0]) if rest else None
            if child is not None and child != mod:
                return resolve(files, list(child) + rest[1:], reexports)
            return mod
    return None


def use_lines(text):
    """The paths of every `use` item, flattened from their braces: (path segments)."""
    out = []
    for m in re.finditer(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
        parts = []
        body = re.sub(r"\s+", "", m.group(1))
        prefix = [[]]
        i = 0
        token = ""
        while i < len(body):
            c = body[i]
            if c == "{":
                prefix.append(prefix[-1] + [x for x in token.split("::") if x])
                token = ""
            elif c in ",}":
                if token:
                    parts.append(prefix[-1] + [x for x in token.split("::") if x])
                token = ""
                if c == "}" and len(prefix) > 1:
                    prefix.pop()
            else:
                token += c
            i += 1
        if token:
            parts.append(prefix[-1] + [x for x in token.split("::") if x])
        out.extend(parts)
    return out


def reexports_of(files):
    """For each module, the names it re-exports from one of its child modules."""
    out = {}
    for mod, path in files.items():
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"//[^\n]*", "", f.read())
        names = {}
        for m in re.finditer(r"(?m)^\s*pub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
            for segs in use_lines("use " + m.group(1) + ";"):
                if segs and segs[0] == "self":
                    segs = segs[1:]
                if len(segs) >= 2 and tuple(mod) + (segs[0],) in files and segs[-1] not in ("*", "self"):
                    names[segs[-1].split(" as ")[-1]] = tuple(mod) + (segs[0],)
        out[mod] = names
    return out


def edges_of(files):
    edges = defaultdict(set)
    reexports = reexports_of(files)
    for mod, path in files.items():
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"//[^\n]*", "", f.read())
        parent = list(mod[:-1])

        def add(base, segs):
            while segs and segs[0] == "super":
                base, segs = base[:-1], segs[1:]
            target = resolve(files, base + segs, reexports)
            is_ancestor = target is not None and mod[: len(target)] == target
            if target is not None and target != mod and not is_ancestor:
                edges[mod].add(target)

        for m in re.finditer(r"\b(crate|super|self)((?:::\w+)+)", text):
            head, segs = m.group(1), m.group(2).strip(":").split("::")
            base = [] if head == "crate" else parent if head == "super" else list(mod)
            add(base, segs)
        for m in re.finditer(r"\b(crate|super)((?:::\w+)*)::\{([^}]*)\}", text):
            base = [] if m.group(1) == "crate" else parent
            prefix = [s for s in m.group(2).split("::") if s]
            for item in m.group(3).split(","):
                segs = [s for s in item.strip().split("::") if s and s != "self"]
                if segs:
                    add(base, prefix + segs)
        for segs in use_lines(text):
            if segs and mod + (segs[0],) in files:
                add(list(mod), segs)
    return edges


def loops(nodes, edges):
    """Tarjan's strongly connected components with more than one member."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(found, key=len, reverse=True)


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    root = args[0] if args else "src"
    files = modules(root)
    edges = edges_of(files)
    pairs = sum(1 for a in edges for b in edges[a] if a in edges.get(b, ()) and a < b)
    found = loops(list(files), edges)
    print(f"{len(files)} files, {sum(len(v) for v in edges.values())} imports, "
          f"{pairs} two-way pairs, {len(found)} loops")
    for comp in found:
        names = sorted("/".join(m) or "(crate root)" for m in comp)
        print(f"  {len(comp)} files: {', '.join(names)}")
    return 1 if "--check" in sys.argv and found else 0


if __name__ == "__main__":
    sys.exit(main())
