test_that("a bad parameter is a kmx_error with the library's message", {
  err <- expect_kmx_error(kmx_kernel("rbf", gamma = -1), "KMX_E_INVALID_ARGUMENT", "gamma")
  expect_match(conditionMessage(err), "out of range")
  kernel <- kmx_kernel("rbf")
  expect_kmx_error(kmx_set_param(kernel, "gamma", -1), "KMX_E_INVALID_ARGUMENT", "gamma")
  expect_kmx_error(kmx_kernel_from_string("kernel=rbf gamma=-1"), "KMX_E_INVALID_ARGUMENT", "gamma")
  expect_kmx_error(kmx_context(threads = -1), "KMX_E_INVALID_ARGUMENT", "threads")
})

test_that("NaN in the data is a kmx_error", {
  x <- matrix(c(1, 2, NaN, 4), 2)
  expect_kmx_error(kmx_dataset(x), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_kernel_block(kmx_kernel("rbf"), x), "KMX_E_INVALID_ARGUMENT")
})

test_that("a freed handle used again is a kmx_error, and R carries on", {
  kernel <- kmx_kernel("rbf")
  kmx_free(kernel)
  expect_kmx_error(kmx_kernel_eval(kernel, 1, 2), "KMX_E_INVALID_ARGUMENT", "kernel is NULL")
  ds <- kmx_dataset(matrix(1:4, 2))
  kmx_free(ds)
  kmx_free(ds) # a second free does nothing
  expect_kmx_error(dim(ds), "KMX_E_INVALID_ARGUMENT", "NULL")
  ctx <- kmx_context()
  kmx_free(ctx)
  expect_kmx_error(kmx_get_param(ctx, "seed"), "KMX_E_INVALID_ARGUMENT", "ctx is NULL")
  expect_equal(kmx_kernel_eval(kmx_kernel("linear"), 2, 3), 6)
})

test_that("wrong sizes are caught", {
  ds <- kmx_dataset(matrix(1:6, 3))
  expect_kmx_error(kmx_set_weights(ds, c(1, 2)), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_kmeans(ds, 4), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_kernel_block(kmx_kernel("rbf"), ds, ds, a_rows = 2:5),
                   "KMX_E_INVALID_ARGUMENT")
  # Checked in R before the library is called.
  expect_error(kmx_dataset(matrix(1:6, 3), y = 1:2), "2 labels given for 3 rows")
  expect_error(kmx_kernel_eval(kmx_kernel("rbf"), 1:3, 1:2), "lengths 3 and 2")
  expect_error(kmx_kernel_block(kmx_kernel("rbf"), matrix(1:4, 2), matrix(1:3, 1)), "columns")
  expect_error(kmx_kmeans_assign(matrix(0, 2, 3), ds), "columns")
  expect_error(as.matrix(ds, rows = c(1, 3)), "consecutive")
  expect_error(kmx_dataset(data.frame(a = "x")), "numeric")
  expect_error(kmx_peak_bytes(ds), "expected a kmx_context")
  expect_error(kmx_free(list()), "kmx_free")
})
