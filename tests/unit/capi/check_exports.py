#!/usr/bin/env python3
"""Fails if libkmx exports a symbol that is not kmx_* (or not in a version
node of lib/kmx.map.in), or if the exported functions, the names listed in the
symbol map and the KMX_API declarations of kmx.h differ.

Usage: check_exports.py LIBRARY KMX_H KMX_MAP"""
import re
import subprocess
import sys

library, header, symbol_map = sys.argv[1], sys.argv[2], sys.argv[3]
out = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
exported, stray = set(), []
for line in out.splitlines():
    parts = line.split()
    kind, name = parts[-2], parts[-1].split("@")[0]
    if kind == "A" and re.fullmatch(r"KMX_\d+\.\d+", name):
        continue  # a version node of lib/kmx.map, not a symbol
    if name.startswith("kmx_") and "@@KMX_" in parts[-1]:
        exported.add(name)
    else:
        stray.append(f"{kind} {name}")

declared = set(re.findall(r"KMX_API[^;]*?\b(kmx_\w+)\s*\(", open(header).read()))
problems = []
if stray:
    problems.append(f"{len(stray)} exported symbol(s) without the kmx_ prefix:\n  " + "\n  ".join(sorted(stray)[:50]))
if declared - exported:
    problems.append("declared in kmx.h but not exported: " + ", ".join(sorted(declared - exported)))
if exported - declared:
    problems.append("exported but not declared in kmx.h: " + ", ".join(sorted(exported - declared)))
map_text = re.sub(r"/\*.*?\*/", "", open(symbol_map).read(), flags=re.S)
listed = set(re.findall(r"^\s*(kmx_\w+)\s*;", map_text, flags=re.M))
if "kmx_*" in map_text:
    problems.append("the symbol map exports kmx_* by pattern; list each function")
if declared - listed:
    problems.append("declared in kmx.h but not listed in the symbol map: " + ", ".join(sorted(declared - listed)))
if listed - declared:
    problems.append("listed in the symbol map but not declared in kmx.h: " + ", ".join(sorted(listed - declared)))
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{len(exported)} exported symbols, all kmx_*, all declared in kmx.h and listed in the symbol map")
