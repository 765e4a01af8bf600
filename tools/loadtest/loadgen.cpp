// steppe-loadgen: the load test of `steppe serve` in C++ (issue 21), so that the generator is
// not the bottleneck the Python tool was (it used two thirds of the CPU at 200 games).
//
// It plays the same way as tools/loadtest/loadtest.py (docs/loadtest.md): it creates
// --games games (every seat human), then two clients per game, each on its own keep-alive
// HTTP/1.1 connection, poll `GET /api/games/{id}/view` with their seat token; when the view
// says `your_turn`, the client posts a listed legal action to `POST /api/games/{id}/action`
// and times that round trip (request written -> whole answer read). Every client runs on one
// Asio event loop per --threads; answers are read with a SAX pass that keeps only the fields
// it needs (status, your_turn, the legal actions' texts), so the generator's CPU per request
// stays far below the server's. It reports the round trips' percentiles, actions/s, its own
// CPU and the server's (with --spawn), and the server's memory before and after creation.
//
// Loopback only: --host must be 127.0.0.1/8, localhost or ::1.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

namespace {

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  // A second server instance on the same database (PostgreSQL, docs/deploy.md): the second
  // seat of every game plays through it, so each move crosses instances (LISTEN/NOTIFY).
  int second_port = 0;
  std::string spawn;                    // path of `steppe` to start, or empty
  std::vector<std::string> spawn_args;  // extra arguments for `steppe serve`
  std::string game = "bd", scenario = "citadel";
  int games = 200, actions = 100, seconds = 60, threads = 1;
  double poll = 0.05;  // mean seconds between view polls while waiting
  // Mean seconds a player thinks before each action (uniform in 0.5x-1.5x); 0: acts at
  // once. With 0 the clients are a closed loop that measures capacity, not latency: every
  // request queues behind the others, so the round trip is the number of clients over the
  // server's throughput whatever the server does. A think time offers a fixed load.
  double think = 0;
  bool pick_first = false;
  uint64_t seed = 1;
};

// What a client needs of a view: found by a SAX pass, no document is built.
struct ViewFacts {
  bool ok = false, your_turn = false, active = false;
  std::vector<std::string> legal;  // the legal actions' texts
};

// Keeps view.status, view.your_turn and view.legal_actions[*].text, at whatever depth the view
// object sits ({"view": ...} or {"action", "view": ...}); top-level "ok".
class ViewSax : public nlohmann::json_sax<Json> {
 public:
  explicit ViewSax(ViewFacts& f) : f_(f) {}
  bool null() override { return value(); }
  bool boolean(bool v) override {
    if (depth_ == 1 && key_[1] == "ok") f_.ok = v;
    if (depth_ == 2 && key_[1] == "view" && key_[2] == "your_turn") f_.your_turn = v;
    return value();
  }
  bool number_integer(number_integer_t /*v*/) override { return value(); }
  bool number_unsigned(number_unsigned_t /*v*/) override { return value(); }
  bool number_float(number_float_t /*v*/, const string_t& /*s*/) override { return value(); }
  bool string(string_t& v) override {
    if (depth_ == 2 && key_[1] == "view" && key_[2] == "status") f_.active = v == "active";
    // view (2) -> legal_actions (array, 3) -> action object (4) -> "text"
    if (depth_ == 4 && key_[1] == "view" && key_[2] == "legal_actions" && key_[4] == "text")
      f_.legal.push_back(std::move(v));
    return value();
  }
  bool binary(binary_t& /*v*/) override { return value(); }
  bool start_object(std::size_t /*n*/) override { return push(); }
  bool end_object() override { return pop(); }
  bool start_array(std::size_t /*n*/) override { return push(); }
  bool end_array() override { return pop(); }
  bool key(string_t& k) override {
    if (depth_ < kDepth) key_[depth_] = std::move(k);
    return true;
  }
  bool parse_error(std::size_t /*pos*/, const std::string& /*tok*/,
                   const nlohmann::detail::exception& /*e*/) override {
    return false;
  }

 private:
  static constexpr int kDepth = 6;
  bool push() {
    ++depth_;
    if (depth_ < kDepth) key_[depth_].clear();
    return true;
  }
  bool pop() {
    --depth_;
    return true;
  }
  bool value() const { return true; }
  ViewFacts& f_;
  int depth_ = 0;
  std::string key_[kDepth];
};

ViewFacts read_view(const std::string& body) {
  ViewFacts f;
  ViewSax sax(f);
  if (!Json::sax_parse(body, &sax)) f.ok = false;
  return f;
}

struct Stats {
  std::vector<double> action_ms, view_ms;
  int64_t actions_ok = 0, errors = 0, games_finished = 0, bytes = 0, answers = 0;
  std::vector<std::string> error_kinds;
  void merge(const Stats& o) {
    action_ms.insert(action_ms.end(), o.action_ms.begin(), o.action_ms.end());
    view_ms.insert(view_ms.end(), o.view_ms.begin(), o.view_ms.end());
    actions_ok += o.actions_ok;
    errors += o.errors;
    games_finished += o.games_finished;
    bytes += o.bytes;
    answers += o.answers;
    for (const auto& e : o.error_kinds)
      if (error_kinds.size() < 10) error_kinds.push_back(e);
  }
  void error(std::string kind) {
    ++errors;
    if (error_kinds.size() < 10) error_kinds.push_back(std::move(kind));
  }
};

struct GameSeats {
  std::string id;
  std::vector<std::string> tokens;
  bool done = false;  // one seat stopped: its partner stops too (the game would wait for it)
};

class Seat : public std::enable_shared_from_this<Seat> {
 public:
  Seat(net::io_context& ioc, const Options& o, tcp::endpoint ep, GameSeats& g, size_t side, Stats& st,
       Clock::time_point deadline, uint64_t seed)
      : stream_(ioc),
        timer_(ioc),
        o_(o),
        ep_(std::move(ep)),
        g_(g),
        token_(g.tokens[side]),
        st_(st),
        deadline_(deadline),
        rng_(seed) {}

  void start() {
    stream_.async_connect(ep_, [self = shared_from_this()](beast::error_code ec) {
      if (ec) {
        self->st_.error("connect: " + ec.message());
        return self->finish();
      }
      self->get_view();
    });
  }

 private:
  bool stop() const { return g_.done || sent_ >= o_.actions || Clock::now() >= deadline_; }

  void finish() {
    g_.done = true;
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
  }

  void send(http::verb verb, const std::string& target, std::string body, bool is_action) {
    req_ = {};
    req_.method(verb);
    req_.target(target);
    req_.version(11);
    req_.set(http::field::host, o_.host);
    req_.set(http::field::authorization, "Bearer " + token_);
    req_.keep_alive(true);
    if (!body.empty()) {
      req_.set(http::field::content_type, "application/json");
      req_.body() = std::move(body);
    }
    req_.prepare_payload();
    sent_at_ = Clock::now();
    stream_.expires_after(std::chrono::seconds(30));
    http::async_write(stream_, req_, [self = shared_from_this(), is_action](beast::error_code ec, size_t) {
      if (ec) {
        self->st_.error("write: " + ec.message());
        return self->finish();
      }
      self->res_ = {};
      http::async_read(self->stream_, self->buf_, self->res_,
                       [self, is_action](beast::error_code ec2, size_t) { self->on_answer(ec2, is_action); });
    });
  }

  void get_view() {
    if (stop()) return finish();
    send(http::verb::get, "/api/games/" + g_.id + "/view", {}, false);
  }

  void on_answer(beast::error_code ec, bool is_action) {
    if (ec) {
      st_.error(std::string(is_action ? "action" : "view") + ": " + ec.message());
      return finish();
    }
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at_).count();
    (is_action ? st_.action_ms : st_.view_ms).push_back(ms);
    st_.bytes += static_cast<int64_t>(res_.body().size());
    ++st_.answers;
    if (is_action) ++sent_;
    const ViewFacts f = read_view(res_.body());
    if (res_.result() != http::status::ok || !f.ok) {
      st_.error(std::string(is_action ? "action" : "view") + ": HTTP " + std::to_string(res_.result_int()));
      return wait_then_view();
    }
    if (is_action) ++st_.actions_ok;
    if (!f.active) {
      ++st_.games_finished;
      return finish();
    }
    if (!f.your_turn || f.legal.empty()) return wait_then_view();
    if (stop()) return finish();
    std::string action = o_.pick_first
                             ? f.legal.front()
                             : f.legal[std::uniform_int_distribution<size_t>(0, f.legal.size() - 1)(rng_)];
    if (o_.think <= 0) return post_action(action);
    const double t = o_.think * std::uniform_real_distribution<double>(0.5, 1.5)(rng_);
    timer_.expires_after(std::chrono::microseconds(static_cast<int64_t>(t * 1e6)));
    timer_.async_wait([self = shared_from_this(), action = std::move(action)](beast::error_code ec2) {
      if (!ec2) self->post_action(action);
    });
  }

  void post_action(const std::string& action) {
    if (stop()) return finish();
    send(http::verb::post, "/api/games/" + g_.id + "/action", Json{{"action", action}}.dump(), true);
  }

  void wait_then_view() {
    if (stop()) return finish();
    const double s = o_.poll * std::uniform_real_distribution<double>(0.5, 1.5)(rng_);
    timer_.expires_after(std::chrono::microseconds(static_cast<int64_t>(s * 1e6)));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->get_view();
    });
  }

  beast::tcp_stream stream_;
  net::steady_timer timer_;
  beast::flat_buffer buf_;
  http::request<http::string_body> req_;
  http::response<http::string_body> res_;
  const Options& o_;
  tcp::endpoint ep_;
  GameSeats& g_;
  std::string token_;
  Stats& st_;
  Clock::time_point deadline_, sent_at_;
  std::mt19937_64 rng_;
  int sent_ = 0;
};

// One blocking request (catalog, creation).
int request(const Options& o, http::verb verb, const std::string& target, const std::string& body,
            std::string& out) {
  net::io_context ioc;
  beast::tcp_stream s(ioc);
  beast::error_code ec;
  s.connect(tcp::endpoint(net::ip::make_address(o.host), static_cast<uint16_t>(o.port)), ec);
  if (ec) return -1;
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, o.host);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  req.prepare_payload();
  http::write(s, req, ec);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  if (!ec) http::read(s, buf, res, ec);
  if (ec) return -1;
  out = res.body();
  return res.result_int();
}

double cpu_seconds_self() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// utime + stime of `pid` (/proc/PID/stat fields 14 and 15), seconds.
double cpu_seconds_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(in, line);
  const size_t paren = line.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream rest(line.substr(paren + 2));
  std::string field;
  unsigned long long ut = 0, stt = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) ut = std::stoull(field);
    if (i == 15) stt = std::stoull(field);
  }
  return static_cast<double>(ut + stt) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Resident memory of `pid` in MiB (/proc/PID/status VmRSS).
double rss_mib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

// Starts `steppe serve` on 127.0.0.1, a free port and a temporary database; returns its pid
// and sets o.port from its "serving on" line.
pid_t spawn_server(Options& o, const std::filesystem::path& db) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  std::vector<std::string> args = {o.spawn, "serve", "--host",    "127.0.0.1",           "--port",
                                   "0",     "--db",  db.string(), "--create-per-minute", "0"};
  args.insert(args.end(), o.spawn_args.begin(), o.spawn_args.end());
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[256];
  ssize_t n = 0;
  while (out.find('\n') == std::string::npos && (n = read(fds[0], buf, sizeof buf)) > 0)
    out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  const size_t at = out.find("127.0.0.1:");
  if (at == std::string::npos) return -1;
  o.port = std::stoi(out.substr(at + 10));
  return pid;
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(v.size())));
  return v[i];
}

bool loopback(const std::string& host) {
  beast::error_code ec;
  const auto a = net::ip::make_address(host, ec);
  return !ec && a.is_loopback();
}

int usage(const char* msg) {
  std::cerr << "steppe-loadgen: " << msg
            << "\nusage: steppe-loadgen (--spawn STEPPE [--spawn-arg ARG]... | --port N [--second-port N] "
               "[--host 127.0.0.1])\n"
               "       [--games 200] [--actions 100] [--seconds 60] [--threads 1] [--poll 0.05] [--think 0]\n"
               "       [--game bd] [--scenario citadel] [--pick random|first] [--seed 1]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
    try {
      if (a == "--host")
        o.host = next();
      else if (a == "--port")
        o.port = std::stoi(next());
      else if (a == "--spawn")
        o.spawn = next();
      else if (a == "--spawn-arg")
        o.spawn_args.push_back(next());
      else if (a == "--games")
        o.games = std::stoi(next());
      else if (a == "--actions")
        o.actions = std::stoi(next());
      else if (a == "--seconds")
        o.seconds = std::stoi(next());
      else if (a == "--threads")
        o.threads = std::max(1, std::stoi(next()));
      else if (a == "--poll")
        o.poll = std::stod(next());
      else if (a == "--game")
        o.game = next();
      else if (a == "--second-port")
        o.second_port = std::stoi(next());
      else if (a == "--think")
        o.think = std::stod(next());
      else if (a == "--scenario")
        o.scenario = next();
      else if (a == "--pick")
        o.pick_first = next() == "first";
      else if (a == "--seed")
        o.seed = std::stoull(next());
      else
        return usage(("unknown option " + a).c_str());
    } catch (const std::exception&) {
      return usage(("bad value for " + a).c_str());
    }
  }
  if (o.spawn.empty() == (o.port == 0)) return usage("give exactly one of --spawn and --port");
  if (!loopback(o.host)) return usage("the host must be a loopback address");

  pid_t server = -1;
  std::filesystem::path tmp;
  if (!o.spawn.empty()) {
    tmp = std::filesystem::temp_directory_path() / ("steppe-loadgen-" + std::to_string(getpid()));
    std::filesystem::create_directories(tmp);
    server = spawn_server(o, tmp / "steppe.db");
    if (server < 0) return usage("the spawned server printed no address");
  }
  auto stop_server = [&] {
    if (server > 0) {
      kill(server, SIGTERM);
      waitpid(server, nullptr, 0);
    }
    if (!tmp.empty()) std::filesystem::remove_all(tmp);
  };

  // Creation (not timed with the play): every seat human, seeds fixed.
  const double rss_before = server > 0 ? rss_mib(server) : 0;
  std::vector<GameSeats> games;
  std::vector<double> create_ms;
  for (int i = 0; i < o.games; ++i) {
    std::string out;
    const Json body = {
        {"game", o.game}, {"scenario", o.scenario}, {"seed", o.seed * 100000 + static_cast<uint64_t>(i)}};
    const auto t0 = Clock::now();
    const int st = request(o, http::verb::post, "/api/games", body.dump(), out);
    create_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    const Json doc = Json::parse(out, nullptr, false);
    if (st != 200 || !doc.is_object() || !doc.contains("game") || !doc.contains("seats")) {
      std::cerr << "steppe-loadgen: POST /api/games answered " << st << ": " << out.substr(0, 200) << "\n";
      stop_server();
      return 1;
    }
    GameSeats g;
    g.id = doc["game"]["id"].get<std::string>();
    for (const auto& s : doc["seats"]) g.tokens.push_back(s.value("token", ""));
    games.push_back(std::move(g));
  }
  const double rss_created = server > 0 ? rss_mib(server) : 0;

  // Play: one event loop per thread; the games are dealt round robin.
  const double cpu0 = cpu_seconds_self(), server_cpu0 = server > 0 ? cpu_seconds_of(server) : 0;
  const auto t0 = Clock::now();
  const auto deadline = t0 + std::chrono::seconds(o.seconds);
  const tcp::endpoint ep(net::ip::make_address(o.host), static_cast<uint16_t>(o.port));
  const tcp::endpoint ep2(net::ip::make_address(o.host),
                          static_cast<uint16_t>(o.second_port > 0 ? o.second_port : o.port));
  std::vector<std::unique_ptr<net::io_context>> loops;
  loops.reserve(static_cast<size_t>(o.threads));
  std::vector<Stats> stats(static_cast<size_t>(o.threads));
  for (int t = 0; t < o.threads; ++t) loops.push_back(std::make_unique<net::io_context>(1));
  for (size_t i = 0; i < games.size(); ++i) {
    const size_t t = i % static_cast<size_t>(o.threads);
    for (size_t side = 0; side < games[i].tokens.size(); ++side)
      if (!games[i].tokens[side].empty())
        std::make_shared<Seat>(*loops[t], o, side == 0 ? ep : ep2, games[i], side, stats[t], deadline,
                               o.seed * 1000003 + i * 7 + side)
            ->start();
  }
  std::vector<std::thread> threads;
  threads.reserve(loops.size());
  for (auto& l : loops) threads.emplace_back([&l] { l->run(); });
  for (auto& th : threads) th.join();
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  const double cpu = cpu_seconds_self() - cpu0;
  const double server_cpu = server > 0 ? cpu_seconds_of(server) - server_cpu0 : 0;
  const double rss_after = server > 0 ? rss_mib(server) : 0;
  stop_server();

  Stats all;
  for (const auto& s : stats) all.merge(s);
  std::printf("games %d, clients %d, %.1f s, think %.2f s, poll %.2f s\n", o.games, 2 * o.games, wall,
              o.think, o.poll);
  std::printf("actions       %lld accepted, %.0f/s\n", static_cast<long long>(all.actions_ok),
              static_cast<double>(all.actions_ok) / wall);
  std::printf("POST action   p50 %.1f  p90 %.1f  p99 %.1f  max %.1f ms (%zu)\n",
              percentile(all.action_ms, 50), percentile(all.action_ms, 90), percentile(all.action_ms, 99),
              percentile(all.action_ms, 100), all.action_ms.size());
  std::printf("GET view      p50 %.1f  p90 %.1f  p99 %.1f  max %.1f ms (%zu)\n", percentile(all.view_ms, 50),
              percentile(all.view_ms, 90), percentile(all.view_ms, 99), percentile(all.view_ms, 100),
              all.view_ms.size());
  std::printf("POST games    p50 %.1f  p99 %.1f ms\n", percentile(create_ms, 50), percentile(create_ms, 99));
  std::printf(
      "answer size   %.1f KB mean\n",
      all.answers > 0 ? static_cast<double>(all.bytes) / static_cast<double>(all.answers) / 1024.0 : 0.0);
  std::printf("generator CPU %.2f s (%.0f%% of one core)\n", cpu, 100.0 * cpu / wall);
  if (server > 0) {
    std::printf("server CPU    %.2f s (%.0f%% of one core), %.2f ms per request\n", server_cpu,
                100.0 * server_cpu / wall,
                all.answers > 0 ? 1000.0 * server_cpu / static_cast<double>(all.answers) : 0.0);
    std::printf(
        "server memory %.1f MiB at start, %.1f after creating the games (%.1f KiB per game), %.1f at the "
        "end\n",
        rss_before, rss_created, 1024.0 * (rss_created - rss_before) / std::max(1, o.games), rss_after);
  }
  std::printf("games finished %lld, errors %lld\n", static_cast<long long>(all.games_finished),
              static_cast<long long>(all.errors));
  for (const auto& e : all.error_kinds) std::printf("  error: %s\n", e.c_str());
  return all.errors == 0 && all.actions_ok > 0 ? 0 : 1;
}
