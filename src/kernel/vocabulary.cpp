#include "kernel/vocabulary.h"

namespace steppe {

// Reads a declared vocabulary: an array of distinct, non-empty names.
void read_vocabulary(const JsonReader& r, const char* key, bool required, int max_size, Vocabulary& out) {
  if (!required && !r.has(key)) return;
  const JsonReader list = r.at(key);
  for (const JsonReader& e : list.elements()) {
    const std::string name = e.as_str();
    if (!e.json().is_string()) continue;
    if (name.empty()) {
      e.fail("names must not be empty");
    } else if (out.find(name) >= 0) {
      e.fail_value(std::string("\"") + name + "\" is declared twice in " + key);
    } else {
      out.intern(name);
    }
  }
  if (out.size() > max_size)
    list.fail(std::string(key) + " declares " + std::to_string(out.size()) + " names; at most " +
              std::to_string(max_size) + " are supported");
}

// Feature names -> bitset; unknown names are errors listing the declared ones.
FeatureBits read_feature_bits(const JsonReader& r, const Vocabulary& vocab, const char* vocab_key) {
  FeatureBits bits = 0;
  for (const JsonReader& e : r.elements()) {
    const std::string name = e.as_str();
    if (!e.json().is_string()) continue;
    const int f = vocab.find(name);
    if (f < 0)
      e.fail("unknown feature \"" + name + "\" (not declared in " + vocab_key + ": " + vocab.list() + ")");
    else
      bits |= feature_bit(f);
  }
  return bits;
}

}  // namespace steppe
