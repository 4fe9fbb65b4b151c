# kmx_set_communicator in one process: a failing communicator stops the call
# with KMX_E_IO and its message, NULL restores the single process, bad ranks
# are refused. Two real ranks (Rmpi under mpirun) are bindings/r/mpi_ranks.R.

# Two ranks on one process: the functions give this rank's values back, unless given others.
identity_ranks <- function(rank = 0, size = 2, sum = identity, max = identity) {
  list(rank = rank, size = size, sum = sum, max = max, broadcast = function(bytes, root) bytes)
}

tron <- function(d, ctx) kmx_svm(d$x, d$y, method = "nystrom_tron", gamma = 16, centers = 100, ctx = ctx)

test_that("a communicator whose sum fails stops training with KMX_E_IO; NULL restores one process", {
  d <- letter_bin()
  sums <- 0
  ctx <- kmx_context(seed = 1, communicator = identity_ranks(sum = function(x) {
    sums <<- sums + 1
    stop("no route to rank 1")
  }))
  expect_kmx_error(tron(d, ctx), "KMX_E_IO", "failed in a sum.*error in the communicator's sum: no route to rank 1")
  expect_identical(sums, 1) # not run again during the failing call
  kmx_set_communicator(ctx, identity_ranks(sum = function(x) x[-1]))
  expect_kmx_error(tron(d, ctx), "KMX_E_IO", "sum returned a double of length")
  kmx_set_communicator(ctx, NULL)
  alone <- tron(d, kmx_context(seed = 1))
  expect_identical(predict(tron(d, ctx), d$test_x, type = "decision"), predict(alone, d$test_x, type = "decision"))
  # A collective load agrees through max: it fails alike.
  kmx_set_communicator(ctx, identity_ranks(max = function(x) stop("rank 1 is down")))
  expect_kmx_error(kmx_read_shard(letter_bin_path(), 0, 2, ctx = ctx), "KMX_E_IO",
                   "failed in a maximum.*error in the communicator's max: rank 1 is down")
})

test_that("with one rank the functions are never called", {
  d <- letter_bin()
  calls <- 0
  count <- function(x, ...) {
    calls <<- calls + 1
    x
  }
  ctx <- kmx_context(seed = 1)
  kmx_set_communicator(ctx, list(rank = 0, size = 1, sum = count, max = count, broadcast = count))
  fit <- tron(d, ctx)
  expect_identical(calls, 0)
  expect_identical(predict(fit, d$test_x, type = "decision"),
                   predict(tron(d, kmx_context(seed = 1)), d$test_x, type = "decision"))
})

test_that("a rank outside [0, size) is refused, and so is a list without the functions", {
  ctx <- kmx_context(seed = 1)
  expect_kmx_error(kmx_set_communicator(ctx, identity_ranks(rank = 2, size = 2)), "KMX_E_INVALID_ARGUMENT",
                   "rank must be in \\[0, size\\)")
  expect_kmx_error(kmx_set_communicator(ctx, identity_ranks(rank = -1, size = 2)), "KMX_E_INVALID_ARGUMENT")
  expect_kmx_error(kmx_set_communicator(ctx, identity_ranks(rank = 0, size = 0)), "KMX_E_INVALID_ARGUMENT")
  expect_error(kmx_set_communicator(ctx, list(rank = 0, size = 2, sum = identity)), "list\\(rank, size")
  expect_error(kmx_set_communicator(ctx, identity_ranks(rank = NA_integer_)), "'rank' must be one integer")
  # The context still spans this process alone.
  d <- letter_bin()
  expect_identical(predict(tron(d, ctx), d$test_x, type = "decision"),
                   predict(tron(d, kmx_context(seed = 1)), d$test_x, type = "decision"))
})
