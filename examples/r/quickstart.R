# quickstart.R: kmx from R: load data, evaluate a kernel block, cluster.
#
#   Rscript quickstart.R DATA_FILE [K]
#
# Loads a LIBSVM or CSV file, times a Gaussian kernel block over its first
# rows, runs k-means (k-means++ seeding, fixed seed), and reports the
# clustering's purity against the file's labels.
library(kmx)

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1L) stop("usage: Rscript quickstart.R DATA_FILE [K]")
k <- if (length(args) > 1L) as.integer(args[2L]) else 26L

cat("kmx", kmx_version(), "\n")
ctx <- kmx_context(threads = 1, seed = 42)
data <- kmx_read(args[1L], ctx = ctx)
cat(sprintf("data      %s: %d rows x %d columns\n", args[1L], nrow(data), ncol(data)))

# A Gaussian kernel block K(X[rows], X[rows]).
rows <- seq_len(min(nrow(data), 2048))
kernel <- kmx_kernel("rbf", gamma = 2)
time <- system.time(block <- kmx_kernel_block(kernel, data, data, ctx = ctx, a_rows = rows,
                                              b_rows = rows))[["elapsed"]]
cat(sprintf("kernel    rbf gamma=2 block %d x %d in %.4f s; K(x1,x2) = %.6f\n", nrow(block),
            ncol(block), time, block[1, 2]))

# k-means with k-means++ seeding.
time <- system.time(km <- kmx_kmeans(data, k, ctx = ctx, max_iter = 100))[["elapsed"]]
cat(sprintf("k-means   k=%d in %.3f s: objective %.6g\n", k, time, km$objective))
print(summary(km))

# Purity: the share of rows whose label is their cluster's most common label.
labels <- kmx_labels(data)
purity <- sum(apply(table(km$cluster, labels), 1, max)) / length(labels)
cat(sprintf("purity    %.4f of rows share their cluster's majority label (%d classes)\n", purity,
            nrow(kmx_classes(data))))
