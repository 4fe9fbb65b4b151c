#!/usr/bin/env python3
"""Writes the first ROWS rows of a LIBSVM file as a C header for the firmware:
dense features (double, as the text has them) and the true labels.

Usage: rows_to_c.py DATA ROWS HEADER
The header defines LETTER_ROWS, LETTER_FEATURES, letter_x[LETTER_ROWS *
LETTER_FEATURES] (row-major) and letter_y[LETTER_ROWS].
"""
import sys


def read_rows(path, count):
    """[(label, {index: value})] of the first `count` rows (1-based indices)."""
    rows = []
    with open(path) as data:
        for line in data:
            fields = line.split()
            if not fields:
                continue
            values = {int(k): v for k, v in (field.split(":") for field in fields[1:])}
            rows.append((fields[0], values))
            if len(rows) == count:
                return rows
    sys.exit(f"rows_to_c: {path} has {len(rows)} rows, fewer than {count}")


def header(rows):
    features = max(max(values, default=0) for _, values in rows)
    lines = [f"/* The first {len(rows)} rows of a LIBSVM file, written by rows_to_c.py. */",
             "#ifndef LETTER_ROWS_H", "#define LETTER_ROWS_H", "",
             f"#define LETTER_ROWS {len(rows)}", f"#define LETTER_FEATURES {features}", "",
             "static const double letter_x[LETTER_ROWS * LETTER_FEATURES] = {"]
    for _, values in rows:
        lines.append("    " + ", ".join(values.get(j, "0") for j in range(1, features + 1)) + ",")
    lines += ["};", "", "static const double letter_y[LETTER_ROWS] = {"]
    lines += ["    " + ", ".join(label for label, _ in rows[i:i + 16]) + "," for i in range(0, len(rows), 16)]
    lines += ["};", "", "#endif", ""]
    return "\n".join(lines)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(out, "w") as header_file:
        header_file.write(header(read_rows(path, count)))


if __name__ == "__main__":
    main()
