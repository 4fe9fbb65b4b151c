#!/usr/bin/env python3
"""tests/README.md's catalog of bad input cannot rot: every test it names
exists, and it has at least 60 rows.
Usage: check_catalog.py SOURCE_ROOT"""
import os
import re
import sys

root = sys.argv[1]
text = open(os.path.join(root, "tests", "README.md"), encoding="utf-8").read()
catalog = text[text.index("## Catalog of bad input"):]
rows = [line for line in catalog.splitlines() if re.match(r"^\| \d+ \|", line)]


def exists(path, name):
    """Whether `name` (the part after '::') names a test in the file at `path`."""
    source = open(os.path.join(root, path), encoding="utf-8").read()
    if name is None:
        return True
    if path.endswith(".cpp"):
        suite, test = name.split(".")
        return re.search(r"\bTEST(_F)?\(\s*%s\s*,\s*%s\s*\)" % (suite, test), source) is not None
    if path.endswith(".py") and "." not in name:  # a pytest function
        return re.search(r"^def %s\(" % name, source, re.M) is not None
    if path.endswith(".py"):
        cls, method = name.split(".")
        return re.search(r"^class %s\b" % cls, source, re.M) and re.search(r"^    def %s\(" % method, source, re.M)
    if path.endswith(".R"):
        return ('test_that(' + name) in source
    return re.search(r"\b%s\s*\(" % re.escape(name), source) is not None


failures = 0
numbers = []
for row in rows:
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    numbers.append(int(cells[0]))
    references = re.findall(r"`([^`]+?)`", cells[-1])
    if not references:
        print(f"row {cells[0]}: names no test")
        failures += 1
    for reference in references:
        path, _, name = reference.partition("::")
        if not os.path.isfile(os.path.join(root, path)):
            print(f"row {cells[0]}: no file {path}")
            failures += 1
        elif not exists(path, name or None):
            print(f"row {cells[0]}: {path} has no test {name}")
            failures += 1
if numbers != list(range(1, len(numbers) + 1)):
    print("rows are not numbered 1, 2, ...")
    failures += 1
if len(rows) < 60:
    print(f"only {len(rows)} classes of bad input; the catalog promises at least 60")
    failures += 1
print(f"{len(rows)} classes, {failures} problems")
sys.exit(1 if failures else 0)
