# kmx_kernel_function: an R function as the kernel (kmx_kernel_create_callback),
# run on R's thread alone, compared with the built-in rbf kernel.

# exp(-gamma |a_i - b_j|^2) by its formula, a column of b's rows at a time.
gaussian_of <- function(gamma) {
  function(a, b) {
    k <- matrix(0, nrow(a), nrow(b))
    for (j in seq_len(nrow(b))) k[, j] <- exp(-gamma * colSums((t(a) - b[j, ])^2))
    k
  }
}

letter_small <- function() {
  d <- letter_bin()
  list(x = d$x[1:400, ], y = factor(d$y[1:400]), test_x = d$test_x[1:300, ])
}

callback_type <- function() as.numeric(enumToInteger("KMX_KERNEL_CALLBACK", "_kmx_kernel_type"))

test_that("an R Gaussian function trains the model the built-in rbf kernel trains", {
  d <- letter_small()
  calls <- 0
  gaussian <- gaussian_of(16)
  fn <- function(a, b) {
    calls <<- calls + 1
    gaussian(a, b)
  }
  ctx <- kmx_context(threads = 2) # set to 1 for every call that runs fn, then restored
  by_rbf <- kmx_svm(d$x, d$y, method = "svm", kernel = "rbf", gamma = 16, C = 4, eps = 1e-6, ctx = ctx,
                    fitted = FALSE)
  by_fn <- kmx_svm(d$x, d$y, kernel = fn, C = 4, eps = 1e-6, ctx = ctx, fitted = FALSE)
  expect_gt(calls, 0)
  expect_equal(kmx_get_param(ctx, "threads"), 2)
  expect_equal(kmx_model_info(by_fn, "method"), kmx_model_info(by_rbf, "method")) # svm picked for a function
  expect_equal(kmx_model_info(by_fn, "kernel"), callback_type())
  expect_equal(kmx_model_info(by_fn, "support_vectors"), kmx_model_info(by_rbf, "support_vectors"))
  expect_equal(kmx_model_info(by_fn, "objective"), kmx_model_info(by_rbf, "objective"), tolerance = 1e-9)
  values_rbf <- predict(by_rbf, d$test_x, type = "decision", ctx = ctx)
  values_fn <- predict(by_fn, d$test_x, type = "decision", ctx = ctx)
  expect_lt(max(abs(values_rbf - values_fn)), 1e-9)
  expect_identical(predict(by_fn, d$test_x), predict(by_rbf, d$test_x)) # ctx NULL: the machine's threads
  expect_equal(kmx_get_param(ctx, "threads"), 2)

  # Kernel blocks and single values call it too; cross-validation, on the same folds, agrees.
  kernel <- kmx_kernel(fn)
  expect_output(print(kernel), "an R function")
  a <- d$x[1:3, ]
  b <- d$x[4:5, ]
  expect_identical(kmx_kernel_block(kernel, a, b, ctx = ctx), gaussian(a, b))
  expect_equal(kmx_kernel_eval(kernel, a[1, ], b[2, ]), gaussian(a[1, , drop = FALSE], b[2, , drop = FALSE])[1, 1],
               tolerance = 0)
  data <- kmx_dataset(d$x, d$y)
  solver <- kmx_solver("svm", C = 4)
  cv_rbf <- kmx_cross_validate(solver, kmx_kernel("rbf", gamma = 16), data, 4, ctx = ctx)
  cv_fn <- kmx_cross_validate(solver, kernel, data, 4, ctx = ctx)
  expect_identical(cv_fn$predictions, cv_rbf$predictions)
  expect_equal(kmx_get_param(ctx, "threads"), 2)

  # Its model holds a function of this session: no saved form.
  expect_kmx_error(kmx_save_model(by_fn, tempfile()), "KMX_E_UNSUPPORTED", "callback kernel cannot be saved")
  expect_kmx_error(kmx_model_to_raw(by_fn), "KMX_E_UNSUPPORTED", "callback kernel cannot be saved")
  expect_error(predict(unserialize(serialize(by_fn, NULL)), d$test_x),
               "a model trained with an R kernel function has no saved form")
})

test_that("a model keeps its R function after its kernel is freed and collected", {
  d <- letter_small()
  kernel <- kmx_kernel_function(gaussian_of(16))
  model <- kmx_svm(d$x, d$y, kernel = kernel, C = 4, fitted = FALSE)
  kmx_free(kernel)
  rm(kernel)
  invisible(gc())
  by_rbf <- kmx_svm(d$x, d$y, method = "svm", gamma = 16, C = 4, fitted = FALSE)
  expect_lt(max(abs(predict(model, d$test_x, type = "decision") - predict(by_rbf, d$test_x, type = "decision"))),
            1e-9)
})

test_that("an error in the R function is a kmx_error carrying its message, and everything stays usable", {
  d <- letter_small()
  broken <- TRUE
  gaussian <- gaussian_of(16)
  kernel <- kmx_kernel_function(function(a, b) {
    if (broken) stop("no kernel today")
    gaussian(a, b)
  })
  ctx <- kmx_context(threads = 2)
  data <- kmx_dataset(d$x, d$y)
  solver <- kmx_solver("svm", C = 4)
  err <- expect_kmx_error(kmx_train(solver, kernel, data, ctx = ctx), "KMX_E_INVALID_ARGUMENT",
                          "error in the R kernel function: no kernel today")
  expect_match(conditionMessage(err), "kernel callback failed (status 1)", fixed = TRUE)
  expect_equal(kmx_get_param(ctx, "threads"), 2) # restored after a failure too
  broken <- FALSE
  model <- kmx_train(solver, kernel, data, ctx = ctx)
  by_rbf <- kmx_train(solver, kmx_kernel("rbf", gamma = 16), data, ctx = ctx)
  expect_lt(max(abs(predict(model, d$test_x, type = "decision") - predict(by_rbf, d$test_x, type = "decision"))),
            1e-9)

  # What a kernel function must return, and which methods take one.
  expect_kmx_error(kmx_train(solver, kmx_kernel_function(function(a, b) matrix(0, 1, 1)), data),
                   "KMX_E_INVALID_ARGUMENT", "returned a 1 x 1 double matrix, not a")
  expect_kmx_error(kmx_train(solver, kmx_kernel_function(function(a, b) "K"), data), "KMX_E_INVALID_ARGUMENT",
                   "returned a character of length 1")
  expect_kmx_error(kmx_train(solver, kmx_kernel_function(function(a, b) a %*% t(b) * NaN), data),
                   "KMX_E_INVALID_ARGUMENT", "non-finite value")
  expect_kmx_error(kmx_svm(d$x, d$y, method = "dcsvm", kernel = gaussian, fitted = FALSE), "KMX_E_INVALID_ARGUMENT",
                   "needs feature vectors")
  expect_error(kmx_kernel_function(42), "'fn' must be a function")
  expect_error(kmx_svm(d$x, d$y, kernel = gaussian, gamma = 2), "not with a kmx_kernel or a function")
})
