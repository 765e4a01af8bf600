// The example game: its data, the kernel's conformance suite, its scenario tests, and the
// typed views agreeing with the rules. A new game's first test file looks like this one.
#include "games/example/example.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "kernel/conformance.h"
#include "kernel/scenario_test.h"

namespace example {
namespace {

namespace fs = std::filesystem;

const ExampleGame& game() {
  static std::unique_ptr<steppe::Game> g = [] {
    auto r = load_game(STEPPE_DEFAULT_DATA_DIR);
    if (!r) {
      ADD_FAILURE() << r.error().to_string();
      std::abort();
    }
    return std::move(r).value();
  }();
  return *dynamic_cast<const ExampleGame*>(g.get());
}

std::unique_ptr<ExampleState> start(const std::string& scenario, uint64_t seed = 1) {
  auto r = game().new_state(scenario, seed);
  EXPECT_TRUE(r) << (r ? "" : r.error().to_string());
  return std::unique_ptr<ExampleState>(dynamic_cast<ExampleState*>(std::move(r).value().release()));
}

TEST(ExampleData, LoadsTheMapUnitsTableAndScenario) {
  const ExampleGame& g = game();
  EXPECT_EQ(g.grid().size(), 48);
  EXPECT_EQ(g.units().size(), 5u);
  EXPECT_EQ(g.crt_columns().size(), 5u);
  EXPECT_EQ(g.crt(-1, 6), "AE");  // 4.2: below 1-2
  EXPECT_EQ(g.crt(4, 6), "DE");
  EXPECT_EQ(g.terrain_at(g.grid().parse("0504")).name, "lake");
  ASSERT_EQ(g.scenarios().size(), 1u);
  EXPECT_EQ(g.scenarios()[0].last_turn, 4);
}

// Bad data is refused naming the file, the field and the value; one temporary folder per
// process, since ctest runs tests in parallel.
TEST(ExampleData, ABadValueIsRefusedNamingFileFieldAndValue) {
  const fs::path dir = fs::temp_directory_path() / ("example_bad_data-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "example");
  auto doc = steppe::load_json_file(fs::path(STEPPE_DEFAULT_DATA_DIR) / "example" / "game.json");
  ASSERT_TRUE(doc);
  steppe::Json j = *doc;
  j["crt"]["rows"][2][1] = "XX";
  j["scenarios"][0]["setup"]["R1"] = "0504";  // a lake
  std::ofstream(dir / "example" / "game.json") << j.dump();
  auto r = load_game(dir);
  ASSERT_FALSE(r);
  const std::string e = r.error().to_string();
  EXPECT_NE(e.find("game.json: /crt/rows/2/1"), std::string::npos) << e;
  EXPECT_NE(e.find("XX"), std::string::npos) << e;
  EXPECT_NE(e.find("1 more"), std::string::npos) << e;  // the lake set-up, reported in the same run
  fs::remove_all(dir);
}

TEST(ExampleConformance, RandomPlayoutsKeepTheStateContract) {
  for (const char* scenario : {"crossing", "empty"}) {
    const steppe::ConformanceReport rep = steppe::run_conformance(game(), scenario, 40, 7, 400);
    EXPECT_TRUE(rep.ok()) << scenario << ": " << rep.summary();
    EXPECT_EQ(rep.finished, rep.playouts) << scenario << ": every playout reaches the end";
    EXPECT_GT(rep.illegal_tried, 0) << scenario;
  }
}

TEST(ExampleRulebook, EveryScenarioTestPasses) {
  steppe::ScenarioEnv env;
  env.games = [](const std::string& id) -> steppe::Result<const steppe::Game*> {
    if (id != "example") return steppe::Error{"only the example game here", "", ""};
    return static_cast<const steppe::Game*>(&game());
  };
  env.agents = steppe::uniform_random_chooser();
  const fs::path dir = fs::path(STEPPE_DEFAULT_DATA_DIR).parent_path() / "tests" / "rulebook" / "example";
  const steppe::ScenarioSummary s = steppe::run_scenario_paths({dir}, env);
  EXPECT_GE(s.results.size(), 5u);
  for (const auto& r : s.results)
    if (!r.passed) ADD_FAILURE() << r.failure->to_string();
}

// The preview's distribution is the table apply() reads: each die face, forced on a copy,
// gives a result of the kind the preview counts for it.
TEST(ExampleViews, PreviewIsTheDistributionOfTheRealCombat) {
  auto s = start("crossing");
  ASSERT_TRUE(s->test_set({"place", "B1", "0602"}).is_ok());
  ASSERT_TRUE(s->test_set({"place", "B2", "0502"}).is_ok());
  ASSERT_TRUE(s->test_set({"phase", "blue-combat"}).is_ok());
  auto a = s->parse_action("attack 0603");
  ASSERT_TRUE(a) << a.error().to_string();
  auto p = s->preview(*a, kBlue);
  ASSERT_TRUE(p) << p.error().to_string();
  double total = 0;
  std::map<std::string, double> expected;
  for (const auto& o : p->outcomes) {
    total += o.probability;
    expected[o.result] = o.probability;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  std::map<std::string, double> seen;
  for (int die = 1; die <= 6; ++die) {
    auto c = s->clone();
    c->dice().force(die);
    struct Sink : steppe::EventSink {
      std::string result;
      void emit(steppe::Event e) override {
        if (e.kind == "combat") result = e.text.substr(e.text.rfind(' ') + 1);
      }
    } sink;
    c->set_event_sink(&sink);
    ASSERT_TRUE(c->apply(*a).is_ok());
    seen[sink.result] += 1.0 / 6;
  }
  ASSERT_EQ(seen.size(), expected.size());
  for (const auto& [res, prob] : expected) EXPECT_NEAR(seen[res], prob, 1e-12) << res;
}

// Reach lists exactly the destinations of the unit's legal moves, each with a path that
// ends there and costs no more than the allowance.
TEST(ExampleViews, ReachIsTheLegalMoves) {
  auto s = start("crossing");
  std::vector<steppe::Action> legal;
  s->legal_actions(legal);
  std::set<std::string> moves;
  for (const auto& a : legal)
    if (a.verb == kMove && a.args[0] == game().unit_index("B3")) moves.insert(game().grid().id(a.args[1]));
  auto r = s->reach("B3", kBlue);
  ASSERT_TRUE(r) << r.error().to_string();
  std::set<std::string> reached;
  for (const auto& d : r->destinations) {
    reached.insert(d.location);
    ASSERT_FALSE(d.path.empty());
    EXPECT_EQ(d.path.back(), d.location);
    EXPECT_LE(d.cost, r->allowance);
  }
  EXPECT_EQ(reached, moves);
  EXPECT_FALSE(moves.empty());
}

}  // namespace
}  // namespace example
