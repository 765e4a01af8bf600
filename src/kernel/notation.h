// Small shared helpers for the readable text notations (actions, scenario tests, saves):
// splitting into words, strict integer parsing, and the hex form of 64-bit hashes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace steppe {

// Splits on ASCII whitespace; empty words are never produced.
std::vector<std::string> split_words(std::string_view text);
// Words joined by single spaces.
std::string join_words(const std::vector<std::string>& words, size_t from = 0);
// Leading and trailing ASCII whitespace removed.
std::string_view trim(std::string_view text);
// Whole-string decimal integer (optional leading '-'); nullopt on anything else,
// including overflow, so "3x" or "" are never read as numbers.
std::optional<int64_t> parse_int(std::string_view text);
// The same, and within [lo, hi]: nullopt outside it (scenario-test words, set-up values).
std::optional<int> parse_int_in(std::string_view text, int lo, int hi);
std::optional<uint64_t> parse_uint(std::string_view text);
// 16 lowercase hex digits, and back (nullopt unless exactly 1..16 hex digits).
std::string hash_to_hex(uint64_t h);
std::optional<uint64_t> hex_to_hash(std::string_view text);

}  // namespace steppe
