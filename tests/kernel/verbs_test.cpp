#include "kernel/verbs.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>

namespace steppe {
namespace {

struct Toy {};  // the verbs below need no state

// Each parser records how many words it was given in its only argument.
Result<Action> count_words(uint16_t verb, std::span<const std::string_view> args) {
  Action a;
  a.verb = verb;
  a.push(static_cast<int>(args.size()));
  return a;
}

Result<Action> parse_setup(const Toy&, std::span<const std::string_view> w) { return count_words(1, w); }
Result<Action> parse_setup_dl(const Toy&, std::span<const std::string_view> w) { return count_words(2, w); }
Result<Action> parse_pass(const Toy&, std::span<const std::string_view> w) { return count_words(3, w); }

// id, name, usage, rule, generate, check, apply, print, parse, describe
constexpr VerbRow<Toy> kRows[] = {
    {1, "setup", "setup B AREA", "", nullptr, nullptr, nullptr, nullptr, parse_setup, nullptr},
    {2, "setup dl", "setup dl AREA", "", nullptr, nullptr, nullptr, nullptr, parse_setup_dl, nullptr},
    {3, "pass", "", "", nullptr, nullptr, nullptr, nullptr, parse_pass, nullptr},
    {4, "hook", "", "", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},  // never read from text
};

TEST(VerbTable, ParseTakesTheLongestNameTheTextBeginsWith) {
  const VerbTable<Toy> table(kRows);
  const Toy toy;
  auto dl = table.parse(toy, "  setup  dl 63 ");
  ASSERT_TRUE(dl.is_ok());
  EXPECT_EQ(dl->verb, 2);
  EXPECT_EQ(dl->args[0], 1);  // "63" only
  auto block = table.parse(toy, "setup 39PzK 63");
  ASSERT_TRUE(block.is_ok());
  EXPECT_EQ(block->verb, 1);
  EXPECT_EQ(block->args[0], 2);
  auto just_setup = table.parse(toy, "setup dl");  // the whole name, no arguments
  ASSERT_TRUE(just_setup.is_ok());
  EXPECT_EQ(just_setup->verb, 2);
  EXPECT_EQ(just_setup->args[0], 0);
  EXPECT_FALSE(table.parse(toy, "setupdl 63").is_ok());
  EXPECT_FALSE(table.parse(toy, "hook").is_ok());
  EXPECT_FALSE(table.parse(toy, "   ").is_ok());
}

TEST(VerbTable, TokensAndUsages) {
  const VerbTable<Toy> table(kRows);
  EXPECT_EQ(VerbTable<Toy>::token("setup dl"), "setup-dl");
  EXPECT_EQ(VerbTable<Toy>::token("pass"), "pass");
  EXPECT_EQ(table.usages(), "setup B AREA; setup dl AREA; pass");
  ASSERT_NE(table.find("setup dl"), nullptr);
  EXPECT_EQ(table.find("setup dl")->id, 2);
}

}  // namespace
}  // namespace steppe
