#include "kernel/notation.h"

#include <charconv>

namespace steppe {

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

std::string join_words(const std::vector<std::string>& words, size_t from) {
  std::string s;
  for (size_t i = from; i < words.size(); ++i) {
    if (i > from) s += ' ';
    s += words[i];
  }
  return s;
}

std::string_view trim(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  return text.substr(b, e - b);
}

std::optional<int64_t> parse_int(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<int> parse_int_in(std::string_view text, int lo, int hi) {
  const auto v = parse_int(text);
  if (!v || *v < lo || *v > hi) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<uint64_t> parse_uint(std::string_view text) {
  if (text.empty() || text[0] == '-') return std::nullopt;
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::string hash_to_hex(uint64_t h) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i) {
    s[static_cast<size_t>(i)] = kDigits[h & 0xF];
    h >>= 4;
  }
  return s;
}

std::optional<uint64_t> hex_to_hash(std::string_view text) {
  if (text.empty() || text.size() > 16) return std::nullopt;
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v, 16);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

}  // namespace steppe
