# model.R: kmx_model (a trained SVM / DC-SVM classifier or SVR, or a kernel ridge
# regression model): the high-level kmx_svm() and kmx_krr(), prediction,
# model facts, and saving and loading (files and raw vectors).

# A model handle; `levels` are the factor levels its labels stand for (NULL
# for numeric labels), `columns` the training column names; `saved` its
# saved form when the caller has it (loaded from a raw vector), else made.
# Without `levels`, the class names the model carries (saved by R, Java, ...)
# are its levels, each standing for its class's label (`codes`).
.new_model <- function(ptr, levels = NULL, columns = NULL, call = NULL, saved = NULL, codes = NULL) {
  if (is.null(levels)) {
    levels <- .class_names(ptr)
    if (!is.null(levels)) codes <- C_kmx_model_classes(length(levels), ptr)
  }
  model <- .new_handle(ptr, "kmx_model", levels = levels, columns = columns, call = call, codes = codes)
  # A model trained with an R kernel function has no saved form: its kernel lives in this session.
  if (identical(C_kmx_model_info(ptr, .info_key("kernel")), .kernel_type("callback"))) {
    model$kernel_function <- TRUE
    return(model)
  }
  .with_bytes(model, function() if (is.null(saved)) .model_bytes(ptr) else saved)
}

# The model's class names (kmx_model_class_names: one per line), or NULL.
.class_names <- function(ptr) {
  size <- C_kmx_model_class_names(0, ptr)[[2L]]
  text <- rawToChar(C_kmx_model_class_names(size, ptr)[[1L]][-size]) # without the NUL
  if (!nzchar(text)) return(NULL)
  names <- strsplit(text, "\n", fixed = TRUE)[[1L]]
  Encoding(names) <- "UTF-8"
  names
}

# Names a freshly trained model's classes after the factor levels their labels
# code, so that the levels travel in its saved form (read by any binding).
.name_classes <- function(ptr, levels) {
  if (is.null(levels)) return(invisible())
  classes <- C_kmx_model_classes(C_kmx_model_info(ptr, .info_key("classes")), ptr)
  names <- enc2utf8(as.character(levels[classes]))
  tryCatch(C_kmx_model_set_class_names(ptr, paste(names, collapse = "\n")),
           error = function(e) warning("kmx: the factor levels are not saved with the model: ",
                                       conditionMessage(e), call. = FALSE))
  invisible()
}

# Kernel type names of e1071 and kernlab, as kmx calls them.
.kernel_aliases <- c(radial = "rbf", rbfdot = "rbf", laplacedot = "laplacian", polydot = "polynomial",
                     vanilladot = "linear", tanhdot = "sigmoid")

# The kernel for kmx_svm: a kmx_kernel as given, an R function(a, b) as
# kmx_kernel_function's, or a new one of that type.
.svm_kernel <- function(kernel, gamma, coef0, degree) {
  params <- c(gamma = gamma, coef0 = coef0, degree = degree)
  if (inherits(kernel, "kmx_kernel") || is.function(kernel)) {
    if (length(params))
      stop("kmx: give gamma, coef0 and degree to kmx_kernel(), not with a kmx_kernel or a function",
           call. = FALSE)
    return(if (is.function(kernel)) kmx_kernel_function(kernel) else kernel)
  }
  if (!is.character(kernel) || length(kernel) != 1L)
    stop("kmx: 'kernel' must be a kernel type name, a function(a, b) or a kmx_kernel", call. = FALSE)
  if (kernel %in% names(.kernel_aliases)) kernel <- .kernel_aliases[[kernel]]
  do.call(kmx_kernel, c(list(kernel), as.list(params)))
}

# The training data of kmx_svm and kmx_krr: a labelled dataset as given, or
# one made (to free once the model is trained) from a formula and a
# data.frame (model.frame and model.matrix, without an intercept column, as
# e1071 does: factors become indicator columns) or from x, y and weights;
# rows with missing values go as `na.action` says. `terms` and `xlevels`
# let predict() build the same columns from new data.
.training_data <- function(x, y, weights, caller, data = NULL, na.action = stats::na.omit,
                           need_labels = TRUE) {
  if (inherits(x, "kmx_dataset")) {
    if (!is.null(y) || !is.null(weights))
      stop("kmx: a kmx_dataset brings its own labels and weights", call. = FALSE)
    return(list(data = x, columns = NULL, made = FALSE))
  }
  terms <- NULL
  xlevels <- NULL
  if (inherits(x, "formula")) {
    if (!is.null(y)) stop("kmx: a formula brings its own response; 'y' must be NULL", call. = FALSE)
    frame <- stats::model.frame(x, data = data, na.action = na.action)
    terms <- attr(frame, "terms")
    attr(terms, "intercept") <- 0L
    xlevels <- stats::.getXlevels(terms, frame)
    y <- stats::model.response(frame)
    if (!is.null(weights)) weights <- .kept_rows(weights, attr(frame, "na.action"))
    x <- stats::model.matrix(terms, frame)
    terms <- stats::delete.response(terms)
  } else {
    unlabelled <- is.null(y) && !need_labels  # one-class: rows alone
    if (is.null(y) && !unlabelled) stop(sprintf("kmx: %s() needs labels 'y'", caller), call. = FALSE)
    x <- .as_numeric_matrix(x)
    kept <- .complete_rows(x, if (unlabelled) numeric(nrow(x)) else y, weights, na.action)
    x <- kept$x
    y <- if (unlabelled) NULL else kept$y
    weights <- kept$weights
  }
  if (is.logical(y)) y <- factor(y)
  list(data = kmx_dataset(x, y, weights), columns = colnames(x), made = TRUE, terms = terms,
       xlevels = xlevels)
}

# x, y and weights with the rows `na.action` drops (na.omit, na.exclude) left
# out; na.fail stops at a missing value, na.pass passes it on (to kmx's error).
.complete_rows <- function(x, y, weights, na.action) {
  if (length(y) != nrow(x))
    stop(sprintf("kmx: %d rows and %d labels", nrow(x), length(y)), call. = FALSE)
  frame <- data.frame(row = seq_len(nrow(x)))
  if (!.is_sparse(x)) frame$x <- x  # a sparse matrix's NA reaches kmx's error instead
  frame$y <- y
  if (!is.null(weights)) frame$weights <- weights
  rows <- na.action(frame)$row
  list(x = x[rows, , drop = FALSE], y = y[rows], weights = weights[rows])
}

.kept_rows <- function(values, omitted) if (is.null(omitted)) values else values[-omitted]

# A trained model with what kmx_svm and kmx_krr add: the training column
# names, the call, the formula's terms, and the predictions on the training
# rows (fitted = TRUE, as e1071 keeps them; one more pass over the data).
.fitted_model <- function(model, training, call, fitted) {
  model$columns <- training$columns
  model$call <- call
  model$terms <- training$terms
  model$xlevels <- training$xlevels
  if (isTRUE(fitted)) model$fitted <- predict(model, training$data)
  model
}

# Without a method, as e1071: a numeric response (no factor levels) trains
# epsilon-SVR, anything else a classifier by DC-SVM. method = "one_class"
# (nu = ...) learns from x alone: y may be NULL (labels are ignored).
kmx_svm <- function(x, y = NULL, method = NULL,
                    kernel = "rbf", C = NULL, gamma = NULL, coef0 = NULL, degree = NULL, epsilon = NULL, ...,
                    class_weights = NULL, weights = NULL, ctx = NULL, data = NULL,
                    na.action = stats::na.omit, fitted = TRUE, cross = 0L) {
  call <- match.call()
  training <- .training_data(x, y, weights, "kmx_svm", data, na.action,
                             need_labels = !identical(method, "one_class"))
  data <- training$data
  if (training$made) on.exit(kmx_free(data)) # the model does not depend on it
  kernel <- .svm_kernel(kernel, gamma, coef0, degree)
  if (is.null(method)) {
    regression <- training$made && is.null(data$levels)
    # DC-SVM clusters feature vectors, which a kernel function does not give: the dual solver alone.
    method <- if (regression) "svr" else if (.is_kernel_function(kernel)) "svm" else "dcsvm"
  }
  method <- match.arg(method, c(.methods_using("C"), .methods_using("nu")))
  solver <- do.call(kmx_solver, c(list(method), .given(C = C, epsilon_svr = epsilon), list(...)))
  if (length(class_weights)) {
    if (is.null(names(class_weights)))
      stop("kmx: 'class_weights' must be named by class", call. = FALSE)
    labels <- names(class_weights)
    if (is.null(data$levels)) labels <- as.numeric(labels)
    kmx_set_class_weight(solver, labels, class_weights, levels = data$levels)
  }
  model <- .fitted_model(kmx_train(solver, kernel, data, ctx = ctx), training, call, fitted)
  .with_cross_validation(model, cross, solver, kernel, data, ctx)
}

# Kernel ridge regression: numeric targets give a regression model (predict()
# returns values); a factor gives a one-vs-rest classifier.
kmx_krr <- function(x, y = NULL, method = "falkon",
                    kernel = "rbf", lambda = NULL, gamma = NULL, coef0 = NULL, degree = NULL, ...,
                    weights = NULL, ctx = NULL, data = NULL, na.action = stats::na.omit, fitted = TRUE,
                    cross = 0L) {
  call <- match.call()
  method <- match.arg(method, .methods_using("lambda"))
  kernel <- .svm_kernel(kernel, gamma, coef0, degree)
  solver <- do.call(kmx_solver, c(list(method), .given(lambda = lambda), list(...)))
  training <- .training_data(x, y, weights, "kmx_krr", data, na.action)
  if (training$made) on.exit(kmx_free(training$data))
  model <- .fitted_model(kmx_train(solver, kernel, training$data, ctx = ctx), training, call, fitted)
  .with_cross_validation(model, cross, solver, kernel, training$data, ctx)
}

# cross = K > 0 (e1071's cross): K-fold cross-validation on the training data
# (kmx_cross_validate) kept as model$cross, with e1071's tot.accuracy, or
# tot.MSE and scorrcoeff for regression, on the model itself.
.with_cross_validation <- function(model, cross, solver, kernel, data, ctx) {
  if (identical(as.numeric(cross), 0)) return(model)
  cv <- kmx_cross_validate(solver, kernel, data, cross, ctx)
  model$cross <- cv
  for (field in c("tot.accuracy", "tot.MSE", "scorrcoeff")) model[[field]] <- cv[[field]]
  model
}

# What kmx_model_info() reports, in kmx_model_info_key order.
.info_keys <- c("method", "classes", "columns", "support_vectors", "decision_values", "objective",
                "kkt_violation", "iterations", "train_seconds", "bias", "multiclass", "task",
                "lambda", "C", "nu", "memory_bytes", "probability", "kernel")

kmx_model_info <- function(model, key = NULL) {
  ptr <- .ptr(model, "kmx_model")
  if (is.null(key)) {
    return(vapply(.info_keys, function(k) C_kmx_model_info(ptr, .info_key(k)), 0))
  }
  C_kmx_model_info(ptr, .info_key(key))
}

.info_key <- function(key) {
  if (!is.character(key) || length(key) != 1L || !key %in% .info_keys)
    stop(sprintf("kmx: 'key' must be one of %s", paste(.info_keys, collapse = ", ")),
         call. = FALSE)
  .enum("KMX_INFO_", key, "_kmx_model_info_key")
}

# (Regression models have none: an empty vector.)
kmx_model_classes <- function(model) {
  count <- kmx_model_info(model, "classes")
  .decode_labels(C_kmx_model_classes(count, .ptr(model, "kmx_model")), model$levels, model$codes)
}

.is_regression <- function(model) {
  kmx_model_info(model, "task") == .enum("KMX_TASK_", "regression", "_kmx_task")
}

# Column names of the decision values: "positive/negative" per binary machine
# (one-vs-one in LIBSVM's order), the class for one-vs-rest, "value" for
# regression.
.decision_names <- function(model) {
  if (.is_regression(model)) return("value")
  classes <- as.character(kmx_model_classes(model))
  count <- kmx_model_info(model, "decision_values")
  n_classes <- length(classes)
  if (n_classes == 2L && count == 1) return(paste(classes[2L], classes[1L], sep = "/"))
  if (kmx_model_info(model, "multiclass") == 1) return(classes) # one-vs-rest
  pairs <- which(upper.tri(diag(n_classes)), arr.ind = TRUE)
  pairs <- pairs[order(pairs[, 1L], pairs[, 2L]), , drop = FALSE]
  paste(classes[pairs[, 1L]], classes[pairs[, 2L]], sep = "/")
}

# The columns a model was trained on, from a matrix or data.frame: a
# formula's terms applied to a data.frame; then the training names picked,
# in order, when the data has them all; otherwise the columns by position.
.model_columns <- function(model, x) {
  if (!is.null(model$terms) && is.data.frame(x)) {  # trained from a formula
    frame <- stats::model.frame(model$terms, x, na.action = stats::na.pass, xlev = model$xlevels)
    x <- stats::model.matrix(model$terms, frame)
  }
  columns <- model$columns
  if (!is.null(columns) && all(nzchar(columns)) && !is.null(colnames(x)) && all(columns %in% colnames(x)))
    x <- x[, columns, drop = FALSE]
  x
}

# newdata as a kmx dataset: given, or made from .model_columns().
.model_data <- function(model, newdata) {
  if (inherits(newdata, "kmx_dataset")) return(newdata)
  kmx_dataset(.as_numeric_matrix(.model_columns(model, newdata), "newdata"))
}

predict.kmx_model <- function(object, newdata, type = c("class", "decision"), probability = FALSE, ctx = NULL,
                              ...) {
  type <- match.arg(type)
  if (missing(newdata)) return(.fitted_values(object, if (isTRUE(probability)) "probability" else type))
  ptr <- .ptr(object, "kmx_model")
  ctx_ptr <- .ptr(ctx, "kmx_context", TRUE)
  data <- .model_data(object, newdata)
  if (!identical(data, newdata)) on.exit(kmx_free(data))
  n <- nrow(data)
  if (isTRUE(probability)) return(.probabilities(object, ptr, ctx_ptr, data, n))
  if (type == "class") {
    return(.decode_labels(C_kmx_model_predict(n, ctx_ptr, ptr, data$ptr), object$levels, object$codes))
  }
  count <- kmx_model_info(object, "decision_values")
  values <- C_kmx_model_decision_values(n * count, ctx_ptr, ptr, data$ptr)
  matrix(values, nrow = n, ncol = count, byrow = TRUE,
         dimnames = list(NULL, .decision_names(object)))
}

# predict(newdata, probability = TRUE): n x classes probabilities (LIBSVM's -b
# 1), a column per class named by its level or label, as e1071's.
.probabilities <- function(model, ptr, ctx_ptr, data, n) {
  count <- kmx_model_info(model, "classes")
  values <- C_kmx_model_predict_probability(n * count, ctx_ptr, ptr, data$ptr)
  matrix(values, nrow = n, ncol = count, byrow = TRUE,
         dimnames = list(NULL, as.character(kmx_model_classes(model))))
}

# predict(model) without newdata: the predictions on the training rows.
.fitted_values <- function(model, type) {
  if (type == "probability") stop("kmx: probabilities need 'newdata'", call. = FALSE)
  if (type != "class") stop("kmx: decision values need 'newdata'", call. = FALSE)
  if (is.null(model$fitted))
    stop("kmx: this model keeps no fitted values (made with fitted = FALSE, by kmx_train or loaded); give 'newdata'",
         call. = FALSE)
  model$fitted
}

summary.kmx_model <- function(object, ...) {
  info <- as.list(kmx_model_info(object))
  info$method <- .value_name("method", info$method)
  info$multiclass <- .value_name("multiclass", info$multiclass)
  info$task <- .value_name("task", info$task)
  info$bias <- info$bias == 1
  info$classes <- kmx_model_classes(object)
  info$cross <- object$cross
  structure(info, class = "summary.kmx_model")
}

print.summary.kmx_model <- function(x, ...) {
  if (identical(x$task, "regression")) {
    cat(sprintf("kmx model: %s regression, %.0f columns, %.0f centers\n", x$method, x$columns,
                x$support_vectors))
    cat(sprintf("lambda %.6g, %.0f iterations, %.3f s\n", x$lambda, x$iterations, x$train_seconds))
    if (!is.null(x$cross)) print(x$cross)
    return(invisible(x))
  }
  n_classes <- length(x$classes)
  cat(sprintf("kmx model: %s, %d classes%s, %.0f columns, %.0f support vectors\n", x$method,
              n_classes, if (n_classes > 2L) paste0(" (", x$multiclass, ")") else "", x$columns,
              x$support_vectors))
  cat("classes:", as.character(x$classes), "\n")
  cat(sprintf("dual objective %.6g, KKT violation %.3g, %.0f iterations, %.3f s, bias %s\n",
              x$objective, x$kkt_violation, x$iterations, x$train_seconds,
              if (x$bias) "yes" else "no"))
  if (!is.null(x$cross)) print(x$cross)
  invisible(x)
}

print.kmx_model <- function(x, ...) {
  info <- kmx_model_info(x)
  what <- if (.is_regression(x)) "regression" else sprintf("%.0f classes", info[["classes"]])
  cat(sprintf("<kmx_model: %s, %s, %.0f columns, %.0f support vectors>\n",
              .value_name("method", info[["method"]]), what, info[["columns"]], info[["support_vectors"]]))
  invisible(x)
}

# -------------------------------------------------------- saving and loading
kmx_save_model <- function(model, path) {
  C_kmx_model_save(.ptr(model, "kmx_model"), path.expand(path))
  invisible(model)
}

kmx_load_model <- function(path, levels = NULL, columns = NULL) {
  .new_model(C_kmx_model_load(path.expand(path)), levels = levels, columns = columns)
}

# The saved form as a raw vector: a size query, then the copy. R-side facts
# (factor levels, column names) travel as attributes.
kmx_model_to_raw <- function(model) {
  raw <- .model_bytes(.ptr(model, "kmx_model"))
  attr(raw, "kmx_levels") <- model$levels
  attr(raw, "kmx_codes") <- model$codes
  attr(raw, "kmx_columns") <- model$columns
  raw
}

.model_bytes <- function(ptr) {
  size <- C_kmx_model_save_to_buffer(0, ptr)[[2L]]
  saved <- C_kmx_model_save_to_buffer(size, ptr)
  if (saved[[2L]] != size) stop("kmx: the model's saved size changed", call. = FALSE)
  saved[[1L]]
}

kmx_model_from_raw <- function(raw, levels = attr(raw, "kmx_levels"),
                               columns = attr(raw, "kmx_columns")) {
  if (!is.raw(raw)) stop("kmx: 'raw' must be a raw vector", call. = FALSE)
  .new_model(C_kmx_model_load_from_buffer(raw), levels = levels, columns = columns, saved = raw,
             codes = attr(raw, "kmx_codes"))
}
