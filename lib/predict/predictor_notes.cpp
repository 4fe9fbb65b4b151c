// predictor_notes.cpp — the notes record at a blob's end (predictor_notes.h).
#include "predictor_notes.h"

#include <cstring>

#include "infer/blob_layout.h"
#include "io/byte_codec.h"
#include "io/crc32.h"

namespace kmx {

namespace {

constexpr char kNoteMagic[8] = {'K', 'M', 'X', 'N', 'O', 'T', 'E', '\0'};
// The record: leaves, landmarks, pseudo, storage, validation rows, candidates
// (u64), validation accuracy, validation µs, max bytes, max µs (f64), then
// in_sample (u64; absent in the first layout, kFirstRecordBytes).
constexpr size_t kNoteWords = 11;
constexpr size_t kRecordBytes = 8 * kNoteWords;
constexpr size_t kFirstRecordBytes = kRecordBytes - 8;
constexpr size_t kFooterBytes = 16;

}  // namespace

std::vector<unsigned char> append_predictor_notes(std::vector<unsigned char> blob, const PredictorNotes &notes) {
    ByteWriter out;
    out.raw(blob.data(), blob.size());
    for (int64_t word :
         {notes.leaves, notes.landmarks, notes.pseudo, notes.storage, notes.validation_rows, notes.candidates})
        out.u64(uint64_t(word));
    for (double value : {notes.validation_accuracy, notes.validation_us, notes.max_bytes, notes.max_us}) out.f64(value);
    out.u64(uint64_t(notes.in_sample));
    out.u64(kRecordBytes);
    out.raw(kNoteMagic, sizeof kNoteMagic);
    out.patch_u64(KMX_BLOB_OFF_TOTAL_BYTES, out.size());
    out.patch_u32(KMX_BLOB_OFF_CRC, crc32(out.bytes().data() + KMX_BLOB_CRC_BEGIN, out.size() - KMX_BLOB_CRC_BEGIN));
    return std::move(out.bytes());
}

bool find_predictor_notes(const unsigned char *blob, size_t len, PredictorNotes &notes) {
    if (len < KMX_BLOB_HEADER_BYTES + kFooterBytes) return false;
    if (std::memcmp(blob + len - sizeof kNoteMagic, kNoteMagic, sizeof kNoteMagic) != 0) return false;
    const uint64_t record_bytes = kmx_le_u64(blob + len - kFooterBytes);
    if (record_bytes != kRecordBytes && record_bytes != kFirstRecordBytes) return false;
    if (len < KMX_BLOB_HEADER_BYTES + record_bytes + kFooterBytes) return false;
    ByteReader in(blob + len - kFooterBytes - record_bytes, record_bytes, "predictor notes");
    for (int64_t *word :
         {&notes.leaves, &notes.landmarks, &notes.pseudo, &notes.storage, &notes.validation_rows, &notes.candidates})
        *word = int64_t(in.u64());
    for (double *value : {&notes.validation_accuracy, &notes.validation_us, &notes.max_bytes, &notes.max_us})
        *value = in.f64();
    notes.in_sample = record_bytes == kRecordBytes ? int64_t(in.u64()) : -1;
    return true;
}

}  // namespace kmx
