#!/usr/bin/python3
"""An independent numpy reference of MEKA's Algorithm 1 (Si, Hsieh, Dhillon), against kmx's MEKA (issue 17).

    /usr/bin/python3 bench/meka_reference.py [--build build] [--rows 2000] [--clusters 10] [--rank 32]
                                             [--rho 2] [--repeats 3] FILE:GAMMA ...

For each LIBSVM file (--rows rows drawn uniformly with seed 0, written to a temporary file for kmx) and gamma, on the dense
kernel matrix G of those rows (RBF, float64), the exact relative error ||G - G~||_F / ||G||_F of:

  paper      Algorithm 1 as written: scikit-learn's k-means into c clusters; per cluster a rank-k Nystrom
             approximation from m = 2k uniform columns, W^(s) = C_s V_k (n_s x k), L^(s,s) = Lambda_k^-1;
             for every pair s < t its own uniform row samples v_s, v_t of (1 + rho) k rows each and
             L^(s,t) = pinv(W_vs) G(v_s, v_t) pinv(W_vt)^T (least squares), L^(t,s) = L^(s,t)^T; no PSD repair.
  +ortho     the same with kmx's first departure: W^(s) orthonormal (W^(s) = C_s V_k Lambda_k^-1/2 R,
             L^(s,s) = D_s); in exact arithmetic the same G~ (least squares is invariant to the basis).
  +psd       the paper's MEKA-PSD (section 7.1): L's negative eigenvalues clipped (kmx's default).
  +shared    one row sample per cluster shared by all its blocks (what kmx does).

and kmx's MEKA on the same rows (bench_meka --file: same c, k, rho, eps = 0) with its departures switched
off one at a time: default (orthonormal bases, held-out truncation tau, PSD repair), --tau 0 (plain least
squares), --no-psd, and both (the closest to the paper). Errors are the mean over --repeats seeds (numpy
seeds 0.., kmx --seed 0..; nan where kmx refuses k for a cluster smaller than k); kmx's k-means is its
own, not scikit-learn's.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import dump_svmlight_file, load_svmlight_file


def rbf(a, b, gamma):
    sq = np.sum(a * a, axis=1)[:, None] + np.sum(b * b, axis=1)[None, :] - 2 * a @ b.T
    return np.exp(-gamma * np.maximum(sq, 0))


def nystrom_basis(x_s, gamma, k, rng, orthonormal):
    """W^(s) and L^(s,s) of a rank-k Nystrom approximation of the cluster's block from 2k columns."""
    n_s = len(x_s)
    m = min(2 * k, n_s)
    cols = rng.choice(n_s, m, replace=False)
    c_s = rbf(x_s, x_s[cols], gamma)
    values, vectors = np.linalg.eigh(c_s[cols])
    order = np.argsort(values)[::-1][:k]
    keep = order[values[order] > values[order[0]] * 1e-12]
    v_k, lam = vectors[:, keep], values[keep]
    if not orthonormal:
        return c_s @ v_k, np.diag(1 / lam)
    w = c_s @ v_k / np.sqrt(lam)  # W L W^T with L = I
    q, r = np.linalg.qr(w)
    u, d, _ = np.linalg.svd(r)  # W = Q R, R R^T = U D^2 U^T: orthonormal Q U, L = D^2
    return q @ u, np.diag(d * d)


def link_block(w_s, w_t, x_s, x_t, gamma, p, rng, rows_s=None, rows_t=None):
    """Least-squares L^(s,t) from p sampled rows of each cluster (or the given shared rows)."""
    v_s = rows_s if rows_s is not None else rng.choice(len(x_s), min(p, len(x_s)), replace=False)
    v_t = rows_t if rows_t is not None else rng.choice(len(x_t), min(p, len(x_t)), replace=False)
    g_hat = rbf(x_s[v_s], x_t[v_t], gamma)
    return np.linalg.pinv(w_s[v_s]) @ g_hat @ np.linalg.pinv(w_t[v_t]).T


def meka(x, labels, gamma, c, k, rho, seed, orthonormal=False, psd=False, shared=False):
    """G~ (n x n, rows in the data's order) of Algorithm 1 with the chosen departures."""
    rng = np.random.default_rng(seed)
    groups = [np.where(labels == s)[0] for s in range(c)]
    groups = [g for g in groups if len(g) > 1]
    bases, blocks = [], []
    for g in groups:
        w, l_ss = nystrom_basis(x[g], gamma, k, rng, orthonormal)
        bases.append(w)
        blocks.append(l_ss)
    sizes = [w.shape[1] for w in bases]
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    link = np.zeros((offsets[-1], offsets[-1]))
    p = int(np.ceil((1 + rho) * k))
    shared_rows = [rng.choice(len(g), min(p, len(g)), replace=False) for g in groups] if shared else None
    for s in range(len(groups)):
        link[offsets[s]:offsets[s + 1], offsets[s]:offsets[s + 1]] = blocks[s]
        for t in range(s + 1, len(groups)):
            rows = (shared_rows[s], shared_rows[t]) if shared else (None, None)
            block = link_block(bases[s], bases[t], x[groups[s]], x[groups[t]], gamma, p, rng, *rows)
            link[offsets[s]:offsets[s + 1], offsets[t]:offsets[t + 1]] = block
            link[offsets[t]:offsets[t + 1], offsets[s]:offsets[s + 1]] = block.T
    if psd:
        values, vectors = np.linalg.eigh(link)
        link = (vectors * np.maximum(values, 0)) @ vectors.T
    w = np.zeros((len(x), offsets[-1]))
    for s, g in enumerate(groups):
        w[g, offsets[s]:offsets[s + 1]] = bases[s]
    return w @ link @ w.T


def kmx_error(build, path, gamma, c, k, rho, seed, extra):
    """kmx's exact error, or nan when kmx refuses the sizes (a cluster smaller than k)."""
    run = subprocess.run([os.path.join(build, "bench", "bench_meka"), "--file", path, "--gamma", str(gamma),
                          "--clusters", str(c), "--rank", str(k), "--rho", str(rho), "--eps", "0", "--seed",
                          str(seed), "--threads", "1"] + extra, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        return float("nan")
    return float(run.stdout.split()[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", help="FILE:GAMMA")
    ap.add_argument("--build", default="build")
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--clusters", type=int, default=10)
    ap.add_argument("--rank", type=int, default=32)
    ap.add_argument("--rho", type=float, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    c, k = a.clusters, a.rank
    variants = [("paper", {}), ("+ortho", {"orthonormal": True}), ("+ortho +psd", {"orthonormal": True, "psd": True}),
                ("+ortho +psd +shared", {"orthonormal": True, "psd": True, "shared": True})]
    kmx_variants = [("kmx τ=0, no PSD", ["--tau", "0", "--no-psd"]), ("kmx τ=0", ["--tau", "0"]),
                    ("kmx no PSD", ["--no-psd"]), ("kmx default", [])]
    print("| data | n × d | γ | " + " | ".join(v[0] for v in variants + kmx_variants) + " |")
    print("|---|---|---:|" + "---:|" * (len(variants) + len(kmx_variants)))
    for spec in a.sets:
        path, gamma = spec.rsplit(":", 1)
        gamma = float(gamma)
        x, y = load_svmlight_file(path)
        rows = np.sort(np.random.default_rng(0).choice(x.shape[0], min(a.rows, x.shape[0]), replace=False))
        x, y = x[rows].toarray(), y[rows]
        g = rbf(x, x, gamma)
        norm = np.linalg.norm(g)
        row = []
        for _, options in variants:
            errors = []
            for seed in range(a.repeats):
                labels = KMeans(n_clusters=c, n_init=1, random_state=seed).fit_predict(x)
                errors.append(np.linalg.norm(g - meka(x, labels, gamma, c, k, a.rho, seed, **options)) / norm)
            row.append(np.mean(errors))
        with tempfile.NamedTemporaryFile("w", suffix=".libsvm", delete=False) as f:
            name = f.name
        dump_svmlight_file(x, y, name, zero_based=False)
        try:
            for _, extra in kmx_variants:
                row.append(np.mean([kmx_error(a.build, name, gamma, c, k, a.rho, seed, extra)
                                    for seed in range(a.repeats)]))
        finally:
            os.unlink(name)
        print("| %s | %d × %d | %g | %s |" % (os.path.basename(path), len(x), x.shape[1], gamma,
                                             " | ".join("%.4g" % e for e in row)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
