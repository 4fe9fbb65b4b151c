#!/usr/bin/python3
"""Why MEKA wins or loses against Nystrom: the block structure of G after clustering (issue 17).

    /usr/bin/python3 bench/meka_structure.py [--rows 3000] [--clusters 10] [--rank 64] FILE:GAMMA ...

For each LIBSVM file (its first --rows rows) and gamma: k-means (scikit-learn, c clusters) in input
space, as MEKA clusters, then on the dense kernel matrix G (numpy, float64):
  diag share   sum_s ||G_ss||_F^2 / ||G||_F^2 (what the diagonal blocks hold),
  block tail   sum_s ||G_ss - best rank-k of G_ss||_F^2 / ||G||_F^2 (error of the blocks' own rank k),
  whole tail   ||G - best rank-(c k) of G||_F / ||G||_F (the best any rank-ck approximation can do,
               i.e. the floor for Nystrom at MEKA's rank),
  blocks only  sqrt(1 - diag share + block tail) (MEKA without link blocks: the off-diagonal
               energy is lost), with the link blocks' memory (c k)^2 beside the bases' n k,
  equal memory ||G - best rank-m of G||_F / ||G||_F with m = k + (c k)^2 / n, the rank a Nystrom
               approximation holding MEKA's n k + (c k)^2 values has (the floor for that Nystrom).
"""
import argparse
import sys

import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import load_svmlight_file


def tail_energy(eigenvalues, k):
    """sum of squared eigenvalues beyond the k largest in magnitude (G symmetric)."""
    e = np.sort(np.abs(eigenvalues))[::-1]
    return float(np.sum(e[k:] ** 2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", help="FILE:GAMMA")
    ap.add_argument("--rows", type=int, default=3000)
    ap.add_argument("--clusters", type=int, default=10)
    ap.add_argument("--rank", type=int, default=64)
    a = ap.parse_args()
    c, k = a.clusters, a.rank
    print("| data | n × d | γ | diag share of ‖G‖²_F | block rank-k tail | blocks only (no links) "
          "| best rank-ck | equal-memory rank m: best rank-m | bases n·k, links (ck)² values |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for spec in a.sets:
        path, gamma = spec.rsplit(":", 1)
        gamma = float(gamma)
        x, _ = load_svmlight_file(path)
        x = x[: a.rows].toarray()
        n, d = x.shape
        labels = KMeans(n_clusters=c, n_init=3, random_state=0).fit_predict(x)
        sq = np.sum(x * x, axis=1)
        g = np.exp(-gamma * np.maximum(sq[:, None] + sq[None, :] - 2 * x @ x.T, 0))
        total = float(np.sum(g * g))
        diag = block_tail = 0.0
        for s in range(c):
            idx = np.where(labels == s)[0]
            block = g[np.ix_(idx, idx)]
            diag += float(np.sum(block * block))
            block_tail += tail_energy(np.linalg.eigvalsh(block), k)
        eigenvalues = np.linalg.eigvalsh(g)
        whole = tail_energy(eigenvalues, c * k)
        m = k + (c * k) ** 2 // n
        print("| %s | %d × %d | %g | %.3f | %.2e | %.3f | %.3f | %d: %.3f | %d, %d |" % (
            path.rsplit("/", 1)[-1], n, d, gamma, diag / total, block_tail / total,
            np.sqrt(max(0.0, 1 - diag / total + block_tail / total)), np.sqrt(whole / total), m,
            np.sqrt(tail_energy(eigenvalues, m) / total), n * k, (c * k) ** 2))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
