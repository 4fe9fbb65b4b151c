# kernel.R: kmx_kernel (Gaussian, Laplacian, polynomial, linear, sigmoid),
# single evaluations and kernel blocks.

kmx_kernel <- function(type = "rbf", ...) {
  if (is.function(type)) {
    if (...length() > 0L) stop("kmx: a kernel function takes no parameters", call. = FALSE)
    return(kmx_kernel_function(type))
  }
  type <- match.arg(type, .value_names("kernel"))
  kernel <- .new_handle(C_kmx_kernel_create(.enum("KMX_KERNEL_", type, "_kmx_kernel_type")),
                        "kmx_kernel")
  if (...length() > 0L) kmx_set_params(kernel, ...)
  kernel
}

# A kernel computed by an R function (kmx_kernel_create_callback), as
# kernlab's kernel functions and scikit-learn's callable kernels: fn(a, b)
# gets two numeric matrices of rows, a (na x d) and b (nb x d), and returns
# the na x nb matrix of K(a_i, b_j). Only the dual solver's methods (svm, svr,
# one_class) train with it; its models call it to predict and cannot be saved.
# R is single-threaded: every kmx call that may run fn runs with threads = 1
# (the context's own setting is restored afterwards). An error in fn stops
# the kmx call with a kmx_error carrying fn's message.
kmx_kernel_function <- function(fn) {
  if (!is.function(fn))
    stop("kmx: 'fn' must be a function(a, b) returning the kernel matrix", call. = FALSE)
  # What C calls: fn's matrix as doubles, or the message of what went wrong.
  block <- function(a, b) {
    tryCatch({
      k <- fn(a, b)
      if (!is.matrix(k) || !is.numeric(k) || nrow(k) != nrow(a) || ncol(k) != nrow(b)) {
        what <- if (is.matrix(k)) sprintf("a %d x %d %s matrix", nrow(k), ncol(k), typeof(k))
                else sprintf("a %s of length %d", typeof(k), length(k))
        return(sprintf("the R kernel function returned %s, not a %d x %d numeric matrix", what,
                       nrow(a), nrow(b)))
      }
      storage.mode(k) <- "double"
      k
    }, error = function(e) paste("error in the R kernel function:", conditionMessage(e)))
  }
  .new_handle(C_kmx_r_keep(C_kmx_kernel_create_callback(block), block), "kmx_kernel")
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

# Whether a kmx_kernel is an R function (kmx_kernel_function).
.is_kernel_function <- function(kernel) {
  identical(kmx_get_param(kernel, "kernel"), .kernel_type("callback"))
}

.kernel_type <- function(name) as.numeric(.enum("KMX_KERNEL_", name, "_kmx_kernel_type"))

summary.kmx_kernel <- function(object, ...) {
  type <- .value_name("kernel", kmx_get_param(object, "kernel"))
  values <- vapply(c("gamma", "coef0", "degree"), function(p) kmx_get_param(object, p), 0)
  c(list(type = type), as.list(values))
}

print.kmx_kernel <- function(x, ...) {
  if (.is_kernel_function(x)) {
    cat("<kmx_kernel: an R function>\n")
    return(invisible(x))
  }
  params <- summary(x)
  cat(sprintf("<kmx_kernel: %s gamma=%g coef0=%g degree=%g>\n", params$type, params$gamma,
              params$coef0, params$degree))
  invisible(x)
}
