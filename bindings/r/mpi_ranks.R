# mpi_ranks.R LIBSVM_FILE, run by `mpirun -np 2 Rscript mpi_ranks.R ...` (meson
# test r_mpi_ranks): two R processes, each one rank of a communicator over
# Rmpi (sum: MPI reduce to rank 0, then broadcast, so every rank gets the same
# bits; raw vectors broadcast as Rmpi's type 4). Each rank reads its shard of
# the file (kmx_read_shard, collective) and trains Nystrom-TRON on it; its
# model must predict, on every row, exactly what one process's model of all
# the rows predicts. Exits 1 if any rank fails.
suppressMessages(library(Rmpi))
library(kmx)
path <- commandArgs(trailingOnly = TRUE)[1L]
rank <- mpi.comm.rank(0)
size <- mpi.comm.size(0)

sums <- 0
comm <- list(rank = rank, size = size,
  sum = function(x) {
    sums <<- sums + 1
    mpi.bcast(mpi.reduce(x, 2, "sum", 0, 0), 2, 0, 0) # the other ranks' reduce gives zeros: the buffer
  },
  max = function(x) mpi.allreduce(x, 2, "max", 0),
  broadcast = function(bytes, root) mpi.bcast(bytes, 4, root, 0))

ctx <- kmx_context(seed = 1, communicator = comm)
shard <- kmx_read_shard(path, rank, size, ctx = ctx)
solver <- kmx_solver("nystrom_tron", centers = 200, stages = 2)
kernel <- kmx_kernel("rbf", gamma = 16)
fit <- kmx_train(solver, kernel, shard, ctx = ctx)

everything <- kmx_read(path)
alone <- kmx_train(solver, kernel, everything, ctx = kmx_context(seed = 1))
x <- as.matrix(everything)
ours <- predict(fit, x, type = "decision")
reference <- predict(alone, x, type = "decision")

checks <- c("the shard holds some of the rows, not all" = nrow(shard) > 0 && nrow(shard) < nrow(everything),
            "the sums went through Rmpi" = sums > 0,
            "the decision values are one process's, to the bit" = identical(ours, reference))
for (what in names(checks))
  cat(sprintf("rank %d/%d: %s %s\n", rank, size, if (checks[[what]]) "ok:" else "FAILED:", what))
cat(sprintf("rank %d/%d: %d of %d rows, %d sums, max |difference| %g\n", rank, size, nrow(shard),
            nrow(everything), sums, max(abs(ours - reference))))
failed <- mpi.allreduce(as.integer(!all(checks)), 1, "sum", 0)
invisible(mpi.finalize())
quit(save = "no", status = if (failed > 0) 1L else 0L)
