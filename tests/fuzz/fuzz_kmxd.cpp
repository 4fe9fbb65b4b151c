// libFuzzer target: the .kmxd binary dataset decoder (kmx_dataset_parse with
// KMX_FORMAT_KMXD: the bytes are copied to an aligned block and decoded in
// place). Fuzz builds skip the CRC-32s, so mutations reach the structural
// checks behind them. A dataset that decodes must give back every row.
#include <kmx/kmx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    kmx_dataset *dataset = nullptr;
    const char *bytes = reinterpret_cast<const char *>(data);
    if (kmx_dataset_parse(&dataset, nullptr, bytes, int64_t(size), KMX_FORMAT_KMXD, "fuzz") != KMX_OK) return 0;
    int64_t n = 0, d = 0;
    kmx_dataset_rows(&n, dataset);
    kmx_dataset_cols(&d, dataset);
    if (d < (1 << 16)) {  // reads every stored value (rows of a decoded file lie inside its bytes)
        std::vector<double> row(static_cast<size_t>(d));
        for (int64_t r = 0; r < n && r < 4096; ++r) kmx_dataset_get_rows(row.data(), d, dataset, r, r + 1);
    }
    int has_labels = 0;
    kmx_dataset_has_labels(&has_labels, dataset);
    if (has_labels && n < (1 << 20)) {
        std::vector<double> labels(static_cast<size_t>(n));
        kmx_dataset_get_labels(labels.data(), n, dataset);
    }
    kmx_dataset_free(dataset);
    return 0;
}
