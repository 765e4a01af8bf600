#include "kernel/match.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kernel/notation.h"

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
  auto st = game_->new_state(scenario_, seed_);
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

  auto m = Match::start(game, h.scenario, h.seed);
  if (!m) return save_error(where + ": /scenario", m.error().to_string());
  Match& match = **m;
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
