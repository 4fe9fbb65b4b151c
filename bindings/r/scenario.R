# scenario.R DATA_FILE REGRESSION_FILE OUT_FILE: the shared scenario (tests/scenario/README.md)
# through the R package, written in the README's format with round-trip
# doubles, for check_scenario.py to compare with the C reference.
library(kmx)

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 3L) stop("usage: Rscript scenario.R DATA_FILE REGRESSION_FILE OUT_FILE")

ctx <- kmx_context("threads=1 seed=42")
data <- kmx_read(args[1L], ctx = ctx)
kernel <- kmx_kernel_from_string("kernel=rbf gamma=0.5")
block <- kmx_kernel_block(kernel, data, data, ctx = ctx, a_rows = 1:10, b_rows = 1:8)
dense_block <- kmx_kernel_block(kernel, as.matrix(data, rows = 1:3), as.matrix(data, rows = 4:7),
                                ctx = ctx)
km <- kmx_kmeans(data, 26, ctx = ctx, max_iter = 50)
assigned <- kmx_kmeans_assign(km, data, ctx = ctx)

# Step 6: DC-SVM (26 classes, one-vs-one) on rows 1-2000, tested on rows 2001-2500.
labels <- kmx_labels(data)
rows_of <- function(rows) kmx_dataset(as.matrix(data, rows = rows), labels[rows])
train <- rows_of(1:2000)
test <- rows_of(2001:2500)
solver <- kmx_solver_from_string("method=dcsvm C=8 levels=2 clusters_per_level=4 sample_size=300")
model <- kmx_train(solver, kmx_kernel_from_string("kernel=rbf gamma=16"), train, ctx = ctx)
predictions <- predict(model, test, ctx = ctx)
decision <- predict(model, rows_of(2001:2020), type = "decision", ctx = ctx)
reloaded <- kmx_model_from_raw(kmx_model_to_raw(model)) # size query, then the copy
reloaded_predictions <- predict(reloaded, test, ctx = ctx)

# Step 7: a compact predictor from that model, its outputs, blob size and a blob round trip.
predictor <- kmx_predictor(model, train, leaves = 4, landmarks = 16, pseudo = 32, ctx = ctx)
predictor_predictions <- predict(predictor, test, ctx = ctx)
predictor_decision <- predict(predictor, rows_of(2001:2020), type = "decision", ctx = ctx)
blob <- kmx_predictor_to_raw(predictor) # size query, then the copy
predictor_reloaded <- predict(kmx_predictor_from_raw(blob), test, ctx = ctx)

# Step 8: MEKA over rows 1-1000 with the step-2 kernel.
approx_rows <- rows_of(1:1000)
approx <- kmx_approx(approx_rows, kernel, "meka", rank = 16, clusters = 4, ctx = ctx)
v <- (0:999 %% 7) - 3
approx_summary <- summary(approx)
approx_error <- kmx_approx_relative_error(approx, approx_rows, sample_rows = 1000, ctx = ctx)
approx_matvec <- kmx_approx_matvec(approx, v, ctx = ctx)
approx_solve <- kmx_approx_solve(approx, v, 0.1, ctx = ctx)

# Step 9: FALKON regression on rows 1-80 of the regression file, predictions on rows 81-106.
regression <- kmx_read(args[2L], ctx = ctx)
targets <- kmx_labels(regression)
regression_rows <- function(rows) kmx_dataset(as.matrix(regression, rows = rows), targets[rows])
krr <- kmx_train(kmx_solver_from_string("method=falkon lambda=1e-4 centers=40 iterations=30"),
                 kmx_kernel_from_string("kernel=rbf gamma=1"), regression_rows(1:80), ctx = ctx)
krr_predictions <- predict(krr, regression_rows(81:106), ctx = ctx)

result_line <- function(name, values, format) {
  paste(name, length(values), paste(sprintf(format, values), collapse = " "))
}
lines <- c(
  result_line("kernel_block", as.vector(t(block)), "%.17g"), # row-major, as in C
  result_line("kernel_block_dense", as.vector(t(dense_block)), "%.17g"),
  result_line("kmeans_objective", km$objective, "%.17g"),
  result_line("kmeans_centers", as.vector(t(km$centers)), "%.17g"),
  result_line("kmeans_assignment", km$cluster - 1L, "%d"), # 0-based, as in C
  # Summed left to right in doubles like the C loop (sum() accumulates in long double).
  result_line("assign_sqdist_sum", Reduce(`+`, assigned$sqdist), "%.17g"),
  result_line("model_predictions", predictions, "%.17g"),
  result_line("model_decision_values", as.vector(t(decision)), "%.17g"),
  result_line("model_support_vectors", kmx_model_info(model, "support_vectors"), "%.17g"),
  result_line("model_objective", kmx_model_info(model, "objective"), "%.17g"),
  result_line("model_reloaded_predictions", reloaded_predictions, "%.17g"),
  result_line("predictor_predictions", predictor_predictions, "%.17g"),
  result_line("predictor_decision_values", as.vector(t(predictor_decision)), "%.17g"),
  result_line("predictor_bytes", length(blob), "%.17g"),
  result_line("predictor_reloaded_predictions", predictor_reloaded, "%.17g"),
  result_line("approx_rank", approx_summary$rank, "%.17g"),
  result_line("approx_memory_bytes", approx_summary$memory_bytes, "%.17g"),
  result_line("approx_relative_error", approx_error, "%.17g"),
  result_line("approx_matvec", approx_matvec, "%.17g"),
  result_line("approx_solve", approx_solve, "%.17g"),
  result_line("krr_predictions", krr_predictions, "%.17g"),
  result_line("krr_task", kmx_model_info(krr, "task"), "%.17g"),
  result_line("krr_lambda", kmx_model_info(krr, "lambda"), "%.17g"))
writeLines(lines, args[3L])
