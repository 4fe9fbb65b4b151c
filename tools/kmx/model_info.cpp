// kmx info MODEL_FILE — what a model file holds.
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"

namespace kmx_cli {

double model_info(const kmx_model *model, kmx_model_info_key key) {
    double value = 0;
    check(kmx_model_info(&value, model, key));
    return value;
}

namespace {
// The model's class names (kmx_model_class_names: one per line), or none.
std::vector<std::string> class_names(const kmx_model *model) {
    int64_t size = 0;
    check(kmx_model_class_names(nullptr, 0, &size, model));
    std::string joined(static_cast<size_t>(size), '\0');
    check(kmx_model_class_names(joined.data(), size, &size, model));
    joined.pop_back();  // the NUL
    std::vector<std::string> names;
    std::istringstream lines(joined);
    for (std::string line; std::getline(lines, line);) names.push_back(line);
    return names;
}
}  // namespace

int describe_model(const char *path) {
    const Model owned = make<Model>(kmx_model_load, path);
    const kmx_model *model = owned.get();
    const double classes = model_info(model, KMX_INFO_CLASSES);
    std::vector<double> labels(static_cast<size_t>(classes));
    check(kmx_model_classes(labels.data(), int64_t(classes), model));
    std::printf("file      %s (kmx model)\n", path);
    std::printf("method    %s\n", method_name(model_info(model, KMX_INFO_METHOD)).c_str());
    std::printf("columns   %.0f\n", model_info(model, KMX_INFO_COLUMNS));
    if (model_info(model, KMX_INFO_KERNEL) == KMX_KERNEL_PRECOMPUTED)
        std::printf("kernel    precomputed (support vectors stored as serial numbers)\n");
    if (model_info(model, KMX_INFO_TASK) == KMX_TASK_REGRESSION) {
        std::printf("task      regression\n");
    } else {
        const std::vector<std::string> names = class_names(model);
        std::printf("classes   %.0f:", classes);
        for (size_t c = 0; c < labels.size(); ++c)
            std::printf(names.empty()           ? " %g"
                        : c + 1 < labels.size() ? " %g (%s),"
                                                : " %g (%s)",
                        labels[c], names.empty() ? "" : names[c].c_str());
        std::printf("\n");
    }
    const double method = model_info(model, KMX_INFO_METHOD);
    const bool krr = method >= KMX_METHOD_KRR && method <= KMX_METHOD_NYSTROM_TRON;
    if (method == KMX_METHOD_ONE_CLASS)  // one machine: f > 0 is +1
        std::printf("machines  1 (one-class: +1 inlier, -1 outlier)\n");
    else if (model_info(model, KMX_INFO_TASK) != KMX_TASK_REGRESSION)  // a regression model has one output, no scheme
        std::printf("machines  %.0f (%s)\n", model_info(model, KMX_INFO_DECISION_VALUES),
                    krr || model_info(model, KMX_INFO_MULTICLASS) == KMX_MULTICLASS_OVR ? "one-vs-rest" : "one-vs-one");
    std::printf("%s %.0f\n", krr ? "centers  " : "sv       ", model_info(model, KMX_INFO_SUPPORT_VECTORS));
    if (method == KMX_METHOD_NYSTROM_TRON) {
        std::printf("C         %g\n", model_info(model, KMX_INFO_C));
        std::printf("objective %.10g (%.0f Newton iterations)\n", model_info(model, KMX_INFO_OBJECTIVE),
                    model_info(model, KMX_INFO_ITERATIONS));
    } else if (krr) {
        std::printf("lambda    %g\n", model_info(model, KMX_INFO_LAMBDA));
    } else {
        if (method == KMX_METHOD_ONE_CLASS)
            std::printf("nu        %g\n", model_info(model, KMX_INFO_NU));
        else
            std::printf("C         %g\n", model_info(model, KMX_INFO_C));
        std::printf("bias      %s\n", model_info(model, KMX_INFO_BIAS) != 0 ? "yes" : "no");
        if (method != KMX_METHOD_ONE_CLASS && method != KMX_METHOD_SVR)
            std::printf("probability %s\n", model_info(model, KMX_INFO_PROBABILITY) != 0
                                                ? "yes (Platt sigmoids by 5-fold cross-validation: predict -b 1)"
                                                : "no");
        std::printf("objective %.10g (kkt violation %.3g, %.0f iterations)\n", model_info(model, KMX_INFO_OBJECTIVE),
                    model_info(model, KMX_INFO_KKT_VIOLATION), model_info(model, KMX_INFO_ITERATIONS));
    }
    std::printf("trained   in %.3f s\n", model_info(model, KMX_INFO_TRAIN_SECONDS));
    std::printf("memory    %s loaded (file %s)\n", readable_bytes(model_info(model, KMX_INFO_MEMORY_BYTES)).c_str(),
                readable_bytes(double(file_bytes(path))).c_str());
    return 0;
}

}  // namespace kmx_cli
