#include <gtest/gtest.h>

#include <cmath>

#include "ai/tournament.h"
#include "fixture_games.h"

namespace steppe::ai {
namespace {

// Wilson 95% interval of 7/10, by hand: p = 0.7, z² = 3.8415, denominator 1.38415,
// centre (0.7 + 0.19207) / 1.38415 = 0.64448, half-width
// 1.95996 / 1.38415 * sqrt(0.021 + 0.0096037) = 0.24771  ->  [0.39678, 0.89219].
TEST(Stats, WilsonIntervalMatchesHandComputation) {
  const Interval i = wilson_interval(7, 10);
  EXPECT_NEAR(i.lo, 0.39678, 1e-4);
  EXPECT_NEAR(i.hi, 0.89219, 1e-4);
  // 0 of 10: lower bound 0, upper bound z² / (n + z²) = 3.8415 / 13.8415 = 0.27753.
  const Interval z = wilson_interval(0, 10);
  EXPECT_NEAR(z.lo, 0.0, 1e-12);
  EXPECT_NEAR(z.hi, 0.27753, 1e-4);
  // 10 of 10 mirrors it.
  const Interval all = wilson_interval(10, 10);
  EXPECT_NEAR(all.lo, 1 - 0.27753, 1e-4);
  EXPECT_NEAR(all.hi, 1.0, 1e-12);
}

// A beats B 3 games of 4: the MLE ratio g_A / g_B = 3, so the gap is 400·log10(3) =
// 190.85 Elo, centred on 1500.
TEST(Stats, EloTwoAgentsPureMaximumLikelihood) {
  const auto elo = fit_elo(2, {{0, 1, 3.0, 4.0}}, 0.0);
  EXPECT_NEAR(elo[0] - elo[1], 190.85, 0.01);
  EXPECT_NEAR(elo[0], 1595.42, 0.01);
  EXPECT_NEAR(elo[1], 1404.58, 0.01);
}

// With one virtual draw: A scores 3.5 of 5, ratio 3.5 / 1.5, gap 400·log10(7/3) = 147.19.
TEST(Stats, EloWithVirtualDrawPrior) {
  const auto elo = fit_elo(2, {{0, 1, 3.0, 4.0}}, 1.0);
  EXPECT_NEAR(elo[0] - elo[1], 147.19, 0.01);
  // A clean sweep stays finite with the prior: ratio 10.5 / 0.5 = 21 -> 528.89.
  const auto sweep = fit_elo(2, {{0, 1, 10.0, 10.0}}, 1.0);
  EXPECT_NEAR(sweep[0] - sweep[1], 400 * std::log10(21.0), 0.01);
}

// Three agents whose results are exactly Bradley-Terry consistent (ratios 3, 3 and 9):
// A vs B 3-1 of 4, B vs C 3-1 of 4, A vs C 9-1 of 10. Ratings 1690.85, 1500, 1309.15.
TEST(Stats, EloThreeAgentsConsistentResults) {
  const auto elo = fit_elo(3, {{0, 1, 3, 4}, {1, 2, 3, 4}, {0, 2, 9, 10}}, 0.0);
  EXPECT_NEAR(elo[0], 1690.85, 0.01);
  EXPECT_NEAR(elo[1], 1500.00, 0.01);
  EXPECT_NEAR(elo[2], 1309.15, 0.01);
}

TournamentConfig nim_config() {
  TournamentConfig c;
  c.scenario = "random";
  c.agents = {"random", "mcts:iters=200", "greedy"};
  c.games = 3;
  c.seed = 7;
  return c;
}

TEST(Tournament, ReportShape) {
  fixture::NimGame g("test-nim-tournament");
  auto rep = run_tournament(g, nim_config());
  ASSERT_TRUE(rep.is_ok()) << rep.error().to_string();
  const TournamentReport& r = rep.value();
  ASSERT_EQ(r.agents.size(), 3u);
  ASSERT_EQ(r.pairs.size(), 3u);
  ASSERT_EQ(r.records.size(), 3u * 2u * 3u);  // pairs × seatings × games
  for (const auto& a : r.agents) {
    EXPECT_EQ(a.games, 12);
    EXPECT_EQ(a.wins + a.draws + a.losses, a.games);
    EXPECT_LE(a.win_ci.lo, a.win_rate);
    EXPECT_GE(a.win_ci.hi, a.win_rate);
    ASSERT_TRUE(a.mean_vp.has_value());  // Nim reports stones taken per side as "vp"
  }
  for (const auto& p : r.pairs) EXPECT_EQ(p.a_wins + p.b_wins + p.draws, 6);
  // Every pair played in both seatings.
  int random_first = 0;
  for (const auto& rec : r.records) random_first += rec.seat_agent[0] == 0 ? 1 : 0;
  EXPECT_EQ(random_first, 6);
  // MCTS is rated above random.
  EXPECT_GT(r.agents[1].elo, r.agents[0].elo);
  EXPECT_GT(r.mean_plies, 0.0);
  // Thinking time: every decision is timed once, in some turn of its side (Nim has no
  // "turn" in its result: a turn is a round of both sides' decisions).
  for (const auto& rec : r.records) {
    EXPECT_EQ(rec.decisions[0] + rec.decisions[1], rec.plies);
    for (size_t side = 0; side < 2; ++side) {
      EXPECT_LE(rec.turns[side], rec.decisions[side]);
      EXPECT_EQ(rec.turns[side] > 0, rec.decisions[side] > 0);
      EXPECT_LE(rec.max_turn_ms[side], rec.think_ms[side] + 1e-9);
    }
  }
  for (const auto& a : r.agents) EXPECT_LE(a.ms_per_decision, a.ms_per_turn + 1e-9);

  const Json j = r.to_json();
  EXPECT_EQ(j["agents"].size(), 3u);
  EXPECT_EQ(j["pairs"].size(), 3u);
  EXPECT_EQ(j["games"].size(), 18u);
  EXPECT_EQ(j["agents"][1]["name"], "mcts:iters=200");
  EXPECT_EQ(j["agents"][0]["win_ci95"].size(), 2u);
  const std::string text = r.to_text();
  EXPECT_NE(text.find("Elo"), std::string::npos);
  EXPECT_NE(text.find("mcts:iters=200 vs greedy"), std::string::npos);
  const std::string svg = r.to_svg();
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  size_t bars = 0;
  for (size_t p = svg.find("class=\"bar\""); p != std::string::npos; p = svg.find("class=\"bar\"", p + 1))
    ++bars;
  EXPECT_EQ(bars, 3u);
  EXPECT_NE(svg.find("class=\"ci\""), std::string::npos);
}

TEST(Tournament, ReproducibleFromTheSeedWhateverTheThreads) {
  fixture::NimGame g("test-nim-tournament");
  TournamentConfig c = nim_config();
  auto one = run_tournament(g, c);
  c.jobs = 3;
  int last_done = 0, calls = 0;
  c.progress = [&](int done, int total) {
    EXPECT_EQ(total, 18);
    EXPECT_EQ(done, last_done + 1);
    last_done = done;
    ++calls;
  };
  auto three = run_tournament(g, c);
  ASSERT_TRUE(one.is_ok());
  ASSERT_TRUE(three.is_ok());
  EXPECT_EQ(calls, 18);
  Json a = one.value().to_json(), b = three.value().to_json();
  // CPU times are the one part that is not a function of the configuration.
  ASSERT_EQ(a["timing"].size(), 3u);
  ASSERT_EQ(b["timing"].size(), 3u);
  a.erase("timing");
  b.erase("timing");
  EXPECT_EQ(a, b);
  c.progress = nullptr;
  c.seed = 8;
  auto other = run_tournament(g, c);
  EXPECT_NE(other.value().to_json()["games"], a["games"]);
}

// A game whose result() gives one VP number (as BD does) gets it averaged per seat.
TEST(Tournament, SingleNumberVpIsReportedPerSeat) {
  fixture::CardGame g;
  TournamentConfig c;
  c.scenario = "deal";
  c.agents = {"random", "mcts:iters=100"};
  c.games = 10;
  c.seed = 3;
  auto rep = run_tournament(g, c);
  ASSERT_TRUE(rep.is_ok());
  const auto& mcts = rep.value().agents[1];
  EXPECT_FALSE(mcts.mean_vp.has_value());
  ASSERT_TRUE(mcts.scenario_vp_by_seat[0].has_value());
  ASSERT_TRUE(mcts.scenario_vp_by_seat[1].has_value());
  // As guesser, mcts passes (no VP); random guesses right about a third of the time.
  EXPECT_EQ(*mcts.scenario_vp_by_seat[0], 0.0);
  const auto& random = rep.value().agents[0];
  EXPECT_EQ(*random.scenario_vp_by_seat[0], *mcts.scenario_vp_by_seat[1]);
  EXPECT_NE(rep.value().to_text().find("as guesser / as holder"), std::string::npos);
  EXPECT_EQ(rep.value().to_json()["agents"][1]["scenario_vp_by_seat"].size(), 2u);
}

TEST(Tournament, RefusesBadInputClearly) {
  fixture::NimGame g("test-nim-tournament");
  TournamentConfig c = nim_config();
  c.agents = {"random"};
  EXPECT_FALSE(run_tournament(g, c).is_ok());
  c.agents = {"random", "deep-blue"};
  auto r = run_tournament(g, c);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().message.find("deep-blue"), std::string::npos);
  c = nim_config();
  c.scenario = "nowhere";
  r = run_tournament(g, c);
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.error().message.find("nowhere"), std::string::npos);
}

}  // namespace
}  // namespace steppe::ai
