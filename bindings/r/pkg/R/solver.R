# solver.R: kmx_solver (a training method and its parameters: C, eps,
# DC-SVM levels, KRR lambda and centers, ...), class weights, and training a
# kmx_model.

# The methods, their parameters and the names of their values come from the
# library's parameter table (.value_names, .params_used_by in base.R).
kmx_solver <- function(method = "dcsvm", ...) {
  method <- match.arg(method, .value_names("method"))
  solver <- .new_handle(C_kmx_solver_create(.enum("KMX_METHOD_", method, "_kmx_method")),
                        "kmx_solver")
  if (...length() > 0L) kmx_set_params(solver, ...)
  solver
}

kmx_solver_from_string <- function(params) {
  .new_handle(C_kmx_solver_create_from_string(params), "kmx_solver")
}

kmx_set_param.kmx_solver <- function(x, param, value) {
  C_kmx_solver_set_param(.ptr(x, "kmx_solver"), .param(param), as.double(value))
  invisible(x)
}

kmx_get_param.kmx_solver <- function(x, param) {
  C_kmx_solver_get_param(.ptr(x, "kmx_solver"), .param(param))
}

kmx_set_params.kmx_solver <- function(x, ...) {
  C_kmx_solver_set_params(.ptr(x, "kmx_solver"), .params_string(...))
  invisible(x)
}

# Multiplies C for the class `label` (a label value as stored in the
# training dataset: for factor labels, the level's number or its name with
# `levels`).
kmx_set_class_weight <- function(solver, label, weight, levels = NULL) {
  ptr <- .ptr(solver, "kmx_solver")
  if (length(label) != length(weight))
    stop(sprintf("kmx: %d labels and %d weights", length(label), length(weight)), call. = FALSE)
  if (!is.null(levels) && (is.character(label) || is.factor(label))) {
    codes <- match(as.character(label), levels)
    if (anyNA(codes))
      stop(sprintf("kmx: no class %s", paste(label[is.na(codes)], collapse = ", ")), call. = FALSE)
    label <- codes
  }
  if (!is.numeric(label)) stop("kmx: class labels must be numeric (or names with levels)",
                               call. = FALSE)
  for (i in seq_along(label)) {
    C_kmx_solver_set_class_weight(ptr, as.double(label[[i]]), as.double(weight[[i]]))
  }
  invisible(solver)
}

# The method and the parameters it uses, enum values by name.
summary.kmx_solver <- function(object, ...) {
  method <- .value_name("method", kmx_get_param(object, "method"))
  params <- .params_used_by(method)
  values <- lapply(stats::setNames(nm = params), function(p) .value_name(p, kmx_get_param(object, p)))
  c(list(method = method), values)
}

print.kmx_solver <- function(x, ...) {
  params <- summary(x)
  values <- vapply(params[-1L], function(v) if (is.character(v)) v else sprintf("%g", v), "")
  cat(sprintf("<kmx_solver: %s %s>\n", params$method,
              paste0(names(values), "=", values, collapse = " ")))
  invisible(x)
}

# Trains a model on a labelled kmx dataset. The model remembers the dataset's
# factor levels (if it was made from a factor).
kmx_train <- function(solver, kernel, data, ctx = NULL) {
  model <- C_kmx_solver_train(.ptr(ctx, "kmx_context", TRUE), .ptr(solver, "kmx_solver"),
                              .ptr(kernel, "kmx_kernel"), .ptr(data, "kmx_dataset"))
  # A model trained with an R kernel function calls it to predict: it keeps it too.
  if (.is_kernel_function(kernel)) C_kmx_r_keep(model, C_kmx_r_kept(.ptr(kernel, "kmx_kernel")))
  .name_classes(model, data$levels)
  .new_model(model, levels = data$levels)
}

# k-fold cross-validation (LIBSVM's svm-train -v K, e1071's cross = K): each
# row predicted by the model trained on the other folds. Classification folds
# are stratified by class; the folds come from the context's seed.
kmx_cross_validate <- function(solver, kernel, data, folds = 5L, ctx = NULL) {
  result <- C_kmx_solver_cross_validate(nrow(data), .ptr(ctx, "kmx_context", TRUE),
                                        .ptr(solver, "kmx_solver"), .ptr(kernel, "kmx_kernel"),
                                        .ptr(data, "kmx_dataset"), as.double(folds))
  .cv_result(result[[1L]], result[[2L]], data, folds)
}

# kmx_cross_validate at each value of one parameter ("C", or "lambda" for
# kernel ridge regression) on the same folds; svm and dcsvm train the values
# in increasing order, each warm started from the previous solution. A list
# of kmx_cv results, one per value.
kmx_cross_validate_path <- function(solver, kernel, data, param = "C", values, folds = 5L, ctx = NULL) {
  n <- nrow(data)
  result <- C_kmx_solver_cross_validate_path(n * length(values), .ptr(ctx, "kmx_context", TRUE),
                                             .ptr(solver, "kmx_solver"), .ptr(kernel, "kmx_kernel"),
                                             .ptr(data, "kmx_dataset"), as.double(folds), .param(param),
                                             as.double(values))
  lapply(seq_along(values), function(v) {
    .cv_result(result[[1L]][(v - 1L) * n + seq_len(n)], result[[2L]], data, folds)
  })
}

# A kmx_cv from one value's predictions and the task the C call reported.
.cv_result <- function(values, task, data, folds) {
  regression <- task == .enum("KMX_TASK_", "regression", "_kmx_task")
  truth <- kmx_labels(data)
  predicted <- .decode_labels(values, data$levels)
  cv <- list(folds = as.integer(folds), predictions = predicted)
  if (regression) {
    cv$tot.MSE <- mean((predicted - truth)^2)
    cv$scorrcoeff <- if (stats::sd(predicted) > 0) stats::cor(predicted, truth)^2 else 0
  } else {
    cv$tot.accuracy <- 100 * mean(as.character(predicted) == as.character(truth))
  }
  structure(cv, class = "kmx_cv")
}

print.kmx_cv <- function(x, ...) {
  if (is.null(x$tot.MSE)) {
    cat(sprintf("<kmx_cv: %d folds, accuracy %.2f%%>\n", x$folds, x$tot.accuracy))
  } else {
    cat(sprintf("<kmx_cv: %d folds, mean squared error %g, squared correlation %g>\n", x$folds,
                x$tot.MSE, x$scorrcoeff))
  }
  invisible(x)
}
