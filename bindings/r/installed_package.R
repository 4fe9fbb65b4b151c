# installed_package.R LIBRARY: the package installed from the source tarball
# into LIBRARY (test_source_tarball.py) loads, trains from a formula and
# predicts new data.frames; each number is checked against a reference
# computed here in base R. Prints one line per check; stops on a failure.
library <- commandArgs(trailingOnly = TRUE)[1L]
library(kmx, lib.loc = library)
stopifnot(identical(normalizePath(find.package("kmx")), normalizePath(file.path(library, "kmx"))))
ctx <- kmx_context(threads = 1, seed = 1)

# Exact kernel ridge regression from y ~ . with a factor column: kmx's
# predictions against (K + n lambda I)^{-1} y solved by base R, on the
# columns model.matrix makes without an intercept (one indicator per level).
set.seed(11)
frame <- function(n) {
  data.frame(a = runif(n, -1, 1), b = runif(n, -1, 1), group = factor(sample(c("p", "q"), n, TRUE)))
}
train <- frame(80)
train$y <- sin(3 * train$a) + train$b^2 + ifelse(train$group == "q", 0.5, 0)
test <- frame(30)
lambda <- 1e-3
gamma <- 0.7
fit <- kmx_krr(y ~ ., data = train, method = "krr", lambda = lambda, gamma = gamma, ctx = ctx)
predicted <- predict(fit, test, ctx = ctx)
columns <- function(d) cbind(d$a, d$b, d$group == "p", d$group == "q")
gaussian <- function(u, v) exp(-gamma * outer(rowSums(u^2), rowSums(v^2), "+") + 2 * gamma * u %*% t(v))
x <- columns(train)
alpha <- solve(gaussian(x, x) + nrow(x) * lambda * diag(nrow(x)), train$y)
reference <- drop(gaussian(columns(test), x) %*% alpha)
krr_error <- max(abs(predicted - reference))
cat(sprintf("krr from a formula: largest difference from base R's solve %.3g\n", krr_error))
stopifnot(length(predicted) == 30L, krr_error < 1e-8)

# A classifier from a formula: two well-separated groups (centres 8 apart,
# sd 1), so every test point is classified as the group it was drawn from.
blobs <- function(n) {
  label <- factor(rep(c("left", "right"), each = n / 2))
  data.frame(label = label, u = rnorm(n, ifelse(label == "left", -4, 4)), v = rnorm(n))
}
model <- kmx_svm(label ~ ., data = blobs(60), method = "svm", C = 1, gamma = 0.5, ctx = ctx)
unseen <- blobs(40)
classes <- predict(model, unseen[, c("v", "u")], ctx = ctx) # columns found by name
accuracy <- mean(classes == unseen$label)
cat(sprintf("svm from a formula: %d of 40 new rows classified as drawn (accuracy %.3f)\n",
            sum(classes == unseen$label), accuracy))
stopifnot(is.factor(classes), identical(levels(classes), c("left", "right")), accuracy == 1)
