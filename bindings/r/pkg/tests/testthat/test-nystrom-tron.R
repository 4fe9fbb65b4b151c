# The Nystrom kernel machine trained by TRON (method "nystrom_tron") in one
# process, through kmx_svm(): accuracy next to the exact SVM on the same rows,
# the model file, parameters and errors.

test_that("nystrom_tron classifies Letter nearly as well as the exact SVM", {
  d <- letter_bin()
  tron <- kmx_svm(d$x, d$y, method = "nystrom_tron", C = 1, gamma = 16, centers = 1000, stages = 2)
  exact <- kmx_svm(d$x, d$y, method = "svm", C = 1, gamma = 16)
  expect_identical(kmx_model_info(tron, "method"), 8)
  expect_identical(kmx_model_info(tron, "support_vectors"), 1000)
  ours <- mean(predict(tron, d$test_x) == d$test_y)
  reference <- mean(predict(exact, d$test_x) == d$test_y)
  expect_gt(ours, reference - 0.04)
  expect_identical(summary(tron)$method, "nystrom_tron")
})

test_that("a nystrom_tron model predicts the same after a round trip", {
  d <- letter_bin()
  fit <- kmx_svm(d$x, d$y, method = "nystrom_tron", gamma = 16, centers = 100, loss = "logistic")
  copy <- kmx_model_from_raw(kmx_model_to_raw(fit))
  expect_identical(predict(copy, d$test_x, type = "decision"), predict(fit, d$test_x, type = "decision"))
})

test_that("nystrom_tron parameters come from the table and bad ones are refused", {
  solver <- kmx_solver("nystrom_tron")
  expect_identical(kmx_get_param(solver, "stages"), 1)
  expect_identical(kmx_get_param(solver, "newton_iterations"), 100)
  expect_identical(kmx_get_param(solver, "precondition"), 1)
  expect_kmx_error(kmx_solver("nystrom_tron", stages = 0), "KMX_E_INVALID_ARGUMENT", "stages")
  d <- letter_bin()
  expect_kmx_error(kmx_svm(d$x, d$y, method = "nystrom_tron", gamma = 16, centers = 100000), "KMX_E_INVALID_ARGUMENT",
                   "at most n")
})
