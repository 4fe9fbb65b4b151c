#!/usr/bin/python3
"""`--plot-only FILE.json PNG` for the bench scripts that write one JSON of results and one picture:
redraw the picture from the results without measuring again."""
import json
import sys


def run_if_asked(plot, print_table):
    """With --plot-only FILE.json PNG on the command line: plot(results, PNG), print_table(results)
    and True; otherwise False."""
    if "--plot-only" not in sys.argv:
        return False
    source, png = sys.argv[sys.argv.index("--plot-only") + 1:][:2]
    with open(source) as f:
        result = json.load(f)
    plot(result, png)
    print_table(result)
    return True
