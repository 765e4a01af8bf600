// Kill-and-restart durability with the real `steppe serve` binary and the first
// installed game (skipped, saying so, while no game is installed).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

#include "child_server.h"
#include "games/all_games.h"
#include "server/store.h"
#include "test_client.h"

namespace fs = std::filesystem;
using namespace steppe;
using namespace steppe::testing;

namespace {

std::string hex_hash(uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Replays the stored actions of `id` on `game` and returns the state hash.
[[maybe_unused]] std::string replay_hash(const Game& game, const fs::path& db, const std::string& id,
                                         size_t* count) {
  auto store = server::open_sqlite_store(db);
  if (!store) return "store: " + store.error().to_string();
  auto meta = (*store)->find_game(id);
  if (!meta || !meta->has_value()) return "game not found";
  auto acts = (*store)->actions(id);
  if (!acts) return "actions: " + acts.error().to_string();
  auto st = game.new_state((**meta).scenario, (**meta).seed);
  if (!st) return "new_state: " + st.error().to_string();
  // The server replays with an event sink attached; so does this.
  struct Discard final : EventSink {
    void emit(Event) override {}
  } sink;
  (*st)->set_event_sink(&sink);
  for (const auto& a : *acts) {
    auto parsed = (*st)->parse_action(a.text);
    if (!parsed) return "parse: " + parsed.error().to_string();
    if (Status s = (*st)->apply(*parsed); !s.is_ok()) return "apply: " + s.error().to_string();
  }
  *count = acts->size();
  return hex_hash((*st)->state_hash());
}

}  // namespace

// The same with the real `steppe serve` and the first installed game.
TEST(KillRestart, RealSteppeServeSurvivesSigkill) {
  const fs::path dir = server_temp_dir("real");
  const std::string db = (dir / "steppe.db").string();
  ChildServer p = spawn_server({STEPPE_SERVE_BIN, "serve", "--db", db, "--port", "0", "--debug-state"});
  ASSERT_GT(p.port, 0) << "steppe serve did not start";
  Reply cat = http_get(p.port, "/api/catalog");
  std::string game_id;
  for (const auto& g : cat.body["games"])
    if (g["available"] == true) {
      game_id = g["id"];
      break;
    }
  if (game_id.empty()) {
    p.stop_gently();
    GTEST_SKIP() << "skipped: no game installed";
  }
  auto game = load_game(game_id, default_data_dir());
  ASSERT_TRUE(game.is_ok()) << game.error().to_string();
  // A real scenario (its set-up phase gives actions at once), else "empty".
  std::string scenario = "empty";
  for (const auto& g : cat.body["games"])
    if (g["id"] == game_id)
      for (const auto& sc : g["scenarios"])
        if (sc["id"] != "empty") {
          scenario = sc["id"];
          break;
        }
  Reply c = http_post(p.port, "/api/games", Json{{"game", game_id}, {"scenario", scenario}, {"seed", 5}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  std::vector<std::string> tokens;
  for (const auto& s : c.body["seats"]) tokens.push_back(s["token"]);
  size_t acked = 0;
  for (int i = 0; i < 30; ++i) {
    Reply v = http_get(p.port, "/api/games/" + id + "/view", tokens[0]);
    const int to_move = v.body["view"].value("current_player", -1);
    if (to_move < 0) break;
    Reply mv = http_get(p.port, "/api/games/" + id + "/view", tokens[static_cast<size_t>(to_move)]);
    const auto& legal = mv.body["view"]["legal_actions"];
    if (legal.empty()) break;
    Reply r = http_post(p.port, "/api/games/" + id + "/action", Json{{"action", legal[0]["text"]}},
                        tokens[static_cast<size_t>(to_move)]);
    ASSERT_EQ(r.status, 200) << r.raw;
    ++acked;
  }
  ASSERT_GE(acked, 10u) << "the scenario should offer actions from the start";
  const std::string before = http_get(p.port, "/api/games/" + id + "/debug/hash").body["state_hash"];
  p.kill_hard();
  ChildServer q = spawn_server({STEPPE_SERVE_BIN, "serve", "--db", db, "--port", "0", "--debug-state"});
  ASSERT_GT(q.port, 0);
  EXPECT_EQ(http_get(q.port, "/api/games/" + id + "/debug/hash").body["state_hash"], before);
  size_t replayed = 0;
  EXPECT_EQ(replay_hash(**game, db, id, &replayed), before);
  EXPECT_EQ(replayed, acked);
  q.stop_gently();
}

// With the installed games: nothing sent to one side carries a unit the other side's own
// observation shows but this side's observation does not (BD 11.7: the German sees only
// the top unit of a Soviet stack and nothing of the RVGK).
TEST(InstalledGames, SeatViewsCarryNoUnitHiddenFromThatSide) {
  const fs::path dir = server_temp_dir("hidden");
  ChildServer p =
      spawn_server({STEPPE_SERVE_BIN, "serve", "--db", (dir / "steppe.db").string(), "--port", "0"});
  ASSERT_GT(p.port, 0);
  Reply cat = http_get(p.port, "/api/catalog");
  int checked_games = 0;
  for (const auto& g : cat.body["games"]) {
    if (g["available"] != true) continue;
    std::string scenario;
    for (const auto& sc : g["scenarios"])
      if (sc["id"] != "empty") {
        scenario = sc["id"];
        break;
      }
    if (scenario.empty()) continue;
    Reply c = http_post(p.port, "/api/games", Json{{"game", g["id"]}, {"scenario", scenario}, {"seed", 3}});
    ASSERT_EQ(c.status, 200) << c.raw;
    const std::string id = c.body["game"]["id"];
    std::vector<std::string> tokens;
    for (const auto& s : c.body["seats"]) tokens.push_back(s["token"]);
    // Play the first legal action a while, so that units are on the map.
    for (int i = 0; i < 120; ++i) {
      const int to_move = http_get(p.port, "/api/games/" + id).body["game"].value("current_player", -1);
      if (to_move < 0) break;
      Reply v = http_get(p.port, "/api/games/" + id + "/view", tokens[static_cast<size_t>(to_move)]);
      if (v.body["view"]["legal_actions"].empty()) break;
      ASSERT_EQ(http_post(p.port, "/api/games/" + id + "/action",
                          Json{{"action", v.body["view"]["legal_actions"][0]["text"]}},
                          tokens[static_cast<size_t>(to_move)])
                    .status,
                200);
    }
    size_t hidden_checked = 0;
    std::vector<std::string> raw;
    std::vector<Json> obs;
    for (const auto& t : tokens) {
      Reply v = http_get(p.port, "/api/games/" + id + "/view", t);
      raw.push_back(v.raw + http_get(p.port, "/api/games/" + id + "/log", t).raw);
      obs.push_back(v.body["view"]["observation"]);
    }
    for (size_t viewer = 0; viewer < tokens.size(); ++viewer) {
      for (size_t owner = 0; owner < tokens.size(); ++owner) {
        if (owner == viewer || !obs[owner].contains("stacks")) continue;
        const std::string owner_name = obs[owner].value("viewer", "");
        const std::string seen = obs[viewer].dump();
        for (const auto& st : obs[owner]["stacks"]) {
          if (st.value("side", "") != owner_name) continue;
          for (const auto& u : st["units"]) {
            const std::string label = u.value("unit", "");
            if (label.empty() || seen.find("\"" + label + "\"") != std::string::npos) continue;
            // Hidden from `viewer`: it must not appear as a unit in anything it was sent.
            ++hidden_checked;
            EXPECT_EQ(raw[viewer].find("\"unit\":\"" + label + "\""), std::string::npos)
                << g["id"] << ": " << label << " leaked to side " << viewer;
          }
        }
      }
    }
    std::cout << "[ info     ] " << g["id"].get<std::string>() << ": " << hidden_checked
              << " hidden unit(s) checked\n";
    if (g["id"] == "bd") {
      EXPECT_GT(hidden_checked, 0u) << "BD hides Soviet stacks from the German: check not vacuous";
    }
    ++checked_games;
  }
  p.stop_gently();
  if (checked_games == 0) GTEST_SKIP() << "skipped: no game installed";
}
