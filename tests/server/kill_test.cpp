// Kill-and-restart durability: a separate server process is SIGKILLed while actions are
// being sent; after a restart every acknowledged action is there and the state hash equals
// a fresh replay of the stored log.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <random>
#include <thread>

#include "fixture_game.h"
#include "test_client.h"

namespace fs = std::filesystem;
using namespace steppe;
using namespace steppe::testing;

namespace {

struct Proc {
  pid_t pid = -1;
  uint16_t port = 0;
};

// Starts `argv`, waits for its "serving on http://127.0.0.1:PORT/" line.
Proc spawn(const std::vector<std::string>& args) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  Proc p{pid, 0};
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd pfd{fds[0], POLLIN, 0};
    if (poll(&pfd, 1, 200) <= 0) continue;
    char buf[256];
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
    const auto at = out.find("127.0.0.1:");
    if (at != std::string::npos && out.find('/', at) != std::string::npos) {
      p.port = static_cast<uint16_t>(std::stoi(out.substr(at + 10)));
      break;
    }
  }
  close(fds[0]);  // the child's later output goes to a closed pipe: it must not print more
  return p;
}

[[maybe_unused]] void kill_hard(Proc& p) {
  if (p.pid <= 0) return;
  kill(p.pid, SIGKILL);
  int st = 0;
  waitpid(p.pid, &st, 0);
  p.pid = -1;
}

[[maybe_unused]] void stop_gently(Proc& p) {
  if (p.pid <= 0) return;
  kill(p.pid, SIGTERM);
  int st = 0;
  waitpid(p.pid, &st, 0);
  p.pid = -1;
}

[[maybe_unused]] fs::path temp_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("steppe-kill-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

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
  const fs::path dir = temp_dir("fixture");
  const std::string db = (dir / "steppe.db").string();
  Proc p = spawn({STEPPE_FIXTURE_SERVE, "--db", db, "--port", "0"});
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
  int st = 0;
  waitpid(p.pid, &st, 0);
  p.pid = -1;
  ASSERT_TRUE(killed.load());
  ASSERT_GT(acked.size(), 0u) << "no action was acknowledged before the kill";

  Proc q = spawn({STEPPE_FIXTURE_SERVE, "--db", db, "--port", "0"});
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
  stop_gently(q);
}
