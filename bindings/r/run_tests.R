# run_tests.R TEST_DIR: the package's testthat suite against the installed
# kmx (R_LIBS points to the library the build installed it into).
tests <- commandArgs(trailingOnly = TRUE)[1L]
library(testthat)
results <- as.data.frame(test_dir(tests, package = "kmx", load_package = "installed",
                                  reporter = "summary", stop_on_failure = TRUE))
cat(sprintf("kmx testthat: %d tests, %d expectations, %d failed, %d skipped\n", nrow(results),
            sum(results$nb), sum(results$failed), sum(results$skipped)))
