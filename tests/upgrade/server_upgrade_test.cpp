// Issue 29, the server: a game stored by the engine of 2026-11-28 (server-2026-11-28.db,
// README.md beside) is never lost to a new engine. Each game opens under today's engine and
// after a rules change the test makes on a copy of data/ (a BD CRT cell, a Moscow '41
// movement cost); a game whose log no longer replays continues from its latest position
// (else the scenario's start), its players read what happened in their log, and the
// upgrade is stored so that the next start does not redo it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "games/all_games.h"
#include "kernel/dice.h"
#include "kernel/json_data.h"
#include "server/service.h"
#include "server/store.h"

namespace steppe::server {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtureDb = "tests/upgrade/server-2026-11-28.db";

fs::path temp_dir(const std::string& name) {
  static int counter = 0;
  fs::path p = fs::temp_directory_path() / ("steppe-server-upgrade-" + name + "-" +
                                            std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// A copy of the fixture database: the test never writes the fixture itself.
fs::path fixture_copy(const fs::path& dir) {
  fs::copy_file(kFixtureDb, dir / "steppe.db", fs::copy_options::overwrite_existing);
  return dir / "steppe.db";
}

// A copy of the installed data with files edited: the rules change of a new release.
fs::path changed_data(const fs::path& dir, const std::map<std::string, std::function<void(Json&)>>& edits) {
  const fs::path data = dir / "data";
  fs::copy(default_data_dir(), data, fs::copy_options::recursive);
  for (const auto& [file, edit] : edits) {
    auto loaded = load_json_file(data / file);
    EXPECT_TRUE(loaded) << file;
    Json j = loaded ? *loaded : Json::object();
    edit(j);
    std::ofstream(data / file) << j.dump(1);
  }
  return data;
}

GameCatalog catalog_from(const fs::path& data) {
  GameCatalog cat;
  for (const std::string id : {"bd", "moscow41"}) {
    auto g = load_game(id, data);
    EXPECT_TRUE(g) << (g ? "" : g.error().to_string());
    std::shared_ptr<const Game> game = g ? std::shared_ptr<const Game>(std::move(g).value()) : nullptr;
    cat.push_back(CatalogEntry{id, game != nullptr ? game->name() : id, game, {}});
  }
  return cat;
}

std::unique_ptr<Service> open_service(const fs::path& db, const fs::path& data) {
  auto store = open_sqlite_store(db);
  EXPECT_TRUE(store) << (store ? "" : store.error().to_string());
  ServiceOptions opts;
  opts.agent_threads = 1;
  opts.create_per_minute = 0;
  return std::make_unique<Service>(catalog_from(data), std::move(store).value(), opts);
}

// The stored games (with their seats' tokens), read from the store as it is.
std::vector<StoredGame> stored_games(const fs::path& db) {
  auto store = open_sqlite_store(db);
  EXPECT_TRUE(store);
  auto games = (*store)->list_games();
  EXPECT_TRUE(games);
  return games ? *games : std::vector<StoredGame>{};
}

std::string token_of(const StoredGame& g, int side) {
  for (const auto& s : g.seats)
    if (s.side == side) return s.token;
  return {};
}

// The side to move plays one legal action through the API; it must be accepted.
void play_one(Service& svc, const StoredGame& g) {
  auto info = svc.game_info(g.id);
  ASSERT_EQ(info.status, 200) << info.body.dump();
  const int side = info.body["game"].value("current_player", -1);
  ASSERT_GE(side, 0) << g.id << ": nobody to move";
  const std::string token = token_of(g, side);
  auto v = svc.view(g.id, token);
  ASSERT_EQ(v.status, 200) << v.text();
  const Json view = v.json()["view"];
  std::string text;
  if (!view["legal_actions"].empty()) {
    text = view["legal_actions"][0]["text"].get<std::string>();
  } else {
    ASSERT_FALSE(view["legal_units"].empty()) << g.id << ": no legal action";
    auto ua = svc.unit_actions(g.id, token, view["legal_units"][0].get<std::string>());
    ASSERT_EQ(ua.status, 200);
    ASSERT_FALSE(ua.body["actions"].empty());
    text = ua.body["actions"][0]["text"].get<std::string>();
  }
  auto res = svc.act(g.id, token, text);
  EXPECT_EQ(res.status, 200) << g.id << " (" << g.game << " " << g.scenario << "): '" << text
                             << "': " << res.text();
}

// Every fixture game is listed as playable under the engine of `data`, and each active one
// accepts a move. Returns the games as listed.
Json every_game_continues(const fs::path& db, const fs::path& data) {
  const auto games = stored_games(db);
  EXPECT_EQ(games.size(), 10U);
  auto svc = open_service(db, data);
  EXPECT_EQ(svc->resume_all(), static_cast<int>(games.size()));
  const Json list = svc->list_games().body["games"];
  for (const auto& g : list) EXPECT_NE(g["status"], "unavailable") << g.dump();
  for (const auto& g : games)
    if (g.status == "active") {
      auto info = svc->game_info(g.id);
      if (info.body["game"]["status"] == "active") play_one(*svc, g);
    }
  svc->shutdown();
  return list;
}

TEST(ServerUpgrade, EveryFixtureGameContinuesUnderTodaysEngine) {
  const fs::path dir = temp_dir("today");
  const fs::path db = fixture_copy(dir);
  const Json list = every_game_continues(db, default_data_dir());
  // The rules data changed since the fixture was made (the engine before issue 29 listed
  // these games as "unavailable"): each was upgraded, once.
  for (const auto& g : list) EXPECT_EQ(g.value("upgrades", Json::array()).size(), 1U) << g.dump();
  // The database is at today's schema, and the move just played left positions beside the log.
  bool any_position = false;
  auto store = open_sqlite_store(db);
  ASSERT_TRUE(store);
  const auto games = (*store)->list_games();
  ASSERT_TRUE(games);
  const std::vector<StoredGame> listed = *games;
  for (const auto& g : listed) {
    auto ps = (*store)->positions(g.id);
    ASSERT_TRUE(ps);
    if (!ps->empty()) any_position = true;
  }
  EXPECT_TRUE(any_position);
  fs::remove_all(dir);
}

// The rules change of a new release: BD's CRT (11.10, the 1:1 column, die 3) and Moscow
// '41's movement cost of yellow areas (2.6).
std::map<std::string, std::function<void(Json&)>> rule_fixes() {
  return {{"bd/crt.json", [](Json& j) { j["results"][5][2] = j["results"][5][2] == "DR" ? "AS" : "DR"; }},
          {"moscow41/tables.json", [](Json& j) { j["terrain"]["yellow"]["mp"] = 3; }}};
}

TEST(ServerUpgrade, EveryFixtureGameContinuesAfterARulesChangeAndSaysHow) {
  const fs::path dir = temp_dir("changed");
  const fs::path db = fixture_copy(dir);
  const fs::path data = changed_data(dir, rule_fixes());
  const auto before = stored_games(db);
  const Json list = every_game_continues(db, data);
  ASSERT_EQ(list.size(), before.size());
  // Each game was upgraded, says so in public terms, and in each side's log.
  bool dropped = false;
  auto svc = open_service(db, data);
  svc->resume_all();
  for (const auto& g : before) {
    const Json info = svc->game_info(g.id).body["game"];
    ASSERT_TRUE(info.contains("upgrades")) << info.dump();
    EXPECT_EQ(info["upgrades"].size(), 1U) << "the upgrade is stored, not redone at the next start";
    EXPECT_TRUE(info["upgrades"][0]["rules_changed"].get<bool>());
    EXPECT_TRUE(info["upgrades"][0]["from_scenario_start"].get<bool>()) << "the fixture has no positions";
    if (info["upgrades"][0]["dropped"].get<size_t>() > 0) dropped = true;
    for (const auto& seat : g.seats) {
      auto lg = svc->log(g.id, seat.token, 0);
      ASSERT_EQ(lg.status, 200) << lg.body.dump();
      const Json& evs = lg.body["events"];
      ASSERT_FALSE(evs.empty());
      EXPECT_EQ(evs[0]["kind"], "upgrade") << evs[0].dump();
      const std::string text = evs[0]["text"].get<std::string>();
      EXPECT_EQ(text.rfind("Continued under Steppe " STEPPE_VERSION " from the scenario's start: ", 0), 0U)
          << text;
      EXPECT_NE(text.find("the rules data changed since this game was stored"), std::string::npos) << text;
      if (info["upgrades"][0]["dropped"].get<size_t>() > 0) {
        EXPECT_NE(text.find("is no longer legal"), std::string::npos) << text;
      }
    }
  }
  EXPECT_TRUE(dropped) << "some moves the old rules allowed are refused by the new ones";
  svc->shutdown();
  // Stored under the installed rules: the store holds the new rules hash and the history.
  auto reloaded = open_service(db, data);
  EXPECT_EQ(reloaded->resume_all(), static_cast<int>(before.size()));
  for (const auto& g : stored_games(db)) {
    EXPECT_EQ(g.migrations.size(), 1U) << g.id;
    EXPECT_EQ(g.engine_version, STEPPE_VERSION);
  }
  reloaded->shutdown();
  fs::remove_all(dir);
}

// A game stored today keeps a position at the start of every game turn; after a rules
// change it continues from the latest one, not from the scenario's start.
TEST(ServerUpgrade, AGameStoredTodayContinuesFromItsLatestPosition) {
  const fs::path dir = temp_dir("positions");
  const fs::path db = dir / "steppe.db";
  std::string id;
  std::vector<std::string> tokens;
  uint64_t hash_before = 0;
  int actions_before = 0;
  {
    auto store = open_sqlite_store(db);
    ASSERT_TRUE(store);
    ServiceOptions opts;
    opts.debug_state = true;
    opts.create_per_minute = 0;
    Service svc(catalog_from(default_data_dir()), std::move(store).value(), opts);
    auto created = svc.create_game(Json{{"game", "moscow41"}, {"scenario", "typhoon"}, {"seed", 4}});
    ASSERT_EQ(created.status, 200) << created.body.dump();
    id = created.body["game"]["id"].get<std::string>();
    for (const auto& s : created.body["seats"]) tokens.push_back(s["token"].get<std::string>());
    // Random legal moves until the game is in its second game turn.
    Dice rng(9);
    int first_turn = -1;
    int turn_changed_at = -1;
    for (int i = 0; i < 600; ++i) {
      const Json info = svc.game_info(id).body["game"];
      if (info["status"] != "active") break;
      const int side = info["current_player"].get<int>();
      const Json view = svc.view(id, tokens[static_cast<size_t>(side)]).json()["view"];
      const int turn = view["observation"].value("turn", 0);
      if (first_turn < 0) first_turn = turn;
      if (turn > first_turn && turn_changed_at < 0) turn_changed_at = i;
      if (turn_changed_at >= 0 && i >= turn_changed_at + 3) break;  // a few actions into the turn
      const Json& legal = view["legal_actions"];
      ASSERT_FALSE(legal.empty());
      const auto pick = static_cast<size_t>(rng.below(static_cast<int>(legal.size())));
      ASSERT_EQ(svc.act(id, tokens[static_cast<size_t>(side)], legal[pick]["text"].get<std::string>()).status,
                200);
    }
    hash_before = std::stoull(svc.debug_hash(id).body["state_hash"].get<std::string>(), nullptr, 16);
    actions_before = svc.game_info(id).body["game"]["actions_count"].get<int>();
    svc.shutdown();
  }
  int latest_turn_start = -1;
  {
    auto store = open_sqlite_store(db);
    ASSERT_TRUE(store);
    auto ps = (*store)->positions(id);
    ASSERT_TRUE(ps);
    ASSERT_GE(ps->size(), 2U);
    EXPECT_EQ(ps->back().after, actions_before) << "the end of the log";
    for (const auto& p : *ps)
      if (p.turn_start) latest_turn_start = p.after;
    ASSERT_GT(latest_turn_start, 0) << "a position at the start of the second game turn";
  }
  const fs::path data = changed_data(dir, {rule_fixes()});
  ServiceOptions opts;
  opts.debug_state = true;
  auto store = open_sqlite_store(db);
  ASSERT_TRUE(store);
  Service svc(catalog_from(data), std::move(store).value(), opts);
  EXPECT_EQ(svc.resume_all(), 1);
  const Json info = svc.game_info(id).body["game"];
  ASSERT_TRUE(info.contains("upgrades")) << info.dump();
  const Json& up = info["upgrades"][0];
  EXPECT_FALSE(up["from_scenario_start"].get<bool>());
  EXPECT_EQ(up["base_after"].get<int>(), actions_before) << "the latest position: the end of the log";
  EXPECT_EQ(std::stoull(svc.debug_hash(id).body["state_hash"].get<std::string>(), nullptr, 16), hash_before)
      << "the game is where it was";
  const std::string text = svc.log(id, tokens[0], 0).body["events"][0]["text"].get<std::string>();
  EXPECT_NE(text.find("from the position at game turn"), std::string::npos) << text;
  svc.shutdown();
  fs::remove_all(dir);
}

// The end-of-log position is not built and stored with every action (it was 40% of the
// server's CPU, issue 21): with every `end_position_every`-th action after the last one
// stored, with turn starts, and at shutdown, so the newest stored position is never more
// than that many actions behind and the end of the log once the server stops.
TEST(ServerUpgrade, TheEndPositionIsStoredEveryFewActionsAndAtShutdown) {
  const fs::path dir = temp_dir("end-position");
  const fs::path db = dir / "steppe.db";
  constexpr int kEvery = 5;
  constexpr int kActions = 23;
  std::string id;
  {
    auto store = open_sqlite_store(db);
    ASSERT_TRUE(store);
    ServiceOptions opts;
    opts.create_per_minute = 0;
    opts.end_position_every = kEvery;
    Service svc(catalog_from(default_data_dir()), std::move(store).value(), opts);
    auto created = svc.create_game(Json{{"game", "moscow41"}, {"scenario", "typhoon"}, {"seed", 4}});
    ASSERT_EQ(created.status, 200) << created.body.dump();
    id = created.body["game"]["id"].get<std::string>();
    std::vector<std::string> tokens;
    for (const auto& s : created.body["seats"]) tokens.push_back(s["token"].get<std::string>());
    Dice rng(3);
    auto reader = open_sqlite_store(db);
    ASSERT_TRUE(reader);
    int written = 0;
    int newest = 0;
    for (int i = 1; i <= kActions; ++i) {
      const int side = svc.game_info(id).body["game"]["current_player"].get<int>();
      const Json view = svc.view(id, tokens[static_cast<size_t>(side)]).json()["view"];
      const Json& legal = view["legal_actions"];
      ASSERT_FALSE(legal.empty());
      const auto pick = static_cast<size_t>(rng.below(static_cast<int>(legal.size())));
      ASSERT_EQ(svc.act(id, tokens[static_cast<size_t>(side)], legal[pick]["text"].get<std::string>()).status,
                200);
      auto ps = (*reader)->positions(id);
      ASSERT_TRUE(ps);
      // None yet: the game starts from its scenario, which is not stored as a position.
      newest = ps->empty() ? 0 : ps->back().after;
      if (newest == i) ++written;
      EXPECT_LT(i - newest, kEvery) << "after action " << i << " the newest position follows action "
                                    << newest;
    }
    EXPECT_LT(written, kActions) << "a position with every action";
    EXPECT_GE(written, kActions / kEvery);
    EXPECT_LT(newest, kActions)
        << "the last action stored no position (pick another seed if it started a turn)";
    svc.shutdown();
  }
  auto store = open_sqlite_store(db);
  ASSERT_TRUE(store);
  auto ps = (*store)->positions(id);
  ASSERT_TRUE(ps);
  ASSERT_FALSE(ps->empty());
  EXPECT_EQ(ps->back().after, kActions) << "shutdown stores the end of the log";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace steppe::server
