#include "cli/cli_util.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "ai/agent.h"
#include "games/all_games.h"

namespace steppe::cli {

void fail(const std::string& command, const std::string& message, int code) {
  std::cerr << "steppe " << command << ": " << message << "\n";
  throw CLI::RuntimeError(code);
}

void add_data_option(CLI::App* sub, std::string& data) {
  sub->add_option("--data", data, "game data directory (default: the source tree's data/, or $STEPPE_DATA)");
}

std::filesystem::path data_dir(const std::string& option) {
  return option.empty() ? default_data_dir() : std::filesystem::path(option);
}

std::unique_ptr<Game> load_game_or_fail(const std::string& command, const std::string& id,
                                        const std::string& data) {
  if (installed_games().empty()) fail(command, "no game is installed (cannot load '" + id + "')");
  auto g = load_game(id, data_dir(data));
  if (!g) fail(command, g.error().to_string());
  return std::move(g).value();
}

LoadedMatch load_match_or_fail(const std::string& command, const std::filesystem::path& file,
                               const std::string& data) {
  auto j = read_save_file(file);
  if (!j) fail(command, j.error().to_string());
  auto h = read_save_header(*j, file.string());
  if (!h) fail(command, h.error().to_string());
  LoadedMatch lm;
  lm.game = load_game_or_fail(command, h->game, data);
  auto m = Match::from_save_json(*j, *lm.game, file.string());
  if (!m)
    fail(command, m.error().to_string() + "\n(`steppe migrate " + file.string() +
                      "` continues it under this engine from its latest position that loads)");
  lm.match = std::move(m).value();
  return lm;
}

std::string agent_spec_with_budget(const std::string& name, int budget) {
  if (budget <= 0) return name;
  if (name == "mcts") return "mcts:iters=" + std::to_string(budget);
  if (name.rfind("mcts:", 0) == 0 && name.find("iters=") == std::string::npos)
    return name + ":iters=" + std::to_string(budget);
  return name;
}

AgentChooser steppe_agent_chooser() {
  return [](const std::string& name, uint64_t seed, int budget, const State& s) -> Result<Action> {
    auto agent = make_agent(agent_spec_with_budget(name, budget), seed);
    if (!agent) return agent.error();
    return (*agent)->choose(s);
  };
}

std::string event_line(const Event& e) {
  std::string s = "  ";
  if (!e.rule.empty()) s += "[" + e.rule + "] ";
  return s + e.text;
}

Progress::Progress(std::string label, int64_t total)
    : label_(std::move(label)), total_(total), tty_(isatty(fileno(stderr)) != 0) {}

Progress::~Progress() { finish(); }

void Progress::update(int64_t done, const std::string& note) {
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done < total_) return;
  last_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  const int64_t clamped = total_ > 0 ? std::min(done, total_) : 0;
  const int filled = total_ > 0 ? static_cast<int>(clamped * kWidth / total_) : 0;
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r%s [%s] %lld/%lld %s\033[K", label_.c_str(), bar.c_str(),
               static_cast<long long>(done), static_cast<long long>(total_), note.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (tty_ && drawn_) {
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    drawn_ = false;
  }
}

void print_event_log(const Match& m, int side) {
  const Json log = m.log_json(side);
  for (const auto& entry : log) {
    std::cout << entry["n"].get<size_t>() << ". " << entry.value("side_name", std::string("?"));
    if (entry.contains("action")) std::cout << ": " << entry["action"].get<std::string>();
    std::cout << "\n";
    for (const auto& e : entry["events"]) {
      Event ev;
      ev.text = e["text"].get<std::string>();
      ev.rule = e.value("rule", std::string());
      std::cout << event_line(ev) << "\n";
    }
  }
}

}  // namespace steppe::cli
