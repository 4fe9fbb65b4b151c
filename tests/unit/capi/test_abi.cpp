// The ABI's fixed points: status codes and names, version, last error,
// the parameter table, NULL handling.
#include <gtest/gtest.h>

#include <cstdlib>
#include <kmx/kmx.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <thread>

TEST(Status, NamesAgreeWithTheEnumForEveryListedCode) {
    int listed = 0;
#define KMX_CHECK_NAME_(name, value)                         \
    EXPECT_STREQ(kmx_status_name(kmx_status(value)), #name); \
    EXPECT_EQ(int(name), value);                             \
    ++listed;
    KMX_STATUS_LIST(KMX_CHECK_NAME_)
#undef KMX_CHECK_NAME_
    EXPECT_EQ(listed, 10);  // KMX_OK .. KMX_E_NUMERICAL
    EXPECT_STREQ(kmx_status_name(KMX_STATUS_FORCE_INT_), "KMX_E_UNKNOWN");
    EXPECT_STREQ(kmx_status_name(kmx_status(15)), "KMX_E_UNKNOWN");
}

TEST(Status, NumericCodesAreFrozen) {
    // Bindings and saved logs depend on these numbers: never change them.
    EXPECT_EQ(KMX_OK, 0);
    EXPECT_EQ(KMX_E_INVALID_ARGUMENT, 1);
    EXPECT_EQ(KMX_E_OUT_OF_MEMORY, 2);
    EXPECT_EQ(KMX_E_IO, 3);
    EXPECT_EQ(KMX_E_FORMAT, 4);
    EXPECT_EQ(KMX_E_NOT_CONVERGED, 5);
    EXPECT_EQ(KMX_E_UNSUPPORTED, 6);
    EXPECT_EQ(KMX_E_CANCELLED, 7);
    EXPECT_EQ(KMX_E_INTERNAL, 8);
    EXPECT_EQ(KMX_E_NUMERICAL, 9);
}

TEST(Version, HeaderMatchesLibrary) {
    EXPECT_STREQ(kmx_version(), KMX_VERSION_STRING);
    EXPECT_EQ(kmx_version_number(), KMX_VERSION_NUMBER);
    char expected[32];
    std::snprintf(expected, sizeof expected, "%d.%d.%d", KMX_VERSION_MAJOR, KMX_VERSION_MINOR, KMX_VERSION_PATCH);
    EXPECT_STREQ(kmx_version(), expected);
}

// The library's version is meson's project() version (the one place it is written).
TEST(Version, LibraryMatchesTheBuildsProjectVersion) {
    const char *project_version = std::getenv("KMX_PROJECT_VERSION");
    ASSERT_NE(project_version, nullptr) << "meson passes KMX_PROJECT_VERSION";
    EXPECT_STREQ(kmx_version(), project_version);
}

TEST(LastError, IsPerThreadAndNamesTheFunction) {
    kmx_clear_error();
    EXPECT_STREQ(kmx_last_error(), "");
    EXPECT_EQ(kmx_context_create(nullptr), KMX_E_INVALID_ARGUMENT);
    const std::string here = kmx_last_error();
    EXPECT_NE(here.find("kmx_context_create"), std::string::npos) << here;
    EXPECT_NE(here.find("out is NULL"), std::string::npos) << here;
    std::string there = "unset";
    std::thread([&] { there = kmx_last_error(); }).join();
    EXPECT_EQ(there, "");
    EXPECT_EQ(kmx_last_error(), here);
}

TEST(LastError, SurvivesSuccessUntilCleared) {
    kmx_kernel *kernel = nullptr;
    EXPECT_EQ(kmx_kernel_create(&kernel, kmx_kernel_type(99)), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kernel, nullptr);
    EXPECT_NE(std::string(kmx_last_error()).find("kernel"), std::string::npos);
    ASSERT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    EXPECT_STRNE(kmx_last_error(), "");
    kmx_clear_error();
    EXPECT_STREQ(kmx_last_error(), "");
    kmx_kernel_free(kernel);
}

TEST(LastError, LongMessagesAreTruncatedNotOverflowed) {
    std::string key(5000, 'x');
    key += "=1";
    kmx_context *ctx = nullptr;
    ASSERT_EQ(kmx_context_create(&ctx), KMX_OK);
    EXPECT_EQ(kmx_context_set_params(ctx, key.c_str()), KMX_E_INVALID_ARGUMENT);
    EXPECT_LT(std::strlen(kmx_last_error()), 1024u);
    kmx_context_free(ctx);
}

TEST(Free, AcceptsNull) {
    kmx_context_free(nullptr);
    kmx_dataset_free(nullptr);
    kmx_kernel_free(nullptr);
    SUCCEED();
}

TEST(Params, BoundsQueryDescribesEachRange) {
    double lower = 0, upper = 0;
    int flags = 0;
    ASSERT_EQ(kmx_param_bounds(&lower, &upper, &flags, KMX_PARAM_GAMMA), KMX_OK);
    EXPECT_EQ(lower, 0);
    EXPECT_TRUE(std::isinf(upper));
    EXPECT_EQ(flags, KMX_BOUND_LOWER_OPEN | KMX_BOUND_UPPER_OPEN);
    ASSERT_EQ(kmx_param_bounds(&lower, &upper, &flags, KMX_PARAM_THREADS), KMX_OK);
    EXPECT_EQ(lower, 0);  // 0: every usable core
    EXPECT_EQ(upper, 1024);
    EXPECT_EQ(flags, KMX_BOUND_INTEGER);
    ASSERT_EQ(kmx_param_bounds(&lower, &upper, &flags, KMX_PARAM_KERNEL), KMX_OK);
    EXPECT_EQ(flags, KMX_BOUND_ENUM);
    EXPECT_EQ(upper, KMX_KERNEL_PRECOMPUTED);  // KMX_KERNEL_CALLBACK comes from kmx_kernel_create_callback only
    EXPECT_EQ(kmx_param_bounds(&lower, &upper, &flags, kmx_param(12345)), KMX_E_INVALID_ARGUMENT);
}

TEST(Params, NamesRoundTripAndAreUnique) {
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
    std::set<std::string> names;
    for (kmx_param p : all) {
        const char *name = kmx_param_name(p);
        ASSERT_STRNE(name, "");
        names.insert(name);
        kmx_param back = kmx_param(0);
        ASSERT_EQ(kmx_param_from_name(&back, name), KMX_OK);
        EXPECT_EQ(back, p);
    }
    EXPECT_EQ(names.size(), sizeof all / sizeof all[0]);
    kmx_param unused;
    EXPECT_EQ(kmx_param_from_name(&unused, "no_such_param"), KMX_E_INVALID_ARGUMENT);
    EXPECT_STREQ(kmx_param_name(kmx_param(12345)), "");
}

// The one parameter table's C face agrees with itself and with the objects:
// every parameter has a name, a description, a default its own bounds allow,
// owners, value names exactly for its enum range, and a new solver or kernel
// starts at the table's defaults.
TEST(Params, TableDescribesEveryParameterOnce) {
    const int64_t count = kmx_param_count();
    ASSERT_GE(count, 38);
    kmx_solver *solver = nullptr;
    kmx_kernel *kernel = nullptr;
    ASSERT_EQ(kmx_solver_create(&solver, KMX_METHOD_DCSVM), KMX_OK);
    ASSERT_EQ(kmx_kernel_create(&kernel, KMX_KERNEL_RBF), KMX_OK);
    std::set<std::string> names;
    for (int64_t i = 0; i < count; ++i) {
        kmx_param p = kmx_param(0);
        ASSERT_EQ(kmx_param_at(&p, i), KMX_OK);
        const std::string name = kmx_param_name(p);
        names.insert(name);
        EXPECT_STRNE(kmx_param_description(p), "") << name;
        double fallback = -7, lower = 0, upper = 0, object_value = -9;
        int flags = 0, used = 0, used_by_some = 0;
        int64_t owners = 0;
        ASSERT_EQ(kmx_param_default(&fallback, p), KMX_OK);
        if (p != KMX_PARAM_GAMMA) {  // gamma 0 = auto
            EXPECT_EQ(kmx_param_check(p, fallback), KMX_OK) << name;
        }
        ASSERT_EQ(kmx_param_bounds(&lower, &upper, &flags, p), KMX_OK);
        ASSERT_EQ(kmx_param_owners(&owners, p), KMX_OK);
        EXPECT_NE(owners, 0) << name;
        for (int m = KMX_METHOD_SVM; m <= KMX_METHOD_ONE_CLASS; ++m) {
            ASSERT_EQ(kmx_param_used_by(&used, p, kmx_method(m)), KMX_OK);
            used_by_some |= used;
        }
        EXPECT_EQ(used_by_some != 0, (owners & KMX_PARAM_OWNER_SOLVER) != 0) << name;
        if (flags & KMX_BOUND_ENUM) {
            for (int v = int(lower); v <= int(upper); ++v) EXPECT_NE(kmx_param_value_name(p, v), nullptr) << name;
            EXPECT_EQ(kmx_param_value_name(p, upper + 1), nullptr) << name;
        } else {
            EXPECT_EQ(kmx_param_value_name(p, 0), nullptr) << name;
        }
        if (owners & KMX_PARAM_OWNER_SOLVER && p != KMX_PARAM_METHOD) {
            ASSERT_EQ(kmx_solver_get_param(&object_value, solver, p), KMX_OK) << name;
            EXPECT_EQ(object_value, fallback) << name;
        }
        if (owners & KMX_PARAM_OWNER_KERNEL) {
            ASSERT_EQ(kmx_kernel_get_param(&object_value, kernel, p), KMX_OK) << name;
            EXPECT_EQ(object_value, fallback) << name;
        }
    }
    EXPECT_EQ(int64_t(names.size()), count);
    kmx_param unused;
    EXPECT_EQ(kmx_param_at(&unused, count), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_at(&unused, -1), KMX_E_INVALID_ARGUMENT);
    kmx_solver_free(solver);
    kmx_kernel_free(kernel);
}

TEST(Params, ValueNamesOwnersAndMethodsAreTheDocumentedOnes) {
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_KERNEL, KMX_KERNEL_RBF), "rbf");
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_METHOD, KMX_METHOD_FALKON), "falkon");
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_METHOD, KMX_METHOD_NYSTROM_TRON), "nystrom_tron");
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_LOSS, KMX_LOSS_LOGISTIC), "logistic");
    EXPECT_STREQ(kmx_param_value_name(KMX_PARAM_MULTICLASS, KMX_MULTICLASS_OVR), "ovr");
    EXPECT_EQ(kmx_param_value_name(KMX_PARAM_KERNEL, 0.5), nullptr);
    EXPECT_EQ(kmx_param_value_name(KMX_PARAM_KERNEL, -1), nullptr);
    int64_t owners = 0;
    ASSERT_EQ(kmx_param_owners(&owners, KMX_PARAM_CENTERS), KMX_OK);
    EXPECT_EQ(owners, KMX_PARAM_OWNER_SOLVER | KMX_PARAM_OWNER_APPROX);
    int used = -1;
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_C, KMX_METHOD_SVM), KMX_OK);
    EXPECT_EQ(used, 1);
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_C, KMX_METHOD_FALKON), KMX_OK);
    EXPECT_EQ(used, 0);
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_CENTERS, KMX_METHOD_FALKON), KMX_OK);
    EXPECT_EQ(used, 1);
    ASSERT_EQ(kmx_param_used_by(&used, KMX_PARAM_THRESHOLD, KMX_METHOD_NYSTROM_KRR), KMX_OK);
    EXPECT_EQ(used, 0);
    EXPECT_EQ(kmx_param_used_by(&used, KMX_PARAM_C, kmx_method(99)), KMX_E_INVALID_ARGUMENT);
    double fallback = 0;
    ASSERT_EQ(kmx_param_default(&fallback, KMX_PARAM_LAMBDA), KMX_OK);
    EXPECT_EQ(fallback, 1e-6);
    EXPECT_EQ(kmx_param_default(nullptr, KMX_PARAM_LAMBDA), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_default(&fallback, kmx_param(12345)), KMX_E_INVALID_ARGUMENT);
}

TEST(Params, CheckNamesTheParameterAndRange) {
    EXPECT_EQ(kmx_param_check(KMX_PARAM_GAMMA, 0.5), KMX_OK);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_GAMMA, 0.0), KMX_E_INVALID_ARGUMENT);
    std::string message = kmx_last_error();
    EXPECT_NE(message.find("gamma"), std::string::npos) << message;
    EXPECT_NE(message.find("(0, inf)"), std::string::npos) << message;
    EXPECT_EQ(kmx_param_check(KMX_PARAM_DEGREE, 0), KMX_E_INVALID_ARGUMENT);
    message = kmx_last_error();
    EXPECT_NE(message.find("degree"), std::string::npos) << message;
    EXPECT_NE(message.find("[1, 100]"), std::string::npos) << message;
    EXPECT_EQ(kmx_param_check(KMX_PARAM_THREADS, 1.5), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_GAMMA, NAN), KMX_E_INVALID_ARGUMENT);
    EXPECT_EQ(kmx_param_check(KMX_PARAM_MEMORY_BUDGET, 100), KMX_E_INVALID_ARGUMENT);
}
