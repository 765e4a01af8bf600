#include "kernel/scenario_test.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unordered_set>

#include "kernel/dice.h"
#include "kernel/notation.h"

namespace steppe {

std::string ScenarioFailure::to_string() const {
  // line 0: the file could not be read or parsed; `actual` says why (with its own line).
  if (line == 0) return actual;
  std::string s = file + ":" + std::to_string(line) + ": " + text;
  if (expected.empty()) {
    if (!actual.empty()) s += "\n  " + actual;  // a message-only failure (set-up, syntax, loading)
  } else {
    s += "\n  expected: " + expected;
    s += "\n  actual:   " + actual;
  }
  return s;
}

namespace {

// `illegal ACTION cites R` / `illegal ACTION [cites R]`: splits off the citation.
void split_cites(const std::vector<std::string>& words, std::string& action, std::string& cites) {
  std::vector<std::string> w(words.begin() + 1, words.end());
  cites.clear();
  if (w.size() >= 2) {
    std::string c = w[w.size() - 2];
    std::string r = w.back();
    if (c == "cites" || c == "[cites") {
      if (!r.empty() && r.back() == ']') r.pop_back();
      cites = r;
      w.resize(w.size() - 2);
    }
  }
  action = join_words(w);
}

// `expect A B = V`: query words and expected value; nullopt if there is no " = ".
std::optional<std::pair<std::vector<std::string>, std::string>> split_expect(const ScenarioLine& l) {
  auto it = std::find(l.words.begin() + 1, l.words.end(), "=");
  if (it == l.words.end()) return std::nullopt;
  std::vector<std::string> q(l.words.begin() + 1, it);
  std::vector<std::string> v(it + 1, l.words.end());
  return std::make_pair(q, join_words(v));
}

struct AgentLine {
  std::string agent;
  uint64_t seed = 1;
  int budget = 0;
  std::string action;
};

// expect agent NAME [seed N] [budget B] chooses ACTION
Result<AgentLine> parse_agent_line(const std::vector<std::string>& w) {
  AgentLine a;
  if (w.size() < 5) return Error{"usage: expect agent NAME [seed N] [budget B] chooses ACTION", "", ""};
  a.agent = w[2];
  size_t i = 3;
  while (i < w.size() && w[i] != "chooses") {
    if (i + 1 >= w.size()) return Error{"'" + w[i] + "' needs a value", "", ""};
    if (w[i] == "seed") {
      auto s = parse_uint(w[i + 1]);
      if (!s) return Error{"seed must be a non-negative integer, not '" + w[i + 1] + "'", "", ""};
      a.seed = *s;
    } else if (w[i] == "budget") {
      auto b = parse_int(w[i + 1]);
      if (!b || *b < 0 || *b > 100000000)
        return Error{"budget must be an integer >= 0, not '" + w[i + 1] + "'", "", ""};
      a.budget = static_cast<int>(*b);
    } else {
      return Error{"unexpected '" + w[i] + "' (expected seed N, budget B or chooses ACTION)", "", ""};
    }
    i += 2;
  }
  if (i >= w.size() || i + 1 >= w.size()) return Error{"missing 'chooses ACTION'", "", ""};
  a.action = join_words(w, i + 1);
  return a;
}

// play NAME [seed N] [budget B] [actions K]: the agent plays for the side to move, up to
// K actions (default 1), while that side is still to move.
struct PlayLine {
  std::string agent;
  uint64_t seed = 1;
  int budget = 0;
  int actions = 1;
};

Result<PlayLine> parse_play_line(const std::vector<std::string>& w) {
  const std::string usage = "usage: play NAME [seed N] [budget B] [actions K]";
  if (w.size() < 2) return Error{usage, "", ""};
  PlayLine p;
  p.agent = w[1];
  for (size_t i = 2; i < w.size(); i += 2) {
    if (i + 1 >= w.size()) return Error{"'" + w[i] + "' needs a value; " + usage, "", ""};
    if (w[i] == "seed") {
      auto s = parse_uint(w[i + 1]);
      if (!s) return Error{"seed must be a non-negative integer, not '" + w[i + 1] + "'", "", ""};
      p.seed = *s;
    } else if (w[i] == "budget" || w[i] == "actions") {
      auto b = parse_int(w[i + 1]);
      const int64_t lo = w[i] == "budget" ? 0 : 1, hi = w[i] == "budget" ? 100000000 : 10000;
      if (!b || *b < lo || *b > hi)
        return Error{w[i] + " must be an integer " + std::to_string(lo) + ".." + std::to_string(hi) +
                         ", not '" + w[i + 1] + "'",
                     "", ""};
      (w[i] == "budget" ? p.budget : p.actions) = static_cast<int>(*b);
    } else {
      return Error{"unexpected '" + w[i] + "'; " + usage, "", ""};
    }
  }
  return p;
}

Status syntax_check(const ScenarioLine& l) {
  const auto& w = l.words;
  const std::string& k = w[0];
  auto need = [&](bool ok, const std::string& usage) -> Status {
    return ok ? Status::ok() : Status(Error{"usage: " + usage, "", ""});
  };
  if (k == "game") return need(w.size() == 2, "game ID");
  if (k == "scenario") return need(w.size() == 2, "scenario NAME|empty");
  if (k == "seed")
    return need(w.size() == 2 && parse_uint(w[1]).has_value(), "seed N (a non-negative integer)");
  if (k == "name" || k == "rule") return need(w.size() >= 2, k + " TEXT");
  if (k == "dice") {
    if (w.size() < 2) return need(false, "dice N...");
    for (size_t i = 1; i < w.size(); ++i) {
      auto v = parse_int(w[i]);
      if (!v || *v < 1 || *v > 1000)
        return Error{"a forced roll must be an integer 1..1000, not '" + w[i] + "'", "", ""};
    }
    return Status::ok();
  }
  if (k == "do" || k == "legal") return need(w.size() >= 2, k + " ACTION");
  if (k == "illegal") {
    std::string action, cites;
    split_cites(w, action, cites);
    return need(!action.empty(), "illegal ACTION [cites RULE]");
  }
  if (k == "set") return need(w.size() >= 2, "set WORDS...");
  if (k == "play") return parse_play_line(w).status();
  if (k == "expect") {
    if (w.size() >= 2 && w[1] == "agent") return parse_agent_line(w).status();
    if (w.size() >= 2 && w[1] == "winner")
      return need(w.size() == 3 || (w.size() == 4 && w[2] == "="), "expect winner SIDE");
    if (w.size() >= 3 && w[1] == "log" && w[2] == "contains")
      return need(w.size() >= 4, "expect log contains TEXT");
    auto e = split_expect(l);
    if (!e) return Error{"usage: expect QUERY... = VALUE (no ' = ' found)", "", ""};
    return need(!e->first.empty(), "expect QUERY... = VALUE");
  }
  return Status::ok();  // a game-specific set-up word: the game checks it when it runs
}

}  // namespace

Result<ScenarioTest> parse_scenario_test(std::string_view text, const std::string& file) {
  ScenarioTest t;
  t.file = file;
  int lineno = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++lineno;
    if (const size_t hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
    raw = trim(raw);
    if (raw.empty()) {
      if (nl == text.size()) break;
      continue;
    }
    for (char c : raw)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
        return Error{"control character in line", "", file + ":" + std::to_string(lineno)};
    ScenarioLine l{lineno, std::string(raw), split_words(raw)};
    if (Status s = syntax_check(l); !s.is_ok())
      return Error{s.error().message + " (in: " + l.text + ")", "", file + ":" + std::to_string(lineno)};
    if (l.words[0] == "name") t.name = join_words(l.words, 1);
    if (l.words[0] == "rule") t.rule = join_words(l.words, 1);
    t.lines.push_back(std::move(l));
    if (nl == text.size()) break;
  }
  if (t.lines.empty()) return Error{"empty scenario test", "", file};
  return t;
}

namespace {

class CollectSink final : public EventSink {
 public:
  void emit(Event e) override { events.push_back(std::move(e)); }
  std::vector<Event> events;
};

bool cites_rule(const std::string& rule, const std::string& cited) {
  if (rule == cited) return true;
  // The game may cite several sections ("10.3, 10.4"): any one of them matches.
  std::string norm = rule;
  for (char& c : norm)
    if (c == ',' || c == ';' || c == '(' || c == ')') c = ' ';
  for (const auto& w : split_words(norm))
    if (w == cited) return true;
  return false;
}

class Runner {
 public:
  Runner(const ScenarioTest& t, const ScenarioEnv& env) : t_(t), env_(env) {}

  ScenarioResult run() {
    res_.file = t_.file;
    res_.name = t_.name.empty() ? t_.file : t_.name;
    for (const auto& l : t_.lines) {
      if (!step(l)) return std::move(res_);
    }
    if (!state_ && !ensure_state(t_.lines.back())) return std::move(res_);
    res_.passed = true;
    return std::move(res_);
  }

 private:
  bool fail(const ScenarioLine& l, std::string expected, std::string actual) {
    res_.failure = ScenarioFailure{t_.file, l.line, l.text, std::move(expected), std::move(actual)};
    res_.passed = false;
    return false;
  }
  bool fail_msg(const ScenarioLine& l, const std::string& message) { return fail(l, "", message); }

  bool ensure_state(const ScenarioLine& l) {
    if (state_) return true;
    if (game_id_.empty()) return fail_msg(l, "no `game ID` line before this line");
    if (!env_.games) return fail_msg(l, "no game provider given to the scenario runner");
    auto g = env_.games(game_id_);
    if (!g) return fail_msg(l, "cannot load game '" + game_id_ + "': " + g.error().to_string());
    game_ = *g;
    auto st = game_->new_state(scenario_, seed_);
    if (!st) return fail_msg(l, "cannot start scenario '" + scenario_ + "': " + st.error().to_string());
    state_ = std::move(st).value();
    state_->set_event_sink(&sink_);
    return true;
  }

  int side_index(const std::string& name) const {
    const auto sides = game_->side_names();
    for (size_t i = 0; i < sides.size(); ++i)
      if (sides[i] == name) return static_cast<int>(i);
    return -1;
  }
  std::string side_name(int side) const {
    const auto sides = game_->side_names();
    if (side >= 0 && static_cast<size_t>(side) < sides.size()) return sides[static_cast<size_t>(side)];
    if (side == kTerminalPlayer) return "none";
    return std::to_string(side);
  }

  bool step(const ScenarioLine& l) {
    const auto& w = l.words;
    const std::string& k = w[0];
    if (k == "name" || k == "rule") return true;
    if (k == "game" || k == "scenario" || k == "seed") {
      if (state_) return fail_msg(l, "`" + k + "` must come before the first line that uses the game state");
      if (k == "game") game_id_ = w[1];
      if (k == "scenario") scenario_ = w[1];
      if (k == "seed") seed_ = *parse_uint(w[1]);
      return true;
    }
    if (!ensure_state(l)) return false;
    if (k == "dice") {
      for (size_t i = 1; i < w.size(); ++i) state_->dice().force(static_cast<int>(*parse_int(w[i])));
      return true;
    }
    if (k == "do") {
      const std::string text = join_words(w, 1);
      auto a = state_->parse_action(text);
      if (!a) return fail(l, "a legal action", "does not parse: " + a.error().to_string());
      // Logs and saves hold the printed form: it must read back as the same action.
      const std::string printed = state_->action_to_string(*a);
      auto again = state_->parse_action(printed);
      if (!again || !(*again == *a))
        return fail(l, "the action printed as text that reads back as itself",
                    "printed as '" + printed + "'");
      sink_.events.clear();
      Status s = state_->apply(*a);
      if (!s.is_ok()) return fail(l, "a legal action", "refused: " + s.error().to_string());
      if (const auto [value, sides] = state_->dice().take_misfit(); value != 0)
        return fail(l, "forced rolls that fit their dice",
                    "forced roll " + std::to_string(value) + " met a d" + std::to_string(sides));
      ++res_.checks;
      return true;
    }
    if (k == "legal") {
      const std::string text = join_words(w, 1);
      auto a = state_->parse_action(text);
      if (!a) return fail(l, "legal", "does not parse: " + a.error().to_string());
      Status s = state_->check(*a);
      if (!s.is_ok()) return fail(l, "legal", "illegal: " + s.error().to_string());
      std::vector<Action> acts;
      state_->legal_actions(acts);
      if (std::find(acts.begin(), acts.end(), *a) == acts.end())
        return fail(l, "legal (in legal_actions)", "check() accepts it but legal_actions() does not list it");
      ++res_.checks;
      return true;
    }
    if (k == "illegal") {
      std::string text, cites;
      split_cites(w, text, cites);
      const std::string expected = cites.empty() ? "refused" : "refused citing " + cites;
      auto a = state_->parse_action(text);
      Error err;
      if (!a) {
        err = a.error();
      } else {
        const uint64_t before = state_->state_hash();
        sink_.events.clear();
        Status s = state_->apply(*a);
        if (s.is_ok()) return fail(l, expected, "accepted (the action is legal)");
        if (state_->state_hash() != before)
          return fail(l, expected + ", state unchanged", "refused, but the state changed (hash differs)");
        if (!sink_.events.empty()) return fail(l, expected, "refused, but it emitted events");
        err = s.error();
      }
      if (!cites.empty() && !cites_rule(err.rule, cites))
        return fail(l, expected, "refused citing '" + err.rule + "': " + err.to_string());
      ++res_.checks;
      return true;
    }
    if (k == "set") {
      std::vector<std::string> words(w.begin() + 1, w.end());
      Status s = state_->test_set(words);
      if (!s.is_ok()) return fail_msg(l, "set-up refused: " + s.error().to_string());
      return true;
    }
    if (k == "expect") return expect(l);
    if (k == "play") return play(l);
    // Bare game-specific set-up word ("place", "turn", "phase", "control", ...).
    Status s = state_->test_set(w);
    if (!s.is_ok()) return fail_msg(l, "set-up refused: " + s.error().to_string());
    return true;
  }

  // The agent's actions are applied as `do` would, with seeds seed, seed+1, ...
  bool play(const ScenarioLine& l) {
    auto pl = parse_play_line(l.words);
    if (!pl) return fail_msg(l, pl.error().message);
    if (!env_.agents) return fail_msg(l, "no agents are available to this scenario runner");
    if (state_->is_terminal()) return fail_msg(l, "the game is over; no agent can play");
    const int side = state_->current_player();
    sink_.events.clear();
    for (int i = 0; i < pl->actions && !state_->is_terminal() && state_->current_player() == side; ++i) {
      auto chosen = env_.agents(pl->agent, pl->seed + static_cast<uint64_t>(i), pl->budget, *state_);
      if (!chosen) return fail_msg(l, "agent failed: " + chosen.error().to_string());
      if (trace_play_) std::cerr << "play: " << state_->action_to_string(*chosen) << "\n";
      Status s = state_->apply(*chosen);
      if (!s.is_ok())
        return fail(l, "a legal action from the agent",
                    state_->action_to_string(*chosen) + " refused: " + s.error().to_string());
    }
    ++res_.checks;
    return true;
  }

  bool expect(const ScenarioLine& l) {
    const auto& w = l.words;
    if (w[1] == "winner") {
      const std::string want = w.back();
      const Json r = state_->result();
      std::string got = "none";
      if (state_->is_terminal())
        got = r.contains("winner") && r["winner"].is_string() ? r["winner"].get<std::string>() : "?";
      if (got != want) return fail(l, want, got);
      ++res_.checks;
      return true;
    }
    if (w[1] == "agent") {
      auto al = parse_agent_line(w);
      if (!al) return fail_msg(l, al.error().message);
      if (!env_.agents) return fail_msg(l, "no agents are available to this scenario runner");
      if (state_->is_terminal()) return fail_msg(l, "the game is over; no agent can choose");
      auto chosen = env_.agents(al->agent, al->seed, al->budget, *state_);
      if (!chosen) return fail_msg(l, "agent failed: " + chosen.error().to_string());
      const std::string got = state_->action_to_string(*chosen);
      auto want = state_->parse_action(al->action);
      if (want ? !(*want == *chosen) : got != al->action) return fail(l, al->action, got);
      ++res_.checks;
      return true;
    }
    if (w[1] == "log" && w.size() >= 3 && w[2] == "contains") {
      const std::string needle = join_words(w, 3);
      std::string all;
      for (const auto& e : sink_.events) {
        if (e.text.find(needle) != std::string::npos) {
          ++res_.checks;
          return true;
        }
        all += (all.empty() ? "" : " | ") + e.text;
      }
      return fail(l, "an event of the last action containing '" + needle + "'",
                  all.empty() ? "(no events)" : all);
    }
    auto e = split_expect(l);
    const auto& [query, want] = *e;
    Result<std::string> got = builtin_query(query);
    if (!got) return fail(l, want, "query failed: " + got.error().to_string());
    if (*got != want) return fail(l, want, *got);
    ++res_.checks;
    return true;
  }

  Result<std::string> builtin_query(const std::vector<std::string>& q) const {
    if (q.size() == 1 && q[0] == "player") return side_name(state_->current_player());
    if (q.size() == 1 && q[0] == "terminal") return std::string(state_->is_terminal() ? "yes" : "no");
    // Whether rolls forced with `dice` are still waiting: "yes" shows that no die was rolled
    // since (a rule that must not roll, e.g. no weather roll before October).
    if (q.size() == 1 && q[0] == "forced-dice-left")
      return std::string(state_->dice().has_forced() ? "yes" : "no");
    if (q.size() == 1 && q[0] == "legal-count") {
      std::vector<Action> acts;
      state_->legal_actions(acts);
      return std::to_string(acts.size());
    }
    if (q.size() == 2 && q[0] == "result") {
      const Json r = state_->result();
      if (!r.is_object() || !r.contains(q[1])) return Error{"result() has no '" + q[1] + "'", "", ""};
      return r[q[1]].is_string() ? r[q[1]].get<std::string>() : r[q[1]].dump();
    }
    return state_->test_query(q);
  }

  const ScenarioTest& t_;
  const ScenarioEnv& env_;
  // STEPPE_TRACE_PLAY=1: `play` lines print each action they apply (writing an AI test).
  const bool trace_play_ = std::getenv("STEPPE_TRACE_PLAY") != nullptr;
  ScenarioResult res_;
  std::string game_id_;
  std::string scenario_ = "empty";
  uint64_t seed_ = 1;
  const Game* game_ = nullptr;
  std::unique_ptr<State> state_;
  CollectSink sink_;
};

}  // namespace

AgentChooser uniform_random_chooser() {
  return [](const std::string& name, uint64_t seed, int, const State& s) -> Result<Action> {
    if (name != "random") return Error{"only the random agent here", "", ""};
    std::vector<Action> acts;
    s.legal_actions(acts);
    if (acts.empty()) return Error{"no legal action", "", ""};
    return acts[static_cast<size_t>(splitmix64(seed) % acts.size())];
  };
}

ScenarioResult run_scenario_test(const ScenarioTest& test, const ScenarioEnv& env) {
  ScenarioResult r = Runner(test, env).run();
  return r;
}

ScenarioResult run_scenario_file(const std::filesystem::path& file, const ScenarioEnv& env) {
  ScenarioResult r;
  r.file = file.string();
  r.name = r.file;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    r.failure = ScenarioFailure{r.file, 0, "", "", "cannot open the file"};
    return r;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  auto t = parse_scenario_test(ss.str(), r.file);
  if (!t) {
    r.failure = ScenarioFailure{r.file, 0, "", "", t.error().to_string()};
    return r;
  }
  return run_scenario_test(*t, env);
}

ScenarioSummary run_scenario_paths(const std::vector<std::filesystem::path>& paths, const ScenarioEnv& env) {
  ScenarioSummary sum;
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::filesystem::path> found;
      for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == kScenarioTestExtension)
          found.push_back(it->path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);
    }
  }
  for (const auto& f : files) {
    ScenarioResult r = run_scenario_file(f, env);
    (r.passed ? sum.passed : sum.failed)++;
    sum.results.push_back(std::move(r));
    if (env.on_file_done) env.on_file_done(sum.results.size(), files.size());
  }
  return sum;
}

}  // namespace steppe
