# dataset.R: kmx_dataset from R data (matrix or data.frame plus labels) or
# from LIBSVM/CSV text.

# Whether x is a sparse matrix of the Matrix package (dgCMatrix, dgRMatrix, ...).
.is_sparse <- function(x) isS4(x) && methods::is(x, "sparseMatrix")

# A numeric matrix from a matrix, data.frame or vector (one row per sample);
# a sparse matrix stays as it is (kmx_dataset keeps it sparse).
.as_numeric_matrix <- function(x, what = "x") {
  if (.is_sparse(x)) return(x)
  if (is.data.frame(x)) {
    if (!all(vapply(x, is.numeric, NA)))
      stop(sprintf("kmx: every column of '%s' must be numeric (a formula, y ~ ., with data = expands factors)",
                   what), call. = FALSE)
    x <- as.matrix(x)
  }
  if (is.null(dim(x))) x <- matrix(x, nrow = 1L)
  if (!is.numeric(x) || length(dim(x)) != 2L)
    stop(sprintf("kmx: '%s' must be a numeric matrix or data.frame", what), call. = FALSE)
  x
}

# The matrix's values in kmx's row-major order (R stores columns): t() is the
# one copy, done here once.
.row_major <- function(x) {
  rows <- t(x)
  storage.mode(rows) <- "double"
  rows
}

# Labels as doubles for kmx, remembering a factor's levels.
.as_labels <- function(y, n) {
  if (is.null(y)) return(list(values = NULL, levels = NULL))
  if (is.character(y)) y <- factor(y)
  if (length(y) != n)
    stop(sprintf("kmx: %d labels given for %d rows", length(y), n), call. = FALSE)
  if (is.factor(y)) return(list(values = as.double(as.integer(y)), levels = levels(y)))
  if (!is.numeric(y)) stop("kmx: labels must be a factor or numeric", call. = FALSE)
  list(values = as.double(y), levels = NULL)
}

.new_dataset <- function(ptr, levels = NULL) .new_handle(ptr, "kmx_dataset", levels = levels)

# A sparse matrix's rows as kmx's CSR arrays: the Matrix package's
# RsparseMatrix holds row pointers p, 0-based columns j (increasing in a row)
# and values x.
.csr_dataset <- function(x, labels) {
  rows <- methods::as(methods::as(methods::as(x, "dMatrix"), "generalMatrix"), "RsparseMatrix")
  C_kmx_dataset_create_csr(NULL, as.double(rows@p), rows@j, rows@x, nrow(rows), ncol(rows), labels$values,
                           .enum("KMX_", "copy", "_kmx_ownership"))
}

kmx_dataset <- function(x, y = NULL, weights = NULL) {
  x <- .as_numeric_matrix(x)
  labels <- .as_labels(y, nrow(x))
  made <- if (.is_sparse(x)) .csr_dataset(x, labels) else
    C_kmx_dataset_create(.row_major(x), nrow(x), ncol(x), labels$values, .enum("KMX_", "copy", "_kmx_ownership"))
  ds <- .new_dataset(made, labels$levels)
  if (!is.null(weights)) kmx_set_weights(ds, weights)
  ds
}

.format <- function(format) {
  .enum("KMX_FORMAT_", match.arg(format, c("auto", "libsvm", "csv")), "_kmx_format")
}

kmx_read <- function(path, format = c("auto", "libsvm", "csv"), ctx = NULL) {
  .new_dataset(C_kmx_dataset_load(.ptr(ctx, "kmx_context", TRUE), path.expand(path),
                                  .format(format)))
}

kmx_read_shard <- function(path, shard, shards, format = c("auto", "libsvm", "csv"), ctx = NULL) {
  .new_dataset(C_kmx_dataset_load_shard(.ptr(ctx, "kmx_context", TRUE), path.expand(path), .format(format),
                                        as.numeric(shard), as.numeric(shards)))
}

kmx_save_dataset <- function(ds, path, precision = c("float64", "float32")) {
  C_kmx_dataset_save(.ptr(ds, "kmx_dataset"), path.expand(path),
                     .enum("KMX_PRECISION_", match.arg(precision), "_kmx_precision"))
  invisible(ds)
}

kmx_parse <- function(text, format = c("auto", "libsvm", "csv"), name = "text", ctx = NULL) {
  .new_dataset(C_kmx_dataset_parse(.ptr(ctx, "kmx_context", TRUE), paste(text, collapse = "\n"),
                                   .format(format), name))
}

kmx_set_weights <- function(ds, weights) {
  C_kmx_dataset_set_weights(.ptr(ds, "kmx_dataset"), as.double(weights))
  invisible(ds)
}

dim.kmx_dataset <- function(x) {
  ptr <- .ptr(x, "kmx_dataset")
  c(C_kmx_dataset_rows(ptr), C_kmx_dataset_cols(ptr))
}

# Rows as 0-based [begin, end) for kmx; `rows` must be consecutive (1:10).
.row_range <- function(rows, n) {
  if (is.null(rows)) return(c(0, n))
  if (!is.numeric(rows) || length(rows) == 0L || any(diff(rows) != 1))
    stop("kmx: rows must be consecutive row numbers, e.g. 1:10", call. = FALSE)
  c(rows[1L] - 1, rows[length(rows)])
}

as.matrix.kmx_dataset <- function(x, rows = NULL, ...) {
  d <- ncol(x)
  range <- .row_range(rows, nrow(x))
  values <- C_kmx_dataset_get_rows((range[2L] - range[1L]) * d, .ptr(x, "kmx_dataset"),
                                   range[1L], range[2L])
  matrix(values, ncol = d, byrow = TRUE)
}

# Labels as stored, or as the factor they stand for: level i is label i, or
# label codes[i] when the levels came from a model file's class names.
.decode_labels <- function(values, levels, codes = NULL) {
  if (is.null(levels)) return(values)
  factor(levels[if (is.null(codes)) values else match(values, codes)], levels = levels)
}

kmx_labels <- function(ds) {
  values <- C_kmx_dataset_get_labels(nrow(ds), .ptr(ds, "kmx_dataset"))
  .decode_labels(values, ds$levels)
}

kmx_classes <- function(ds) {
  ptr <- .ptr(ds, "kmx_dataset")
  count <- C_kmx_dataset_classes(0, ptr)[[1L]]
  classes <- C_kmx_dataset_classes(count, ptr)[[2L]]
  data.frame(label = .decode_labels(classes[[1L]], ds$levels), count = classes[[2L]])
}

kmx_to_dense <- function(ds, ctx = NULL) {
  .new_dataset(C_kmx_dataset_to_dense(.ptr(ctx, "kmx_context", TRUE), .ptr(ds, "kmx_dataset")),
               ds$levels)
}

summary.kmx_dataset <- function(object, ...) {
  ptr <- .ptr(object, "kmx_dataset")
  labelled <- C_kmx_dataset_has_labels(ptr) == 1L
  structure(list(rows = C_kmx_dataset_rows(ptr), cols = C_kmx_dataset_cols(ptr),
                 nnz = C_kmx_dataset_nnz(ptr), sparse = C_kmx_dataset_is_sparse(ptr) == 1L,
                 float32 = C_kmx_dataset_is_float32(ptr) == 1L,
                 labels = labelled, weights = C_kmx_dataset_has_weights(ptr) == 1L,
                 classes = if (labelled) kmx_classes(object)),
            class = "summary.kmx_dataset")
}

print.summary.kmx_dataset <- function(x, ...) {
  cat(sprintf("kmx dataset: %.0f rows x %.0f columns, %s, %.0f stored values\n", x$rows, x$cols,
              if (x$sparse) "sparse" else "dense", x$nnz))
  cat("labels:", x$labels, " weights:", x$weights, "\n")
  if (!is.null(x$classes)) {
    cat("classes:\n")
    print(x$classes, row.names = FALSE)
  }
  invisible(x)
}

print.kmx_dataset <- function(x, ...) {
  cat(sprintf("<kmx_dataset: %.0f x %.0f>\n", nrow(x), ncol(x)))
  invisible(x)
}
