#!/usr/bin/env python3
"""Writes the manual page kmx.1 from the program's own help, with help2man: `kmx --help` and
`kmx --version` give NAME, SYNOPSIS and DESCRIPTION, and each command's `kmx help COMMAND` becomes a
subsection of COMMANDS (a section help2man takes from an include file), so the page says what the
program says.

Usage: make_man.py HELP2MAN KMX OUTPUT"""
import re
import subprocess
import sys
import tempfile

help2man, kmx, output = sys.argv[1:4]


def help_text(*args):
    """What kmx prints for its help (on stderr, as usage messages are)."""
    out = subprocess.run([kmx, *args], capture_output=True, text=True, timeout=60, check=True)
    return out.stdout + out.stderr


def commands():
    """The command names `kmx --help` lists under "commands:"."""
    listing = help_text("--help").split("commands:", 1)[1]
    return re.findall(r"^  (\w+)  ", listing, re.M)


def roff_literal(text):
    """Text shown as it is: no fill; backslashes, dashes (as minus signs, which options are) and
    leading dots or quotes escaped."""
    lines = [line.replace("\\", "\\e").replace("-", "\\-") for line in text.rstrip().splitlines()]
    lines = ["\\&" + line if line.startswith((".", "'")) else line for line in lines]
    return ".nf\n" + "\n".join(lines) + "\n.fi\n"


def include_file():
    sections = ["[COMMANDS]\n"]
    for name in commands():
        sections.append(f".SS kmx {name}\n" + roff_literal(help_text("help", name)))
    sections.append("[SEE ALSO]\nThe library's parameters: \\fBkmx params\\fR. "
                    "The C interface: \\fI<kmx/kmx.h>\\fR, \\fI<kmx/kmx_infer.h>\\fR.\n")
    return "\n".join(sections)


with tempfile.NamedTemporaryFile("w", suffix=".h2m") as include:
    include.write(include_file())
    include.flush()
    subprocess.run([help2man, "--no-info", "--no-discard-stderr", "--section=1",
                    "--name=scalable kernel machines: train, compress and predict", f"--include={include.name}",
                    f"--output={output}", kmx], check=True, timeout=120)
