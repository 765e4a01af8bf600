// Kill-and-restart durability with the real `steppe serve` binary and the first
// installed game (skipped, saying so, while no game is installed).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "child_server.h"
#include "games/all_games.h"
#include "server/store.h"
#include "test_client.h"
#include "text_words.h"

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

namespace {

bool on_map(const std::string& at) {
  return at != "pool" && at != "drawn" && at != "oob-n" && at != "oob-k" && at != "destroyed" &&
         at != "surrendered" && at != "unplaced" && at != "setup";
}

}  // namespace

// Moscow '41 fog of war (1.5) through the real server: play random legal actions and, after
// each, compare what each seat is sent with what the other seat owns. A block that is on
// the map and not revealed (its owner's view says so) must not be named anywhere in the
// other seat's view (HTTP or WebSocket), and that seat gets only a count per area for it:
// no id, strength or type. Events that reveal nothing (moves, DLs, reinforcements...) must
// never name an enemy block the seat has not seen revealed, eliminated or named by a
// revealing event (combat rolls and showdowns are public, 10.12.1). In a scenario that begins
// with the Scenario Setup (Typhoon), the pieces waiting in a side's hand are likewise only a
// count of blocks and of Defensive Lines to the other seat, never a name.
static void moscow41_seats_are_sent_no_hidden_enemy_block(const std::string& scenario) {
  const fs::path dir = server_temp_dir("m41fog-" + scenario);
  ChildServer p =
      spawn_server({STEPPE_SERVE_BIN, "serve", "--db", (dir / "steppe.db").string(), "--port", "0"});
  ASSERT_GT(p.port, 0);
  bool installed = false;
  const Reply cat = http_get(p.port, "/api/catalog");  // named: the loop must not outlive it
  for (const auto& g : cat.body["games"])
    installed = installed || (g["id"] == "moscow41" && g["available"] == true);
  if (!installed) {
    p.stop_gently();
    GTEST_SKIP() << "skipped: moscow41 is not installed";
  }
  Reply c = http_post(p.port, "/api/games", Json{{"game", "moscow41"}, {"scenario", scenario}, {"seed", 3}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  std::vector<std::string> tokens;
  for (const auto& s : c.body["seats"]) tokens.push_back(s["token"]);
  ASSERT_EQ(tokens.size(), 2u);
  WsClient ws0(p.port, "/api/games/" + id + "/ws?token=" + tokens[0]);
  WsClient ws1(p.port, "/api/games/" + id + "/ws?token=" + tokens[1]);
  WsClient* ws[2] = {&ws0, &ws1};
  std::vector<std::string> sent[2];    // raw messages to each seat, checked at the end
  std::set<std::string> seen[2];       // enemy ids each seat has legitimately seen
  std::set<std::string> enemy_ids[2];  // the other side's block ids
  size_t hidden_checked = 0, views_checked = 0, setup_checked = 0;
  uint64_t x = 12345;
  // After `n` actions: each seat's view over HTTP and the update its socket got for the
  // n-th action, both checked against the other seat's own (HTTP) view.
  auto check_views = [&](size_t n, const std::string& when) {
    Json view[2], pushed[2];
    for (int s = 0; s < 2; ++s) {
      Reply v = http_get(p.port, "/api/games/" + id + "/view", tokens[static_cast<size_t>(s)]);
      ASSERT_EQ(v.status, 200) << v.raw;
      view[s] = v.body["view"];
      sent[s].push_back(v.raw);
      auto has_n = [&](const std::vector<std::string>& ms) {
        for (const auto& m : ms) {
          const Json j = Json::parse(m, nullptr, false);
          if (j.is_object() && j.contains("view") && j["view"].value("actions_count", size_t{0}) == n) {
            pushed[s] = j["view"];
            return true;
          }
        }
        return false;
      };
      ASSERT_TRUE(ws[s]->wait_for(has_n)) << when << ": no socket update for side " << s;
      for (const auto& m : ws[s]->messages) sent[s].push_back(m);
      ws[s]->messages.clear();
    }
    for (int k = 0; k < 4; ++k) {
      const int v = k % 2, owner = 1 - v;
      const Json& seat = k < 2 ? view[v] : pushed[v];
      const Json& mine = view[owner]["observation"];
      const Json& theirs = seat["observation"];
      ASSERT_TRUE(mine.contains("own") && theirs.contains("enemy_hidden")) << when;
      std::set<std::string> strings;
      strings_in(seat, strings);
      std::map<std::string, int> hidden_per_area;
      std::map<std::string, Json> revealed;
      int drawn = 0;    // 5.0: drawn reinforcements not yet placed: a count, never a name
      int in_hand = 0;  // Scenario Setup: blocks waiting in the owner's hand, likewise
      for (const auto& b : mine["own"]) {
        const std::string bid = b["id"];
        enemy_ids[v].insert(bid);
        const std::string at = b["at"];
        if (at == "drawn") {
          ++drawn;
          EXPECT_EQ(strings.count(bid), 0u) << when << ": drawn " << bid << " named to side " << v;
        }
        if (at == "setup") {
          ++in_hand;
          ++setup_checked;
          EXPECT_EQ(strings.count(bid), 0u)
              << when << ": waiting set-up block " << bid << " named to side " << v;
        }
        if (!on_map(at)) continue;
        if (b["revealed"] == true) {
          revealed[bid] = b;
          seen[v].insert(bid);
          continue;
        }
        ++hidden_per_area[at];
        ++hidden_checked;
        EXPECT_EQ(strings.count(bid), 0u) << when << ": hidden " << bid << " named to side " << v;
      }
      // What the seat gets for the hidden blocks: a count (and isolated count) per area.
      std::map<std::string, int> counted;
      for (const auto& [area, h] : theirs["enemy_hidden"].items()) {
        for (const auto& [field, val] : h.items())
          EXPECT_TRUE(field == "blocks" || field == "isolated")
              << when << ": hidden block field '" << field << "'";
        counted[area] = h.value("blocks", 0);
      }
      EXPECT_EQ(counted, hidden_per_area) << when << ": side " << v;
      EXPECT_EQ(theirs.value("enemy_drawn", 0), drawn) << when << ": side " << v;
      EXPECT_FALSE(theirs.contains("setup") && mine.contains("setup"))
          << when << ": both sides hold set-up pieces";
      if (mine.contains("setup")) {
        // The owner's tray: each piece, its rule and its areas; the seat: two counts only.
        int dls = 0;
        for (const auto& piece : mine["setup"]) dls += piece["piece"] == "dl";
        ASSERT_TRUE(theirs.contains("enemy_setup")) << when;
        EXPECT_EQ(theirs["enemy_setup"], (Json{{"blocks", in_hand}, {"dls", dls}})) << when << ": side " << v;
        EXPECT_EQ(static_cast<int>(mine["setup"].size()), in_hand + dls) << when;
      } else {
        EXPECT_EQ(in_hand, 0) << when;
      }
      // What it gets for the revealed ones: exactly the revealed blocks, at their strength.
      for (const auto& e : theirs["enemy_revealed"]) {
        const std::string bid = e["id"];
        ASSERT_EQ(revealed.count(bid), 1u) << when << ": " << bid << " shown to side " << v;
        EXPECT_EQ(e["strength"], revealed[bid]["strength"]) << when;
        EXPECT_EQ(e["at"], revealed[bid]["at"]) << when;
      }
      for (const auto& e : theirs["enemy_eliminated"]) seen[v].insert(e.get<std::string>());
      ++views_checked;
    }
  };
  check_views(0, "start");
  for (int i = 0; i < 200; ++i) {
    const int to_move = http_get(p.port, "/api/games/" + id).body["game"].value("current_player", -1);
    if (to_move < 0) break;
    const auto side = static_cast<size_t>(to_move);
    Reply v = http_get(p.port, "/api/games/" + id + "/view", tokens[side]);
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const Json legal = offered_actions(p.port, id, tokens[side], v.body["view"], x >> 40);
    if (legal.empty()) break;
    const Json& pick = legal[static_cast<size_t>((x >> 33) % legal.size())];
    Reply r = http_post(p.port, "/api/games/" + id + "/action", Json{{"action", pick["text"]}}, tokens[side]);
    ASSERT_EQ(r.status, 200) << r.raw;
    sent[side].push_back(r.raw);
    check_views(static_cast<size_t>(i) + 1,
                "after action " + std::to_string(i) + " '" + pick["text"].get<std::string>() + "'");
    if (::testing::Test::HasFatalFailure()) break;
  }
  // The log, the timeline and a few replay points, then the events of every message.
  for (int s = 0; s < 2; ++s) {
    const std::string& t = tokens[static_cast<size_t>(s)];
    for (const char* path : {"/log", "/timeline", ""})
      sent[s].push_back(http_get(p.port, "/api/games/" + id + path, t).raw);
    for (int step : {0, 20, 80, 160})
      sent[s].push_back(http_get(p.port, "/api/games/" + id + "/replay?step=" + std::to_string(step), t).raw);
  }
  size_t events_checked = 0;
  for (int v = 0; v < 2; ++v) {
    // First the revealing events: what they name has been shown to the seat.
    std::vector<Json> events;
    for (const auto& m : sent[v]) {
      const Json j = Json::parse(m, nullptr, false);
      std::vector<const Json*> stack{&j};
      while (!stack.empty()) {
        const Json* e = stack.back();
        stack.pop_back();
        if (e->is_object() && e->contains("kind") && e->contains("text") && e->contains("reveals")) {
          events.push_back(*e);
          continue;
        }
        if (e->is_object() || e->is_array())
          for (const auto& child : *e) stack.push_back(&child);
      }
    }
    for (const auto& e : events)
      if (e["reveals"] == true)
        for (const auto& w : words_of(e["text"])) seen[v].insert(w);
    for (const auto& e : events) {
      if (e["reveals"] == true) continue;
      ++events_checked;
      for (const auto& w : words_of(e["text"]))
        EXPECT_FALSE(enemy_ids[v].count(w) != 0 && seen[v].count(w) == 0)
            << "side " << v << " was told of unseen enemy block " << w << ": " << e["text"];
    }
  }
  std::cout << "[ info     ] moscow41 " << scenario << ": " << views_checked << " seat views, "
            << hidden_checked << " hidden blocks, " << setup_checked << " set-up blocks in hand, "
            << events_checked << " non-revealing events checked\n";
  EXPECT_GT(hidden_checked, 1000u) << "the check must not be vacuous";
  EXPECT_GT(events_checked, 50u);
  if (scenario == "typhoon") {
    EXPECT_GT(setup_checked, 500u) << "the set-up's hand must be checked";
  }
  p.stop_gently();
}

TEST(InstalledGames, Moscow41SeatsAreSentNoHiddenEnemyBlock) {
  moscow41_seats_are_sent_no_hidden_enemy_block("campaign");
}

TEST(InstalledGames, Moscow41SetUpSeatsAreSentNoHiddenEnemyBlock) {  // Scenario Setup, 1.5
  moscow41_seats_are_sent_no_hidden_enemy_block("typhoon");
}

// The catalog offers each scenario's optional rules; a game created with some of them
// (riding on the scenario id) names them, and a bad option is refused with the list.
TEST(InstalledGames, CatalogOffersOptionalRulesAndGamesUseThem) {
  const fs::path dir = server_temp_dir("options");
  ChildServer p =
      spawn_server({STEPPE_SERVE_BIN, "serve", "--db", (dir / "steppe.db").string(), "--port", "0"});
  ASSERT_GT(p.port, 0);
  const Reply cat = http_get(p.port, "/api/catalog");
  int checked = 0;
  for (const auto& g : cat.body["games"]) {
    if (g["available"] != true) continue;
    for (const auto& sc : g["scenarios"]) {
      if (!sc.contains("options") || sc["options"].empty()) continue;
      const std::string base = sc["id"];
      const std::string opt = sc["options"][0]["id"];
      Reply c = http_post(p.port, "/api/games",
                          Json{{"game", g["id"]}, {"scenario", base + "+" + opt}, {"seed", 1}});
      ASSERT_EQ(c.status, 200) << c.raw;
      EXPECT_EQ(c.body["game"]["scenario"], base + "+" + opt);
      const std::string name = c.body["game"]["scenario_name"];
      EXPECT_NE(name.find(std::string(sc["name"])), std::string::npos) << name;
      EXPECT_NE(name.find("with " + std::string(sc["options"][0]["name"])), std::string::npos) << name;
      Reply bad =
          http_post(p.port, "/api/games", Json{{"game", g["id"]}, {"scenario", base + "+no-such-rule"}});
      EXPECT_EQ(bad.status / 100, 4) << bad.raw;
      EXPECT_NE(bad.raw.find(opt), std::string::npos) << bad.raw;  // the message lists the options
      ++checked;
      break;
    }
  }
  // BD's Grand Campaign and every Moscow '41 scenario have optional rules.
  EXPECT_GE(checked, 2);
  p.stop_gently();
}

// Bad input to every installed game through the real binary, over HTTP and WebSocket
// (issue 21, "for both games and both transports"): malformed, illegal, foreign-token,
// invalid-UTF-8, huge and deeply nested requests are each answered with a 4xx error naming
// a code, nothing of the game changes (state hash and action count), and the server keeps
// answering.
TEST(InstalledGames, BadInputToEveryGameIsRefusedAndChangesNothing) {
  const fs::path dir = server_temp_dir("bad-input");
  ChildServer p = spawn_server(
      {STEPPE_SERVE_BIN, "serve", "--db", (dir / "steppe.db").string(), "--port", "0", "--debug-state"});
  ASSERT_GT(p.port, 0);
  const Reply cat = http_get(p.port, "/api/catalog");
  std::string other_token;  // a seat of another game: foreign here
  int checked = 0;
  for (const auto& g : cat.body["games"]) {
    if (g["available"] != true) continue;
    std::string scenario;
    for (const auto& sc : g["scenarios"])
      if (sc["id"] != "empty") {
        scenario = sc["id"];
        break;
      }
    if (scenario.empty()) continue;
    const std::string game = g["id"];
    Reply c = http_post(p.port, "/api/games", Json{{"game", game}, {"scenario", scenario}, {"seed", 2}});
    ASSERT_EQ(c.status, 200) << c.raw;
    const std::string id = c.body["game"]["id"];
    std::vector<std::string> tokens;
    for (const auto& s : c.body["seats"]) tokens.push_back(s["token"]);
    ASSERT_GE(tokens.size(), 2u);
    const int to_move = http_get(p.port, "/api/games/" + id).body["game"].value("current_player", -1);
    ASSERT_GE(to_move, 0) << game;
    const std::string mover = tokens[static_cast<size_t>(to_move)];
    const std::string waiter = tokens[static_cast<size_t>(1 - to_move)];
    const Json view = http_get(p.port, "/api/games/" + id + "/view", mover).body["view"];
    const Json legal = offered_actions(p.port, id, mover, view, 0);
    ASSERT_FALSE(legal.empty()) << game;
    const std::string a_legal = legal[0]["text"];
    const std::string hash_path = "/api/games/" + id + "/debug/hash";
    const std::string before = http_get(p.port, hash_path).body["state_hash"];
    const std::string base = "/api/games/" + id;

    auto refused = [&](const Reply& r, const std::string& what) {
      EXPECT_GE(r.status, 400) << game << ": " << what << ": " << r.raw.substr(0, 300);
      EXPECT_LT(r.status, 500) << game << ": " << what << ": " << r.raw.substr(0, 300);
      EXPECT_EQ(r.body.value("ok", true), false) << game << ": " << what;
      EXPECT_TRUE(r.body.contains("error") && r.body["error"].value("code", "") != "")
          << game << ": " << what << ": " << r.raw.substr(0, 300);
    };
    auto act = [&](const std::string& body, const std::string& token) {
      return http_request(p.port, http::verb::post, base + "/action", body, token);
    };
    std::string nested;
    for (int i = 0; i < 30000; ++i) nested += "{\"a\":";
    refused(act(Json{{"action", ""}}.dump(), mover), "empty action");
    refused(act(Json{{"action", "zzz 99 99 99"}}.dump(), mover), "unknown verb");
    refused(act(Json{{"action", a_legal + " 9999 9999"}}.dump(), mover), "a legal action with junk after it");
    refused(act(R"({"action":")" + std::string("\xff\xfe\xc3\x28") + R"("})", mover), "invalid UTF-8");
    refused(act(Json{{"action", std::string(60000, 'x')}}.dump(), mover), "a 60 KB action");
    refused(act(R"({"action": 12})", mover), "a number for an action");
    refused(act("[1,2,3]", mover), "a body that is not an object");
    refused(act(nested, mover), "a body nested 30,000 deep");
    refused(act(Json{{"action", a_legal}}.dump(), waiter), "the other seat's turn");
    refused(act(Json{{"action", a_legal}}.dump(), ""), "no token");
    refused(act(Json{{"action", a_legal}}.dump(), "not-a-token"), "a wrong token");
    if (!other_token.empty())
      refused(act(Json{{"action", a_legal}}.dump(), other_token), "another game's token");
    refused(http_get(p.port, base + "/view", "not-a-token"), "view with a wrong token");
    refused(http_get(p.port, base + "/preview?action=%ff%fe", mover), "preview of invalid UTF-8");
    refused(http_get(p.port, base + "/preview?action=" + url_encode("zzz 1 2"), mover), "preview of junk");
    refused(http_get(p.port, base + "/reach?unit=%00%01", mover), "reach of a control character");
    {
      // No legal action names such a unit: an empty list (the service does not know units).
      const Reply r = http_get(p.port, base + "/actions?unit=" + url_encode("no such unit"), mover);
      EXPECT_EQ(r.status, 200) << game << ": " << r.raw.substr(0, 300);
      EXPECT_TRUE(r.body.value("actions", Json::array({1})).empty()) << game << ": " << r.raw.substr(0, 300);
    }
    refused(http_get(p.port, base + "/log?since=abc", mover), "log since a word");
    refused(http_request(p.port, http::verb::post, base + "/undo", "", waiter), "undo with nothing to undo");
    refused(http_request(p.port, http::verb::post, base + "/resign", "", "not-a-token"),
            "resign, wrong token");
    {
      WsClient ws(p.port, base + "/ws?token=" + mover);
      ASSERT_TRUE(ws.wait_count(1)) << game << ": the socket's first message";
      const size_t first = ws.messages.size();
      ws.send_raw("not json");
      ws.send_raw(R"({"type":"action","action":7})");
      ws.send(Json{{"type", "action"}, {"action", "zzz 99 99"}});
      ws.send(Json{{"type", "action"}, {"action", a_legal + " 9999"}});
      ws.send(Json{{"type", "preview"}, {"action", "zzz"}});
      ws.send(Json{{"type", "reach"}, {"unit", "no such unit"}});
      ws.send(Json{{"type", "no-such-type"}});
      ASSERT_TRUE(ws.wait_count(first + 7, 5000)) << game << ": every message answered";
      for (size_t i = first; i < ws.messages.size(); ++i) {
        const Json m = Json::parse(ws.messages[i], nullptr, false);
        if (m.value("type", "") != "result") continue;
        EXPECT_GE(m.value("status", 0), 400) << game << ": " << ws.messages[i].substr(0, 300);
        EXPECT_LT(m.value("status", 0), 500) << game << ": " << ws.messages[i].substr(0, 300);
      }
      // A text frame that is not UTF-8 breaks the protocol (RFC 6455 8.1): the socket is
      // closed, and nothing else happens.
      ws.send_raw(R"({"type":"action","action":")" + std::string("\xff\xfe") + R"("})");
      ws.wait_for([](const auto&) { return false; }, 1000);
      EXPECT_TRUE(ws.closed) << game << ": a frame of invalid UTF-8 closes the socket";
    }
    EXPECT_EQ(http_get(p.port, hash_path).body["state_hash"], before) << game << ": the state changed";
    EXPECT_EQ(http_get(p.port, base).body["game"].value("actions_count", -1), 0) << game;
    // And the game still plays: the legal action is taken.
    EXPECT_EQ(act(Json{{"action", a_legal}}.dump(), mover).status, 200) << game;
    other_token = mover;
    ++checked;
  }
  EXPECT_GE(checked, 2) << "Barbarossa Deluxe and Moscow '41 at least";
  EXPECT_EQ(http_get(p.port, "/api/health").status, 200);
  fs::remove_all(dir);
}
