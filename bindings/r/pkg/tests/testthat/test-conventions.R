# What users of e1071 and kernlab expect: models that survive saveRDS(),
# fitted values, their kernel names, na.action, and formulas with factors.

small_letter <- function() {
  d <- letter_bin()
  list(x = d$x[1:300, ], y = d$y[1:300], test_x = d$test_x, test_y = d$test_y)
}

test_that("a model and a predictor survive saveRDS/readRDS and serialize", {
  d <- small_letter()
  fit <- kmx_svm(d$x, d$y, method = "svm", C = 8, gamma = 16)
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(fit, path)
  back <- readRDS(path)
  expect_identical(predict(back, d$test_x), predict(fit, d$test_x))
  expect_identical(predict(back, d$test_x, type = "decision"), predict(fit, d$test_x, type = "decision"))
  expect_identical(kmx_model_info(back), kmx_model_info(fit))
  expect_identical(kmx_model_to_raw(back), kmx_model_to_raw(fit))
  predictor <- kmx_predictor(fit, d$x, d$y, leaves = 2, landmarks = 8)
  copy <- unserialize(serialize(predictor, NULL))
  expect_identical(predict(copy, d$test_x), predict(predictor, d$test_x))
  # Freed stays freed: no silent revival from the saved bytes.
  kmx_free(back)
  expect_kmx_error(predict(back, d$test_x), "KMX_E_INVALID_ARGUMENT")
})

test_that("without its saved form a model read back says it cannot predict", {
  d <- small_letter()
  old <- options(kmx.keep_bytes = FALSE)
  on.exit(options(old))
  fit <- kmx_svm(d$x, d$y, method = "svm", C = 8, gamma = 16)
  expect_null(fit$saved)
  back <- unserialize(serialize(fit, NULL))
  expect_kmx_error(predict(back, d$test_x), "KMX_E_INVALID_ARGUMENT")
})

test_that("predict() without newdata gives the fitted values, as e1071", {
  d <- small_letter()
  fit <- kmx_svm(d$x, d$y, method = "svm", C = 8, gamma = 16)
  expect_identical(predict(fit), predict(fit, d$x))
  expect_error(predict(fit, type = "decision"), "need 'newdata'")
  bare <- kmx_svm(d$x, d$y, method = "svm", C = 8, gamma = 16, fitted = FALSE)
  expect_error(predict(bare), "keeps no fitted values")
  krr <- kmx_krr(d$x, d$y, method = "krr", lambda = 1e-3, gamma = 16)
  expect_identical(predict(krr), predict(krr, d$x))
})

test_that("e1071's and kernlab's kernel names are kmx's kernels", {
  d <- small_letter()
  decision <- function(kernel, ...) {
    predict(kmx_svm(d$x, d$y, method = "svm", C = 1, kernel = kernel, ...), d$test_x, type = "decision")
  }
  rbf <- decision("rbf", gamma = 2)
  expect_identical(decision("radial", gamma = 2), rbf)
  expect_identical(decision("rbfdot", gamma = 2), rbf)
  expect_identical(decision("vanilladot"), decision("linear"))
  expect_false(identical(decision("linear"), rbf))
})

test_that("na.action: na.omit leaves incomplete rows out, na.fail stops, na.pass reaches kmx", {
  d <- small_letter()
  x <- d$x
  y <- d$y
  x[5, 3] <- NA
  y[9] <- NA
  with_na <- kmx_svm(x, y, method = "svm", C = 8, gamma = 16)
  complete <- kmx_svm(d$x[-c(5, 9), ], d$y[-c(5, 9)], method = "svm", C = 8, gamma = 16)
  expect_identical(predict(with_na, d$test_x, type = "decision"),
                   predict(complete, d$test_x, type = "decision"))
  expect_length(predict(with_na), 298L)
  expect_error(kmx_svm(x, y, method = "svm", na.action = na.fail), "missing values")
  expect_error(kmx_svm(x, y, method = "svm", na.action = na.pass), class = "kmx_error")
})

test_that("a formula expands factors as e1071 does and predict() rebuilds the columns", {
  d <- small_letter()
  band <- function(x) factor(cut(x[, 4], c(-Inf, 0.3, 0.6, Inf), labels = c("low", "mid", "high")),
                             levels = c("low", "mid", "high"))
  frame <- function(x, y = NULL) {
    out <- data.frame(a = x[, 1], b = x[, 2], c = x[, 3], band = band(x))
    if (!is.null(y)) out$label <- factor(y)
    out
  }
  train <- frame(d$x, d$y)
  test <- frame(d$test_x)
  fit <- kmx_svm(label ~ ., data = train, method = "svm", C = 8, gamma = 4)
  # The reference: the same columns built by hand, an indicator per level (no intercept, no level dropped).
  by_hand <- function(x) {
    b <- band(x)
    cbind(x[, 1:3], sapply(levels(b), function(level) as.numeric(b == level)))
  }
  manual <- kmx_svm(by_hand(d$x), factor(d$y), method = "svm", C = 8, gamma = 4)
  expect_identical(predict(fit, test, type = "decision"), predict(manual, by_hand(d$test_x), type = "decision"))
  expect_identical(predict(fit), predict(manual))
  # New data with one level only still gets the training's indicator columns.
  one_level <- test[test$band == "high", ]
  expect_identical(predict(fit, one_level), predict(fit, test)[test$band == "high"])
  expect_error(kmx_svm(label ~ ., data = train, y = train$label), "'y' must be NULL")
  # A compact predictor of a formula's model takes data.frames too.
  compact <- kmx_predictor(fit, train, train$label, leaves = 2, landmarks = 8)
  expect_identical(predict(compact, test), predict(compact, by_hand(d$test_x)))
})

test_that("a numeric response trains epsilon-SVR without a method, as e1071; a factor a classifier", {
  set.seed(11)
  x <- matrix(runif(400), 200, 2)
  y <- sin(3 * x[, 1]) + x[, 2]^2
  fit <- kmx_svm(x, y, C = 10, gamma = 4, epsilon = 0.05)
  expect_identical(summary(fit)$method, "svr")
  explicit <- kmx_svm(x, y, method = "svr", C = 10, gamma = 4, epsilon_svr = 0.05)
  expect_identical(predict(fit, x), predict(explicit, x))
  expect_lt(sqrt(mean((predict(fit) - y)^2)), 0.1)
  labels <- factor(ifelse(y > median(y), "high", "low"))
  expect_identical(summary(kmx_svm(x, labels, C = 10, gamma = 4))$method, "dcsvm")
  # Numeric labels still classify when a classification method is named.
  numeric_labels <- ifelse(y > median(y), 1, -1)
  expect_identical(kmx_model_info(kmx_svm(x, numeric_labels, method = "svm", C = 10, gamma = 4), "classes"), 2)
})

test_that("a factor's levels travel in the model file, read back without R's help", {
  d <- small_letter()
  y <- factor(ifelse(d$y > 0, "vowel", "consonant"), levels = c("consonant", "unused", "vowel"))
  fit <- kmx_svm(d$x, y, method = "svm", C = 8, gamma = 16)
  path <- tempfile(fileext = ".kmx")
  on.exit(unlink(path))
  kmx_save_model(fit, path)
  back <- kmx_load_model(path) # no levels given: they come from the file's class names
  expect_identical(back$levels, c("consonant", "vowel"))
  expect_identical(as.character(predict(back, d$test_x)), as.character(predict(fit, d$test_x)))
  expect_identical(as.character(kmx_model_classes(back)), c("consonant", "vowel"))
  # The classes' labels are the factor's codes (1 and 3): the names are matched to them, not to positions.
  expect_identical(C_kmx_model_classes(2, back$ptr), c(1, 3))
  raw <- kmx_model_to_raw(back)
  again <- kmx_model_from_raw(as.vector(raw)) # the bytes alone, no attributes
  expect_identical(predict(again, d$test_x), predict(back, d$test_x))
  # A predictor of the loaded model codes the training labels as the model's classes: the same predictor
  # as one built from the model trained here.
  predictor <- kmx_predictor(back, d$x, as.character(y), leaves = 2, landmarks = 8)
  reference <- kmx_predictor(fit, d$x, y, leaves = 2, landmarks = 8)
  expect_identical(levels(predict(predictor, d$test_x)), c("consonant", "vowel"))
  expect_identical(as.character(predict(predictor, d$test_x)), as.character(predict(reference, d$test_x)))
})

test_that("class names set by another binding (labels 0 and 1) decode by label, and bad names warn", {
  d <- small_letter()
  fit <- kmx_svm(d$x, ifelse(d$y > 0, 1, 0), method = "svm", C = 8, gamma = 16, fitted = FALSE)
  C_kmx_model_set_class_names(fit$ptr, "zero\none")
  back <- kmx_model_from_raw(as.vector(kmx_model_to_raw(fit)))
  expect_identical(back$levels, c("zero", "one"))
  expected <- factor(ifelse(predict(fit, d$test_x) == 1, "one", "zero"), levels = c("zero", "one"))
  expect_identical(predict(back, d$test_x), expected)
  expect_kmx_error(C_kmx_model_set_class_names(fit$ptr, "same\nsame"), "KMX_E_INVALID_ARGUMENT")
  expect_warning(kmx_svm(d$x, factor(ifelse(d$y > 0, "", "b")), method = "svm", C = 8, gamma = 16,
                         fitted = FALSE),
                 "factor levels are not saved with the model")
})
