#include "kernel/notation.h"

#include <gtest/gtest.h>

namespace steppe {
namespace {

TEST(Notation, SplitsOnAnyWhitespace) {
  EXPECT_EQ(split_words("  move 4Pz\t2514  2614 \n"),
            (std::vector<std::string>{"move", "4Pz", "2514", "2614"}));
  EXPECT_TRUE(split_words("   ").empty());
}

TEST(Notation, StrictIntegers) {
  EXPECT_EQ(parse_int("-12"), -12);
  EXPECT_FALSE(parse_int("3x").has_value());
  EXPECT_FALSE(parse_int("").has_value());
  EXPECT_FALSE(parse_int("99999999999999999999999").has_value());
  EXPECT_EQ(parse_int_in("6", 1, 6), 6);
  EXPECT_EQ(parse_int_in("1", 1, 6), 1);
  EXPECT_FALSE(parse_int_in("7", 1, 6).has_value());
  EXPECT_FALSE(parse_int_in("0", 1, 6).has_value());
  EXPECT_FALSE(parse_int_in("3x", 1, 6).has_value());
  EXPECT_FALSE(parse_int_in("99999999999", 0, 99).has_value());
  EXPECT_FALSE(parse_uint("-1").has_value());
}

TEST(Notation, HashHexRoundTrip) {
  for (uint64_t h : {0ULL, 1ULL, 0xdeadbeefcafef00dULL, ~0ULL}) EXPECT_EQ(hex_to_hash(hash_to_hex(h)), h);
  EXPECT_EQ(hash_to_hex(0xabcULL), "0000000000000abc");
  EXPECT_FALSE(hex_to_hash("xyz").has_value());
  EXPECT_FALSE(hex_to_hash("00000000000000000").has_value());
}

}  // namespace
}  // namespace steppe
