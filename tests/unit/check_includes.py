#!/usr/bin/env python3
"""Checks lib/'s layers against the table of lib/README.md.

Fails when a file in lib/X includes a folder (or public header) that X's row
does not allow, when the table allows a folder that comes later in it (a
possible cycle), when a folder of lib/ has no row or a row no folder, or when
tests/unit/ and lib/ do not mirror each other (`common` holds the tests'
shared helpers; lib/infer's tests are tests/infer, run in every build).

Usage: check_includes.py SOURCE_ROOT
"""
import os
import re
import sys

PUBLIC = {"kmx/kmx.h": "kmx", "kmx/kmx_infer.h": "kmx_infer"}
TEST_HELPER_FOLDERS = {"common"}
OWN_TEST_TREES = {"infer": "tests/infer"}  # tested in every build, the inference-only one too


def read_table(readme):
    """[(folder, set of allowed names)] in the table's order."""
    rows = []
    for line in open(readme, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"`\w+`", cells[0]):
            continue
        allowed = {name.strip() for name in cells[2].split(",") if name.strip()}
        rows.append((cells[0].strip("`"), allowed))
    return rows


def table_problems(rows, lib_folders):
    problems = []
    seen = set()
    for folder, allowed in rows:
        later = {name for name in allowed if name not in PUBLIC.values() and name not in seen}
        if later:
            problems.append(f"lib/README.md: {folder} may include {', '.join(sorted(later))}, "
                            f"which do not come before it in the table")
        seen.add(folder)
    named = [folder for folder, _ in rows]
    for folder in sorted(set(lib_folders) - set(named)):
        problems.append(f"lib/{folder} has no row in lib/README.md")
    for folder in sorted(set(named) - set(lib_folders)):
        problems.append(f"lib/README.md has a row for {folder}, which is not a folder of lib/")
    return problems


def included_layer(include, own_folder):
    """The folder or public header an #include "..." names; None for the file's own folder."""
    if include in PUBLIC:
        return PUBLIC[include]
    if "/" not in include:
        return None
    first = include.split("/")[0]
    return None if first in (own_folder, "..") else first


def include_problems(lib, rows):
    allowed_of = dict(rows)
    problems = []
    for folder in sorted(allowed_of):
        root = os.path.join(lib, folder)
        for name in sorted(os.listdir(root)):
            if not name.endswith((".h", ".c", ".cpp")):
                continue
            path = os.path.join(root, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not match:
                    continue
                layer = included_layer(match.group(1), folder)
                if match.group(1).startswith(".."):
                    problems.append(f"lib/{folder}/{name}:{number}: includes {match.group(1)} by a relative path")
                elif layer is not None and layer not in allowed_of[folder]:
                    problems.append(f"lib/{folder}/{name}:{number}: includes {match.group(1)}, "
                                    f"but {folder} may include only {', '.join(sorted(allowed_of[folder]))}")
    return problems


def mirror_problems(tests_unit, lib_folders):
    test_folders = {name for name in os.listdir(tests_unit) if os.path.isdir(os.path.join(tests_unit, name))}
    problems = [f"tests/unit/{name} has no lib/{name} to mirror"
                for name in sorted(test_folders - set(lib_folders) - TEST_HELPER_FOLDERS)]
    for name in sorted(set(lib_folders) - test_folders):
        if name not in OWN_TEST_TREES:
            problems.append(f"lib/{name} has no tests/unit/{name}")
    return problems


def main():
    source_root = sys.argv[1]
    lib = os.path.join(source_root, "lib")
    lib_folders = [name for name in os.listdir(lib) if os.path.isdir(os.path.join(lib, name))]
    rows = read_table(os.path.join(lib, "README.md"))
    if not rows:
        print("lib/README.md: no table of folders found")
        return 1
    problems = table_problems(rows, lib_folders)
    problems += include_problems(lib, [(f, a) for f, a in rows if f in lib_folders])
    problems += mirror_problems(os.path.join(source_root, "tests", "unit"), lib_folders)
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{len(rows)} folders of lib/, every include within its layer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
