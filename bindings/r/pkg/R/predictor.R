# predictor.R: kmx_predictor, a compact DC-Pred++ predictor built from a
# trained model: prediction, facts, and saving and loading its blob.

.new_predictor <- function(ptr, levels = NULL, columns = NULL, saved = NULL, codes = NULL) {
  predictor <- .new_handle(ptr, "kmx_predictor", levels = levels, columns = columns, codes = codes)
  .with_bytes(predictor, function() if (is.null(saved)) .predictor_bytes(ptr) else saved)
}

# The labelled training data: a dataset as given, or one made from x (its
# columns picked as for predict()) and y (a factor coded by the model's levels).
.predictor_data <- function(model, x, y) {
  if (inherits(x, "kmx_dataset")) {
    if (!is.null(y)) stop("kmx: a kmx_dataset brings its own labels", call. = FALSE)
    return(x)
  }
  if (is.null(y)) stop("kmx: kmx_predictor() needs the training labels 'y'", call. = FALSE)
  if (!is.null(model$levels)) y <- factor(y, levels = model$levels)
  if (!is.null(model$codes)) y <- model$codes[as.integer(y)] # the labels the model's classes have
  kmx_dataset(.as_numeric_matrix(.model_columns(model, x)), y)
}

kmx_predictor <- function(model, x, y = NULL, leaves = NULL, landmarks = NULL, pseudo = NULL,
                          float32 = NULL, ctx = NULL, storage = NULL, max_bytes = NULL, max_us = NULL) {
  ptr <- .ptr(model, "kmx_model")
  if (!is.null(storage)) storage <- match.arg(storage, .value_names("storage"))
  data <- .predictor_data(model, x, y)
  if (!identical(data, x)) on.exit(kmx_free(data)) # the predictor keeps its own blob
  options <- .given(leaves = leaves, landmarks = landmarks, pseudo = pseudo,
                    float32 = if (!is.null(float32)) as.numeric(float32), storage = storage,
                    max_bytes = max_bytes, max_us = max_us)
  params <- if (length(options)) do.call(.params_string, options)
  predictor <- .new_predictor(C_kmx_predictor_build(.ptr(ctx, "kmx_context", TRUE), ptr,
                                                    .ptr(data, "kmx_dataset"), params),
                              levels = model$levels, columns = model$columns, codes = model$codes)
  predictor$terms <- model$terms # a formula's columns, for predict()
  predictor$xlevels <- model$xlevels
  predictor
}

# What kmx_predictor_info() reports, in kmx_predictor_info_key order.
.predictor_keys <- c("bytes", "leaves", "landmarks", "pseudo", "arena_bytes", "columns", "classes",
                     "outputs", "float32", "storage", "validation_accuracy", "validation_us",
                     "landmarks_per_leaf", "candidates", "probability", "validation_in_sample")

kmx_predictor_info <- function(predictor, key = NULL) {
  ptr <- .ptr(predictor, "kmx_predictor")
  if (is.null(key)) {
    return(vapply(.predictor_keys, function(k) C_kmx_predictor_info(ptr, .predictor_key(k)), 0))
  }
  C_kmx_predictor_info(ptr, .predictor_key(key))
}

.predictor_key <- function(key) {
  if (!is.character(key) || length(key) != 1L || !key %in% .predictor_keys)
    stop(sprintf("kmx: 'key' must be one of %s", paste(.predictor_keys, collapse = ", ")),
         call. = FALSE)
  .enum("KMX_PREDICTOR_", key, "_kmx_predictor_info_key")
}

predict.kmx_predictor <- function(object, newdata, type = c("class", "decision"), ctx = NULL,
                                  probability = FALSE, ...) {
  type <- match.arg(type)
  ptr <- .ptr(object, "kmx_predictor")
  ctx_ptr <- .ptr(ctx, "kmx_context", TRUE)
  data <- .model_data(object, newdata)
  if (!identical(data, newdata)) on.exit(kmx_free(data))
  n <- nrow(data)
  if (isTRUE(probability)) return(.predictor_probabilities(object, ptr, ctx_ptr, data, n))
  if (type == "class") {
    return(.decode_labels(C_kmx_predictor_predict(n, ctx_ptr, ptr, data$ptr), object$levels, object$codes))
  }
  count <- C_kmx_predictor_info(ptr, .predictor_key("outputs"))
  values <- C_kmx_predictor_decision_values(n * count, ctx_ptr, ptr, data$ptr)
  matrix(values, nrow = n, ncol = count, byrow = TRUE)
}

# predict(newdata, probability = TRUE) of a predictor built from a model
# trained with probability = TRUE: n x classes probabilities, the model's
# sigmoids on the predictor's decision values, columns named as the model's.
.predictor_probabilities <- function(predictor, ptr, ctx_ptr, data, n) {
  count <- C_kmx_predictor_info(ptr, .predictor_key("classes"))
  values <- C_kmx_predictor_predict_probability(n * count, ctx_ptr, ptr, data$ptr)
  labels <- .decode_labels(C_kmx_predictor_classes(count, ptr), predictor$levels, predictor$codes)
  matrix(values, nrow = n, ncol = count, byrow = TRUE, dimnames = list(NULL, as.character(labels)))
}

summary.kmx_predictor <- function(object, ...) {
  info <- as.list(kmx_predictor_info(object))
  info$float32 <- info$float32 == 1
  info$storage <- .value_name("storage", info$storage)
  info$regression <- info$classes == 0
  structure(info, class = "summary.kmx_predictor")
}

print.summary.kmx_predictor <- function(x, ...) {
  cat(sprintf("kmx compact predictor: %s, %.0f columns, %.0f outputs per row\n",
              if (x$regression) "regression" else sprintf("%.0f classes", x$classes), x$columns,
              x$outputs))
  cat(sprintf("%.0f leaves, %.0f landmarks, %.0f pseudo-landmarks, %s\n", x$leaves, x$landmarks,
              x$pseudo, x$storage))
  cat(sprintf("blob %.0f bytes, inference arena %.0f bytes\n", x$bytes, x$arena_bytes))
  if (!is.nan(x$validation_accuracy)) {
    # The model itself, when chosen, was trained on the validation rows: its accuracy there is in-sample.
    in_sample <- isTRUE(x$validation_in_sample == 1)
    cat(sprintf("built to a budget: %.0f landmarks per leaf, %s %.2f%%, %.3g us/row there, %.0f candidates\n",
                x$landmarks_per_leaf,
                if (in_sample) "the model itself, in-sample accuracy" else "validation accuracy",
                100 * x$validation_accuracy, x$validation_us, x$candidates))
  }
  invisible(x)
}

print.kmx_predictor <- function(x, ...) {
  info <- kmx_predictor_info(x)
  cat(sprintf("<kmx_predictor: %.0f leaves, %.0f landmarks, %.0f columns, %.0f bytes>\n",
              info[["leaves"]], info[["landmarks"]], info[["columns"]], info[["bytes"]]))
  invisible(x)
}

# ------------------------------------------------------- saving and loading
kmx_save_predictor <- function(predictor, path) {
  C_kmx_predictor_save(.ptr(predictor, "kmx_predictor"), path.expand(path))
  invisible(predictor)
}

# The blob as a C header for kmx_infer programs (name: a C identifier).
kmx_export_predictor_c <- function(predictor, path, name = "kmx_predictor") {
  C_kmx_predictor_export_c(.ptr(predictor, "kmx_predictor"), path.expand(path), name)
  invisible(predictor)
}

kmx_load_predictor <- function(path, levels = NULL, columns = NULL) {
  .new_predictor(C_kmx_predictor_load(path.expand(path)), levels = levels, columns = columns)
}

# The blob as a raw vector: a size query, then the copy. Factor levels and
# column names travel as attributes, as for models.
kmx_predictor_to_raw <- function(predictor) {
  raw <- .predictor_bytes(.ptr(predictor, "kmx_predictor"))
  attr(raw, "kmx_levels") <- predictor$levels
  attr(raw, "kmx_codes") <- predictor$codes
  attr(raw, "kmx_columns") <- predictor$columns
  raw
}

.predictor_bytes <- function(ptr) {
  size <- C_kmx_predictor_save_to_buffer(0, ptr)[[2L]]
  C_kmx_predictor_save_to_buffer(size, ptr)[[1L]]
}

kmx_predictor_from_raw <- function(raw, levels = attr(raw, "kmx_levels"),
                                   columns = attr(raw, "kmx_columns")) {
  if (!is.raw(raw)) stop("kmx: 'raw' must be a raw vector", call. = FALSE)
  .new_predictor(C_kmx_predictor_load_from_buffer(raw), levels = levels, columns = columns, saved = raw,
                 codes = attr(raw, "kmx_codes"))
}
