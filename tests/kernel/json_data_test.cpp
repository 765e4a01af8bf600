#include "kernel/json_data.h"

#include <gtest/gtest.h>

namespace steppe {
namespace {

TEST(JsonData, SyntaxErrorNamesFileLineAndColumn) {
  auto r = load_json_file("tests/kernel/data/syntax_error.json");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.error().where, "tests/kernel/data/syntax_error.json");
  EXPECT_NE(r.error().message.find("line 4"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("column"), std::string::npos) << r.error().message;
}

// Found by fuzz_json_data (fuzz/corpus/json_data/number-overflow.json): a number too large
// for a double made nlohmann throw out_of_range, which escaped parse_json_text.
TEST(JsonData, NumberOverflowIsAnErrorNotAnException) {
  auto r = parse_json_text("{\"x\": 4444444e4444444}", "overflow.json");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.error().where, "overflow.json");
  EXPECT_NE(r.error().message.find("out of range"), std::string::npos) << r.error().message;
}

TEST(JsonData, MissingFileIsAnError) {
  auto r = load_json_file("tests/kernel/data/no_such_file.json");
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().to_string().find("no_such_file.json"), std::string::npos);
}

TEST(JsonData, FieldPathAndValueInErrors) {
  Json j = Json::parse(R"({"hexes": [{"id": "1011"}, {"id": "1012", "terrain": 7}]})");
  JsonReader r(j, "data/bd/map.json");
  EXPECT_EQ(r.at("hexes").at(0).str("id"), "1011");
  EXPECT_TRUE(r.ok());
  std::string t = r.at("hexes").at(1).str("terrain");
  EXPECT_EQ(t, "");
  ASSERT_FALSE(r.ok());
  const Error e = r.error();
  EXPECT_EQ(e.where, "data/bd/map.json: /hexes/1/terrain");
  EXPECT_NE(e.message.find("expected a string"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("7"), std::string::npos) << e.message;
}

TEST(JsonData, MissingFieldReportedOnceAndErrorsCollected) {
  Json j = Json::parse(R"({"a": {"b": 1}, "list": [1, "x", 3]})");
  JsonReader r(j, "f.json");
  JsonReader missing = r.at("nope");
  EXPECT_EQ(missing.str("deeper"), "");  // no second error for the child of a missing field
  EXPECT_EQ(r.errors().size(), 1u);
  EXPECT_EQ(r.errors()[0].where, "f.json: /nope");
  int sum = 0;
  for (const JsonReader& e : r.at("list").elements()) sum += static_cast<int>(e.as_int());
  EXPECT_EQ(sum, 4);
  ASSERT_EQ(r.errors().size(), 2u);
  EXPECT_EQ(r.errors()[1].where, "f.json: /list/1");
  EXPECT_NE(r.error().message.find("1 more error"), std::string::npos);
  EXPECT_FALSE(r.status().is_ok());
}

TEST(JsonData, IntegerRangeAndDefaults) {
  Json j = Json::parse(R"({"n": 40, "m": 3})");
  JsonReader r(j, "f.json");
  EXPECT_EQ(r.int_in("m", 0, 10), 3);
  EXPECT_EQ(r.integer_or("absent", 9), 9);
  EXPECT_EQ(r.str_or("absent", "d"), "d");
  EXPECT_TRUE(r.ok());
  r.int_in("n", 0, 32);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "f.json: /n");
  EXPECT_NE(r.error().message.find("40"), std::string::npos);
  EXPECT_NE(r.error().message.find("0 to 32"), std::string::npos);
}

TEST(JsonData, PointerEscapesKeys) {
  Json j = Json::parse(R"({"a/b": {"c~d": true}})");
  JsonReader r(j, "f.json");
  r.at("a/b").at("c~d").as_str();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "f.json: /a~1b/c~0d");
}

TEST(JsonData, AllowOnlyCatchesTypos) {
  Json j = Json::parse(R"({"terain": "clear", "id": "1011"})");
  JsonReader r(j, "f.json");
  r.allow_only({"id", "terrain"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "f.json: /terain");
}

TEST(JsonData, ReconstructedNeedsSource) {
  Json good = Json::parse(R"({"reconstructed": true, "source": "digest 2.2"})");
  JsonReader g(good, "f.json");
  g.check_reconstructed();
  EXPECT_TRUE(g.ok());
  EXPECT_TRUE(g.is_reconstructed());

  Json plain = Json::parse(R"({"x": 1})");
  JsonReader p(plain, "f.json");
  p.check_reconstructed();
  EXPECT_TRUE(p.ok());
  EXPECT_FALSE(p.is_reconstructed());

  Json nosrc = Json::parse(R"({"list": [{"reconstructed": true}]})");
  JsonReader n(nosrc, "f.json");
  n.at("list").at(0).check_reconstructed();
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().where, "f.json: /list/0");
  EXPECT_NE(n.error().message.find("source"), std::string::npos);

  Json empty = Json::parse(R"({"reconstructed": true, "source": ""})");
  JsonReader e(empty, "f.json");
  e.check_reconstructed();
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().where, "f.json: /source");

  Json wrongtype = Json::parse(R"({"reconstructed": "yes"})");
  JsonReader w(wrongtype, "f.json");
  w.check_reconstructed();
  EXPECT_FALSE(w.ok());
}

TEST(JsonData, RulesHashIsStableFnv) {
  // Published FNV-1a 64 test vectors.
  EXPECT_EQ(hash_hex(fnv1a64("")), "cbf29ce484222325");
  EXPECT_EQ(hash_hex(fnv1a64("a")), "af63dc4c8601ec8c");
  auto h1 = rules_hash_of_dir("tests/kernel/data");
  auto h2 = rules_hash_of_dir("tests/kernel/data");
  ASSERT_TRUE(h1.is_ok()) << h1.error().to_string();
  EXPECT_EQ(*h1, *h2);
  EXPECT_EQ(h1->size(), 16u);
  EXPECT_FALSE(rules_hash_of_dir("tests/kernel/no_such_dir").is_ok());
}

}  // namespace
}  // namespace steppe
