#!/usr/bin/env python3
"""The tests of examples/mcu (meson test --suite mcu in a bare-metal build).

check_firmware.py labels HOST_PROGRAM QEMU... FIRMWARE
    Runs the firmware under qemu-system-arm (semihosting) and the same program
    built for the build machine (x86-64), and fails unless both finish with
    status 0 and print the same labels, row for row.
check_firmware.py size SIZE_TOOL FIRMWARE PINS_JSON MCU [--print]
    The firmware's flash (text + data) and RAM (data + bss, which holds the
    stack picolibc.ld reserves) from arm-none-eabi-size, against the pins of
    PINS_JSON for MCU: fails when either grows by more than 3%, notes when
    one shrank by more than 3% (lower the pin then). --print never fails.
check_firmware.py predict PROGRAM KMX PREDICTOR DATA ROWS
    The program built for this machine (the C inference subset) against the
    full library: its labels must equal those `kmx predict PREDICTOR` gives
    for the first ROWS rows of DATA (the rows the program embeds).
"""
import json
import os
import subprocess
import sys
import tempfile

GROWTH_ALLOWED = 0.03
TIMEOUT_SECONDS = 300


def run(command):
    """(exit status, output lines) of a command; stdout and stderr together
    (qemu writes the semihosting console to either, depending on the file)."""
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=TIMEOUT_SECONDS)
    except FileNotFoundError:
        sys.exit(f"check_firmware: {command[0]} is missing (tools/install-deps.sh installs it)")
    except subprocess.TimeoutExpired:
        sys.exit(f"check_firmware: {' '.join(command)} did not finish in {TIMEOUT_SECONDS} s")
    return done.returncode, done.stdout.splitlines()


def labels(lines):
    """The labels a program printed, as numbers ("label -1" lines)."""
    return [float(line.split()[1]) for line in lines if line.startswith("label ")]


def compare(name_a, labels_a, name_b, labels_b):
    """0 when both lists are equal and not empty, else 1 (and says where they differ)."""
    differ = [i for i, (a, b) in enumerate(zip(labels_a, labels_b)) if a != b]
    if len(labels_a) != len(labels_b) or differ or not labels_a:
        first = f" (first: row {differ[0]}: {labels_a[differ[0]]:g} vs {labels_b[differ[0]]:g})" if differ else ""
        print(f"FAIL: {len(labels_a)} {name_a} labels, {len(labels_b)} {name_b} labels, {len(differ)} rows differ"
              + first)
        return 1
    print(f"the {name_b}'s {len(labels_b)} labels equal the {name_a}'s")
    return 0


def program_labels(name, command):
    """The labels a program prints; None when it fails. Shows its other lines."""
    status, lines = run(command)
    summary = [line for line in lines if not line.startswith("label ")]
    print(f"{name}: exit status {status}; " + " | ".join(summary))
    return labels(lines) if status == 0 else None


def check_labels(host_program, firmware_command):
    host = program_labels("host", [host_program])
    firmware = program_labels("firmware", firmware_command)
    if host is None or firmware is None:
        return 1
    return compare("host", host, "firmware", firmware)


def check_predict(program, kmx, predictor, data, rows):
    """`kmx predict` on the first `rows` rows of data against the program."""
    ours = program_labels("program", [program])
    with tempfile.TemporaryDirectory() as folder:
        rows_path, labels_path = os.path.join(folder, "rows.libsvm"), os.path.join(folder, "labels.txt")
        with open(data) as source, open(rows_path, "w") as head:
            head.writelines(line for _, line in zip(range(rows), source))
        status, lines = run([kmx, "predict", "--threads", "1", predictor, rows_path, labels_path])
        print(f"kmx predict: exit status {status}; " + " | ".join(lines))
        if status != 0 or ours is None:
            return 1
        theirs = [float(line) for line in open(labels_path) if line.strip()]
    return compare("kmx predict", theirs, "program", ours)


def memory_sizes(size_tool, firmware):
    """{'flash': text + data, 'ram': data + bss} in bytes (Berkeley format)."""
    status, lines = run([size_tool, firmware])
    if status != 0:
        sys.exit(f"check_firmware: {size_tool} {firmware} failed: {lines}")
    text, data, bss = (int(field) for field in lines[1].split()[:3])
    return {"flash": text + data, "ram": data + bss}


def check_size(size_tool, firmware, pins_path, mcu, print_only):
    sizes = memory_sizes(size_tool, firmware)
    pins = json.load(open(pins_path))["bytes"][mcu]
    failed = False
    for memory, size in sizes.items():
        pin = pins[memory]
        print(f"{mcu} firmware {memory}: {size} bytes; pin {pin}")
        if print_only:
            continue
        if size > pin * (1 + GROWTH_ALLOWED):
            print(f"  FAIL: {memory} grew {100.0 * (size / pin - 1):.1f}% over its pin (3% allowed)")
            failed = True
        elif size < pin * (1 - GROWTH_ALLOWED):
            print(f"  note: {memory} shrank {100.0 * (1 - size / pin):.1f}%: lower its pin")
    return 1 if failed else 0


def main():
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "labels":
        return check_labels(args[1], args[2:])
    if len(args) in (5, 6) and args[0] == "size":
        return check_size(args[1], args[2], args[3], args[4], "--print" in args[5:])
    if len(args) == 6 and args[0] == "predict":
        return check_predict(args[1], args[2], args[3], args[4], int(args[5]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
