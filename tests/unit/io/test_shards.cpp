// Shards of a text (parse_dataset_shard): for every shard count, the shards'
// rows in order are the whole text's rows, each line in exactly one shard;
// errors name the text's own line numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/dataset.h"
#include "core/error.h"
#include "io/text_reader.h"
#include "io/text_shard.h"

namespace {

using DatasetPtr = std::unique_ptr<kmx::Dataset>;

struct Rows {
    std::vector<double> labels;
    std::vector<std::vector<double>> values;  // dense, trailing zeros dropped
};

void append(Rows &rows, const kmx::Dataset &ds) {
    std::vector<double> dense(size_t(ds.n * ds.d));
    if (ds.n > 0) ds.copy_rows(0, ds.n, dense.data());
    for (int64_t i = 0; i < ds.n; ++i) {
        rows.labels.push_back(ds.y[i]);
        std::vector<double> row(dense.begin() + i * ds.d, dense.begin() + (i + 1) * ds.d);
        while (!row.empty() && row.back() == 0) row.pop_back();
        rows.values.push_back(row);
    }
}

Rows whole_rows(const std::string &text) {
    kmx::Context ctx;
    ctx.begin_call();
    Rows rows;
    append(rows, *kmx::parse_dataset(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t"));
    return rows;
}

Rows shard_rows(const std::string &text, int64_t shards, int64_t *empty_shards) {
    Rows rows;
    *empty_shards = 0;
    for (int64_t s = 0; s < shards; ++s) {
        kmx::Context ctx;
        ctx.begin_call();
        const DatasetPtr ds = kmx::parse_dataset_shard(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t", s, shards);
        *empty_shards += ds->n == 0;
        append(rows, *ds);
    }
    return rows;
}

void expect_partition(const std::string &text) {
    const Rows whole = whole_rows(text);
    for (int64_t shards : {1, 2, 3, 4, 5, 7, 13, 64, 1000}) {
        int64_t empty = 0;
        const Rows joined = shard_rows(text, shards, &empty);
        EXPECT_EQ(joined.labels, whole.labels) << shards << " shards";
        EXPECT_EQ(joined.values, whole.values) << shards << " shards";
        if (shards > int64_t(text.size())) {
            EXPECT_GT(empty, 0);
        }
    }
}

std::string error_of_shard(const std::string &text, int64_t shard, int64_t shards) {
    try {
        kmx::Context ctx;
        ctx.begin_call();
        kmx::parse_dataset_shard(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t", shard, shards);
    } catch (const kmx::Error &e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(Shards, PartitionLibsvmWithCrlfCommentsAndNoFinalNewline) {
    expect_partition("1 1:0.5 3:2\r\n# comment\r\n-1 2:1\r\n\r\n1 1:3 7:1e-3\n   \n-1 4:4.25\n1 2:-1 5:2");
}

TEST(Shards, PartitionCsvOddSizes) {
    std::string text = "# header comment\n";
    for (int i = 0; i < 37; ++i)
        text += std::to_string(i % 3) + "," + std::to_string(i * 0.37) + ",0," + std::to_string(-i) +
                (i % 4 == 0 ? "\r\n" : "\n");
    expect_partition(text);
    expect_partition(text.substr(0, text.size() - 1));  // no final newline
}

TEST(Shards, SingleLineAndMoreShardsThanLines) {
    expect_partition("2 1:1");
    expect_partition("2 1:1\n3 2:1\n");
}

TEST(Shards, EveryByteOffsetIsCutAtALineStart) {
    const std::string text = "1 1:1\n22 2:2\n333 3:3\n4444 4:4\n";
    for (int64_t shards = 1; shards <= int64_t(text.size()) + 3; ++shards) {
        const char *previous_end = text.data();
        for (int64_t s = 0; s < shards; ++s) {
            const kmx::TextSpan span = kmx::shard_span(text.data(), text.size(), s, shards);
            EXPECT_EQ(span.begin, previous_end);
            EXPECT_TRUE(span.begin == text.data() || span.begin[-1] == '\n');
            EXPECT_EQ(span.lines_before, std::count(text.data(), span.begin, '\n'));
            previous_end = span.end;
        }
        EXPECT_EQ(previous_end, text.data() + text.size());
    }
}

TEST(Shards, LibsvmShardsKnowOnlyTheirOwnColumns) {
    const std::string text = "1 1:1\n2 9:1\n";
    kmx::Context ctx;
    ctx.begin_call();
    EXPECT_EQ(kmx::parse_dataset_shard(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t", 0, 2)->d, 1);
    EXPECT_EQ(kmx::parse_dataset_shard(ctx, text.data(), text.size(), KMX_FORMAT_AUTO, "t", 1, 2)->d, 9);
}

TEST(Shards, ErrorsGiveTheFilesLineNumbers) {
    const std::string text = "1 1:1\n1 1:2\n# c\n1 1:3\n1 1:x\n";
    const std::string last = error_of_shard(text, 1, 2);
    EXPECT_NE(last.find("t:5:"), std::string::npos) << last;
    EXPECT_EQ(error_of_shard(text, 0, 2), "no error");
}

TEST(Shards, BadShardNumbersAreRejected) {
    EXPECT_NE(error_of_shard("1 1:1\n", 2, 2).find("shard 2 of 2"), std::string::npos);
    EXPECT_NE(error_of_shard("1 1:1\n", -1, 2).find("shard -1"), std::string::npos);
    EXPECT_NE(error_of_shard("1 1:1\n", 0, 0).find("shards must be >= 1"), std::string::npos);
}

TEST(Shards, OneFilePerShard) {
    const std::string dir = ::testing::TempDir();
    const std::string pattern = dir + "kmx_shard_%d.libsvm";
    for (int s = 0; s < 2; ++s) {
        std::ofstream(dir + "kmx_shard_" + std::to_string(s) + ".libsvm") << (s ? "2 3:1\n2 1:5\n" : "1 1:1\n");
    }
    kmx::Context ctx;
    ctx.begin_call();
    const DatasetPtr second = kmx::read_dataset_shard(ctx, pattern.c_str(), KMX_FORMAT_AUTO, 1, 2);
    EXPECT_EQ(second->n, 2);
    EXPECT_EQ(second->d, 3);
    EXPECT_EQ(second->y[1], 2);
    try {
        kmx::read_dataset_shard(ctx, (dir + "kmx_%d_%s").c_str(), KMX_FORMAT_AUTO, 0, 2);
        ADD_FAILURE() << "a second '%' was accepted";
    } catch (const kmx::Error &e) {
        EXPECT_NE(std::string(e.what()).find("only one '%d'"), std::string::npos) << e.what();
    }
    for (int s = 0; s < 2; ++s) std::remove((dir + "kmx_shard_" + std::to_string(s) + ".libsvm").c_str());
}
