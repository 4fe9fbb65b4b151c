"""The coefficients (β) of a kmx model file, and how far two models' are apart.

    python3 model_beta.py A.kmx B.kmx   prints max|β_A − β_B| / max|β_B| over every machine

Reads the file format of lib/model/model_file.cpp (header, section table, the meta and
machines sections) for kernel expansions (no kernel clusters, no ranges: FALKON, Nystrom-TRON).
"""
import struct
import sys


def sections(blob):
    count = struct.unpack_from("<I", blob, 12)[0]
    table = {}
    for s in range(count):
        ident, _crc, offset, length = struct.unpack_from("<IIQQ", blob, 16 + 24 * s)
        table[ident] = blob[offset:offset + length]
    return table


def coefficients(path):
    """{(machine, point): coefficient} and the biases of the model at path."""
    table = sections(open(path, "rb").read())
    machines = struct.unpack_from("<Q", table[1], 16 + 16 + 4 + 8 * 4)[0]
    data, at, beta = table[4], 0, {}
    for machine in range(machines):
        _pos, _neg, bias, count = struct.unpack_from("<iidQ", data, at)
        at += 24
        beta[(machine, "bias")] = bias
        for _ in range(count):
            point, value = struct.unpack_from("<Qd", data, at)
            beta[(machine, point)] = value
            at += 16
        clusters, ranges = struct.unpack_from("<QQ", data, at)
        if clusters or ranges:
            raise ValueError("%s: a model with kernel clusters or ranges (not a kernel expansion)" % path)
        at += 16
    return beta


def relative_difference(path_a, path_b):
    """max |β_a − β_b| / max |β_b| (inf if the models' shapes differ)."""
    a, b = coefficients(path_a), coefficients(path_b)
    if a.keys() != b.keys():
        return float("inf")
    scale = max(abs(v) for v in b.values()) or 1.0
    return max(abs(a[k] - b[k]) for k in b) / scale


if __name__ == "__main__":
    print("%.3g" % relative_difference(sys.argv[1], sys.argv[2]))
