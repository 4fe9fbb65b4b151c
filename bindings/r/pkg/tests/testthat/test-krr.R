# Kernel ridge regression: regression models from kmx_krr() and kmx_train().

smooth_problem <- function(n, seed) {
  set.seed(seed)
  x <- matrix(runif(n * 3), n, 3, dimnames = list(NULL, c("a", "b", "c")))
  list(x = x, y = sin(2 * pi * x[, 1]) + x[, 2]^2 - x[, 3])
}

rmse <- function(a, b) sqrt(mean((a - b)^2))

test_that("every KRR method fits a smooth function", {
  train <- smooth_problem(600, 1)
  test <- smooth_problem(200, 2)
  extra <- list(krr = list(), nystrom_krr = list(centers = 150),
                meka_krr = list(clusters = 4, rank = 40),
                falkon = list(centers = 150, iterations = 40))
  for (method in names(extra)) {
    fit <- do.call(kmx_krr, c(list(train$x, train$y, method = method, lambda = 1e-6, gamma = 4),
                              extra[[method]]))
    expect_s3_class(fit, "kmx_model")
    predicted <- predict(fit, test$x)
    expect_type(predicted, "double")
    expect_length(predicted, 200)
    expect_lt(rmse(predicted, test$y), 0.1)
    expect_identical(summary(fit)$method, method)
  }
})

test_that("regression models report their task, lambda and no classes", {
  train <- smooth_problem(400, 3)
  fit <- kmx_krr(train$x, train$y, method = "falkon", lambda = 1e-5, gamma = 4, centers = 100,
                 iterations = 30)
  info <- kmx_model_info(fit)
  expect_identical(info[["method"]], 7)
  expect_identical(info[["task"]], 2)
  expect_identical(info[["classes"]], 0)
  expect_identical(info[["lambda"]], 1e-5)
  expect_identical(info[["C"]], 0)
  expect_identical(info[["decision_values"]], 1)
  expect_length(kmx_model_classes(fit), 0L)
  decision <- predict(fit, train$x, type = "decision")
  expect_identical(colnames(decision), "value")
  expect_identical(decision[, 1], predict(fit, train$x))
  s <- summary(fit)
  expect_identical(s$task, "regression")
  expect_output(print(s), "kmx model: falkon regression, 3 columns")
  expect_output(print(fit), "<kmx_model: falkon, regression, 3 columns")
  # Columns are picked by name, and the model survives a raw round trip.
  shuffled <- train$x[, c("c", "a", "b")]
  expect_identical(predict(fit, shuffled), predict(fit, train$x))
  again <- kmx_model_from_raw(kmx_model_to_raw(fit))
  expect_identical(predict(again, train$x), predict(fit, train$x))
})

test_that("FALKON approaches exact KRR", {
  train <- smooth_problem(500, 4)
  exact <- kmx_krr(train$x, train$y, method = "krr", lambda = 1e-4, gamma = 4)
  falkon <- kmx_krr(train$x, train$y, method = "falkon", lambda = 1e-4, gamma = 4, centers = 500,
                    iterations = 100)
  expect_lt(rmse(predict(exact, train$x), predict(falkon, train$x)), 1e-2)
})

test_that("KRR classifies factors, and solvers show KRR parameters", {
  fit <- kmx_krr(iris[, 1:4], iris$Species, method = "krr", lambda = 1e-3, gamma = 0.5)
  expect_identical(kmx_model_info(fit, "task"), 1)
  expect_identical(kmx_model_classes(fit), factor(levels(iris$Species), levels(iris$Species)))
  predicted <- predict(fit, iris)
  expect_s3_class(predicted, "factor")
  expect_gt(mean(predicted == iris$Species), 0.9)
  decision <- predict(fit, iris, type = "decision")
  expect_identical(dim(decision), c(150L, 3L)) # one-vs-rest
  expect_identical(colnames(decision), levels(iris$Species))

  solver <- kmx_solver("falkon", lambda = 1e-3, centers = 64, center_method = "kmeans",
                       task = "regression")
  s <- summary(solver)
  expect_identical(s$method, "falkon")
  expect_identical(s$task, "regression")
  expect_identical(s$center_method, "kmeans")
  expect_identical(s$lambda, 1e-3)
  expect_identical(s$centers, 64)
  expect_output(print(solver), "<kmx_solver: falkon cache_size=0 task=regression lambda=0.001 centers=64")
  expect_identical(names(summary(kmx_solver("meka_krr")))[-1L],
                   c("task", "lambda", "libsvm_folds", "rank", "clusters", "threshold", "oversampling",
                     "rank_by_size"))
  train <- smooth_problem(300, 5)
  model <- kmx_train(solver, kmx_kernel("rbf", gamma = 4), kmx_dataset(train$x, train$y))
  expect_lt(rmse(predict(model, train$x), train$y), 0.2)
})

test_that("bad KRR parameters are kmx errors", {
  train <- smooth_problem(50, 6)
  expect_kmx_error(kmx_krr(train$x, train$y, lambda = 0), "KMX_E_INVALID_ARGUMENT", "lambda")
  expect_kmx_error(kmx_solver("falkon", task = "sideways"), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_solver("falkon", center_method = "random"), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_solver("falkon", validation = 0.9), "KMX_E_INVALID_ARGUMENT")
  expect_error(kmx_krr(train$x), "needs labels")
})

test_that("kmx_svm(method = \"svr\") fits a smooth function (epsilon-SVR)", {
  train <- smooth_problem(600, 5)
  test <- smooth_problem(200, 6)
  fit <- kmx_svm(train$x, train$y, method = "svr", C = 10, gamma = 4, epsilon_svr = 0.05)
  expect_lt(rmse(predict(fit, test$x), test$y), 0.1)
  info <- kmx_model_info(fit)
  expect_identical(info[["method"]], 9)
  expect_identical(info[["task"]], 2)
  expect_identical(info[["C"]], 10)
  expect_identical(info[["bias"]], 1)
  expect_identical(summary(fit)$method, "svr")
  expect_error(kmx_svm(train$x, train$y, method = "svr", epsilon_svr = -1), "epsilon_svr")
})

test_that("kmx_svm(method = \"svr\") by DC-SVM (svr_dcsvm = 1) and by the dual solver alone agree", {
  train <- smooth_problem(600, 5)
  test <- smooth_problem(200, 6)
  expect_identical(kmx_param_default("svr_dcsvm"), 0)
  fits <- lapply(0:1, function(dcsvm) {
    # (no `eps =` here: R matches it partially to kmx_svm's `epsilon`, the tube)
    kmx_svm(train$x, train$y, method = "svr", C = 10, gamma = 4, epsilon = 0.05,
            sample_size = 50, cache_size = 20000, svr_dcsvm = dcsvm)
  })
  objective <- vapply(fits, function(fit) kmx_model_info(fit)[["objective"]], 0)
  # both stop at the default KKT tolerance (1e-3): equal optima to about 1e-6 relative
  expect_equal(objective[2], objective[1], tolerance = 1e-4)
  expect_lt(rmse(predict(fits[[1]], test$x), predict(fits[[2]], test$x)), 1e-3)
  expect_error(kmx_svm(train$x, train$y, method = "svr", svr_dcsvm = 2), "svr_dcsvm")
})
