#!/usr/bin/env python3
"""check_symbols.py [--sanitized] [--exports PREFIX] NM LIB... — the
inference subset needs nothing beyond a few libm and string functions (no
heap, no stdio, no C++ runtime), and its shared library exports only
kmx_infer_* names (--exports: names starting with PREFIX instead, e.g. the
JNI library of bindings/infer). A shared library's dynamic symbols are read
(it may be stripped). --sanitized (builds with -Db_sanitize=...): the
sanitizer runtimes' entry points that the instrumentation calls (__asan_*,
__ubsan_*, __tsan_*, ...) are allowed too."""
import subprocess
import sys

ALLOWED_UNDEFINED = {
    "exp", "expf", "sqrt", "sqrtf", "fabs", "fabsf", "tanh", "tanhf", "memcmp", "memcpy", "memset", "memmove",
    # toolchain plumbing of a shared library
    "_GLOBAL_OFFSET_TABLE_", "__cxa_finalize", "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable",
    "__gmon_start__", "__stack_chk_fail",
}


def symbols(nm, lib, *flags):
    out = subprocess.run([nm, *flags, lib], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip() and not line.endswith(":")}


SANITIZER_PREFIXES = ("__asan_", "__ubsan_", "__tsan_", "__lsan_", "__msan_", "__sanitizer_")


def main():
    args = sys.argv[1:]
    sanitized = args[0] == "--sanitized"
    args = args[int(sanitized):]
    export_prefix = "kmx_infer_"
    if args[0] == "--exports":
        export_prefix, args = args[1], args[2:]
    nm, libs = args[0], args[1:]
    failed = False
    for lib in libs:
        shared = lib.endswith(".so") or ".so." in lib
        table = ["-D"] if shared else []
        # (an archive's members may use each other's symbols)
        extra = (symbols(nm, lib, *table, "--undefined-only") - symbols(nm, lib, *table, "--defined-only")
                 - ALLOWED_UNDEFINED)
        if sanitized:
            extra = {name for name in extra if not name.startswith(SANITIZER_PREFIXES)}
        if extra:
            print(f"{lib}: needs {sorted(extra)}")
            failed = True
        if shared:
            exported = symbols(nm, lib, "-D", "--defined-only")
            others = sorted(s for s in exported if not s.startswith(export_prefix))
            if others:
                print(f"{lib}: exports {others}")
                failed = True
    print("FAILED" if failed else f"ok: no heap, stdio or C++ runtime; only {export_prefix}* exported")
    return 1 if failed else 0


sys.exit(main())
