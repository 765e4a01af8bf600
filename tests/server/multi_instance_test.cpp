// Two server instances (child processes, fixture game) on one PostgreSQL database of a
// throw-away cluster (pg_cluster.h): clients of one game on different instances see each
// other's moves (LISTEN/NOTIFY), and when one instance is killed with SIGKILL mid-game the
// clients go on at the other and lose nothing (docs/deploy.md).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <random>
#include <thread>

#include "child_server.h"
#include "fixture_game.h"
#include "pg_cluster.h"
#include "test_client.h"

using namespace steppe;
using namespace steppe::testing;

namespace {

// The actions_count of the last "update" a WebSocket client received (-1: none).
int last_update_count(const std::vector<std::string>& messages) {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    const Json m = Json::parse(*it, nullptr, false);
    if (m.is_object() && m.value("type", "") == "update") return m["view"].value("actions_count", -1);
  }
  return -1;
}

// Events received over a WebSocket, concatenated; a reset starts again.
std::vector<Json> ws_events(const std::vector<std::string>& messages) {
  std::vector<Json> out;
  for (const auto& t : messages) {
    const Json m = Json::parse(t, nullptr, false);
    if (!m.is_object() || m.value("type", "") != "update") continue;
    if (m.value("reset", false)) out.clear();
    for (const auto& e : m["events"]) out.push_back(e);
  }
  return out;
}

std::string hex_hash(uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

struct TwoInstances {
  std::string url;
  ChildServer a, b;
};

// A fresh database and two fixture servers on it.
void start_two(TwoInstances& t) {
  auto& pg = PgCluster::shared();
  ASSERT_TRUE(pg.ok()) << pg.error();
  t.url = pg.fresh_database();
  t.a = spawn_server({STEPPE_FIXTURE_SERVE, "--database", t.url, "--port", "0"});
  ASSERT_GT(t.a.port, 0) << "instance A did not start";
  t.b = spawn_server({STEPPE_FIXTURE_SERVE, "--database", t.url, "--port", "0"});
  ASSERT_GT(t.b.port, 0) << "instance B did not start";
}

}  // namespace

TEST(TwoInstances, ClientsOfOneGameOnDifferentInstancesSeeEachOthersMoves) {
  TwoInstances t;
  ASSERT_NO_FATAL_FAILURE(start_two(t));
  // Created on A, known to B at once (a client may connect to any instance).
  Reply c = http_post(t.a.port, "/api/games", Json{{"game", "duel"}, {"scenario", "endless"}, {"seed", 5}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  const std::string red = c.body["seats"][0]["token"], blue = c.body["seats"][1]["token"];
  ASSERT_EQ(http_get(t.b.port, "/api/games/" + id).status, 200);

  WsClient red_on_a(t.a.port, "/api/games/" + id + "/ws?token=" + red);
  WsClient blue_on_b(t.b.port, "/api/games/" + id + "/ws?token=" + blue);
  ASSERT_TRUE(red_on_a.wait_count(1));
  ASSERT_TRUE(blue_on_b.wait_count(1));
  for (int i = 0; i < 6; ++i) {
    // Red moves on A, Blue on B, each over its own WebSocket; each sees the other's move.
    WsClient& mover = i % 2 == 0 ? red_on_a : blue_on_b;
    WsClient& other = i % 2 == 0 ? blue_on_b : red_on_a;
    mover.send(Json{{"type", "action"}, {"action", i % 3 == 0 ? "scout" : "pass"}, {"request_id", i}});
    ASSERT_TRUE(mover.wait_for([&](const auto& m) {
      for (const auto& s : m) {
        const Json j = Json::parse(s, nullptr, false);
        if (j.value("type", "") == "result" && j.value("request_id", -1) == i) return j.value("ok", false);
      }
      return false;
    })) << "action "
        << i << " was not accepted";
    EXPECT_TRUE(other.wait_for([&](const auto& m) { return last_update_count(m) == i + 1; }, 10000))
        << "the other instance's client did not see action " << i;
  }
  // Both instances tell the same events to each seat (same seq numbers).
  const Reply log_a = http_get(t.a.port, "/api/games/" + id + "/log?since=0", blue);
  const Reply log_b = http_get(t.b.port, "/api/games/" + id + "/log?since=0", blue);
  ASSERT_EQ(log_a.status, 200);
  EXPECT_EQ(log_a.body["events"], log_b.body["events"]);
  EXPECT_EQ(Json(ws_events(blue_on_b.messages)), log_b.body["events"]);
  EXPECT_EQ(http_get(t.a.port, "/api/games/" + id + "/debug/hash").body["state_hash"],
            http_get(t.b.port, "/api/games/" + id + "/debug/hash").body["state_hash"]);
  t.a.stop_gently();
  t.b.stop_gently();
}

TEST(TwoInstances, SigkillOneInstanceMidGameTheClientsGoOnAtTheOtherAndLoseNothing) {
  TwoInstances t;
  ASSERT_NO_FATAL_FAILURE(start_two(t));
  Reply c = http_post(t.a.port, "/api/games", Json{{"game", "duel"}, {"scenario", "endless"}, {"seed", 9}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  const std::string tokens[2] = {c.body["seats"][0]["token"], c.body["seats"][1]["token"]};
  // Red watches on B while both play on A.
  WsClient red_on_b(t.b.port, "/api/games/" + id + "/ws?token=" + tokens[0]);
  ASSERT_TRUE(red_on_b.wait_count(1));

  std::mt19937 rng(static_cast<unsigned>(getpid()));
  const int kill_after_ms = 300 + static_cast<int>(rng() % 300);
  std::atomic<bool> killed{false};
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(kill_after_ms));
    kill(t.a.pid, SIGKILL);
    killed = true;
  });
  size_t acked = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::string action = i % 3 == 0 ? "scout" : (i % 3 == 1 ? "pass" : "note");
    Reply r;
    try {
      r = http_post(t.a.port, "/api/games/" + id + "/action", Json{{"action", action}}, tokens[i % 2]);
    } catch (const std::exception&) {
      break;  // the instance is dead
    }
    if (r.status != 200) break;
    ++acked;
  }
  killer.join();
  t.a.reap();
  ASSERT_TRUE(killed.load());
  ASSERT_GT(acked, 0u) << "no action was acknowledged before the kill";

  // The store holds every acknowledged action (at most the one in flight more).
  auto store = server::open_postgres_store(t.url);
  ASSERT_TRUE(store.is_ok()) << store.error().to_string();
  auto acts = (*store)->actions(id);
  ASSERT_TRUE(acts.is_ok());
  const size_t count = acts->size();
  EXPECT_GE(count, acked) << "an acknowledged action was lost";
  EXPECT_LE(count, acked + 1);
  // B catches up with all of it. It learns of A's last commits by notification, so on a
  // loaded machine it may still be applying them when A has been reaped: wait (a CI run
  // read B one action behind, then saw it reach the store's count).
  Reply info;
  for (int waited_ms = 0;; waited_ms += 50) {
    info = http_get(t.b.port, "/api/games/" + id);
    ASSERT_EQ(info.status, 200) << info.raw;
    if (info.body["game"]["actions_count"].get<size_t>() == count || waited_ms >= 10000) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(info.body["game"]["actions_count"].get<size_t>(), count) << "B did not catch up with the store";
  // Red's socket on B was pushed everything A committed.
  EXPECT_TRUE(red_on_b.wait_for(
      [&](const auto& m) { return last_update_count(m) == static_cast<int>(count); }, 10000))
      << "B did not push A's actions to its client";
  // Red resumes on B from the last event number it had: nothing missing, nothing new.
  const auto seen = ws_events(red_on_b.messages);
  const Reply rest =
      http_get(t.b.port, "/api/games/" + id + "/log?since=" + std::to_string(seen.size()), tokens[0]);
  ASSERT_EQ(rest.status, 200);
  EXPECT_EQ(rest.body["count"].get<size_t>(), seen.size());
  EXPECT_TRUE(rest.body["events"].empty());
  const Reply all = http_get(t.b.port, "/api/games/" + id + "/log?since=0", tokens[0]);
  EXPECT_EQ(all.body["events"], Json(seen));
  // B's state is a replay of the stored log.
  auto st = make_duel_game()->new_state("endless", 9);
  ASSERT_TRUE(st.is_ok());
  for (const auto& a : *acts) {
    auto parsed = (*st)->parse_action(a.text);
    ASSERT_TRUE(parsed.is_ok());
    ASSERT_TRUE((*st)->apply(*parsed).is_ok());
  }
  EXPECT_EQ(http_get(t.b.port, "/api/games/" + id + "/debug/hash").body["state_hash"],
            hex_hash((*st)->state_hash()));
  // And the game goes on at B, over a new WebSocket of the side to move.
  const int to_move = info.body["game"]["current_player"];
  ASSERT_TRUE(to_move == 0 || to_move == 1) << info.raw;
  WsClient mover(t.b.port, "/api/games/" + id + "/ws?token=" + tokens[to_move]);
  ASSERT_TRUE(mover.wait_count(1));
  mover.send(Json{{"type", "action"}, {"action", "pass"}, {"request_id", 1}});
  EXPECT_TRUE(
      mover.wait_for([&](const auto& m) { return last_update_count(m) == static_cast<int>(count) + 1; }));
  t.b.stop_gently();
}

// Both instances try to advance the game at the same position: the store lets one append;
// the other catches up, finds it is no longer that side's turn, and answers "stale"
// without forking the log.
TEST(TwoInstances, TheSameMoveSentToBothInstancesIsAppliedOnce) {
  TwoInstances t;
  ASSERT_NO_FATAL_FAILURE(start_two(t));
  Reply c = http_post(t.a.port, "/api/games", Json{{"game", "duel"}, {"scenario", "endless"}, {"seed", 3}});
  ASSERT_EQ(c.status, 200) << c.raw;
  const std::string id = c.body["game"]["id"];
  const std::string red = c.body["seats"][0]["token"];
  ASSERT_EQ(http_get(t.b.port, "/api/games/" + id).status, 200);  // B has the game loaded
  Reply ra, rb;
  std::thread ta([&] {
    ra = http_post(t.a.port, "/api/games/" + id + "/action", Json{{"action", "pass"}}, red);
  });
  std::thread tb([&] {
    rb = http_post(t.b.port, "/api/games/" + id + "/action", Json{{"action", "pass"}}, red);
  });
  ta.join();
  tb.join();
  EXPECT_EQ((ra.status == 200) + (rb.status == 200), 1) << ra.raw << "\n" << rb.raw;
  const Reply& loser = ra.status == 200 ? rb : ra;
  EXPECT_EQ(loser.status, 409) << loser.raw;
  auto store = server::open_postgres_store(t.url);
  ASSERT_TRUE(store.is_ok());
  EXPECT_EQ((*store)->actions(id)->size(), 1u);
  t.a.stop_gently();
  t.b.stop_gently();
}
