# approx.R: kmx_approx, a Nystrom or MEKA approximation of a kernel matrix,
# its products, regularised solves and error.

kmx_approx <- function(x, kernel, method = "nystrom", ..., ctx = NULL) {
  method <- match.arg(method, .value_names("approx"))
  data <- .as_dataset(x)
  if (!identical(data, x)) on.exit(kmx_free(data)) # the approximation keeps its own factors
  params <- .params_string(approx = method, ...)
  ptr <- C_kmx_approx_create(.ptr(ctx, "kmx_context", TRUE), .ptr(kernel, "kmx_kernel"),
                             .ptr(data, "kmx_dataset"), params)
  .new_handle(ptr, "kmx_approx", method = method)
}

# A numeric vector of the approximation's n rows.
.approx_vector <- function(v) {
  if (!is.numeric(v) || !is.null(dim(v)) && min(dim(v)) != 1L)
    stop("kmx: 'v' must be a numeric vector", call. = FALSE)
  as.double(v)
}

kmx_approx_matvec <- function(approx, v, ctx = NULL) {
  ptr <- .ptr(approx, "kmx_approx")
  C_kmx_approx_matvec(C_kmx_approx_rows(ptr), .ptr(ctx, "kmx_context", TRUE), ptr,
                      .approx_vector(v))
}

kmx_approx_solve <- function(approx, v, lambda, ctx = NULL) {
  ptr <- .ptr(approx, "kmx_approx")
  C_kmx_approx_solve(C_kmx_approx_rows(ptr), .ptr(ctx, "kmx_context", TRUE), ptr,
                     as.double(lambda), .approx_vector(v))
}

kmx_approx_relative_error <- function(approx, x, sample_rows = NULL, ctx = NULL) {
  ptr <- .ptr(approx, "kmx_approx")
  if (is.null(sample_rows)) sample_rows <- C_kmx_approx_rows(ptr) # exact
  data <- .as_dataset(x)
  if (!identical(data, x)) on.exit(kmx_free(data))
  C_kmx_approx_relative_error(.ptr(ctx, "kmx_context", TRUE), ptr, .ptr(data, "kmx_dataset"),
                              sample_rows)
}

summary.kmx_approx <- function(object, ...) {
  ptr <- .ptr(object, "kmx_approx")
  structure(list(method = object$method, rows = C_kmx_approx_rows(ptr),
                 rank = C_kmx_approx_rank(ptr), memory_bytes = C_kmx_approx_memory_bytes(ptr)),
            class = "summary.kmx_approx")
}

print.summary.kmx_approx <- function(x, ...) {
  cat(sprintf("kmx kernel approximation: %s, %.0f rows, rank %.0f\n", x$method, x$rows, x$rank))
  cat(sprintf("memory: %.0f bytes (the exact kernel matrix: %.0f)\n", x$memory_bytes,
              8 * x$rows^2))
  invisible(x)
}

print.kmx_approx <- function(x, ...) {
  s <- summary(x)
  cat(sprintf("<kmx_approx: %s, %.0f rows, rank %.0f, %.0f bytes>\n", s$method, s$rows, s$rank,
              s$memory_bytes))
  invisible(x)
}

dim.kmx_approx <- function(x) {
  n <- C_kmx_approx_rows(.ptr(x, "kmx_approx"))
  c(n, n)
}
