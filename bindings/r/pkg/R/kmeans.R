# kmeans.R: k-means (k-means++ seeding, Lloyd iterations) and assignment of
# new data to the centers.

# A kmx dataset from a dataset, or from a matrix or data.frame.
.as_dataset <- function(x) if (inherits(x, "kmx_dataset")) x else kmx_dataset(x)

# The result keeps its centers as a plain R matrix, so it does not depend on
# the dataset (or context) it came from.
kmx_kmeans <- function(x, k, ctx = NULL, max_iter = NULL, tol = NULL) {
  data <- .as_dataset(x)
  options <- c(max_iter = max_iter, tol = tol)
  params <- if (length(options)) do.call(.params_string, as.list(options))
  n <- nrow(data)
  d <- ncol(data)
  result <- C_kmx_kmeans(k * d, n, .ptr(ctx, "kmx_context", TRUE), .ptr(data, "kmx_dataset"), k,
                         params)
  centers <- matrix(result[[1L]], nrow = k, ncol = d, byrow = TRUE,
                    dimnames = list(NULL, colnames(x)))
  cluster <- result[[2L]] + 1L
  structure(list(centers = centers, cluster = cluster, objective = result[[3L]], k = k,
                 size = tabulate(cluster, k)),
            class = "kmx_kmeans")
}

# Nearest center of each row of data: cluster (1-based) and squared distance.
kmx_kmeans_assign <- function(centers, data, ctx = NULL) {
  if (inherits(centers, "kmx_kmeans")) centers <- centers$centers
  centers <- .as_numeric_matrix(centers, "centers")
  data <- .as_dataset(data)
  if (ncol(centers) != ncol(data))
    stop(sprintf("kmx: centers have %d columns, data %d", ncol(centers), ncol(data)), call. = FALSE)
  n <- nrow(data)
  result <- C_kmx_kmeans_assign(n, n, .ptr(ctx, "kmx_context", TRUE), .ptr(data, "kmx_dataset"),
                                .row_major(centers), nrow(centers))
  data.frame(cluster = result[[1L]] + 1L, sqdist = result[[2L]])
}

predict.kmx_kmeans <- function(object, newdata, ctx = NULL, ...) {
  kmx_kmeans_assign(object, newdata, ctx = ctx)$cluster
}

summary.kmx_kmeans <- function(object, ...) {
  structure(list(k = object$k, n = length(object$cluster), objective = object$objective,
                 size = object$size),
            class = "summary.kmx_kmeans")
}

print.summary.kmx_kmeans <- function(x, ...) {
  cat(sprintf("k-means: %d clusters of %d rows, objective %.6g\n", as.integer(x$k), x$n,
              x$objective))
  cat("cluster sizes:", x$size, "\n")
  invisible(x)
}

print.kmx_kmeans <- function(x, ...) {
  cat(sprintf("<kmx_kmeans: k = %d, objective %.6g>\n", as.integer(x$k), x$objective))
  print(x$centers, ...)
  invisible(x)
}
