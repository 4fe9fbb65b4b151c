# Compact predictors: kmx_predictor() from SVM and KRR models.

test_that("a predictor follows its SVM model and keeps factor labels", {
  x <- as.matrix(iris[, 1:4])
  fit <- kmx_svm(x, iris$Species, method = "svm", C = 8, gamma = 0.5)
  p <- kmx_predictor(fit, iris, iris$Species, leaves = 2, landmarks = 8, pseudo = 16)
  expect_s3_class(p, "kmx_predictor")
  predicted <- predict(p, iris) # columns by name, as for models
  expect_s3_class(predicted, "factor")
  expect_identical(levels(predicted), levels(iris$Species))
  expect_gt(mean(predicted == predict(fit, x)), 0.9)
  decision <- predict(p, x, type = "decision")
  expect_identical(dim(decision), c(150L, 3L)) # one-vs-one pairs of three classes
  info <- kmx_predictor_info(p)
  expect_identical(names(info), c("bytes", "leaves", "landmarks", "pseudo", "arena_bytes",
                                  "columns", "classes", "outputs", "float32", "storage",
                                  "validation_accuracy", "validation_us", "landmarks_per_leaf",
                                  "candidates", "probability", "validation_in_sample"))
  expect_true(is.nan(info[["validation_accuracy"]])) # not built to a budget
  expect_true(is.nan(info[["validation_in_sample"]]))
  expect_identical(info[["leaves"]], 2)
  expect_identical(info[["columns"]], 4)
  expect_identical(info[["classes"]], 3)
  expect_identical(info[["outputs"]], 3)
  expect_identical(info[["float32"]], 0)
  expect_identical(info[["storage"]], 0)
  expect_identical(summary(p)$storage, "float64")
  expect_lte(info[["landmarks"]], 16)
  expect_gt(info[["arena_bytes"]], 0)
  s <- summary(p)
  expect_false(s$regression)
  expect_output(print(s), "kmx compact predictor: 3 classes, 4 columns")
  expect_output(print(p), "<kmx_predictor: 2 leaves")
  small <- kmx_predictor(fit, x, iris$Species, leaves = 2, landmarks = 8, pseudo = 16,
                         float32 = TRUE)
  expect_identical(kmx_predictor_info(small, "float32"), 1)
  expect_lt(kmx_predictor_info(small, "bytes"), info[["bytes"]])
  previous <- kmx_predictor_info(small, "bytes")
  for (storage in c("int16", "int8")) {
    q <- kmx_predictor(fit, x, iris$Species, leaves = 2, landmarks = 8, pseudo = 16, storage = storage)
    expect_identical(summary(q)$storage, storage)
    expect_output(print(summary(q)), storage)
    expect_lt(kmx_predictor_info(q, "bytes"), previous)
    previous <- kmx_predictor_info(q, "bytes")
    expect_gt(mean(predict(q, x) == predicted), 0.95)
  }
  expect_error(kmx_predictor(fit, x, iris$Species, storage = "int2"), "should be one of")
  expect_error(kmx_predictor(fit, x, iris$Species, float32 = TRUE, storage = "int8"), "float32=1 means")
})

test_that("a Letter DC-SVM predictor is accurate and far smaller than its model", {
  d <- letter_bin()
  fit <- kmx_svm(d$x, d$y, method = "dcsvm", C = 8, gamma = 16, levels = 2)
  p <- kmx_predictor(fit, d$x, d$y, leaves = 4, landmarks = 16, pseudo = 32)
  accuracy <- mean(predict(p, d$test_x) == d$test_y)
  expect_gt(accuracy, 0.6) # well above chance; the model reaches about 0.95
  expect_lt(kmx_predictor_info(p, "bytes"), length(kmx_model_to_raw(fit)))
  # The search on 300 of the rows, to 3000 bytes (below the 5 KB of that model's own int4 form, so a
  # compact predictor is chosen): seconds, where 2000 rows took minutes.
  rows <- 1:300
  fewer <- kmx_svm(d$x[rows, ], d$y[rows], method = "dcsvm", C = 8, gamma = 16, levels = 2)
  budget <- kmx_predictor(fewer, d$x[rows, ], d$y[rows], max_bytes = 3000)
  info <- kmx_predictor_info(budget)
  expect_lte(info[["bytes"]], 3000)
  expect_gt(info[["validation_accuracy"]], 0.5)
  expect_gt(info[["validation_us"]], 0)
  expect_gte(info[["candidates"]], 1)
  expect_equal(info[["validation_in_sample"]], 0) # a compact predictor, scored on held-out rows
  expect_output(print(summary(budget)), "built to a budget")
  expect_error(kmx_predictor(fit, d$x, d$y, max_bytes = 100), "no predictor of this model is that small")
})

test_that("predictors round-trip through files and raw vectors, and outlive their model", {
  x <- as.matrix(iris[, 1:4])
  fit <- kmx_svm(x, iris$Species, method = "svm", gamma = 0.5)
  p <- kmx_predictor(fit, kmx_dataset(x, iris$Species), leaves = 2)
  predicted <- predict(p, x)
  decision <- predict(p, x, type = "decision")
  path <- tempfile(fileext = ".kmxp")
  on.exit(unlink(path))
  kmx_save_predictor(p, path)
  loaded <- kmx_load_predictor(path, levels = p$levels)
  expect_identical(predict(loaded, x), predicted)
  raw <- kmx_predictor_to_raw(p)
  expect_identical(length(raw), as.integer(file.size(path)))
  expect_identical(length(raw), as.integer(kmx_predictor_info(p, "bytes")))
  again <- kmx_predictor_from_raw(raw)
  expect_identical(predict(again, x), predicted)
  expect_identical(predict(again, x, type = "decision"), decision)
  header <- tempfile(fileext = ".h")
  on.exit(unlink(header), add = TRUE)
  kmx_export_predictor_c(p, header, "iris_predictor")
  text <- paste(readLines(header), collapse = "\n")
  bytes <- kmx_predictor_info(p, "bytes")
  expect_match(text, sprintf("static const unsigned char iris_predictor[%.0f]", bytes), fixed = TRUE)
  expect_match(text, sprintf("#define IRIS_PREDICTOR_LEN %.0f", bytes), fixed = TRUE)
  expect_kmx_error(kmx_export_predictor_c(p, header, "1 bad"), "KMX_E_INVALID_ARGUMENT",
                   "C identifier")
  kmx_free(fit)
  rm(fit)
  invisible(gc())
  expect_identical(predict(p, x), predicted)
})

test_that("a FALKON model's predictor predicts its values", {
  set.seed(3)
  x <- matrix(runif(600), 300, 2)
  y <- sin(3 * x[, 1]) + x[, 2]^2 + 0.25
  fit <- kmx_krr(x, y, method = "falkon", lambda = 1e-6, gamma = 2, centers = 60, iterations = 40)
  p <- kmx_predictor(fit, x, y)
  expect_true(summary(p)$regression)
  expect_identical(kmx_predictor_info(p, "classes"), 0)
  expect_output(print(summary(p)), "kmx compact predictor: regression")
  values <- predict(p, x)
  expect_type(values, "double")
  expect_equal(values, predict(fit, x), tolerance = 1e-6)
})

test_that("bad predictor inputs are kmx errors", {
  x <- as.matrix(iris[, 1:4])
  fit <- kmx_svm(x, iris$Species, method = "svm", gamma = 0.5)
  expect_kmx_error(kmx_predictor(fit, x, iris$Species, leaves = -1), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_predictor(fit, x, iris$Species, float32 = 2), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_predictor(fit, kmx_dataset(x), leaves = 2), "KMX_E_INVALID_ARGUMENT",
                   "labels")
  expect_error(kmx_predictor(fit, x), "needs the training labels")
  p <- kmx_predictor(fit, x, iris$Species, leaves = 2)
  raw <- kmx_predictor_to_raw(p)
  flipped <- raw
  flipped[length(raw) %/% 2] <- xor(flipped[length(raw) %/% 2], as.raw(0x10))
  expect_kmx_error(kmx_predictor_from_raw(flipped), "KMX_E_FORMAT")
  expect_kmx_error(kmx_predictor_from_raw(raw[seq_len(length(raw) %/% 2)]), "KMX_E_FORMAT")
  expect_kmx_error(kmx_load_predictor(tempfile()), "KMX_E_IO")
  expect_kmx_error(predict(p, unname(cbind(x, 1))), "KMX_E_INVALID_ARGUMENT") # one column too many
  expect_error(kmx_predictor_from_raw(1:3), "raw vector")
  expect_error(kmx_predictor_info(p, "size"), "must be one of")
  kmx_free(p)
  expect_kmx_error(predict(p, x), "KMX_E_INVALID_ARGUMENT", "predictor is NULL")
})

test_that("a predictor of a model with probabilities gives them, close to the model's (issue 16)", {
  x <- as.matrix(iris[, 1:4])
  ctx <- kmx_context(seed = 3, threads = 1)
  fit <- kmx_svm(x, iris$Species, method = "svm", C = 8, gamma = 0.5, probability = TRUE, ctx = ctx)
  p <- kmx_predictor(fit, x, iris$Species, leaves = 1, landmarks = 150, ctx = ctx)
  expect_identical(kmx_predictor_info(p, "probability"), 1)
  ours <- predict(p, x, probability = TRUE)
  theirs <- predict(fit, x, probability = TRUE)
  expect_identical(dim(ours), c(150L, 3L))
  expect_identical(colnames(ours), levels(iris$Species))
  expect_equal(rowSums(ours), rep(1, 150), tolerance = 1e-12)
  expect_lt(max(abs(ours - theirs)), 0.02) # a near-exact predictor: one leaf, a landmark per row
  plain <- kmx_predictor(kmx_svm(x, iris$Species, method = "svm", C = 8, gamma = 0.5), x, iris$Species,
                         leaves = 1, landmarks = 20)
  expect_identical(kmx_predictor_info(plain, "probability"), 0)
  expect_error(predict(plain, x, probability = TRUE), "carries no probability estimates")
})
