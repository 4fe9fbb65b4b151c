#!/usr/bin/env python3
"""The one convention of kmx.h and kmx_infer.h, checked mechanically:
- outputs first: no out/out_* parameter (or the length of an output array)
  follows an input;
- ctx right after the outputs in every call that takes a context;
- sizes and counts are int64_t (no size_t, int or unsigned lengths);
- every enum ends with its KMX_..._FORCE_INT_ = 0x7FFFFFFF terminator.

Usage: check_conventions.py KMX_H KMX_INFER_H
"""
import re
import sys

LENGTH = re.compile(r"(^|_)(len|count|size|bytes|rows|cols|n|k|i)$")


def functions(text):
    """(name, [(type, name)]) of every exported declaration."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for match in re.finditer(r"KMX_(?:INFER_)?API\s+[^;(]*?\b(kmx_\w+)\s*\(([^)]*)\)\s*;", text):
        params = []
        for param in match.group(2).split(","):
            param = " ".join(param.split())
            if param in ("", "void"):
                continue
            name = re.findall(r"(\w+)$", param)[0]
            params.append((param[: -len(name)].strip(), name))
        yield match.group(1), params


def problems_of(name, params):
    problems = []
    # An output is out/out_*, or the length right after an output pointer (a (pointer, length) pair).
    is_out = []
    for i, (type_, param) in enumerate(params):
        pair_length = i > 0 and is_out[-1] and "*" in params[i - 1][0] and param.endswith("_len")
        is_out.append(param.startswith("out") or pair_length)
    first_input = next((i for i, out in enumerate(is_out) if not out), len(params))
    if any(is_out[first_input:]):
        problems.append(f"{name}: an output follows an input")
    types = [t for t, _ in params]
    contexts = [i for i, t in enumerate(types) if "kmx_context *" in t and params[i][1] == "ctx"]
    if contexts and contexts[0] != first_input and not name.startswith("kmx_context_"):
        problems.append(f"{name}: ctx is not the first parameter after the outputs")
    for type_, param in params:
        if "size_t" in type_ or (LENGTH.search(param) and type_ in ("int", "unsigned", "long", "uint32_t")):
            problems.append(f"{name}: {param} is {type_}, sizes and counts are int64_t")
    return problems


def enum_problems(text):
    problems = []
    for match in re.finditer(r"typedef enum (\w+) \{(.*?)\} \1;", text, flags=re.S):
        body = re.sub(r"/\*.*?\*/", "", match.group(2), flags=re.S).strip().rstrip(",")
        last = body.split(",")[-1].split("\n")[-1].strip()
        if not re.fullmatch(r"KMX_\w+_FORCE_INT_ = 0x7FFFFFFF", last):
            problems.append(f"enum {match.group(1)} ends with '{last}', not KMX_..._FORCE_INT_ = 0x7FFFFFFF")
    return problems


def main():
    problems, count = [], 0
    for path in sys.argv[1:]:
        text = open(path).read()
        for name, params in functions(text):
            count += 1
            problems += problems_of(name, params)
        problems += enum_problems(text)
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{count} functions: outputs first, ctx after them, int64_t sizes; every enum ends in FORCE_INT_")
    return 0


if __name__ == "__main__":
    sys.exit(main())
