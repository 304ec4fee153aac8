#!/usr/bin/env python3
"""Fails when the gateway's top-level modules import each other in a circle.

Reads every `crate::<module>` path under crates/gateway/src and finds the strongly connected
components of the module graph (Tarjan). `Context` sits on top: the stores, clients and
middleware it holds must not import it, nor anything above it. No circle is allowed; one that
must stay is named in ALLOWED, with why (docs/architecture.md says the same).
"""
import collections
import pathlib
import re
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / "crates/gateway/src"
ALLOWED: list[set[str]] = []


def graph():
    edges = collections.defaultdict(set)
    where = collections.defaultdict(set)
    modules = {p.stem for p in SRC.glob("*.rs")} | {p.name for p in SRC.iterdir() if p.is_dir()}
    for path in SRC.rglob("*.rs"):
        top = path.relative_to(SRC).parts[0].removesuffix(".rs")
        for target in re.findall(r"crate::([a-z_]+)", path.read_text()):
            if target != top and target in modules:
                edges[top].add(target)
                where[(top, target)].add(str(path.relative_to(SRC)))
    return modules, edges, where


def circles(modules, edges):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    sys.setrecursionlimit(10_000)
    for v in sorted(modules):
        if v not in index:
            visit(v)
    return found


def main():
    modules, edges, where = graph()
    bad = [c for c in circles(modules, edges) if c not in ALLOWED]
    for component in bad:
        print("gateway modules in an import circle:", ", ".join(sorted(component)))
        for a in sorted(component):
            for b in sorted(edges[a] & component):
                print(f"  {a} -> {b}: {', '.join(sorted(where[(a, b)]))}")
    if bad:
        sys.exit(1)
    print(f"gateway imports: no circle among {len(modules)} top-level modules")


main()
