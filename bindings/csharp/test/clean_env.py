"""The clean environment the C# tests run a program in: only what is named, plus the sanitizer run's preloaded
runtime and its options when the test itself runs under one (tools/sanitize.sh's 'asanhosts' setup), since an
ASan-built libkmx cannot load in a mono started without them."""
import os

SANITIZER_VARIABLES = ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")


def clean_env(**variables):
    """{"PATH": "/usr/bin:/bin"} and `variables`, and the sanitizer variables this process has."""
    env = {"PATH": "/usr/bin:/bin", **variables}
    env.update({name: os.environ[name] for name in SANITIZER_VARIABLES if name in os.environ})
    return env
