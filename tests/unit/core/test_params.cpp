#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "core/params.h"

namespace {
std::string error_of(const char *text) {
    try {
        kmx::ParamList list(text, kmx::kKernelParams);
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_INVALID_ARGUMENT);
        return e.what();
    }
    return "";
}
}  // namespace

TEST(Params, ParsesKeyValuePairsAndEnumNames) {
    kmx::ParamList list(" kernel=poly gamma=0.25,degree=2 coef0=-1 ", kmx::kKernelParams);
    ASSERT_EQ(list.size(), 4);
    EXPECT_EQ(list.get(KMX_PARAM_KERNEL, -1), KMX_KERNEL_POLYNOMIAL);
    EXPECT_EQ(list.get(KMX_PARAM_GAMMA, -1), 0.25);
    EXPECT_EQ(list.get(KMX_PARAM_DEGREE, -1), 2);
    EXPECT_EQ(list.get(KMX_PARAM_COEF0, 0), -1);
    EXPECT_EQ(list.get(KMX_PARAM_THREADS, 7), 7);
}

// The CLI's spelling of a value name ("dcsvm-early") is the library's too, so
// what `kmx params` lists works in a parameter string.
TEST(Params, EnumNamesTakeTheCliSpellingToo) {
    kmx::ParamList list("method=dcsvm-early loss=squared-hinge", kmx::kSolverParams);
    EXPECT_EQ(list.get(KMX_PARAM_METHOD, -1), KMX_METHOD_DCSVM_EARLY);
    EXPECT_EQ(list.get(KMX_PARAM_LOSS, -1),
              kmx::ParamList("loss=squared_hinge", kmx::kSolverParams).get(KMX_PARAM_LOSS, -1));
    EXPECT_THROW(kmx::ParamList("method=dcsvm-early-", kmx::kSolverParams), kmx::Error);
    EXPECT_THROW(kmx::ParamList("method=dcsvm_early_", kmx::kSolverParams), kmx::Error);
    EXPECT_THROW(kmx::ParamList("method=dcsvm=early", kmx::kSolverParams), kmx::Error);
}

TEST(Params, EmptyAndNullAreEmptyLists) {
    EXPECT_EQ(kmx::ParamList(nullptr, kmx::kKernelParams).size(), 0);
    EXPECT_EQ(kmx::ParamList("  ", kmx::kKernelParams).size(), 0);
}

TEST(Params, ErrorsNameTheParameterAndRange) {
    EXPECT_NE(error_of("gamma=0").find("gamma"), std::string::npos);
    EXPECT_NE(error_of("gamma=0").find("(0, inf)"), std::string::npos);
    EXPECT_NE(error_of("gamma=-1").find("out of range"), std::string::npos);
    EXPECT_NE(error_of("degree=2.5").find("whole numbers"), std::string::npos);
    EXPECT_NE(error_of("degree=0").find("degree"), std::string::npos);
    EXPECT_NE(error_of("kernel=cubic").find("rbf"), std::string::npos);
    EXPECT_NE(error_of("gamma").find("key=value"), std::string::npos);
    EXPECT_NE(error_of("gamma=abc").find("not a decimal number"), std::string::npos);
    EXPECT_NE(error_of("bogus=1").find("unknown parameter 'bogus'"), std::string::npos);
    EXPECT_NE(error_of("threads=2").find("does not apply to a kernel"), std::string::npos);
    EXPECT_NE(error_of("gamma=nan").find("gamma"), std::string::npos);
    EXPECT_NE(error_of("coef0=inf").find("coef0"), std::string::npos);
}

// Values are decimal numbers, as in data files: hexadecimal (integer or
// floating) is refused, a leading '+' and exponents are taken.
TEST(Params, ValuesAreDecimalNumbersOnly) {
    EXPECT_NE(error_of("degree=0x10").find("degree: '0x10' is not a decimal number"), std::string::npos);
    EXPECT_NE(error_of("gamma=0x1p-2").find("not a decimal number"), std::string::npos);
    EXPECT_NE(error_of("gamma=0.5abc").find("not a decimal number"), std::string::npos);
    EXPECT_NE(error_of("gamma=1e999").find("beyond a double's range"), std::string::npos);
    kmx::ParamList list("gamma=+2.5e-1 degree=3", kmx::kKernelParams);
    EXPECT_EQ(list.get(KMX_PARAM_GAMMA, -1), 0.25);
    EXPECT_EQ(list.get(KMX_PARAM_DEGREE, -1), 3);
    try {
        kmx::ParamList threads("threads=0x10", kmx::kContextParams);
        ADD_FAILURE() << "threads=0x10 was accepted";
    } catch (const kmx::Error &e) {
        EXPECT_NE(std::string(e.what()).find("not a decimal number"), std::string::npos) << e.what();
    }
}

// FALKON's validation fraction has one range, [0, 0.5), in the table: the
// parameter check refuses 0.5 as training would.
TEST(Params, ValidationFractionRangeIsHalfOpen) {
    const kmx::ParamSpec &validation = *kmx::find_param(KMX_PARAM_VALIDATION);
    EXPECT_NO_THROW(kmx::check_param(validation, 0.0));
    EXPECT_NO_THROW(kmx::check_param(validation, 0.49));
    EXPECT_THROW(kmx::check_param(validation, 0.5), kmx::Error);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_VALIDATION, 0.5), KMX_E_INVALID_ARGUMENT);
    EXPECT_NE(std::string(kmx_last_error()).find("[0, 0.5)"), std::string::npos) << kmx_last_error();
}

TEST(Params, CheckParamRespectsOpenAndClosedBounds) {
    const kmx::ParamSpec &tol = *kmx::find_param(KMX_PARAM_KMEANS_TOL);
    EXPECT_NO_THROW(kmx::check_param(tol, 0.0));           // closed below
    EXPECT_THROW(kmx::check_param(tol, 1.0), kmx::Error);  // open above
    const kmx::ParamSpec &gamma = *kmx::find_param(KMX_PARAM_GAMMA);
    EXPECT_THROW(kmx::check_param(gamma, 0.0), kmx::Error);
    EXPECT_NO_THROW(kmx::check_param(gamma, 1e-300));
}

TEST(Params, EveryParameterHasAUniqueNameAndFindsItself) {
    const kmx_param all[] = {KMX_PARAM_THREADS,
                             KMX_PARAM_SEED,
                             KMX_PARAM_MEMORY_BUDGET,
                             KMX_PARAM_LOG_LEVEL,
                             KMX_PARAM_KERNEL,
                             KMX_PARAM_GAMMA,
                             KMX_PARAM_COEF0,
                             KMX_PARAM_DEGREE,
                             KMX_PARAM_KMEANS_MAX_ITER,
                             KMX_PARAM_KMEANS_TOL,
                             KMX_PARAM_METHOD,
                             KMX_PARAM_C,
                             KMX_PARAM_EPS,
                             KMX_PARAM_BIAS,
                             KMX_PARAM_SHRINKING,
                             KMX_PARAM_CACHE_SIZE,
                             KMX_PARAM_MULTICLASS,
                             KMX_PARAM_LEVELS,
                             KMX_PARAM_CLUSTERS_PER_LEVEL,
                             KMX_PARAM_EARLY_LEVEL,
                             KMX_PARAM_SAMPLE_SIZE};
    for (kmx_param p : all) {
        const kmx::ParamSpec *spec = kmx::find_param(p);
        ASSERT_NE(spec, nullptr) << int(p);
        EXPECT_EQ(kmx::find_param(spec->name, std::string(spec->name).size()), spec);
        EXPECT_NO_THROW(
            kmx::check_param(*spec, spec->default_value == 0 && p == KMX_PARAM_GAMMA ? 1 : spec->default_value))
            << spec->name;
    }
}
