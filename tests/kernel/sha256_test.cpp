// SHA-256 against the FIPS 180-4 / NIST test vectors, and the dice commitment's text.
#include "kernel/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace steppe {
namespace {

TEST(Sha256, MatchesTheNistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding needs a second block.
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, EveryLengthAroundABlockBoundaryDiffers) {
  // Lengths 54..66 cross the one-block / two-block padding and the first whole block.
  std::string prev;
  for (size_t n = 54; n <= 66; ++n) {
    const std::string h = sha256_hex(std::string(n, 'x'));
    EXPECT_EQ(h.size(), 64u);
    EXPECT_NE(h, prev) << n;
    prev = h;
  }
  EXPECT_EQ(sha256_hex(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(DiceCommitment, NamesTheGameAndTheSeed) {
  EXPECT_EQ(dice_commitment_text("a1b2c3", 42), "steppe-dice-v1:a1b2c3:42");
  EXPECT_EQ(dice_commitment("a1b2c3", 42), sha256_hex("steppe-dice-v1:a1b2c3:42"));
  EXPECT_NE(dice_commitment("a1b2c3", 42), dice_commitment("a1b2c4", 42));
  EXPECT_NE(dice_commitment("a1b2c3", 42), dice_commitment("a1b2c3", 43));
  EXPECT_EQ(dice_commitment_text("g", 18446744073709551615ULL), "steppe-dice-v1:g:18446744073709551615");
}

}  // namespace
}  // namespace steppe
