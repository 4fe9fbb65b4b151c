// blob_to_header — the build step that turns a predictor blob file into a C
// header, with the same code as `kmx export --c` (lib/predict/c_export.cpp).
// Usage: blob_to_header BLOB HEADER NAME
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/error.h"
#include "predict/c_export.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: blob_to_header BLOB HEADER NAME\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "blob_to_header: cannot read %s\n", argv[1]);
        return 1;
    }
    const std::vector<unsigned char> blob((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        const std::string text = kmx::predictor_blob_c_header(blob.data(), blob.size(), argv[3]);
        std::ofstream out(argv[2], std::ios::binary);
        out << text;
        if (!out) throw kmx::Error(KMX_E_IO, "cannot write %s", argv[2]);
    } catch (const kmx::Error &e) {
        std::fprintf(stderr, "blob_to_header: %s\n", e.what());
        return 1;
    }
    return 0;
}
