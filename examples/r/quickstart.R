# quickstart.R: kmx from R: load data, evaluate a kernel block, cluster,
# train a DC-SVM classifier.
#
#   Rscript quickstart.R DATA_FILE [K [TRAIN_FILE TEST_FILE]]
#
# Loads a LIBSVM or CSV file, times a Gaussian kernel block over its first
# rows, runs k-means (k-means++ seeding, fixed seed), and reports the
# clustering's purity against the file's labels. Then trains DC-SVM on the
# first 4000 rows of TRAIN_FILE (default: letter_bin.train.libsvm next to
# DATA_FILE), predicts TEST_FILE (letter_bin.test.libsvm) and reports the
# accuracy and times.
library(kmx)

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1L) stop("usage: Rscript quickstart.R DATA_FILE [K [TRAIN_FILE TEST_FILE]]")
k <- if (length(args) > 1L) as.integer(args[2L]) else 26L
data_dir <- dirname(args[1L])
train_file <- if (length(args) > 2L) args[3L] else file.path(data_dir, "letter_bin.train.libsvm")
test_file <- if (length(args) > 3L) args[4L] else file.path(data_dir, "letter_bin.test.libsvm")

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

# DC-SVM: divide and conquer (kernel k-means clusters, solved level by level),
# then the exact global solve. kmx_svm() takes a matrix (or data.frame) and labels.
if (!file.exists(train_file) || !file.exists(test_file)) {
  cat("dcsvm     skipped: no", train_file, "or", test_file, "\n")
} else {
  train <- kmx_read(train_file, ctx = ctx)
  rows <- seq_len(min(nrow(train), 4000))
  x <- as.matrix(train, rows = rows)
  y <- kmx_labels(train)[rows]
  time <- system.time(fit <- kmx_svm(x, y, method = "dcsvm", C = 8, gamma = 16,
                                     ctx = ctx))[["elapsed"]]
  cat(sprintf("dcsvm     C=8 gamma=16 on %d rows of %s in %.3f s: %.0f support vectors\n",
              length(rows), basename(train_file), time, kmx_model_info(fit, "support_vectors")))
  test <- kmx_read(test_file, ctx = ctx)
  time <- system.time(predicted <- predict(fit, test, ctx = ctx))[["elapsed"]]
  accuracy <- mean(predicted == kmx_labels(test))
  cat(sprintf("predict   %d rows of %s in %.3f s: accuracy %.4f\n", nrow(test),
              basename(test_file), time, accuracy))
  print(summary(fit))
}
