#include "kernel/match.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kernel/notation.h"
#include "kernel/position.h"

namespace steppe {

class Match::Sink final : public EventSink {
 public:
  void emit(Event e) override {
    if (target != nullptr) target->push_back(std::move(e));
  }
  std::vector<Event>* target = nullptr;
};

bool LogEntry::reveals() const {
  for (const auto& e : events)
    if (e.reveals) return true;
  return false;
}

Json event_to_json(const Event& e) {
  Json j{{"kind", e.kind}, {"text", e.text}, {"visible_to", e.visible_to}, {"reveals", e.reveals}};
  if (!e.rule.empty()) j["rule"] = e.rule;
  if (!e.data.is_null()) j["data"] = e.data;
  return j;
}

Match::Match(const Game& game, std::string scenario, uint64_t seed, std::unique_ptr<State> state)
    : game_(&game),
      scenario_(std::move(scenario)),
      seed_(seed),
      state_(std::move(state)),
      sink_(std::make_unique<Sink>()) {
  state_->set_event_sink(sink_.get());
  initial_hash_ = state_->state_hash();
  keep_position_if_new_turn();
}

Result<std::unique_ptr<State>> Match::fresh_start() const {
  if (base_) return base_->clone();
  return game_->new_state(scenario_, seed_);
}

void Match::keep_position_if_new_turn() {
  const int turn = state_->game_turn();
  if (!positions_.empty() && positions_.back().turn == turn) return;
  // Asked at the match's start; a game with no position format (nothing kept then) is not
  // asked again at every action.
  if (!positions_.empty() || log_.empty()) {
    auto doc = position_document(*state_);
    if (!doc) return;  // the game has no position format
    positions_.push_back(PositionCheckpoint{log_.size(), turn, std::move(doc).value()});
  }
}

Match::~Match() {
  if (state_) state_->set_event_sink(nullptr);
}

Result<std::unique_ptr<Match>> Match::start(const Game& game, const std::string& scenario, uint64_t seed) {
  auto st = game.new_state(scenario, seed);
  if (!st) return st.error();
  return std::unique_ptr<Match>(new Match(game, scenario, seed, std::move(st).value()));
}

std::vector<std::string> Match::actions() const {
  std::vector<std::string> out;
  out.reserve(log_.size());
  for (const auto& e : log_) out.push_back(e.action);
  return out;
}

Status Match::apply(const Action& a) {
  if (state_->is_terminal()) return Error{"the game is over; no further actions are possible", "", ""};
  LogEntry entry;
  entry.side = state_->current_player();
  entry.action = state_->action_to_string(a);
  sink_->target = &entry.events;
  Status s = state_->apply(a);
  sink_->target = nullptr;
  if (!s.is_ok()) return s;
  entry.hash_after = state_->state_hash();
  log_.push_back(std::move(entry));
  keep_position_if_new_turn();
  return Status::ok();
}

Status Match::apply_text(std::string_view text) {
  auto a = state_->parse_action(text);
  if (!a) return a.error();
  return apply(*a);
}

size_t Match::undoable() const {
  size_t n = 0;
  for (auto it = log_.rbegin(); it != log_.rend() && !it->reveals(); ++it) ++n;
  return n;
}

Result<std::unique_ptr<State>> Match::replay(size_t n) const {
  if (n > log_.size()) return Error{"cannot replay more actions than the log holds", "", ""};
  auto st = fresh_start();
  if (!st) return st.error();
  std::unique_ptr<State> s = std::move(st).value();
  for (size_t i = 0; i < n; ++i) {
    auto a = s->parse_action(log_[i].action);
    if (!a)
      return Error{"replay: action " + std::to_string(i + 1) + " ('" + log_[i].action +
                       "') no longer parses: " + a.error().to_string(),
                   "", ""};
    Status ok = s->apply(*a);
    if (!ok.is_ok())
      return Error{"replay: action " + std::to_string(i + 1) + " ('" + log_[i].action +
                       "') is refused: " + ok.error().to_string(),
                   "", ""};
  }
  return s;
}

Status Match::undo(size_t n) {
  if (n == 0) return Status::ok();
  if (n > log_.size())
    return Error{"cannot undo " + std::to_string(n) + " actions: only " + std::to_string(log_.size()) +
                     " have been played",
                 "", ""};
  const size_t can = undoable();
  if (n > can) {
    const LogEntry& blocker = log_[log_.size() - can - 1];
    std::string what;
    for (const auto& e : blocker.events)
      if (e.reveals) {
        what = e.text;
        break;
      }
    return Error{"cannot undo past action " + std::to_string(log_.size() - can) + " ('" + blocker.action +
                     "'): it revealed information (" + what + ")",
                 "", ""};
  }
  const size_t keep = log_.size() - n;
  auto st = replay(keep);
  if (!st) return st.error();
  const uint64_t expected = keep == 0 ? initial_hash_ : log_[keep - 1].hash_after;
  if ((*st)->state_hash() != expected)
    return Error{"undo: replaying the first " + std::to_string(keep) +
                     " actions does not reproduce the state (hash " + hash_to_hex((*st)->state_hash()) +
                     ", expected " + hash_to_hex(expected) + "); the game is not deterministic",
                 "", ""};
  state_->set_event_sink(nullptr);
  state_ = std::move(st).value();
  state_->set_event_sink(sink_.get());
  log_.resize(keep);
  while (!positions_.empty() && positions_.back().after > keep) positions_.pop_back();
  return Status::ok();
}

Json Match::log_json(int side) const {
  Json out = Json::array();
  const auto sides = game_->side_names();
  for (size_t i = 0; i < log_.size(); ++i) {
    const LogEntry& le = log_[i];
    Json j{{"n", i + 1}, {"side", le.side}};
    if (le.side >= 0 && static_cast<size_t>(le.side) < sides.size())
      j["side_name"] = sides[static_cast<size_t>(le.side)];
    if (side < 0 || side == le.side) j["action"] = le.action;
    Json evs = Json::array();
    for (const auto& e : le.events) {
      const bool visible = side < 0 || (side < 32 && (e.visible_to >> side) & 1u);
      if (visible) evs.push_back(event_to_json(e));
    }
    j["events"] = std::move(evs);
    out.push_back(std::move(j));
  }
  return out;
}

Json Match::save_json(int checkpoint_every) const {
  Json j;
  j["format"] = kSaveFormat;
  j["format_version"] = kSaveFormatVersion;
  j["engine_version"] = STEPPE_VERSION;
  j["game"] = game_->id();
  j["scenario"] = scenario_;
  j["seed"] = seed_;
  j["rules_hash"] = game_->rules_hash();
  Json actions = Json::array();
  for (const auto& e : log_) actions.push_back(e.action);
  j["actions"] = std::move(actions);
  Json cps = Json::array();
  cps.push_back(Json{{"after", 0}, {"hash", hash_to_hex(initial_hash_)}});
  if (checkpoint_every > 0)
    for (size_t i = static_cast<size_t>(checkpoint_every); i <= log_.size();
         i += static_cast<size_t>(checkpoint_every))
      cps.push_back(Json{{"after", i}, {"hash", hash_to_hex(log_[i - 1].hash_after)}});
  j["checkpoints"] = std::move(cps);
  j["final_hash"] = hash_to_hex(log_.empty() ? initial_hash_ : log_.back().hash_after);
  // Positions (docs/saves.md): each game turn's start, and the end of the log, so that an
  // engine that can no longer replay the log continues from the latest one it can read.
  if (!positions_.empty()) {
    Json ps = Json::array();
    for (const auto& p : positions_)
      ps.push_back(Json{{"after", p.after}, {"turn", p.turn}, {"position", p.position}});
    if (positions_.back().after != log_.size())
      if (auto doc = position_document(*state_))
        ps.push_back(Json{
            {"after", log_.size()}, {"turn", state_->game_turn()}, {"position", std::move(doc).value()}});
    j["positions"] = std::move(ps);
  }
  if (base_) j["start"] = Json{{"position", base_position_}, {"history", history_}};
  if (!migrations_.empty()) j["migrations"] = migrations_;
  return j;
}

Status Match::save_file(const std::filesystem::path& file, int checkpoint_every) const {
  return write_file_atomically(file, save_json(checkpoint_every).dump(1) + "\n");
}

namespace {

Error save_error(const std::string& where, const std::string& msg) { return Error{msg, "", where}; }

}  // namespace

Result<SaveHeader> read_save_header(const Json& save, const std::string& where) {
  if (!save.is_object()) return save_error(where, "not a steppe save (the document is not a JSON object)");
  auto fmt = save.find("format");
  if (fmt == save.end() || !fmt->is_string() || fmt->get<std::string>() != kSaveFormat)
    return save_error(where, "not a steppe save (missing \"format\": \"steppe-save\")");
  auto ver = save.find("format_version");
  if (ver == save.end() || !ver->is_number_integer())
    return save_error(where + ": /format_version", "missing or not an integer");
  if (ver->get<int64_t>() != kSaveFormatVersion)
    return save_error(where + ": /format_version", "save format version " + ver->dump() +
                                                       " is not supported (this engine reads version " +
                                                       std::to_string(kSaveFormatVersion) + ")");
  SaveHeader h;
  for (const char* key : {"engine_version", "game", "scenario", "rules_hash"}) {
    auto it = save.find(key);
    if (it == save.end() || !it->is_string())
      return save_error(where + ": /" + key, "missing or not a string");
  }
  h.engine_version = save["engine_version"].get<std::string>();
  h.game = save["game"].get<std::string>();
  h.scenario = save["scenario"].get<std::string>();
  h.rules_hash = save["rules_hash"].get<std::string>();
  auto seed = save.find("seed");
  if (seed == save.end() || !seed->is_number_unsigned())
    return save_error(where + ": /seed", "missing or not a non-negative integer");
  h.seed = seed->get<uint64_t>();
  return h;
}

Result<std::unique_ptr<Match>> Match::from_save_json(const Json& save, const Game& game,
                                                     const std::string& where) {
  auto hdr = read_save_header(save, where);
  if (!hdr) return hdr.error();
  const SaveHeader& h = *hdr;
  if (h.game != game.id())
    return save_error(where, "this save is of game '" + h.game + "', not '" + game.id() + "'");
  if (h.rules_hash != game.rules_hash())
    return save_error(where, "this save was made with other rules data (save " + h.rules_hash +
                                 ", installed " + game.rules_hash() +
                                 "); replaying it would not reproduce the game");
  auto acts = save.find("actions");
  if (acts == save.end() || !acts->is_array())
    return save_error(where + ": /actions", "missing or not an array");
  // Checkpoints: after -> expected hash.
  std::vector<std::pair<size_t, uint64_t>> checks;
  if (auto cps = save.find("checkpoints"); cps != save.end()) {
    if (!cps->is_array()) return save_error(where + ": /checkpoints", "not an array");
    for (size_t i = 0; i < cps->size(); ++i) {
      const Json& c = (*cps)[i];
      const std::string at = where + ": /checkpoints/" + std::to_string(i);
      if (!c.is_object() || !c.contains("after") || !c["after"].is_number_integer() ||
          c["after"].get<int64_t>() < 0 || !c.contains("hash") || !c["hash"].is_string())
        return save_error(at, "a checkpoint must be {\"after\": N, \"hash\": \"16 hex digits\"}");
      auto hv = hex_to_hash(c["hash"].get<std::string>());
      if (!hv) return save_error(at + "/hash", "not a hex hash: " + c["hash"].dump());
      const auto after = static_cast<uint64_t>(c["after"].get<int64_t>());
      if (after > acts->size())
        return save_error(at + "/after", "checkpoint after action " + std::to_string(after) +
                                             " but the save has only " + std::to_string(acts->size()) +
                                             " actions");
      checks.emplace_back(static_cast<size_t>(after), *hv);
    }
  }
  std::optional<uint64_t> final_hash;
  if (auto fh = save.find("final_hash"); fh != save.end()) {
    if (!fh->is_string()) return save_error(where + ": /final_hash", "not a string");
    final_hash = hex_to_hash(fh->get<std::string>());
    if (!final_hash) return save_error(where + ": /final_hash", "not a hex hash: " + fh->dump());
  }

  // A migrated game's log starts at the position it continued from ("start").
  Result<std::unique_ptr<Match>> m = Error{"", "", ""};
  if (auto st = save.find("start"); st != save.end()) {
    if (!st->is_object() || !st->contains("position"))
      return save_error(where + ": /start", "must be {\"position\": {...}, \"history\": [...]}");
    m = at_position(game, h.scenario, h.seed, (*st)["position"], where + ": /start/position");
    if (!m) return m.error();
    if (auto hi = st->find("history"); hi != st->end() && hi->is_array())
      for (const auto& x : *hi)
        if (x.is_string()) (*m)->history_.push_back(x.get<std::string>());
  } else {
    m = Match::start(game, h.scenario, h.seed);
    if (!m) return save_error(where + ": /scenario", m.error().to_string());
  }
  Match& match = **m;
  if (auto mi = save.find("migrations"); mi != save.end() && mi->is_array())
    for (const auto& x : *mi) match.migrations_.push_back(x);
  // The rules data is checked above; the engine's code is not, so a save from another
  // version that stops replaying says which versions met.
  const std::string engine_note =
      h.engine_version == STEPPE_VERSION
          ? std::string()
          : " (the save was written by Steppe " + h.engine_version + ", this is Steppe " STEPPE_VERSION ")";
  auto verify = [&](size_t n) -> Status {
    const uint64_t got = n == 0 ? match.initial_hash_ : match.log_[n - 1].hash_after;
    for (const auto& [after, hv] : checks)
      if (after == n && hv != got)
        return save_error(where, "replay diverged: after action " + std::to_string(n) +
                                     " the state hash is " + hash_to_hex(got) + " but the save recorded " +
                                     hash_to_hex(hv) + " (the save was edited, or the engine changed)" +
                                     engine_note);
    return Status::ok();
  };
  if (Status s = verify(0); !s.is_ok()) return s.error();
  for (size_t i = 0; i < acts->size(); ++i) {
    const Json& aj = (*acts)[i];
    const std::string at = where + ": /actions/" + std::to_string(i);
    if (!aj.is_string()) return save_error(at, "an action must be a string in the game's notation");
    const std::string text = aj.get<std::string>();
    if (match.state_->is_terminal())
      return save_error(at, "action '" + text + "' comes after the end of the game");
    auto a = match.state_->parse_action(text);
    if (!a) return save_error(at, "action '" + text + "' does not parse: " + a.error().to_string());
    Status s = match.apply(*a);
    if (!s.is_ok())
      return save_error(at, "action '" + text + "' is refused: " + s.error().to_string() + engine_note);
    if (Status v = verify(i + 1); !v.is_ok()) return v.error();
  }
  if (final_hash) {
    const uint64_t got = match.log_.empty() ? match.initial_hash_ : match.log_.back().hash_after;
    if (got != *final_hash)
      return save_error(where, "replay diverged: the final state hash is " + hash_to_hex(got) +
                                   " but the save recorded " + hash_to_hex(*final_hash) + engine_note);
  }
  return m;
}

Result<std::unique_ptr<Match>> Match::at_position(const Game& game, const std::string& scenario,
                                                  uint64_t seed, const Json& doc, const std::string& where) {
  auto st = state_from_position_document(game, doc, where);
  if (!st) return st.error();
  std::unique_ptr<State> base = (*st)->clone();
  std::unique_ptr<Match> m(new Match(game, scenario, seed, std::move(st).value()));
  m->base_ = std::move(base);
  m->base_position_ = doc;
  return m;
}

std::string MigrationReport::text() const {
  std::string t = "Continued under Steppe " + engine_version;
  if (from_engine != engine_version) t += " (the game was saved by Steppe " + from_engine + ")";
  t += from_scenario_start ? " from the scenario's start"
                           : " from the position at game turn " + std::to_string(base_turn) +
                                 " (after action " + std::to_string(base_after) + ")";
  t += ": " + why + ". ";
  if (replayed > 0)
    t += "Actions " + std::to_string(base_after + 1) + "-" + std::to_string(base_after + replayed) +
         " replayed";
  else
    t += "No action replayed";
  if (dropped.empty()) {
    t += same_final_state ? "; the game is exactly where it was." : "; the game continues from there.";
  } else {
    t += "; action " + std::to_string(base_after + replayed + 1) + " ('" + dropped.front() +
         "') is no longer legal: " + refusal;
    if (dropped.size() > 1)
      t += " (it and the " + std::to_string(dropped.size() - 1) + " actions after it were not replayed)";
    t += ".";
  }
  for (const auto& s : skipped) t += " " + s + ".";
  return t;
}

Json MigrationReport::to_json() const {
  return Json{{"engine_version", engine_version},
              {"from_engine", from_engine},
              {"rules_changed", rules_changed},
              {"why", why},
              {"base_after", base_after},
              {"base_turn", base_turn},
              {"from_scenario_start", from_scenario_start},
              {"replayed", replayed},
              {"same_final_state", same_final_state},
              {"dropped", dropped},
              {"refusal", refusal},
              {"skipped", skipped},
              {"text", text()}};
}

Result<std::unique_ptr<Match>> Match::migrate_save_json(const Json& save, const Game& game,
                                                        const std::string& where) {
  auto exact = from_save_json(save, game, where);
  if (exact) return exact;
  auto hdr = read_save_header(save, where);
  if (!hdr) return hdr.error();
  const SaveHeader& h = *hdr;
  if (h.game != game.id())
    return save_error(where, "this save is of game '" + h.game + "', not '" + game.id() + "'");
  auto acts = save.find("actions");
  if (acts == save.end() || !acts->is_array())
    return save_error(where + ": /actions", "missing or not an array");
  std::vector<std::string> actions;
  for (const auto& a : *acts) actions.push_back(a.is_string() ? a.get<std::string>() : a.dump());
  std::vector<std::string> history;
  if (auto st = save.find("start"); st != save.end() && st->is_object())
    if (auto hi = st->find("history"); hi != st->end() && hi->is_array())
      for (const auto& x : *hi)
        if (x.is_string()) history.push_back(x.get<std::string>());

  MigrationReport rep;
  rep.engine_version = STEPPE_VERSION;
  rep.from_engine = h.engine_version;
  rep.rules_changed = h.rules_hash != game.rules_hash();
  rep.why = exact.error().message;

  // Candidates, latest first: the save's positions, then where its log starts.
  struct Candidate {
    size_t after;
    int turn;
    const Json* doc;  // null: the scenario's start
  };
  std::vector<Candidate> cands;
  if (auto ps = save.find("positions"); ps != save.end() && ps->is_array())
    for (const auto& p : *ps)
      if (p.is_object() && p.contains("after") && p["after"].is_number_unsigned() && p.contains("position") &&
          p["after"].get<uint64_t>() <= actions.size())
        cands.push_back(
            Candidate{static_cast<size_t>(p["after"].get<uint64_t>()), p.value("turn", 0), &p["position"]});
  std::stable_sort(cands.begin(), cands.end(),
                   [](const Candidate& a, const Candidate& b) { return a.after > b.after; });
  if (auto st = save.find("start"); st != save.end() && st->is_object() && st->contains("position"))
    cands.push_back(Candidate{0, 0, &(*st)["position"]});
  else
    cands.push_back(Candidate{0, 0, nullptr});

  for (const Candidate& c : cands) {
    Result<std::unique_ptr<Match>> m = Error{"", "", ""};
    if (c.doc != nullptr) {
      m = at_position(game, h.scenario, h.seed, *c.doc,
                      where + ": position after action " + std::to_string(c.after));
    } else {
      m = Match::start(game, h.scenario, h.seed);
    }
    if (!m) {
      rep.skipped.push_back((c.doc != nullptr ? "The position after action " + std::to_string(c.after)
                                              : std::string("The scenario's start")) +
                            " does not load: " + m.error().to_string());
      continue;
    }
    Match& match = **m;
    rep.base_after = c.after;
    rep.base_turn = c.doc != nullptr ? c.turn : match.state().game_turn();
    rep.from_scenario_start = c.doc == nullptr;
    match.history_ = history;
    if (c.doc != nullptr)
      for (size_t i = 0; i < c.after; ++i) match.history_.push_back(actions[i]);
    for (size_t i = c.after; i < actions.size(); ++i) {
      Status s = match.state_->is_terminal() ? Status(Error{"the game is over", "", ""})
                                             : match.apply_text(actions[i]);
      if (!s.is_ok()) {
        rep.refusal = s.error().to_string();
        rep.dropped.assign(actions.begin() + static_cast<std::ptrdiff_t>(i), actions.end());
        break;
      }
      ++rep.replayed;
    }
    if (rep.dropped.empty())
      if (auto fh = save.find("final_hash"); fh != save.end() && fh->is_string())
        rep.same_final_state = hex_to_hash(fh->get<std::string>()) == match.state_->state_hash();
    if (auto mi = save.find("migrations"); mi != save.end() && mi->is_array())
      for (const auto& x : *mi) match.migrations_.push_back(x);
    match.migrations_.push_back(rep.to_json());
    return m;
  }
  std::string all;
  for (const auto& s : rep.skipped) all += " " + s + ".";
  return save_error(where, "nothing of this save loads under Steppe " STEPPE_VERSION ":" + all);
}

Result<Json> read_save_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{"cannot open save file: " + std::string(std::strerror(errno)), "", file.string()};
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Error{"cannot read save file", "", file.string()};
  Json j = Json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{"not a steppe save (not valid JSON)", "", file.string()};
  return j;
}

Status write_file_atomically(const std::filesystem::path& file, std::string_view contents) {
  const std::filesystem::path tmp = file.string() + ".steppe.tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot write: " + std::string(std::strerror(errno)), "", tmp.string()};
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t w = ::write(fd, contents.data() + done, contents.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return Error{"cannot write: " + why, "", tmp.string()};
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Error{"cannot write: " + why, "", tmp.string()};
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Error{"cannot replace the file: " + why, "", file.string()};
  }
  // Make the rename itself durable.
  std::filesystem::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return Status::ok();
}

}  // namespace steppe
