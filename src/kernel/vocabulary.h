// A game's own vocabulary of names ("clear", "rough", "city", "river"...) interned to
// small ints, so per-hex data is a number or a bitset and lookups never compare strings.
// Each data file declares its vocabulary, so every game has its own words.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/json_data.h"

namespace steppe {

// Bitset of ids of one vocabulary (a feature vocabulary holds at most 64 names).
using FeatureBits = uint64_t;
constexpr FeatureBits feature_bit(int f) { return f < 0 ? 0 : FeatureBits{1} << f; }

class Vocabulary {
 public:
  // Adds `name` (if new) and returns its id.
  int intern(std::string_view name) {
    const int id = find(name);
    if (id >= 0) return id;
    names_.emplace_back(name);
    return static_cast<int>(names_.size()) - 1;
  }
  // Id of `name`, or -1 if it is not in the vocabulary.
  int find(std::string_view name) const {
    for (size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == name) return static_cast<int>(i);
    return -1;
  }
  const std::string& name(int id) const { return names_[id]; }
  int size() const { return static_cast<int>(names_.size()); }
  const std::vector<std::string>& names() const { return names_; }
  // "clear, rough, marsh": for error messages listing what is allowed.
  std::string list() const {
    std::string s;
    for (const auto& n : names_) s += (s.empty() ? "" : ", ") + n;
    return s;
  }
  // Names of the bits set in `bits` (ids < 64), in id order.
  std::vector<std::string> names_of(uint64_t bits) const {
    std::vector<std::string> out;
    for (int i = 0; i < size() && i < 64; ++i)
      if ((bits >> i) & 1u) out.push_back(names_[i]);
    return out;
  }

 private:
  std::vector<std::string> names_;
};

// Reads the vocabulary declared as array `key` of object `r` (distinct, non-empty names;
// at most `max_size`) into `out`. A missing optional key leaves `out` empty.
void read_vocabulary(const JsonReader& r, const char* key, bool required, int max_size, Vocabulary& out);
// Array of names -> bitset; a name not in `vocab` is an error that lists the declared
// names of `vocab_key`.
FeatureBits read_feature_bits(const JsonReader& list, const Vocabulary& vocab, const char* vocab_key);

}  // namespace steppe
