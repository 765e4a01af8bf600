// Issue 29: a game in progress is never lost to a new engine. The saves in
// saves-2026-11-28/ were written by the engine of that day; each must load under today's
// engine and continue, and must still continue after a rule fix, which the tests make on a
// copy of data/ (a CRT cell, a movement cost, a scenario's last turn). What the migration
// did is reported, never silent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "games/all_games.h"
#include "kernel/dice.h"
#include "kernel/json_data.h"
#include "kernel/match.h"
#include "kernel/position.h"

namespace steppe {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = "tests/upgrade/saves-2026-11-28";

std::vector<fs::path> fixtures(const std::string& game) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kFixtures))
    if (e.path().filename().string().rfind(game + "-", 0) == 0) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A copy of the installed data with one file edited: the rules change of a new release.
class ChangedData {
 public:
  ChangedData(const std::string& file, const std::function<void(Json&)>& edit) {
    dir_ = fs::temp_directory_path() /
           ("steppe-upgrade-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(dir_);
    fs::copy(default_data_dir(), dir_, fs::copy_options::recursive);
    auto loaded = load_json_file(dir_ / file);
    EXPECT_TRUE(loaded);
    Json j = loaded ? *loaded : Json::object();
    edit(j);
    std::ofstream(dir_ / file) << j.dump(1);
  }
  ~ChangedData() { fs::remove_all(dir_); }
  ChangedData(const ChangedData&) = delete;
  ChangedData& operator=(const ChangedData&) = delete;
  const fs::path& dir() const { return dir_; }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
};

std::unique_ptr<Game> game_from(const std::string& id, const fs::path& data) {
  auto g = load_game(id, data);
  EXPECT_TRUE(g) << (g ? "" : g.error().to_string());
  return g ? std::move(g).value() : nullptr;
}

// Plays up to `n` random legal actions; every one must be accepted.
void play_on(Match& m, int n, uint64_t seed) {
  Dice rng(seed);
  std::vector<Action> acts;
  for (int i = 0; i < n && !m.state().is_terminal(); ++i) {
    m.state().legal_actions(acts);
    ASSERT_FALSE(acts.empty());
    const Action a = acts[static_cast<size_t>(rng.below(static_cast<int>(acts.size())))];
    ASSERT_TRUE(m.apply(a).is_ok()) << m.state().action_to_string(a);
  }
}

// Loads (migrating if need be) every fixture of `game` under `g`, continues it, and saves
// it again; the new save loads exactly. Returns the migration reports made.
std::vector<Json> continue_every_fixture(const std::string& game, const Game& g) {
  std::vector<Json> reports;
  const auto files = fixtures(game);
  EXPECT_FALSE(files.empty());
  for (const auto& f : files) {
    auto save = read_save_file(f);
    EXPECT_TRUE(save);
    if (!save) continue;
    auto m = Match::migrate_save_json(*save, g, f.string());
    EXPECT_TRUE(m) << f << ": " << (m ? "" : m.error().to_string());
    if (!m) continue;
    if (!(*m)->migrations().empty()) reports.push_back((*m)->migrations().back());
    play_on(**m, 20, 7);
    auto again = Match::from_save_json((*m)->save_json(), g, f.string() + " (saved again)");
    EXPECT_TRUE(again) << f << ": " << (again ? "" : again.error().to_string());
    if (again) {
      EXPECT_EQ((*again)->state().state_hash(), (*m)->state().state_hash()) << f;
    }
  }
  return reports;
}

TEST(Upgrade, EveryFixtureContinuesUnderTodaysEngine) {
  for (const std::string id : {"bd", "moscow41"}) {
    auto g = game_from(id, default_data_dir());
    ASSERT_TRUE(g);
    const auto reports = continue_every_fixture(id, *g);
    for (const auto& r : reports) EXPECT_FALSE(r.value("text", "").empty());
  }
}

TEST(Upgrade, BdFixturesContinueAfterACrtCellChange) {
  ChangedData data("bd/crt.json", [](Json& j) {
    // 11.10: the 1:1 column, die 3, becomes an exchange-free defender retreat.
    j["results"][5][2] = j["results"][5][2] == "DR" ? "AS" : "DR";
  });
  auto g = game_from("bd", data.dir());
  ASSERT_TRUE(g);
  const auto reports = continue_every_fixture("bd", *g);
  ASSERT_EQ(reports.size(), fixtures("bd").size()) << "every save must report its migration";
  for (const auto& r : reports) {
    EXPECT_TRUE(r["rules_changed"].get<bool>());
    EXPECT_NE(r["text"].get<std::string>().find("other rules data"), std::string::npos) << r.dump();
  }
}

TEST(Upgrade, Moscow41FixturesContinueAfterAMovementCostChange) {
  ChangedData data("moscow41/tables.json", [](Json& j) { j["terrain"]["yellow"]["mp"] = 3; });  // 2.6
  auto g = game_from("moscow41", data.dir());
  ASSERT_TRUE(g);
  const auto reports = continue_every_fixture("moscow41", *g);
  ASSERT_EQ(reports.size(), fixtures("moscow41").size());
  // Some moves the old rules allowed cost too much now: at least one game drops actions,
  // and says which and why.
  bool dropped = false;
  for (const auto& r : reports)
    if (!r["dropped"].empty()) {
      dropped = true;
      EXPECT_FALSE(r["refusal"].get<std::string>().empty());
      EXPECT_NE(r["text"].get<std::string>().find("no longer legal"), std::string::npos) << r.dump();
    }
  EXPECT_TRUE(dropped);
}

TEST(Upgrade, FixturesContinueAfterAScenariosLastTurnChange) {
  ChangedData data("bd/scenarios/citadel.json",
                   [](Json& j) { j["last_turn"] = j["last_turn"].get<int>() - 1; });
  auto g = game_from("bd", data.dir());
  ASSERT_TRUE(g);
  continue_every_fixture("bd", *g);
}

// A save made today keeps a position at the start of every game turn; after a rule change
// the game continues from the latest of them, not from the scenario's start, and the
// actions before it are kept as history.
TEST(Upgrade, ContinuesFromTheLatestPositionOfTheSave) {
  auto g = game_from("moscow41", default_data_dir());
  ASSERT_TRUE(g);
  // A random game that lasts into a second game turn and is not over.
  std::unique_ptr<Match> played;
  for (uint64_t seed = 1; seed < 40 && !played; ++seed) {
    auto t = Match::start(*g, "typhoon", seed);
    ASSERT_TRUE(t);
    play_on(**t, 150, seed);
    if ((*t)->positions().size() >= 2 && !(*t)->state().is_terminal()) played = std::move(t).value();
  }
  ASSERT_TRUE(played) << "no random game reached a second game turn";
  auto* m = &played;
  ASSERT_EQ((*m)->positions()[1].turn, (*m)->positions()[0].turn + 1)
      << "a position at the start of each game turn";
  const Json save = (*m)->save_json();
  ASSERT_TRUE(save.contains("positions"));
  const size_t latest = save["positions"].back()["after"].get<size_t>();
  ASSERT_EQ(latest, (*m)->size()) << "the last position is the end of the log";

  ChangedData data("moscow41/tables.json", [](Json& j) { j["terrain"]["yellow"]["mp"] = 3; });
  auto g2 = game_from("moscow41", data.dir());
  ASSERT_TRUE(g2);
  ASSERT_FALSE(Match::from_save_json(save, *g2)) << "the exact replay is refused: other rules data";
  auto mig = Match::migrate_save_json(save, *g2);
  ASSERT_TRUE(mig) << mig.error().to_string();
  const Json& r = (*mig)->migrations().back();
  EXPECT_EQ(r["base_after"].get<size_t>(), latest);
  EXPECT_FALSE(r["from_scenario_start"].get<bool>());
  EXPECT_EQ((*mig)->history().size(), latest);
  EXPECT_EQ((*mig)->state().state_hash(), (*m)->state().state_hash()) << "the position is where the game was";
  // The migrated save loads exactly under the new rules, with its history and its report.
  const Json save2 = (*mig)->save_json();
  auto back = Match::from_save_json(save2, *g2);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ((*back)->history().size(), latest);
  EXPECT_EQ((*back)->migrations().size(), 1U);
  play_on(**back, 30, 5);
}

// A position that no longer loads (here: a block the new roster lacks) is skipped for an
// earlier one, and the report says so.
TEST(Upgrade, SkipsAPositionThatNoLongerLoads) {
  auto g = game_from("moscow41", default_data_dir());
  ASSERT_TRUE(g);
  auto m = Match::start(*g, "typhoon", 4);
  ASSERT_TRUE(m);
  play_on(**m, 300, 11);
  Json save = (*m)->save_json();
  ASSERT_GE(save["positions"].size(), 2U);
  Json& last = save["positions"].back()["position"]["state"]["blocks"];
  last["Phantom Army"] = last.begin().value();
  save["rules_hash"] = "0000000000000000";  // as if made under other data
  auto mig = Match::migrate_save_json(save, *g);
  ASSERT_TRUE(mig) << mig.error().to_string();
  const Json& r = (*mig)->migrations().back();
  EXPECT_LT(r["base_after"].get<size_t>(), (*m)->size());
  ASSERT_EQ(r["skipped"].size(), 1U);
  EXPECT_NE(r["skipped"][0].get<std::string>().find("Phantom Army"), std::string::npos) << r.dump();
  EXPECT_TRUE(r["dropped"].empty()) << "the same rules: every later action replays";
  EXPECT_EQ((*mig)->state().state_hash(), (*m)->state().state_hash());
}

}  // namespace
}  // namespace steppe
