# Kernel matrix approximations: kmx_approx() against the exact kernel matrix.

approx_data <- function() {
  set.seed(7)
  x <- rbind(matrix(rnorm(150 * 4), 150, 4), matrix(rnorm(150 * 4, mean = 3), 150, 4))
  x
}

test_that("MEKA approximates the kernel matrix", {
  x <- approx_data()
  k <- kmx_kernel("rbf", gamma = 0.3)
  gram <- kmx_kernel_block(k, x, x)
  a <- kmx_approx(x, k, "meka", rank = 8, clusters = 4, ctx = kmx_context(seed = 1))
  expect_s3_class(a, "kmx_approx")
  expect_identical(dim(a), c(300, 300))
  s <- summary(a)
  expect_identical(s$rows, 300)
  expect_gt(s$rank, 8)
  expect_lte(s$rank, 32) # at most clusters x rank columns of W
  expect_gt(s$memory_bytes, 0)
  expect_lt(s$memory_bytes, 8 * 300^2)
  expect_output(print(a), sprintf("<kmx_approx: meka, 300 rows, rank %.0f", s$rank))
  expect_output(print(s), sprintf("kmx kernel approximation: meka, 300 rows, rank %.0f", s$rank))
  # The exact relative error, recomputed from G~ column by column.
  approx_gram <- vapply(seq_len(300), function(j) kmx_approx_matvec(a, as.numeric(seq_len(300) == j)),
                        numeric(300))
  error <- kmx_approx_relative_error(a, x)
  expect_equal(error, sqrt(sum((gram - approx_gram)^2) / sum(gram^2)), tolerance = 1e-9)
  expect_lt(error, 0.5)
  sampled <- kmx_approx_relative_error(a, x, sample_rows = 50)
  expect_gt(sampled, 0)
  v <- (seq_len(300) %% 7) - 3
  expect_equal(kmx_approx_matvec(a, v), as.vector(approx_gram %*% v), tolerance = 1e-10)
})

test_that("solve inverts the regularised approximation", {
  x <- approx_data()
  k <- kmx_kernel("rbf", gamma = 0.3)
  v <- (seq_len(300) %% 7) - 3
  for (method in c("nystrom", "kmeans_nystrom", "meka")) {
    a <- kmx_approx(x, k, method, rank = 20)
    for (lambda in c(1e-2, 1)) {
      s <- kmx_approx_solve(a, v, lambda)
      back <- kmx_approx_matvec(a, s) + lambda * s
      expect_lt(sqrt(sum((back - v)^2) / sum(v^2)), 1e-8)
    }
  }
})

test_that("Nystrom on every row is exact, and the approximation outlives its data", {
  x <- approx_data()
  k <- kmx_kernel("rbf", gamma = 0.3)
  data <- kmx_dataset(x)
  full <- kmx_approx(data, k, "nystrom", centers = 300)
  expect_lt(kmx_approx_relative_error(full, data), 1e-6)
  v <- rnorm(300)
  expected <- kmx_approx_matvec(full, v)
  kmx_free(data)
  kmx_free(k)
  invisible(gc())
  expect_identical(kmx_approx_matvec(full, v), expected)
})

test_that("bad approximation inputs are kmx errors", {
  x <- approx_data()
  k <- kmx_kernel("rbf", gamma = 0.3)
  a <- kmx_approx(x, k, centers = 40)
  expect_kmx_error(kmx_approx_matvec(a, rep(1, 299)), "KMX_E_INVALID_ARGUMENT", "v has 299")
  expect_kmx_error(kmx_approx_solve(a, rep(1, 300), 0), "KMX_E_INVALID_ARGUMENT", "lambda")
  expect_kmx_error(kmx_approx_relative_error(a, x[1:100, ]), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_approx_relative_error(a, x, sample_rows = 0), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_approx(x, k, rank = -1), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_approx(x, k, "meka", oversampling = 99), "KMX_E_INVALID_ARGUMENT")
  expect_error(kmx_approx(x, k, "sketchy"), "should be one of")
  expect_error(kmx_approx_matvec(a, "a"), "numeric vector")
  expect_error(kmx_approx(x, "rbf"), "expected a kmx_kernel")
  kmx_free(a)
  expect_kmx_error(kmx_approx_matvec(a, rep(1, 300)), "KMX_E_INVALID_ARGUMENT", "approx is NULL")
  expect_kmx_error(summary(a), "KMX_E_INVALID_ARGUMENT")
})
