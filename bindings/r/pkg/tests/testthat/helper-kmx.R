# Small reproducible data: three separated Gaussian blobs in 4 dimensions.
blobs <- function(n_per = 30, d = 4, seed = 1) {
  set.seed(seed)
  centers <- rbind(rep(0, d), rep(5, d), c(rep(-5, d - 1), 5))
  x <- do.call(rbind, lapply(1:3, function(i) {
    matrix(rnorm(n_per * d), n_per, d) + matrix(centers[i, ], n_per, d, byrow = TRUE)
  }))
  list(x = x, y = factor(rep(c("a", "b", "c"), each = n_per)))
}

# The k-means objective recomputed in R: squared distances to the centers.
kmeans_objective <- function(x, centers, cluster) {
  sum((x - centers[cluster, , drop = FALSE])^2)
}

expect_kmx_error <- function(expr, status, message = NULL) {
  err <- expect_error(expr, class = "kmx_error", regexp = message)
  expect_identical(class(err), c("kmx_error", "error", "condition"))
  expect_identical(err$status, status)
  invisible(err)
}
