// kmxd_format.h — kmx's binary dataset file (.kmxd): a Dataset's arrays as
// they lie in memory, so that a reader maps the file and uses them in place.
//
// Layout, version 1 (every number little-endian):
//
//   offset  size  field
//        0     8  magic 89 'K' 'M' 'X' 'D' 0D 0A 1A (a byte no text starts with,
//                 then CR LF and ^Z, which text-mode transfers would mangle)
//        8     4  format version (1); a reader refuses a newer one
//       12     4  header bytes (128)
//       16     4  layout: 0 dense rows, 1 CSR
//       20     4  value type of the features: 0 float64, 1 float32
//       24     4  flags: 1 labels present, 2 weights present
//       28     4  chunk bytes c (a power of two, 4 KiB to 1 GiB; writers use 1 MiB)
//       32     8  n rows (>= 1)
//       40     8  d columns (1 to 2^31 - 1)
//       48     8  nnz: n·d when dense, the stored entries when CSR
//       56     8  file bytes (the whole file)
//       64     4  CRC-32 of the checksum table
//       68    56  zero
//      124     4  CRC-32 of bytes [0, 124)
//      128        checksum table: one u32 CRC-32 per chunk of c bytes of each
//                 present array, arrays in the order below
//                 then each present array, starting at a multiple of 64 bytes
//                 (zero padding between), in this order:
//                   labels   float64 × n        (flag 1)
//                   weights  float64 × n        (flag 2; finite, >= 0, not all 0)
//                   row_ptr  int64 × (n+1)      (CSR: 0, non-decreasing, ends at nnz)
//                   col      int32 × nnz        (CSR: increasing in each row, < d)
//                   values   float64|float32 × nnz (dense: row-major n × d)
//                 and the file ends with the last array.
//
// Everything is validated on open: header, sizes (overflow-checked, equal
// to the file's length), each chunk's CRC-32, and the arrays themselves
// (finite labels and values as the text readers demand, CSR structure);
// any fault is KMX_E_FORMAT naming the file and what is wrong. Per-chunk
// checksums let a reader of a row range verify only the chunks it maps.
// Verifying reads every byte once (CRC-32 by slicing-by-8, a few GB/s per
// thread, run on ctx.threads), about as long as paging the file in from a
// warm cache; the structural checks are one more pass.
//
// The file is mapped read-only and private: if another process truncates it
// while mapped, reading the lost pages raises SIGBUS (as for any mmap reader).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace kmx {

class Context;
class Dataset;
class MappedFile;

constexpr uint32_t kKmxdVersion = 1;

// True when `bytes` (of `size`) start with the .kmxd magic.
bool is_kmxd(const void *bytes, size_t size);

// Writes `data` (dense or CSR, labels and weights if it has them) to `path`
// atomically. float32: the values are stored as floats (rounded to nearest;
// a value beyond float range is KMX_E_INVALID_ARGUMENT); otherwise in the
// dataset's own precision.
void write_kmxd_file(const Dataset &data, const char *path, bool float32);

// A Dataset over a mapped .kmxd file (kmx_dataset_load maps the file and
// detects the magic; read_dataset_file in text_reader.h): its arrays point
// into the mapping, which the dataset keeps alive, so no array is copied.
// verify_checksums = false skips the CRC-32s (not the structural checks).
std::unique_ptr<Dataset> open_kmxd_mapping(Context &ctx, std::shared_ptr<const MappedFile> file, const char *path,
                                           bool verify_checksums = true);

// Rows [row_begin, row_end) of the .kmxd file at `path`, for one rank of a
// distributed job: maps only the header, the checksum table and, of each
// array, the chunks holding the range's entries (dense: the rows' values;
// CSR: their row_ptr entries and their col/values), verifies those chunks'
// CRC-32s and validates the range's rows as open_kmxd_file does. The
// returned Dataset has row_end - row_begin rows and the file's d; its arrays
// point into the mappings, except row_ptr, which is copied (rebased to start
// at 0, 8·(rows+1) bytes from ctx's budget). An empty or out-of-range range
// is KMX_E_INVALID_ARGUMENT.
std::unique_ptr<Dataset> open_kmxd_rows(Context &ctx, const char *path, int64_t row_begin, int64_t row_end);

// Shard `shard` of `shards` of the .kmxd file at `path`: rows
// [shard·n/shards, (shard+1)·n/shards), by open_kmxd_rows. A shard without
// rows (more shards than rows) is KMX_E_INVALID_ARGUMENT.
std::unique_ptr<Dataset> open_kmxd_shard(Context &ctx, const char *path, int64_t shard, int64_t shards);
// Whether the file at `path` starts with the .kmxd magic (false if it cannot be read).
bool file_is_kmxd(const char *path);

// The same decoding on bytes already in memory (8-byte aligned; they must
// outlive the dataset, which borrows them), `name` naming them in errors.
std::unique_ptr<Dataset> decode_kmxd(Context &ctx, const unsigned char *bytes, size_t size, const char *name,
                                     bool verify_checksums = true);
// A .kmxd file's bytes in caller memory (any alignment), copied into one
// block from ctx's budget and decoded there (kmx_dataset_parse).
std::unique_ptr<Dataset> copy_kmxd(Context &ctx, const void *bytes, size_t size, const char *name);

}  // namespace kmx
