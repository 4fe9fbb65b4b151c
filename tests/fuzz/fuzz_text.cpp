// libFuzzer target: the LIBSVM and CSV text parsers (kmx_dataset_parse) on
// arbitrary bytes; the first byte picks the format. A dataset that parses
// must give back its rows.
#include <kmx/kmx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const kmx_format format = data[0] & 1 ? KMX_FORMAT_CSV : KMX_FORMAT_LIBSVM;
    kmx_dataset *dataset = nullptr;
    const char *text = reinterpret_cast<const char *>(data + 1);
    if (kmx_dataset_parse(&dataset, nullptr, text, int64_t(size - 1), format, "fuzz") != KMX_OK) return 0;
    int64_t n = 0, d = 0;
    kmx_dataset_rows(&n, dataset);
    kmx_dataset_cols(&d, dataset);
    if (n > 0 && d > 0 && d < (1 << 16)) {
        std::vector<double> row(static_cast<size_t>(d));
        kmx_dataset_get_rows(row.data(), d, dataset, n - 1, n);
    }
    kmx_dataset_free(dataset);
    return 0;
}
