// The typed views of the State API (kernel/views.h) for Moscow '41: describe, preview
// (a battle's exact outcome distribution, checked against every die sequence the real
// battle can roll), reach and legal_actions_for, and the hidden-information refusals (1.5).
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "games/moscow41/tests/common.h"

namespace moscow41 {
namespace {

using test::game;

using test::act;
using test::set_up;

steppe::Action parse(const Moscow41State& s, const std::string& text) {
  auto a = s.parse_action(text);
  EXPECT_TRUE(a) << text;
  return a ? *a : steppe::Action{};
}

// A German attack on 68 from 67 (no river between them: a Tank Attack, 10.12.5.2), with
// the 3rd Panzer Gruppe's artillery (10.12.2), small enough that every die sequence can be
// played: 2 artillery dice, 2 tank dice, then at most 2 Soviet dice.
std::unique_ptr<Moscow41State> small_battle(bool reveal_all) {
  auto s = test::start("campaign", 2);
  set_up(*s, {"clear", "victory none", "weather sunny", "control 54 german", "control 52 german",
              "control 51 german", "control 53 german", "control 67 german", "place HQ3Pg 67 2",
              "place 39PzK 67 2", "place A16 68 2", "active german"});
  for (const char* t : {"ti", "activate HQ3Pg", "commands", "move 39PzK 68", "artillery HQ3Pg 68", "combat"})
    act(*s, t);
  if (reveal_all) set_up(*s, {"reveal A16", "reveal 39PzK", "reveal HQ3Pg"});
  return s;
}

struct Collect : steppe::EventSink {
  std::vector<steppe::Event> events;
  void emit(steppe::Event e) override { events.push_back(std::move(e)); }
};

// 1.5, 10.12.1: before the Showdown the German may not learn the strength of a hidden Soviet
// block through a preview; once it is revealed, he may.
TEST(Moscow41Views, PreviewRefusesABattleWithABlockHiddenFromTheViewer) {
  auto s = small_battle(false);
  ASSERT_FALSE(s->block(game().block_index("A16")).revealed);
  const auto battle = parse(*s, "battle 68");
  const auto refused = s->preview(battle, kGerman);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().rule.find("1.5"), std::string::npos) << refused.error().to_string();
  EXPECT_FALSE(s->test_query({"combat", "68", "german"}));  // the test hook asks the view
  // The server asks on a copy resampled for the German: the refusal comes first (1.5).
  const auto asked = s->query_allowed(kGerman, {"combat", "68"});
  ASSERT_FALSE(asked.is_ok());
  EXPECT_NE(asked.error().rule.find("1.5"), std::string::npos);
  EXPECT_FALSE(s->query_allowed(kGerman, {"reach", "A16"}).is_ok());
  EXPECT_TRUE(s->query_allowed(kSoviet, {"reach", "A16"}).is_ok());
  set_up(*s, {"reveal A16", "reveal 39PzK"});
  EXPECT_TRUE(s->preview(battle, kGerman)) << "refused once every block is revealed";
}

// The preview's distribution is exact: it equals the tally of the real battle (apply) over
// every sequence of the dice it can roll, each equally likely, with the hits each side
// scored read from the battle's own roll events.

// A roll line of the battle log, "WHO rolls N dice ...: H hits": WHO and H. Parsed by
// hand: GCC 12 at -O1 with the sanitizers reports false -Wmaybe-uninitialized inside
// <regex>.
bool parse_hits_line(const std::string& text, std::string& who, int& hits) {
  const auto all_digits = [](const std::string& d) {
    return !d.empty() && d.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string suffix = " hits";
  const size_t rolls = text.rfind(" rolls ");
  const size_t colon = text.rfind(": ");
  if (rolls == std::string::npos || colon == std::string::npos || colon < rolls ||
      text.size() < suffix.size() || text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  const size_t dice_at = text.find(" dice ", rolls);
  if (dice_at == std::string::npos || dice_at > colon) return false;
  const std::string count = text.substr(colon + 2, text.size() - suffix.size() - colon - 2);
  if (!all_digits(text.substr(rolls + 7, dice_at - rolls - 7)) || !all_digits(count)) return false;
  who = text.substr(0, rolls);
  hits = std::stoi(count);
  return true;
}

TEST(Moscow41Views, PreviewDistributionEqualsEveryDieSequenceOfTheRealBattle) {
  auto s = small_battle(true);
  const auto battle = parse(*s, "battle 68");
  const auto pv = s->preview(battle, kGerman);
  ASSERT_TRUE(pv) << pv.error().to_string();
  EXPECT_EQ(pv->kind, "combat");
  EXPECT_EQ(pv->attack, 2);
  EXPECT_EQ(pv->defense, 2);
  EXPECT_EQ(pv->final, "attacker fires first");  // 10.12.5.2
  double total = 0;
  std::map<std::string, double> preview_p;
  for (const auto& o : pv->outcomes) {
    total += o.probability;
    preview_p[o.result] += o.probability;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);

  constexpr int kDice = 6;  // 2 artillery + 2 attacker + at most 2 defender
  std::map<std::string, double> played;
  std::vector<int> seq(kDice, 1);
  const double p_seq = std::pow(1.0 / 6, kDice);
  for (;;) {
    auto c = s->clone();
    for (int d : seq) c->dice().force(d);
    Collect sink;
    c->set_event_sink(&sink);
    ASSERT_TRUE(c->apply(battle).is_ok());
    int on_def = 0, on_att = 0;
    for (const auto& e : sink.events) {
      std::string who;
      int hits = 0;
      if (e.kind != "roll" || !parse_hits_line(e.text, who, hits)) continue;
      const bool german =
          who.size() > 10 && who.substr(who.size() - 10) == " artillery"
              ? true
              : who != "defensive line" &&
                    game().blocks()[static_cast<size_t>(game().block_index(who))].side == kGerman;
      (german ? on_def : on_att) += hits;
    }
    played[std::to_string(on_def) + "-" + std::to_string(on_att)] += p_seq;
    int k = 0;
    while (k < kDice && seq[static_cast<size_t>(k)] == 6) seq[static_cast<size_t>(k++)] = 1;
    if (k == kDice) break;
    ++seq[static_cast<size_t>(k)];
  }
  ASSERT_EQ(played.size(), preview_p.size());
  for (const auto& [result, p] : played) {
    ASSERT_TRUE(preview_p.count(result)) << result;
    EXPECT_NEAR(preview_p[result], p, 1e-12) << result;
  }
}

// Each die modifier is listed with its reason and rule: in Rain every attacking block rolls
// one die (8.0), and the defender's absorb bonus (10.13) is listed when it has one.
TEST(Moscow41Views, PreviewListsEachModifierWithItsRule) {
  auto s = small_battle(true);
  set_up(*s, {"weather rain"});
  const auto pv = s->preview(parse(*s, "battle 68"), kSoviet);
  ASSERT_TRUE(pv) << pv.error().to_string();
  EXPECT_EQ(pv->attack, 1);  // 39PzK at 2 rolls 1 die in Rain
  bool rain = false;
  for (const auto& sh : pv->shifts)
    if (sh.rule == "8.0" && sh.reason.find("39PzK") != std::string::npos && sh.shift == -1) rain = true;
  EXPECT_TRUE(rain);
  EXPECT_EQ(pv->final, "defender fires first");  // no Tank Attack in Rain (10.12.5.2)
  int absorb_listed = 0;
  for (const auto& sh : pv->shifts)
    if (sh.rule == "10.13") absorb_listed -= sh.shift;
  EXPECT_EQ(absorb_listed, s->absorb(game().node("68"), kSoviet));
  EXPECT_FALSE(s->preview(parse(*s, "end"), kSoviet)) << "only a battle has a preview";
}

// reach(): the destinations are those of the block's legal moves now, each with the path
// ending there and its MP cost within the allowance; an enemy's hidden block is refused (1.5).
TEST(Moscow41Views, ReachMatchesTheLegalMovesWithCostsAndPaths) {
  auto s = test::start("campaign", 2);
  set_up(*s, {"clear", "victory none", "weather sunny", "control 54 german", "control 52 german",
              "control 51 german", "control 53 german", "control 67 german", "place HQ3Pg 67",
              "place 39PzK 67", "place A16 68", "active german"});
  for (const char* t : {"ti", "activate HQ3Pg", "commands"}) act(*s, t);
  const auto r = s->reach("39PzK", kGerman);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->from, "67");
  EXPECT_GT(r->allowance, 0);
  std::vector<std::string> reached, moves;
  for (const auto& d : r->destinations) {
    ASSERT_FALSE(d.path.empty());
    EXPECT_EQ(d.path.back(), d.location);
    EXPECT_GT(d.cost, 0);
    EXPECT_LE(d.cost, r->allowance);
    int sum = 0;
    for (const auto& n : d.path) sum += s->area_enter_cost(game().node(n));
    EXPECT_EQ(d.cost, sum) << d.location;  // 2.6: the MP of each area entered
    reached.push_back(d.location);
  }
  std::vector<steppe::Action> acts;
  s->legal_actions(acts);
  for (const auto& a : acts) {
    const std::string t = s->action_to_string(a);
    std::istringstream in(t);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    if (w.size() == 3 && w[0] == "move" && w[1] == "39PzK") moves.push_back(w[2]);
  }
  std::sort(reached.begin(), reached.end());
  std::sort(moves.begin(), moves.end());
  EXPECT_FALSE(reached.empty());
  EXPECT_EQ(reached, moves);
  EXPECT_NE(std::find(reached.begin(), reached.end(), "68"), reached.end());  // engaging (10.8)
  const auto hidden = s->reach("A16", kGerman);
  ASSERT_FALSE(hidden);
  EXPECT_EQ(hidden.error().rule, "1.5");
  EXPECT_TRUE(s->reach("A16", kSoviet));
  EXPECT_FALSE(s->reach("NoSuchBlock", kGerman));
}

// describe(): verb, unit, from, to and rule of a move, and its path; legal_actions_for()
// gives exactly the legal actions that concern the block, in legal_actions() order.
TEST(Moscow41Views, DescribeAndLegalActionsForOneBlock) {
  auto s = test::start("campaign", 2);
  set_up(*s, {"clear", "victory none", "weather sunny", "control 54 german", "control 52 german",
              "control 51 german", "control 53 german", "control 67 german", "place HQ3Pg 67",
              "place 39PzK 67", "place 57PzK 67", "place A16 68", "active german"});
  for (const char* t : {"ti", "activate HQ3Pg", "commands"}) act(*s, t);
  const auto d = s->describe(parse(*s, "move 39PzK 68"));
  ASSERT_TRUE(d) << d.error().to_string();
  EXPECT_EQ(d->verb, "move");
  EXPECT_EQ(d->rule, "10.8");
  EXPECT_EQ(d->units, std::vector<std::string>{"39PzK"});
  EXPECT_EQ(d->from, std::vector<std::string>{"67"});
  EXPECT_EQ(d->to, std::vector<std::string>{"68"});
  EXPECT_EQ(d->detail["path"].back(), "68");
  EXPECT_NE(d->summary.find("39PzK"), std::string::npos);
  const auto b = s->describe(parse(*s, "combat"));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->verb, "combat");
  EXPECT_TRUE(b->units.empty());
  steppe::Action bad;
  bad.verb = kVMove;
  bad.push(9999);
  bad.push(0);
  EXPECT_FALSE(s->describe(bad));

  std::vector<steppe::Action> all, mine;
  s->legal_actions(all);
  s->legal_actions_for("39PzK", mine);
  std::vector<steppe::Action> expect;
  for (const auto& a : all) {
    const auto dd = s->describe(a);
    ASSERT_TRUE(dd) << s->action_to_string(a);
    if (std::find(dd->units.begin(), dd->units.end(), "39PzK") != dd->units.end()) expect.push_back(a);
  }
  EXPECT_FALSE(mine.empty());
  EXPECT_EQ(mine, expect);
  for (const auto& a : mine) EXPECT_NE(s->action_to_string(a).find("39PzK"), std::string::npos);
  std::vector<steppe::Action> other;
  s->legal_actions_for("57PzK", other);
  EXPECT_NE(other, mine);
}

}  // namespace
}  // namespace moscow41
