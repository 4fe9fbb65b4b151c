# base.R: helpers shared by the R layer, plus version, status and parameter
# look-ups.
#
# The R layer calls the SWIG wrappers of include/kmx/kmx.h, generated into
# R/swig_kmx.R and src/kmx_wrap_r.c from bindings/kmx.i with
# bindings/r/kmx_lang.i. Each kmx_foo of the C API is C_kmx_foo here. Those
# wrappers check every status (a failure signals a "kmx_error" condition
# carrying $status and the C message) and return the call's outputs: nothing,
# the one output, or a list of several in the C argument order.

# The external pointer inside a kmx handle object; NULL stays NULL.
.ptr <- function(x, class, allow_null = FALSE) {
  if (is.null(x) && allow_null) return(NULL)
  if (!inherits(x, class)) stop(sprintf("kmx: expected a %s object", class), call. = FALSE)
  if (!is.null(x$saved) && .is_nil(x$ptr)) return(.revived(x))
  if (isTRUE(x$kernel_function) && .is_nil(x$ptr))
    stop("kmx: a model trained with an R kernel function has no saved form: it does not survive ",
         "saveRDS() or serialize() (train it again in this session)", call. = FALSE)
  x$ptr
}

# Whether an external pointer points nowhere: R writes every external pointer
# as nil, so a handle read back by readRDS() or unserialize() is one.
.is_nil <- function(ptr) identical(ptr, new("externalptr"))

# A model or predictor read back by readRDS() or unserialize() (its handle nil,
# its saved form in `saved`): the native object made again from those bytes,
# once, kept in the object's `revived` environment. kmx_free() marks it freed
# there, and a freed object stays freed.
.revived <- function(x) {
  state <- x$revived
  if (isTRUE(state$freed)) return(x$ptr)
  if (is.null(state$ptr)) {
    state$ptr <- if (inherits(x, "kmx_model")) C_kmx_model_load_from_buffer(x$saved)
                 else C_kmx_predictor_load_from_buffer(x$saved)
  }
  state$ptr
}

# A model's or predictor's saved form travels with it (so that saveRDS() and
# serialize() keep it) unless options(kmx.keep_bytes = FALSE): it costs as
# much R memory as the saved file's size.
.with_bytes <- function(handle, bytes) {
  handle$revived <- new.env(parent = emptyenv())
  if (isTRUE(getOption("kmx.keep_bytes", TRUE))) handle$saved <- as.vector(bytes())
  handle
}

.new_handle <- function(ptr, class, ...) structure(list(ptr = ptr, ...), class = class)

# An enum value by its C name, from the enumerations SWIG generated.
.enum <- function(prefix, name, enum) {
  enumToInteger(paste0(prefix, toupper(name)), enum)
}

# A parameter given by name ("gamma") or by its kmx_param number.
.param <- function(param) {
  if (is.numeric(param)) return(as.integer(param))
  C_kmx_param_from_name(param)
}

# The named arguments that were given (not NULL): the library's table holds the defaults.
.given <- function(...) Filter(Negate(is.null), list(...))

# The names of an enum parameter's values in value order ("rbf", "laplacian",
# ...), from the library's parameter table.
.value_names <- function(param) {
  p <- .param(param)
  names <- character(0)
  repeat {
    name <- C_kmx_param_value_name(p, as.double(length(names)))
    if (!length(name) || is.na(name)) return(names)
    names <- c(names, name)
  }
}

# The name of an enum parameter's value, or the value itself if it has none.
.value_name <- function(param, value) {
  name <- C_kmx_param_value_name(.param(param), as.double(value))
  if (length(name)) name else value
}

# The names of all parameters, in the table's order.
.param_names <- function() {
  vapply(seq_len(C_kmx_param_count()) - 1L, function(i) C_kmx_param_name(C_kmx_param_at(i)), "")
}

# The solver parameters training with `method` (a name) uses, in table order.
.params_used_by <- function(method) {
  code <- match(method, .value_names("method")) - 1L
  Filter(function(p) p != "method" && C_kmx_param_used_by(.param(p), code) != 0L, .param_names())
}

# The methods that use a solver parameter (the SVMs use "C", the KRR family "lambda").
.methods_using <- function(param) {
  Filter(function(m) param %in% .params_used_by(m), .value_names("method"))
}

# "key=value ..." from one such string or from named values.
.params_string <- function(...) {
  args <- list(...)
  if (length(args) == 1L && is.null(names(args)) && is.character(args[[1L]])) return(args[[1L]])
  if (length(args) == 0L || is.null(names(args)) || any(names(args) == ""))
    stop("kmx: give parameters as name = value, or as one \"key=value ...\" string", call. = FALSE)
  values <- vapply(args, function(value) {
    if (is.character(value)) value else sprintf("%.17g", as.double(value)) # TRUE/FALSE: 1/0
  }, "")
  paste0(names(args), "=", values, collapse = " ")
}

kmx_version <- function() C_kmx_version()

kmx_version_number <- function() C_kmx_version_number()

kmx_status_name <- function(status) C_kmx_status_name(as.integer(status))

kmx_last_error <- function() C_kmx_last_error()

kmx_clear_error <- function() invisible(C_kmx_clear_error())

# What kmx sees of the machine: the cores it may use (a new context's threads),
# the memory available and a new context's budget (bytes; -1 unlimited), the
# BLIS kernel set and why; with gflops = TRUE also a one-thread dgemm
# measurement (0.1-0.5 s).
kmx_system <- function(gflops = FALSE) {
  info <- function(key) C_kmx_system_info(.enum("KMX_SYSTEM_", key, "_kmx_system_key"))
  out <- list(cores = as.integer(info("cores")), memory_available = info("memory_available"),
              memory_budget = info("memory_budget"), kernel_set = C_kmx_system_kernel_set(),
              kernel_set_origin = C_kmx_system_kernel_set_origin())
  if (isTRUE(gflops)) out$dgemm_gflops <- info("dgemm_gflops")
  out
}

kmx_param_from_name <- function(name) C_kmx_param_from_name(name)

kmx_param_name <- function(param) C_kmx_param_name(.param(param))

# Bound flags: KMX_BOUND_* in kmx.h (SWIG does not carry #define constants).
.bound_flags <- c(lower_open = 1L, upper_open = 2L, integer = 4L, enum = 8L)

kmx_param_bounds <- function(param) {
  bounds <- C_kmx_param_bounds(.param(param))
  flags <- as.list(stats::setNames(bitwAnd(bounds[[3L]], .bound_flags) != 0L, names(.bound_flags)))
  c(list(lower = bounds[[1L]], upper = bounds[[2L]]), flags)
}

kmx_param_default <- function(param) C_kmx_param_default(.param(param))

kmx_param_description <- function(param) C_kmx_param_description(.param(param))

# Owner bits: KMX_PARAM_OWNER_* in kmx.h.
.owner_flags <- c(context = 1L, kernel = 2L, kmeans = 4L, solver = 8L, approx = 16L, predictor = 32L)

kmx_param_owners <- function(param) {
  owners <- as.integer(C_kmx_param_owners(.param(param)))
  names(.owner_flags)[bitwAnd(owners, .owner_flags) != 0L]
}

kmx_param_check <- function(param, value) {
  C_kmx_param_check(.param(param), as.double(value))
  invisible(TRUE)
}

# Frees a handle's native object now instead of at garbage collection.
kmx_free <- function(x) {
  if (!inherits(x, c("kmx_context", "kmx_dataset", "kmx_kernel", "kmx_solver", "kmx_model",
                     "kmx_approx", "kmx_predictor")))
    stop(paste("kmx: kmx_free() takes a kmx_context, kmx_dataset, kmx_kernel, kmx_solver,",
               "kmx_model, kmx_approx or kmx_predictor"), call. = FALSE)
  C_kmx_r_free(x$ptr)
  if (is.environment(x$revived)) {
    if (!is.null(x$revived$ptr)) C_kmx_r_free(x$revived$ptr)
    x$revived$freed <- TRUE
  }
  invisible(x)
}

# Parameters of a context, kernel or solver, by name ("seed", "gamma", ...).
kmx_set_param <- function(x, param, value) UseMethod("kmx_set_param")
kmx_get_param <- function(x, param) UseMethod("kmx_get_param")
kmx_set_params <- function(x, ...) UseMethod("kmx_set_params")

# The DLL answers only for its registered routines (every wrapper is one), as
# R CMD check asks (kmx_lang.i).
.onLoad <- function(libname, pkgname) {
  dll <- getLoadedDLLs()[[pkgname]]
  if (!is.null(dll)) invisible(C_kmx_r_symbol_search_off(dll[["path"]]))
}
