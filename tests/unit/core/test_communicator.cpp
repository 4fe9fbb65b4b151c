#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/communicator.h"
#include "core/error.h"

namespace {

// Rank 0 of two, where rank 1 is simulated: its contributions are fixed values.
struct OtherRank {
    std::vector<double> values;  // what rank 1 adds to a sum or offers to a maximum
    double status = 0;           // what rank 1 broadcasts as its status
    std::string message;         // and as its message
    int broadcasts_from_other = 0;
};

int other_sum(void *user, double *values, int64_t count) {
    auto *other = static_cast<OtherRank *>(user);
    for (int64_t i = 0; i < count; ++i) values[i] += other->values[i];
    return 0;
}

int other_max(void *user, double *values, int64_t count) {
    auto *other = static_cast<OtherRank *>(user);
    for (int64_t i = 0; i < count; ++i) values[i] = std::max(values[i], other->values[i]);
    return 0;
}

int other_broadcast(void *user, void *bytes, int64_t count, int32_t root) {
    auto *other = static_cast<OtherRank *>(user);
    if (root == 0) return 0;
    // kmx broadcasts the failing rank's status (one double), then its message.
    if (other->broadcasts_from_other++ == 0) {
        std::memcpy(bytes, &other->status, sizeof(double));
    } else {
        std::memset(bytes, 0, size_t(count));
        std::memcpy(bytes, other->message.c_str(), other->message.size());
    }
    return 0;
}

int broken_sum(void *, double *, int64_t) { return 17; }

kmx_communicator two_ranks(OtherRank &other) {
    return kmx_communicator{0, 2, &other, other_sum, other_max, other_broadcast};
}

}  // namespace

TEST(Communicator, OneProcessIsTheIdentity) {
    kmx::Communicator alone;
    double values[2] = {1.5, -2};
    alone.sum(values, 2);
    alone.max(values, 2);
    EXPECT_EQ(values[0], 1.5);
    EXPECT_EQ(values[1], -2);
    EXPECT_EQ(alone.size(), 1);
    EXPECT_NO_THROW(alone.agree(KMX_OK, ""));
    EXPECT_THROW(alone.agree(KMX_E_IO, "cannot read shard"), kmx::Error);
}

TEST(Communicator, SumsAndMaximaIncludeTheOtherRanks) {
    OtherRank other{{10, 20, 30}};
    kmx::Communicator comm(two_ranks(other));
    double values[3] = {1, 25, 3};
    comm.sum(values, 3);
    EXPECT_EQ(values[0], 11);
    EXPECT_EQ(values[1], 45);
    comm.max(values, 3);
    EXPECT_EQ(values[0], 11);  // max(11, 10)
    EXPECT_EQ(values[2], 33);  // max(33, 30)
}

TEST(Communicator, EveryRankThrowsTheFailingRanksError) {
    OtherRank other{{2}, double(KMX_E_FORMAT), "shard.libsvm line 7: bad value"};  // size - rank = 2 - 1
    other.values[0] = 1;
    kmx::Communicator comm(two_ranks(other));
    try {
        comm.agree(KMX_OK, "");
        FAIL() << "rank 1's failure was not seen";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_FORMAT);
        EXPECT_EQ(std::string(e.what()), "rank 1: shard.libsvm line 7: bad value");
    }
}

TEST(Communicator, TheLowestFailingRankSpeaks) {
    OtherRank other{{1}, double(KMX_E_FORMAT), "rank 1's message"};  // rank 1 fails too
    kmx::Communicator comm(two_ranks(other));
    try {
        comm.agree(KMX_E_OUT_OF_MEMORY, "shard needs 9 GB");
        FAIL() << "no error";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_OUT_OF_MEMORY);
        EXPECT_EQ(std::string(e.what()), "rank 0: shard needs 9 GB");
    }
}

TEST(Communicator, AllSucceedingRanksGoOn) {
    OtherRank other{{0}};
    kmx::Communicator comm(two_ranks(other));
    EXPECT_NO_THROW(comm.agree(KMX_OK, ""));
}

TEST(Communicator, ATransportFailureIsAnError) {
    OtherRank other{{0}};
    kmx_communicator ops = two_ranks(other);
    ops.allreduce_sum = broken_sum;
    kmx::Communicator comm(ops);
    double value = 1;
    try {
        comm.sum(&value, 1);
        FAIL() << "no error";
    } catch (const kmx::Error &e) {
        EXPECT_EQ(e.status(), KMX_E_IO);
        EXPECT_NE(std::string(e.what()).find("transport error 17"), std::string::npos);
    }
}

TEST(Communicator, BadTablesAreRefused) {
    OtherRank other{{0}};
    kmx_communicator ops = two_ranks(other);
    ops.rank = 2;
    EXPECT_THROW(kmx::Communicator{ops}, kmx::Error);
    ops = two_ranks(other);
    ops.broadcast = nullptr;
    EXPECT_THROW(kmx::Communicator{ops}, kmx::Error);
}
