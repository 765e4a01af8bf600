// Kill-and-restart durability: a separate server process is SIGKILLed while actions are
// being sent; after a restart every acknowledged action is there and the state hash equals
// a fresh replay of the stored log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <random>
#include <thread>

#include "child_server.h"
#include "fixture_game.h"
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
  for (const auto& a : *acts) {
    auto parsed = (*st)->parse_action(a.text);
    if (!parsed) return "parse: " + parsed.error().to_string();
    if (Status s = (*st)->apply(*parsed); !s.is_ok()) return "apply: " + s.error().to_string();
  }
  *count = acts->size();
  return hex_hash((*st)->state_hash());
}

}  // namespace

TEST(KillRestart, SigkillMidGameLosesNoAcknowledgedActionAndReplaysToTheSameHash) {
  const fs::path dir = server_temp_dir("fixture");
  const std::string db = (dir / "steppe.db").string();
  ChildServer p = spawn_server({STEPPE_FIXTURE_SERVE, "--db", db, "--port", "0"});
  ASSERT_GT(p.port, 0) << "fixture server did not start";
  Reply c = http_post(p.port, "/api/games", Json{{"game", "duel"}, {"scenario", "endless"}, {"seed", 9}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  const std::string tokens[2] = {c.body["seats"][0]["token"], c.body["seats"][1]["token"]};

  std::mt19937 rng(static_cast<unsigned>(getpid()));
  const int kill_after_ms = 150 + static_cast<int>(rng() % 250);
  std::atomic<bool> killed{false};
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(kill_after_ms));
    kill(p.pid, SIGKILL);
    killed = true;
  });
  std::vector<std::string> acked;
  for (int i = 0; i < 100000; ++i) {
    const std::string action = i % 3 == 0 ? "scout" : (i % 3 == 1 ? "pass" : "note");
    Reply r;
    try {
      r = http_post(p.port, "/api/games/" + id + "/action", Json{{"action", action}}, tokens[i % 2]);
    } catch (const std::exception&) {
      break;  // connection refused or reset: the server is dead
    }
    if (r.status != 200) break;
    acked.push_back(action);
  }
  killer.join();
  p.reap();
  ASSERT_TRUE(killed.load());
  ASSERT_GT(acked.size(), 0u) << "no action was acknowledged before the kill";

  ChildServer q = spawn_server({STEPPE_FIXTURE_SERVE, "--db", db, "--port", "0"});
  ASSERT_GT(q.port, 0) << "fixture server did not restart";
  Reply info = http_get(q.port, "/api/games/" + id);
  ASSERT_EQ(info.status, 200) << info.raw;
  const size_t stored_count = info.body["game"]["actions_count"].get<size_t>();
  EXPECT_GE(stored_count, acked.size()) << "an acknowledged action was lost";
  EXPECT_LE(stored_count, acked.size() + 1) << "at most the one in-flight action may be extra";
  const std::string server_hash = http_get(q.port, "/api/games/" + id + "/debug/hash").body["state_hash"];
  size_t replayed = 0;
  EXPECT_EQ(replay_hash(*make_duel_game(), db, id, &replayed), server_hash);
  EXPECT_EQ(replayed, stored_count);
  // And the game goes on.
  const int to_move = info.body["game"]["current_player"];
  ASSERT_TRUE(to_move == 0 || to_move == 1) << info.raw;
  EXPECT_EQ(
      http_post(q.port, "/api/games/" + id + "/action", Json{{"action", "pass"}}, tokens[to_move]).status,
      200);
  q.stop_gently();
}
