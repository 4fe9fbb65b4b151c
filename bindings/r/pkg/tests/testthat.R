library(testthat)
library(kmx)

test_check("kmx")
