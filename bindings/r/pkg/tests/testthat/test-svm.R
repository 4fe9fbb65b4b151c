test_that("svm and dcsvm learn the Letter binary problem", {
  d <- letter_bin()
  for (method in c("svm", "dcsvm")) {
    fit <- kmx_svm(d$x, d$y, method = method, C = 8, gamma = 16)
    expect_s3_class(fit, "kmx_model")
    predicted <- predict(fit, d$test_x)
    expect_type(predicted, "double")
    expect_length(predicted, 500)
    expect_true(all(predicted %in% c(-1, 1)))
    accuracy <- mean(predicted == d$test_y)
    expect_gt(accuracy, 0.9)
    # Two classes: one decision value per row, positive for the larger label.
    decision <- predict(fit, d$test_x, type = "decision")
    expect_identical(dim(decision), c(500L, 1L))
    expect_identical(colnames(decision), "1/-1")
    expect_identical(ifelse(decision[, 1] > 0, 1, -1), predicted)
    info <- kmx_model_info(fit)
    expect_identical(info[["method"]], if (method == "svm") 0 else 1)
    expect_identical(info[["classes"]], 2)
    expect_identical(info[["columns"]], 16)
    expect_identical(info[["decision_values"]], 1)
    expect_gt(info[["support_vectors"]], 0)
    expect_lte(info[["support_vectors"]], 2000)
    expect_gt(info[["iterations"]], 0)
    expect_identical(kmx_model_info(fit, "support_vectors"), info[["support_vectors"]])
    expect_identical(kmx_model_classes(fit), c(-1, 1))
    s <- summary(fit)
    expect_identical(s$method, method)
    expect_identical(s$classes, c(-1, 1))
    expect_output(print(s), sprintf("kmx model: %s, 2 classes, 16 columns", method))
    expect_output(print(fit), sprintf("<kmx_model: %s, 2 classes, 16 columns", method))
  }
})

test_that("the dual solver agrees with LIBSVM on 1000 Letter rows", {
  # svm-train -c 8 -g 16 on rows 1-1000, svm-predict on rows 1001-1500:
  # 878 support vectors, accuracy 88.0% (this split is too small for 90%).
  d <- letter_bin()
  fit <- kmx_svm(d$x[1:1000, ], d$y[1:1000], method = "svm", C = 8, gamma = 16)
  expect_equal(kmx_model_info(fit, "support_vectors"), 878, tolerance = 0.01)
  expect_equal(mean(predict(fit, d$x[1001:1500, ]) == d$y[1001:1500]), 0.88, tolerance = 0.02)
})

test_that("models saved to files and raw vectors predict identically", {
  d <- letter_bin()
  fit <- kmx_svm(d$x, d$y, method = "dcsvm", C = 8, gamma = 16, levels = 2)
  predicted <- predict(fit, d$test_x)
  decision <- predict(fit, d$test_x, type = "decision")

  path <- tempfile(fileext = ".kmx")
  on.exit(unlink(path))
  kmx_save_model(fit, path)
  expect_true(file.exists(path))
  loaded <- kmx_load_model(path)
  expect_identical(predict(loaded, d$test_x), predicted)
  expect_identical(predict(loaded, d$test_x, type = "decision"), decision)
  expect_identical(kmx_model_info(loaded, "support_vectors"),
                   kmx_model_info(fit, "support_vectors"))

  raw <- kmx_model_to_raw(fit)
  expect_type(raw, "raw")
  expect_identical(length(raw), as.integer(file.size(path)))
  again <- kmx_model_from_raw(raw)
  expect_identical(predict(again, d$test_x), predicted)
  expect_identical(predict(again, d$test_x, type = "decision"), decision)
  expect_identical(as.vector(kmx_model_to_raw(again)), as.vector(raw))
  # A raw vector survives saveRDS, and the model outlives its source.
  rds <- tempfile(fileext = ".rds")
  on.exit(unlink(rds), add = TRUE)
  saveRDS(raw, rds)
  kmx_free(fit)
  rm(fit)
  invisible(gc())
  expect_identical(predict(kmx_model_from_raw(readRDS(rds)), d$test_x), predicted)
})

test_that("a data.frame with factor labels gives factor predictions", {
  df <- iris[, 1:4]
  fit <- kmx_svm(df, iris$Species, method = "svm", C = 8, gamma = 0.5)
  predicted <- predict(fit, iris) # columns picked by name; Species ignored
  expect_s3_class(predicted, "factor")
  expect_identical(levels(predicted), levels(iris$Species))
  expect_gt(mean(predicted == iris$Species), 0.95)
  expect_identical(predict(fit, df[, 4:1]), predicted) # reordered by name
  expect_identical(kmx_model_classes(fit), factor(levels(iris$Species), levels(iris$Species)))
  # One-vs-one: 3 machines in LIBSVM's order, positive for the first class.
  decision <- predict(fit, df, type = "decision")
  expect_identical(colnames(decision),
                   c("setosa/versicolor", "setosa/virginica", "versicolor/virginica"))
  expect_identical(kmx_model_info(fit, "decision_values"), 3)
  # Through a raw vector the levels and column names ride along.
  again <- kmx_model_from_raw(kmx_model_to_raw(fit))
  expect_identical(predict(again, iris), predicted)
  # A file holds the levels as class names: they come back without being given.
  path <- tempfile()
  on.exit(unlink(path))
  kmx_save_model(fit, path)
  expect_identical(predict(kmx_load_model(path), df), predicted)
  expect_identical(predict(kmx_load_model(path, levels = fit$levels), df), predicted)

  ovr <- kmx_svm(df, as.character(iris$Species), method = "svm", gamma = 0.5,
                 multiclass = "ovr")
  expect_identical(kmx_model_info(ovr, "multiclass"), 1)
  expect_identical(colnames(predict(ovr, df[1:2, ], type = "decision")), levels(iris$Species))
  expect_identical(summary(ovr)$multiclass, "ovr")

  # The Letter problem as a data.frame with factor labels.
  d <- letter_bin()
  letters_df <- as.data.frame(d$x)
  labels <- factor(ifelse(d$y > 0, "pos", "neg"), levels = c("pos", "neg"))
  fit <- kmx_svm(letters_df, labels, C = 8, gamma = 16, levels = 2)
  test_df <- stats::setNames(as.data.frame(d$test_x), names(letters_df))
  predicted <- predict(fit, test_df)
  expect_identical(levels(predicted), c("pos", "neg"))
  expect_gt(mean(predicted == ifelse(d$test_y > 0, "pos", "neg")), 0.9)
  # Binary: positive decision values vote for the second level.
  decision <- predict(fit, test_df, type = "decision")
  expect_identical(colnames(decision), "neg/pos")
  expect_identical(as.character(predicted), ifelse(decision[, 1] > 0, "neg", "pos"))

  # Logical labels, DC-SVM on a small problem.
  setosa <- kmx_svm(as.matrix(df), iris$Species == "setosa", levels = 1, gamma = 0.5)
  expect_identical(levels(predict(setosa, df)), c("FALSE", "TRUE"))
  expect_identical(mean(predict(setosa, df) == (iris$Species == "setosa")), 1)
})

test_that("solvers keep their parameters and train through kmx_train", {
  solver <- kmx_solver("svm", C = 8)
  expect_s3_class(solver, "kmx_solver")
  expect_identical(kmx_get_param(solver, "C"), 8)
  expect_identical(kmx_get_param(solver, "method"), 0)
  kmx_set_param(solver, "eps", 1e-4)
  expect_identical(kmx_get_param(solver, "eps"), 1e-4)
  kmx_set_params(solver, bias = "on", shrinking = 0)
  expect_identical(kmx_get_param(solver, "bias"), 2)
  expect_identical(kmx_get_param(solver, "shrinking"), 0)
  expect_identical(summary(solver)$method, "svm")
  expect_identical(summary(solver)$bias, "on")
  expect_null(summary(solver)$levels) # the dual solver alone has no DC-SVM levels
  expect_identical(summary(kmx_solver("dcsvm"))$levels, 8)
  expect_output(print(solver), "<kmx_solver: svm C=8 eps=0.0001 bias=on shrinking=0")
  from_string <- kmx_solver_from_string("method=dcsvm C=8 levels=2 clusters_per_level=4")
  expect_identical(kmx_get_param(from_string, "method"), 1)
  expect_identical(kmx_get_param(from_string, "levels"), 2)
  expect_identical(kmx_get_param(kmx_solver_from_string("C=2"), "method"), 1) # dcsvm by default

  d <- letter_bin()
  train <- kmx_dataset(d$x, d$y)
  test <- kmx_dataset(d$test_x, d$test_y)
  kernel <- kmx_kernel("rbf", gamma = 16)
  ctx <- kmx_context(threads = 2, seed = 1)
  model <- kmx_train(from_string, kernel, train, ctx = ctx)
  expect_gt(mean(predict(model, test, ctx = ctx) == d$test_y), 0.9)
  expect_identical(predict(model, test), predict(model, d$test_x))

  # A heavy weight on class -1 makes it predicted more often.
  plain <- kmx_train(kmx_solver("svm", C = 0.05), kernel, train)
  weighted_solver <- kmx_set_class_weight(kmx_solver("svm", C = 0.05), -1, 20)
  weighted <- kmx_train(weighted_solver, kernel, train)
  expect_gt(sum(predict(weighted, test) == -1), sum(predict(plain, test) == -1))
  via_svm <- kmx_svm(d$x, d$y, method = "svm", C = 0.05, gamma = 16,
                     class_weights = c("-1" = 20))
  expect_identical(predict(via_svm, test), predict(weighted, test))
  # Row weights multiply C too.
  row_weighted <- kmx_svm(d$x, d$y, method = "svm", C = 0.05, gamma = 16,
                          weights = ifelse(d$y == -1, 20, 1))
  expect_identical(predict(row_weighted, test), predict(weighted, test))
})

test_that("bad input to training and prediction is a kmx_error", {
  d <- letter_bin()
  one_class <- rep(1, 2000)
  expect_kmx_error(kmx_svm(d$x, one_class, method = "svm"), "KMX_E_INVALID_ARGUMENT")
  err <- expect_kmx_error(kmx_svm(d$x, d$y, C = 0), "KMX_E_INVALID_ARGUMENT")
  expect_match(conditionMessage(err), "\\bC\\b")
  expect_kmx_error(kmx_solver("svm", levels = 0), "KMX_E_INVALID_ARGUMENT", "levels")
  expect_kmx_error(kmx_set_class_weight(kmx_solver(), 1, -1), "KMX_E_INVALID_ARGUMENT")

  fit <- kmx_svm(d$x[1:200, ], d$y[1:200], method = "svm", gamma = 16)
  raw <- kmx_model_to_raw(fit)
  middle <- length(raw) %/% 2L
  raw[middle] <- xor(raw[middle], as.raw(0xff))
  expect_kmx_error(kmx_model_from_raw(raw), "KMX_E_FORMAT")
  expect_kmx_error(kmx_model_from_raw(raw[1:10]), "KMX_E_FORMAT")
  expect_error(kmx_model_from_raw(1:10), "raw vector")
  expect_kmx_error(kmx_load_model(tempfile()), "KMX_E_IO")

  # More columns than the model is an error; so are fewer in a (dense) matrix.
  wide <- cbind(d$test_x, 0)
  expect_kmx_error(predict(fit, wide), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(predict(fit, wide, type = "decision"), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(predict(fit, unname(d$test_x[, 1:15])), "KMX_E_INVALID_ARGUMENT",
                   "15 columns but the model was trained on 16")

  kmx_free(fit)
  kmx_free(fit) # a second free does nothing
  expect_kmx_error(predict(fit, d$test_x), "KMX_E_INVALID_ARGUMENT", "NULL")
  expect_kmx_error(kmx_model_info(fit, "classes"), "KMX_E_INVALID_ARGUMENT", "NULL")
  expect_kmx_error(kmx_model_to_raw(fit), "KMX_E_INVALID_ARGUMENT", "NULL")
  solver <- kmx_solver()
  kmx_free(solver)
  expect_kmx_error(kmx_get_param(solver, "C"), "KMX_E_INVALID_ARGUMENT", "NULL")
  # Checked in R before the library is called.
  expect_error(kmx_model_info(kmx_svm(d$x[1:50, ], d$y[1:50], method = "svm"), "nope"), "key")
  expect_error(kmx_svm(d$x, method = "svm"), "labels")
  expect_error(kmx_svm(d$x, d$y, kernel = kmx_kernel("rbf"), gamma = 1), "kmx_kernel")
  expect_error(kmx_train(kmx_solver(), kmx_kernel("rbf"), d$x), "expected a kmx_dataset")
})

test_that("kmx_svm(method = \"one_class\") learns from x alone and agrees with LIBSVM's svm-train -s 2", {
  set.seed(7)
  x <- matrix(rnorm(400), 200, 2)
  fresh <- rbind(matrix(rnorm(100), 50, 2), matrix(c(6, 6, -6, 6), 2, 2, byrow = TRUE))
  fit <- kmx_svm(x, method = "one_class", nu = 0.1, gamma = 0.5)
  expect_identical(summary(fit)$method, "one_class")
  expect_equal(kmx_model_info(fit, "nu"), 0.1)
  expect_equal(kmx_model_info(fit, "C"), 0)
  expect_equal(as.numeric(kmx_model_classes(fit)), c(-1, 1))
  f <- predict(fit, fresh, type = "decision")[, 1]
  labels <- predict(fit, fresh)
  expect_equal(as.numeric(labels), ifelse(f > 0, 1, -1))
  expect_equal(as.numeric(labels[51:52]), c(-1, -1)) # far from every row: outliers
  expect_lte(sum(fit$fitted < 0), 0.1 * 200 + 1)     # nu bounds the training rows outside
  expect_error(kmx_svm(x, method = "one_class", nu = 1.5), "nu")
  expect_error(kmx_svm(x, method = "one_class", nu = 0), "nu")
  svm_train <- Sys.which("svm-train")
  skip_if(!nzchar(svm_train), "svm-train (LIBSVM) is not installed")
  # LIBSVM's model on the same rows (6 significant digits, as both read them).
  x <- signif(x, 6)
  fit <- kmx_svm(x, method = "one_class", nu = 0.1, gamma = 0.5)
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  train <- file.path(dir, "train.libsvm")
  writeLines(sprintf("1 1:%.6g 2:%.6g", x[, 1], x[, 2]), train)
  model <- file.path(dir, "train.model")
  log <- system2(svm_train, c("-s", "2", "-n", "0.1", "-g", "0.5", "-e", "0.001", train, model), stdout = TRUE)
  lines <- readLines(model)
  rho <- as.numeric(sub("rho ", "", grep("^rho ", lines, value = TRUE)))
  sv <- lines[(match("SV", lines) + 1L):length(lines)]
  fields <- strsplit(sv, " ")
  coef <- vapply(fields, function(f) as.numeric(f[1L]), 0)
  points <- t(vapply(fields, function(f) as.numeric(sub("^[0-9]+:", "", f[2:3])), c(0, 0)))
  expected <- vapply(seq_len(nrow(fresh)), function(i) {
    sum(coef * exp(-0.5 * rowSums((points - matrix(fresh[i, ], nrow(points), 2, byrow = TRUE))^2))) - rho
  }, 0)
  # Both stop at a largest KKT violation of 1e-3, on the scale of rho and of
  # the decision values: each within 1e-3 of the exact one.
  expect_lt(max(abs(predict(fit, fresh, type = "decision")[, 1] - expected)), 2e-3)
  expect_lte(abs(kmx_model_info(fit, "support_vectors") - length(sv)), 2)
})

test_that("predict(fit, x, probability = TRUE) gives class probabilities named by level, as e1071", {
  fit <- kmx_svm(iris[, 1:4], iris$Species, method = "svm", gamma = 0.5, probability = TRUE,
                 ctx = kmx_context(seed = 3, threads = 1))
  expect_equal(kmx_model_info(fit, "probability"), 1)
  p <- predict(fit, iris[, 1:4], probability = TRUE)
  expect_identical(dim(p), c(150L, 3L))
  expect_identical(colnames(p), levels(iris$Species))
  expect_equal(rowSums(p), rep(1, 150), tolerance = 1e-9)
  expect_true(all(p > 0 & p < 1))
  most <- factor(colnames(p)[max.col(p, ties.method = "first")], levels = levels(iris$Species))
  expect_gte(mean(most == predict(fit, iris[, 1:4])), 0.95)
  expect_gte(mean(most == iris$Species), 0.9)
  again <- kmx_model_from_raw(kmx_model_to_raw(fit))
  expect_equal(predict(again, iris[, 1:4], probability = TRUE), p)
  expect_error(predict(fit, probability = TRUE), "newdata")
  plain <- kmx_svm(iris[, 1:4], iris$Species, method = "svm", gamma = 0.5)
  expect_equal(kmx_model_info(plain, "probability"), 0)
  expect_error(predict(plain, iris[, 1:4], probability = TRUE), "trained without probability estimates")
  expect_error(kmx_svm(iris[, 1:3], iris[, 4], method = "svr", probability = TRUE),
               "method svr has no probability estimates")
})

test_that("kmx_cross_validate and cross = K agree with LIBSVM's svm-train -v 5", {
  # svm-train -c 8 -g 16 -v 5 on Letter rows 1-1000: 88.7% (its own folds).
  d <- letter_bin()
  data <- kmx_dataset(d$x[1:1000, ], d$y[1:1000])
  on.exit(kmx_free(data))
  solver <- kmx_solver("svm", C = 8)
  cv <- kmx_cross_validate(solver, kmx_kernel("rbf", gamma = 16), data, folds = 5)
  expect_s3_class(cv, "kmx_cv")
  expect_identical(cv$folds, 5L)
  expect_length(cv$predictions, 1000)
  expect_equal(cv$tot.accuracy, 100 * mean(cv$predictions == d$y[1:1000]))
  expect_equal(cv$tot.accuracy, 88.7, tolerance = 2 / 88.7)
  expect_output(print(cv), "<kmx_cv: 5 folds, accuracy")
  # kmx_svm(cross = 5): the same folds (the default seed), kept on the model.
  fit <- kmx_svm(d$x[1:1000, ], d$y[1:1000], method = "svm", C = 8, gamma = 16, cross = 5)
  expect_identical(fit$tot.accuracy, cv$tot.accuracy)
  expect_identical(fit$cross$predictions, cv$predictions)
  expect_output(print(summary(fit)), "5 folds, accuracy")
  expect_kmx_error(kmx_cross_validate(solver, kmx_kernel("rbf", gamma = 16), data, folds = 1),
                   "KMX_E_INVALID_ARGUMENT", "at least 2 folds")
})

test_that("cross-validation keeps factor labels and reports regression errors", {
  b <- blobs()
  fit <- kmx_svm(b$x, b$y, method = "svm", C = 1, gamma = 0.1, cross = 3)
  expect_s3_class(fit$cross$predictions, "factor")
  expect_identical(levels(fit$cross$predictions), c("a", "b", "c"))
  expect_equal(fit$tot.accuracy, 100)  # separated blobs
  x <- scale(as.matrix(mtcars[, c("wt", "hp", "disp")]))
  krr <- kmx_krr(x, mtcars$mpg, method = "krr", lambda = 1e-2, gamma = 0.2, cross = 4)
  expect_null(krr$tot.accuracy)
  p <- krr$cross$predictions
  expect_equal(krr$tot.MSE, mean((p - mtcars$mpg)^2))
  expect_equal(krr$scorrcoeff, cor(p, mtcars$mpg)^2)
  expect_lt(krr$tot.MSE, var(mtcars$mpg))  # better than predicting the mean
})

test_that("kmx_cross_validate_path gives each C's cross-validation on the same folds", {
  d <- letter_bin()
  data <- kmx_dataset(d$x[1:300, ], d$y[1:300])
  on.exit(kmx_free(data))
  solver <- kmx_solver("svm", eps = 1e-6)
  rbf <- kmx_kernel("rbf", gamma = 16)
  path <- kmx_cross_validate_path(solver, rbf, data, "C", c(8, 1), folds = 4)
  expect_length(path, 2L)
  for (i in 1:2) {
    kmx_set_param(solver, "C", c(8, 1)[i])
    expect_identical(path[[i]]$predictions, kmx_cross_validate(solver, rbf, data, folds = 4)$predictions)
  }
  expect_kmx_error(kmx_cross_validate_path(solver, rbf, data, "eps", 0.1, folds = 4), "KMX_E_INVALID_ARGUMENT")
})

test_that("a precomputed Gaussian matrix trains the model the rbf kernel trains", {
  # LIBSVM's precomputed rows: column 1 the serial number (0 for test rows), then K(x, x_j).
  d <- letter_bin()
  x <- d$x[1:300, ]
  y <- d$y[1:300]
  xt <- d$test_x[1:100, ]
  gram <- function(a, b) {
    k <- matrix(0, nrow(a), nrow(b))
    for (j in seq_len(nrow(b))) k[, j] <- exp(-16 * colSums((t(a) - b[j, ])^2))
    k
  }
  k <- cbind(seq_len(300), gram(x, x))
  kt <- cbind(0, gram(xt, x))
  by_matrix <- kmx_svm(k, y, method = "svm", kernel = "precomputed", C = 8)
  by_features <- kmx_svm(x, y, method = "svm", C = 8, gamma = 16)
  expect_equal(kmx_model_info(by_matrix, "objective"), kmx_model_info(by_features, "objective"),
               tolerance = 1e-9)
  expect_equal(predict(by_matrix, kt, type = "decision"), predict(by_features, xt, type = "decision"),
               tolerance = 1e-9)
  expect_identical(predict(by_matrix, kt), predict(by_features, xt))
  expect_error(kmx_svm(k, y, method = "dcsvm", kernel = "precomputed"), "method dcsvm needs feature vectors")
})
