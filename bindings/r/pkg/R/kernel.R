# kernel.R: kmx_kernel (Gaussian, Laplacian, polynomial, linear, sigmoid),
# single evaluations and kernel blocks.

kmx_kernel <- function(type = "rbf", ...) {
  type <- match.arg(type, .value_names("kernel"))
  kernel <- .new_handle(C_kmx_kernel_create(.enum("KMX_KERNEL_", type, "_kmx_kernel_type")),
                        "kmx_kernel")
  if (...length() > 0L) kmx_set_params(kernel, ...)
  kernel
}

kmx_kernel_from_string <- function(params) {
  .new_handle(C_kmx_kernel_create_from_string(params), "kmx_kernel")
}

kmx_set_param.kmx_kernel <- function(x, param, value) {
  C_kmx_kernel_set_param(.ptr(x, "kmx_kernel"), .param(param), as.double(value))
  invisible(x)
}

kmx_get_param.kmx_kernel <- function(x, param) {
  C_kmx_kernel_get_param(.ptr(x, "kmx_kernel"), .param(param))
}

kmx_set_params.kmx_kernel <- function(x, ...) {
  C_kmx_kernel_set_params(.ptr(x, "kmx_kernel"), .params_string(...))
  invisible(x)
}

kmx_kernel_eval <- function(kernel, a, b) {
  if (length(a) != length(b))
    stop(sprintf("kmx: vectors of lengths %d and %d", length(a), length(b)), call. = FALSE)
  C_kmx_kernel_eval(.ptr(kernel, "kmx_kernel"), as.double(a), as.double(b), length(a))
}

# K(a_i, b_j) as an nrow(a) x nrow(b) matrix, for numeric matrices or
# data.frames, or for consecutive rows of two kmx datasets.
kmx_kernel_block <- function(kernel, a, b = a, ctx = NULL, a_rows = NULL, b_rows = NULL) {
  kernel_ptr <- .ptr(kernel, "kmx_kernel")
  ctx_ptr <- .ptr(ctx, "kmx_context", TRUE)
  if (inherits(a, "kmx_dataset") || inherits(b, "kmx_dataset")) {
    a_range <- .row_range(a_rows, nrow(a))
    b_range <- .row_range(b_rows, nrow(b))
    na <- a_range[2L] - a_range[1L]
    nb <- b_range[2L] - b_range[1L]
    values <- C_kmx_kernel_block_rows(na * nb, ctx_ptr, kernel_ptr,
                                      .ptr(a, "kmx_dataset"), a_range[1L], a_range[2L],
                                      .ptr(b, "kmx_dataset"), b_range[1L], b_range[2L])
  } else {
    if (!is.null(a_rows) || !is.null(b_rows))
      stop("kmx: a_rows and b_rows select rows of kmx datasets only", call. = FALSE)
    a <- .as_numeric_matrix(a, "a")
    b <- .as_numeric_matrix(b, "b")
    if (ncol(a) != ncol(b))
      stop(sprintf("kmx: a has %d columns, b has %d", ncol(a), ncol(b)), call. = FALSE)
    na <- nrow(a)
    nb <- nrow(b)
    values <- C_kmx_kernel_block(na * nb, ctx_ptr, kernel_ptr, .row_major(a), na,
                                 .row_major(b), nb, ncol(a))
  }
  matrix(values, nrow = na, ncol = nb, byrow = TRUE)
}

# The kernel block of newdata against x (by default newdata itself).
predict.kmx_kernel <- function(object, newdata, x = newdata, ctx = NULL, ...) {
  kmx_kernel_block(object, newdata, x, ctx = ctx)
}

summary.kmx_kernel <- function(object, ...) {
  type <- .value_name("kernel", kmx_get_param(object, "kernel"))
  values <- vapply(c("gamma", "coef0", "degree"), function(p) kmx_get_param(object, p), 0)
  c(list(type = type), as.list(values))
}

print.kmx_kernel <- function(x, ...) {
  params <- summary(x)
  cat(sprintf("<kmx_kernel: %s gamma=%g coef0=%g degree=%g>\n", params$type, params$gamma,
              params$coef0, params$degree))
  invisible(x)
}
