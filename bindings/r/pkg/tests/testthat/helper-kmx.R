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

# examples/data/letter_bin.train.libsvm of the source tree: from
# KMX_EXAMPLE_DATA (set by meson's test setups), or found upwards from the test directory (the source tree, or R CMD check's
# copy inside the build directory).
letter_bin_path <- function() {
  dirs <- Sys.getenv("KMX_EXAMPLE_DATA")
  dir <- normalizePath(".")
  repeat {
    dirs <- c(dirs, file.path(dir, "examples", "data"))
    parent <- dirname(dir)
    if (parent == dir) break
    dir <- parent
  }
  paths <- file.path(dirs[nzchar(dirs)], "letter_bin.train.libsvm")
  paths[file.exists(paths)][1L]
}

# The Letter binary problem: rows 1-2000 to train, 2001-2500 to test. (With
# rows 1-1000 to train and 1001-1500 to test, C = 8 and gamma = 16, LIBSVM's
# svm-train reaches 88.0% only, with 878 support vectors; from 2000 rows on
# it reaches 95%.)
letter_bin <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      path <- letter_bin_path()
      testthat::skip_if(is.na(path), "letter_bin.train.libsvm not found")
      data <- kmx_read(path)
      x <- as.matrix(data, rows = 1:2500)
      y <- kmx_labels(data)[1:2500]
      cache <<- list(x = x[1:2000, ], y = y[1:2000], test_x = x[2001:2500, ],
                     test_y = y[2001:2500])
    }
    cache
  }
})
