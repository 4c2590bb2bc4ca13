#!/usr/bin/env python3
"""Writes assets/licenses/THIRD-PARTY-LICENSES.md: every crate compiled into the game (the
normal dependencies of gridclash on every platform, from Cargo.lock) with its licence, then
each distinct licence file those crates ship, once, with the crates it covers. Crates used
only to build or test are listed apart, since none of their code is in the game.

Run it after Cargo.lock changes (cargo may download crates it has not fetched yet):
    python3 scripts/third-party-licences.py
A test (tests/it/licences.rs) fails when the file no longer matches Cargo.lock.
"""

import io
import json
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "licenses" / "THIRD-PARTY-LICENSES.md"
LICENCE_FILE = re.compile(r"^(licen[cs]e|copying|notice|copyright)", re.IGNORECASE)


def metadata():
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def shipped_ids(meta):
    """The root's normal dependencies, transitively, on every platform."""
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]
    seen, todo = set(), [root]
    while todo:
        pid = todo.pop()
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] is None for k in dep["dep_kinds"]) and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                todo.append(dep["pkg"])
    return seen


def licence_files(pkg):
    """(file name, text) of each licence file at the top of the package's sources: from the
    unpacked registry sources, else from the downloaded .crate archive."""
    src = Path(pkg["manifest_path"]).parent
    found = []
    if src.is_dir():
        for f in sorted(src.iterdir()):
            if f.is_file() and LICENCE_FILE.match(f.name):
                found.append((f.name, f.read_text(errors="replace")))
        return found
    cache = src.parent.parent.parent / "cache" / src.parent.name / f"{src.name}.crate"
    if cache.is_file():
        with tarfile.open(cache) as t:
            for m in sorted(t.getmembers(), key=lambda m: m.name):
                parts = m.name.split("/")
                if len(parts) == 2 and m.isfile() and LICENCE_FILE.match(parts[1]):
                    text = t.extractfile(m).read().decode("utf-8", errors="replace")
                    found.append((parts[1], text))
    return found


def main():
    meta = metadata()
    by_id = {p["id"]: p for p in meta["packages"]}
    root = meta["resolve"]["root"]
    shipped = shipped_ids(meta)
    rows, unshipped, texts, bare = [], [], {}, []
    for pid, pkg in sorted(by_id.items(), key=lambda kv: (kv[1]["name"], kv[1]["version"])):
        if pid == root:
            continue
        name = f"{pkg['name']} {pkg['version']}"
        if pid not in shipped:
            unshipped.append(f"- {name} ({pkg.get('license') or 'see its sources'})")
            continue
        files = licence_files(pkg)
        rows.append(
            f"| {pkg['name']} | {pkg['version']} | {pkg.get('license') or pkg.get('license_file') or '?'} "
            f"| {pkg.get('repository') or ''} | {', '.join(f for f, _ in files) or 'none shipped'} |"
        )
        for fname, text in files:
            texts.setdefault(text.strip(), []).append(f"{name} ({fname})")
        if not files:
            authors = ", ".join(pkg.get("authors") or []) or "its authors"
            bare.append(f"- {name}: {pkg.get('license') or '?'}; copyright {authors}")
    lines = [
        "# Third-party licences",
        "",
        "Gridclash is MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE). The game is built from",
        f"the {len(rows)} crates below, each under its own licence; after the table, every",
        "licence file they ship, once, with the crates it comes from. Written by",
        "`scripts/third-party-licences.py` from Cargo.lock; do not edit by hand.",
        "",
        "The fonts are DejaVu Sans, DejaVu Sans Bold and DejaVu Sans Mono: see",
        "assets/fonts/LICENSE-DejaVu.txt. The icons are game-icons.net's, under CC BY 3.0",
        "(https://creativecommons.org/licenses/by/3.0/): each icon with its author in",
        "assets/icons/game-icons/LICENSE.md.",
        "",
        "## Crates in the game",
        "",
        "| crate | version | licence | repository | licence files |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "## Crates used only to build or test (not in the game)",
        "",
        *unshipped,
        "",
        "## Crates that ship no licence file",
        "",
        "Their Cargo.toml names the licence, which applies as written below: for MIT, the MIT",
        "text at the end of this file with the copyright of the authors named; for Apache-2.0,",
        "the text in LICENSE-APACHE beside the game.",
        "",
        *bare,
        "",
        "## Licence texts",
        "",
    ]
    for text, crates in sorted(texts.items(), key=lambda kv: kv[1][0]):
        lines += [f"### {crates[0]}" + (f" and {len(crates) - 1} more" if len(crates) > 1 else ""), ""]
        lines += ["Used by: " + ", ".join(crates), "", "```text", text, "```", ""]
    mit = (ROOT / "LICENSE-MIT").read_text().replace(
        "Copyright (c) 2026 The Gridclash developers", "Copyright (c) the authors named above"
    )
    lines += ["### MIT, for the crates above that ship no licence file", "", "```text", mit.strip(), "```", ""]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines))
    print(f"{OUT.relative_to(ROOT)}: {len(rows)} crates in the game, {len(unshipped)} build or test only, "
          f"{len(texts)} distinct licence texts, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    sys.exit(main())
