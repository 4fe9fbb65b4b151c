# context.R: kmx_context (threads, seed, memory budget, log and progress
# handlers, cancellation).

kmx_context <- function(..., log = NULL, progress = NULL) {
  ctx <- .new_handle(C_kmx_context_create(), "kmx_context")
  if (...length() > 0L) kmx_set_params(ctx, ...)
  if (!is.null(log)) kmx_on_log(ctx, log)
  if (!is.null(progress)) kmx_on_progress(ctx, progress)
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
