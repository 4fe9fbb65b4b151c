# context.R: kmx_context (threads, seed, memory budget, log and progress
# handlers, the ranks a call spans, cancellation).

kmx_context <- function(..., log = NULL, progress = NULL, communicator = NULL) {
  ctx <- .new_handle(C_kmx_context_create(), "kmx_context")
  if (...length() > 0L) kmx_set_params(ctx, ...)
  if (!is.null(log)) kmx_on_log(ctx, log)
  if (!is.null(progress)) kmx_on_progress(ctx, progress)
  if (!is.null(communicator)) kmx_set_communicator(ctx, communicator)
  ctx
}

kmx_set_param.kmx_context <- function(x, param, value) {
  C_kmx_context_set_param(.ptr(x, "kmx_context"), .param(param), as.double(value))
  invisible(x)
}

kmx_get_param.kmx_context <- function(x, param) {
  C_kmx_context_get_param(.ptr(x, "kmx_context"), .param(param))
}

kmx_set_params.kmx_context <- function(x, ...) {
  C_kmx_context_set_params(.ptr(x, "kmx_context"), .params_string(...))
  invisible(x)
}

# handler(level, message): level is "error", "warning", "info" or "debug".
kmx_on_log <- function(ctx, handler) {
  C_kmx_context_set_log_callback(list(.ptr(ctx, "kmx_context"), handler))
  invisible(ctx)
}

# handler(fraction, phase); returning TRUE cancels the running call.
kmx_on_progress <- function(ctx, handler) {
  C_kmx_context_set_progress_callback(list(.ptr(ctx, "kmx_context"), handler))
  invisible(ctx)
}

# The ranks the calls made with ctx span (kmx_context_set_communicator), as
# list(rank, size, sum, max, broadcast): this process's rank in 0..size-1, and
# sum(x) and max(x), which return the element-wise sum and maximum of x (a
# double vector) over the ranks, the same bits on every rank, and
# broadcast(bytes, root), which returns rank root's raw vector bytes. Every
# rank makes the same kmx calls with the same parameters. NULL: this process
# alone. kmx calls the functions from R's thread; an error in one (or a result
# of another type or length) stops the kmx call with a kmx_error (KMX_E_IO)
# carrying its message.
kmx_set_communicator <- function(ctx, communicator) {
  C_kmx_context_set_communicator(list(.ptr(ctx, "kmx_context"), .communicator(communicator)))
  invisible(ctx)
}

# The list C takes: rank, size, then the functions wrapped so that an error
# becomes its message, returned (C cannot catch an R error).
.communicator <- function(comm) {
  if (is.null(comm)) return(NULL)
  parts <- c("rank", "size", "sum", "max", "broadcast")
  if (!is.list(comm) || !all(parts %in% names(comm)) ||
      !all(vapply(comm[parts[3:5]], is.function, TRUE)))
    stop("kmx: a communicator is NULL or list(rank, size, sum = function(x), max = function(x), ",
         "broadcast = function(bytes, root))", call. = FALSE)
  guard <- function(name, fn) {
    force(fn)
    function(x, ...) {
      tryCatch({
        out <- fn(x, ...)
        if (is.double(x) && is.numeric(out)) out <- as.double(out)
        if (typeof(out) != typeof(x) || length(out) != length(x))
          sprintf("the communicator's %s returned a %s of length %d, not a %s vector of length %d", name,
                  typeof(out), length(out), typeof(x), length(x))
        else out
      }, error = function(e) sprintf("error in the communicator's %s: %s", name, conditionMessage(e)))
    }
  }
  list(rank = comm$rank, size = comm$size, sum = guard("sum", comm$sum), max = guard("max", comm$max),
       broadcast = guard("broadcast", comm$broadcast))
}

kmx_cancel <- function(ctx) {
  C_kmx_context_cancel(.ptr(ctx, "kmx_context"))
  invisible(ctx)
}

kmx_peak_bytes <- function(ctx) C_kmx_context_peak_bytes(.ptr(ctx, "kmx_context"))

.context_params <- c("threads", "seed", "memory_budget", "log_level")

summary.kmx_context <- function(object, ...) {
  values <- vapply(.context_params, function(p) kmx_get_param(object, p), 0)
  c(values, peak_bytes = kmx_peak_bytes(object))
}

print.kmx_context <- function(x, ...) {
  values <- summary(x)
  settings <- paste0(names(values), "=", format(values, scientific = FALSE, trim = TRUE))
  cat("<kmx_context>", settings, "\n")
  invisible(x)
}
