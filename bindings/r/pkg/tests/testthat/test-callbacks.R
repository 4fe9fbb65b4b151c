test_that("the log handler receives the library's messages", {
  messages <- character()
  ctx <- kmx_context(seed = 1, log_level = 3)
  kmx_on_log(ctx, function(level, message) messages <<- c(messages, paste(level, message)))
  kmx_kmeans(blobs()$x, 3, ctx = ctx)
  expect_true(any(grepl("^debug k-means: n = 90, k = 3", messages)))
  kmx_on_log(ctx, NULL)
  count <- length(messages)
  kmx_kmeans(blobs()$x, 3, ctx = ctx)
  expect_length(messages, count)
})

test_that("the progress handler sees progress and can cancel", {
  fractions <- numeric()
  ctx <- kmx_context(seed = 1)
  kmx_on_progress(ctx, function(fraction, phase) {
    fractions <<- c(fractions, fraction)
    FALSE
  })
  kmx_kmeans(blobs()$x, 3, ctx = ctx, tol = 0)
  expect_gt(length(fractions), 0)
  expect_true(all(fractions >= 0 & fractions <= 1))

  kmx_on_progress(ctx, function(fraction, phase) TRUE)
  expect_kmx_error(kmx_kmeans(blobs()$x, 3, ctx = ctx), "KMX_E_CANCELLED", "k-means")

  kmx_on_progress(ctx, function(fraction, phase) {
    kmx_cancel(ctx)
    FALSE
  })
  expect_kmx_error(kmx_kmeans(blobs()$x, 3, ctx = ctx), "KMX_E_CANCELLED")

  kmx_on_progress(ctx, NULL)
  kmx_cancel(ctx) # cleared when the next call starts
  expect_s3_class(kmx_kmeans(blobs()$x, 3, ctx = ctx), "kmx_kmeans")
})

test_that("an error in a handler cancels the call and R carries on", {
  ctx <- kmx_context(progress = function(fraction, phase) stop("handler failed"))
  expect_kmx_error(suppressMessages(kmx_kmeans(blobs()$x, 3, ctx = ctx)), "KMX_E_CANCELLED")
  expect_error(kmx_on_log(ctx, "not a function"), "function or NULL")
})

test_that("handlers are released when replaced and when the context goes", {
  ctx <- kmx_context(log = function(level, message) NULL)
  for (i in 1:3) kmx_on_log(ctx, function(level, message) i)
  kmx_free(ctx)
  with_handlers <- kmx_context(log = function(level, message) NULL,
                               progress = function(fraction, phase) FALSE)
  rm(with_handlers)
  invisible(gc())
  succeed()
})
