test_that("the Gaussian kernel block matches R's distances", {
  x <- blobs(n_per = 10)$x
  gamma <- 0.3
  kernel <- kmx_kernel("rbf", gamma = gamma)
  expected <- exp(-gamma * as.matrix(dist(x))^2)
  dimnames(expected) <- NULL
  expect_equal(kmx_kernel_block(kernel, x), expected, tolerance = 1e-12)
  expect_equal(kmx_kernel_block(kernel, x[1:4, ], x[5:11, ]), expected[1:4, 5:11],
               tolerance = 1e-12)
  expect_equal(predict(kernel, x[1:2, ], x), expected[1:2, ], tolerance = 1e-12)
  expect_equal(kmx_kernel_block(kernel, as.data.frame(x), ctx = kmx_context(threads = 2)), expected,
               tolerance = 1e-12)
})

test_that("blocks over dataset rows equal blocks over matrices", {
  x <- blobs(n_per = 10)$x
  ds <- kmx_dataset(x)
  kernel <- kmx_kernel_from_string("kernel=laplacian gamma=0.25")
  expected <- exp(-0.25 * as.matrix(dist(x, method = "manhattan")))
  dimnames(expected) <- NULL
  expect_equal(kmx_kernel_block(kernel, ds, ds, a_rows = 1:10, b_rows = 3:8), expected[1:10, 3:8],
               tolerance = 1e-12)
  expect_equal(kmx_kernel_block(kernel, ds), expected, tolerance = 1e-12)
})

test_that("single evaluations and kernel parameters", {
  a <- c(1, 2, 3)
  b <- c(0.5, -1, 2)
  poly <- kmx_kernel("polynomial", gamma = 0.5, coef0 = 1, degree = 2)
  expect_equal(kmx_kernel_eval(poly, a, b), (0.5 * sum(a * b) + 1)^2, tolerance = 1e-14)
  expect_identical(kmx_get_param(poly, "degree"), 2)
  kmx_set_param(poly, "degree", 3)
  expect_equal(kmx_kernel_eval(poly, a, b), (0.5 * sum(a * b) + 1)^3, tolerance = 1e-14)
  expect_equal(kmx_kernel_eval(kmx_kernel("linear"), a, b), sum(a * b))
  sigmoid <- kmx_kernel("sigmoid")
  kmx_set_params(sigmoid, "gamma=0.1 coef0=-0.5")
  expect_equal(kmx_kernel_eval(sigmoid, a, b), tanh(0.1 * sum(a * b) - 0.5), tolerance = 1e-14)
  expect_identical(summary(sigmoid)$type, "sigmoid")
  expect_identical(summary(sigmoid)$gamma, 0.1)
  expect_output(print(sigmoid), "<kmx_kernel: sigmoid gamma=0.1 coef0=-0.5")
})
