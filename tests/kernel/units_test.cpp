#include "kernel/units.h"

#include <gtest/gtest.h>

#include <vector>

namespace steppe {
namespace {

std::vector<int> ids(UnitSet::StackRange r) {
  std::vector<int> out;
  for (int u : r) out.push_back(u);
  return out;
}

Unit make(int side, int type = 0, int steps = 1, int nation = 0) {
  Unit u;
  u.side = static_cast<int8_t>(side);
  u.type = static_cast<int16_t>(type);
  u.steps = static_cast<int8_t>(steps);
  u.max_steps = static_cast<int8_t>(steps);
  u.nation = static_cast<int16_t>(nation);
  return u;
}

TEST(Units, StacksFollowMovesInIdOrder) {
  UnitSet s(10, 2);
  const int a = s.add(make(0), "4Pz", UnitLocation::node(3));
  const int b = s.add(make(0), "9A", UnitLocation::node(5));
  const int c = s.add(make(1), "16A", UnitLocation::node(3));
  const int d = s.add(make(1), "RVGK-1", UnitLocation::box(1));
  EXPECT_EQ(ids(s.at(3)), (std::vector<int>{a, c}));
  EXPECT_EQ(ids(s.in_box(1)), (std::vector<int>{d}));
  EXPECT_EQ(s.sides_at(3), 0b11);
  EXPECT_TRUE(s.occupied_by_other_side(3, 0));
  EXPECT_FALSE(s.occupied_by_other_side(5, 0));

  s.move(c, UnitLocation::node(5));
  s.move(a, UnitLocation::node(5));
  // Id order regardless of arrival order.
  EXPECT_EQ(ids(s.at(5)), (std::vector<int>{a, b, c}));
  EXPECT_TRUE(s.at(3).empty());
  EXPECT_EQ(s.sides_at(3), 0);
  EXPECT_EQ(s.count_at(5), 3);
  s.eliminate(b);
  EXPECT_EQ(ids(s.at(5)), (std::vector<int>{a, c}));
  EXPECT_EQ(s.location(b), UnitLocation::eliminated());
  s.move(d, UnitLocation::node(9));
  EXPECT_TRUE(s.in_box(1).empty());
  EXPECT_TRUE(s.consistent());
  s.set_side(d, 0);  // a defection
  EXPECT_EQ(s.sides_at(9), 0b01);
  EXPECT_FALSE(s.occupied_by_other_side(9, 0));
  EXPECT_TRUE(s.consistent());
}

TEST(Units, NamesAreSeparateFromIdsAndSharedBetweenCopies) {
  UnitSet s(4, 0);
  const int a = s.add(make(0), "1A", UnitLocation::node(0));
  const int b = s.add(make(1), "1A", UnitLocation::node(1));  // same name, other side
  EXPECT_NE(a, b);
  EXPECT_EQ(s.name(b), "1A");
  EXPECT_EQ(s.find("1A"), a);
  EXPECT_EQ(s.find("1A", 1), b);
  EXPECT_EQ(s.find("2A"), -1);

  UnitSet copy = s;  // a State copy
  copy.move(a, UnitLocation::node(2));
  copy.edit(a).steps = 0;
  copy.add(make(0), "2A");
  EXPECT_EQ(s.location(a), UnitLocation::node(0));  // the original is untouched
  EXPECT_EQ(s.unit(a).steps, 1);
  EXPECT_EQ(s.size(), 2);
  EXPECT_EQ(s.find("2A"), -1);
  EXPECT_EQ(copy.find("2A"), 2);
  EXPECT_TRUE(s.consistent());
  EXPECT_TRUE(copy.consistent());
  EXPECT_NE(s.hash(kFnv64Basis), copy.hash(kFnv64Basis));
}

TEST(Units, HashDependsOnLocationNotMoveHistory) {
  UnitSet x(6, 0), y(6, 0);
  for (UnitSet* s : {&x, &y}) {
    s->add(make(0), "a", UnitLocation::node(0));
    s->add(make(0), "b", UnitLocation::node(1));
  }
  y.move(0, UnitLocation::node(4));
  y.move(0, UnitLocation::node(0));
  EXPECT_EQ(x.hash(1), y.hash(1));
  y.move(1, UnitLocation::node(2));
  EXPECT_NE(x.hash(1), y.hash(1));
}

// BD 6.3-6.5 as data: 5 units per hex; fortress commands free; at most 1 satellite army.
TEST(Units, StackingRuleFromData_6_3_to_6_5) {
  Vocabulary types, nations, markers;
  for (auto t : {"infantry", "armor", "army", "fortress-command", "cavalry-group"}) types.intern(t);
  for (auto n : {"german", "hungarian", "romanian", "soviet"}) nations.intern(n);
  markers.intern("static");
  Json j =
      Json::parse(R"({"rule": "6.3", "max_units": 5, "exempt_types": ["fortress-command", "cavalry-group"],
    "limits": [{"name": "satellite armies", "types": ["army"], "nations": ["hungarian", "romanian"], "max": 1,
                "rule": "6.4"},
               {"name": "cavalry groups", "types": ["cavalry-group"], "max": 1, "rule": "6.5"}]})");
  auto rr = StackingRule::from_json(JsonReader(j, "stacking.json"), types, nations, markers);
  ASSERT_TRUE(rr.is_ok()) << rr.error().to_string();
  const StackingRule& rule = *rr;

  UnitSet s(4, 0);
  for (int i = 0; i < 5; ++i) s.add(make(0, 0), "inf" + std::to_string(i), UnitLocation::node(1));
  const int fc = s.add(make(0, 3), "FCKB", UnitLocation::node(1));
  EXPECT_TRUE(rule.check(s, 1, 0, {}, "2514").is_ok());  // the fortress command is free
  const int extra = s.add(make(0, 0), "inf5", UnitLocation::node(2));
  Status st = rule.check(s, 1, 0, std::vector<int>{extra}, "2514");
  ASSERT_FALSE(st.is_ok());
  EXPECT_EQ(st.error().rule, "6.3");
  EXPECT_NE(st.error().message.find("6 units"), std::string::npos) << st.error().message;
  EXPECT_NE(st.error().message.find("2514"), std::string::npos);
  // A unit already in the hex is not counted twice.
  EXPECT_TRUE(rule.check(s, 1, 0, std::vector<int>{fc, 0}, "2514").is_ok());
  // Enemy units don't count towards this side's stack.
  s.add(make(1, 0, 1, 3), "sov", UnitLocation::node(1));
  EXPECT_TRUE(rule.check(s, 1, 0, {}, "2514").is_ok());

  const int hun = s.add(make(0, 2, 1, 1), "Hun1", UnitLocation::node(3));
  const int rom = s.add(make(0, 2, 1, 2), "Rom3", UnitLocation::node(0));
  const int ger_army = s.add(make(0, 2, 1, 0), "6A", UnitLocation::node(0));
  EXPECT_TRUE(rule.check(s, 3, 0, std::vector<int>{ger_army}, "x").is_ok());
  st = rule.check(s, 3, 0, std::vector<int>{rom}, "x");
  ASSERT_FALSE(st.is_ok());
  EXPECT_EQ(st.error().rule, "6.4");
  (void)hun;
  const int cav1 = s.add(make(0, 4), "cav1", UnitLocation::node(3));
  const int cav2 = s.add(make(0, 4), "cav2", UnitLocation::node(0));
  (void)cav1;
  st = rule.check(s, 3, 0, std::vector<int>{cav2}, "x");
  ASSERT_FALSE(st.is_ok());
  EXPECT_EQ(st.error().rule, "6.5");
}

TEST(Units, StackingByStepsAndExemptMarkers) {
  Vocabulary types, nations, markers;
  types.intern("division");
  nations.intern("x");
  markers.intern("out-of-supply");
  markers.intern("static");
  Json j = Json::parse(R"({"rule": "10.1", "max_steps": 6, "exempt_markers": ["static"]})");
  auto rr = StackingRule::from_json(JsonReader(j, "s.json"), types, nations, markers);
  ASSERT_TRUE(rr.is_ok());
  UnitSet s(2, 0);
  s.add(make(0, 0, 4), "a", UnitLocation::node(0));
  const int b = s.add(make(0, 0, 3), "b", UnitLocation::node(1));
  EXPECT_FALSE(rr->check(s, 0, 0, std::vector<int>{b}, "0101").is_ok());
  s.edit(b).markers |= 1u << 1;  // static
  EXPECT_TRUE(rr->check(s, 0, 0, std::vector<int>{b}, "0101").is_ok());
}

TEST(Units, BadStackingDataNamesPath) {
  Vocabulary types, nations, markers;
  types.intern("infantry");
  Json j = Json::parse(
      R"({"rule": "6.3", "max_units": 5, "limits": [{"name": "x", "types": ["panzer"], "max": 1}]})");
  auto rr = StackingRule::from_json(JsonReader(j, "stacking.json"), types, nations, markers);
  ASSERT_FALSE(rr.is_ok());
  EXPECT_EQ(rr.error().where, "stacking.json: /limits/0/types/0");
  EXPECT_NE(rr.error().message.find("panzer"), std::string::npos);
  Json k = Json::parse(R"({"max_unit": 5})");
  EXPECT_FALSE(StackingRule::from_json(JsonReader(k, "s.json"), types, nations, markers).is_ok());
}

}  // namespace
}  // namespace steppe
