#include "fixture_game.h"

#include <sstream>

namespace steppe::testing {
namespace {

enum Verb : uint16_t { kMove = 1, kPass = 2, kScout = 3, kNote = 4 };
constexpr int kHexes = 8;

std::string hex_id(int col) {
  char buf[16];  // room for any int (GCC warns of truncation otherwise)
  std::snprintf(buf, sizeof buf, "01%02d", col);
  return buf;
}

class DuelGame;

class DuelState final : public State {
 public:
  DuelState(const DuelGame& g, int last_turn, uint64_t seed) : game_(g), last_turn_(last_turn) {
    dice_ = Dice(seed);
    secret_[0] = 100000000 + dice_.below(900000000);
    secret_[1] = 100000000 + dice_.below(900000000);
  }
  const Game& game() const override;
  int current_player() const override { return turn_ > last_turn_ ? kTerminalPlayer : to_move_; }
  bool is_terminal() const override { return turn_ > last_turn_; }
  std::vector<double> returns() const override {
    const int red = pos_[0] - 1, blue = kHexes - pos_[1];
    if (red == blue) return {0, 0};
    return red > blue ? std::vector<double>{1, -1} : std::vector<double>{-1, 1};
  }
  Json result() const override {
    const auto r = returns();
    return Json{{"winner", r[0] > 0 ? "Red" : r[0] < 0 ? "Blue" : "draw"}, {"turn", turn_}};
  }
  void legal_actions(std::vector<Action>& out) const override {
    out.clear();
    if (is_terminal()) return;
    for (int d : {-1, 1}) {
      Action a;
      a.verb = kMove;
      a.push(pos_[to_move_] + d);
      if (check(a).is_ok()) out.push_back(a);
    }
    for (uint16_t v : {kPass, kScout, kNote}) {
      Action a;
      a.verb = v;
      out.push_back(a);
    }
  }
  // The shape of an action, whatever the position: a verb and its arguments.
  static Status well_formed(const Action& a) {
    if (a.verb < kMove || a.verb > kNote) return rule_error("F.1", "unknown verb");
    if ((a.verb == kMove) != (a.nargs == 1))
      return rule_error("F.1", "only move takes an argument (one hex)");
    return Status::ok();
  }
  Status check(const Action& a) const override {
    if (is_terminal()) return rule_error("F.0", "the game is over");
    switch (a.verb) {
      case kMove: {
        if (a.nargs != 1) return rule_error("F.1", "move takes one hex");
        const int to = a.args[0];
        if (to < 1 || to > kHexes) return rule_error("F.1", "hex " + hex_id(to) + " is off the map");
        if (std::abs(to - pos_[to_move_]) != 1)
          return rule_error("F.2", "a unit moves exactly one hex per action");
        if (to == pos_[1 - to_move_]) return rule_error("F.3", "a unit may not enter an occupied hex");
        return Status::ok();
      }
      case kPass:
      case kScout:
      case kNote:
        return a.nargs == 0 ? Status::ok() : Status(rule_error("F.1", "this verb takes no arguments"));
      default:
        return rule_error("F.1", "unknown verb");
    }
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<DuelState>(*this); }
  Json observation(int side) const override {
    Json units = Json::array();
    for (int s = 0; s < 2; ++s)
      units.push_back({{"side", s},
                       {"hex", hex_id(pos_[s])},
                       {"type", "inf"},
                       {"name", s == 0 ? "1R" : "1B"},
                       {"attack", 4},
                       {"defense", 4},
                       {"move", 1}});
    return Json{{"turn", turn_},
                {"to_move", to_move_},
                {"units", units},
                {"my_secret", secret_[side]},
                {"scouts", scouts_}};
  }
  Json full_json() const override {
    return Json{{"turn", turn_},
                {"to_move", to_move_},
                {"pos", {pos_[0], pos_[1]}},
                {"secret", {secret_[0], secret_[1]}},
                {"scouts", scouts_},
                {"dice", dice_.counter()}};
  }
  uint64_t state_hash() const override {
    uint64_t h = 0;
    for (char c : full_json().dump()) h = splitmix64(h ^ static_cast<unsigned char>(c));
    return h;
  }
  std::string action_to_string(const Action& a) const override {
    switch (a.verb) {
      case kMove:
        return "move " + hex_id(a.args[0]);
      case kPass:
        return "pass";
      case kScout:
        return "scout";
      case kNote:
        return "note";
      default:
        return "?";
    }
  }
  Result<Action> parse_action(std::string_view text) const override {
    std::istringstream in{std::string(text)};
    std::string verb, arg, extra;
    in >> verb >> arg >> extra;
    Action a;
    if (verb == "move") {
      if (arg.size() != 4 || arg.substr(0, 2) != "01" || extra.size() > 0)
        return Error{"expected 'move 01CC', got '" + std::string(text) + "'", "", "action"};
      a.verb = kMove;
      a.push(std::atoi(arg.c_str() + 2));
      return a;
    }
    if (!arg.empty()) return Error{"'" + verb + "' takes no arguments", "", "action"};
    if (verb == "pass")
      a.verb = kPass;
    else if (verb == "scout")
      a.verb = kScout;
    else if (verb == "note")
      a.verb = kNote;
    else
      return Error{"unknown verb '" + verb + "' (move, pass, scout, note)", "", "action"};
    return a;
  }
  void resample_hidden(int viewer, uint64_t seed) override {
    dice_.reseed(seed);
    secret_[1 - viewer] = 100000000 + static_cast<int>(seed % 900000000);
  }
  // Typed views (kernel/views.h), from the same rules as check() and do_apply().
  Result<ActionDescription> describe(const Action& a) const override {
    if (Status s = well_formed(a); !s.is_ok()) return s.error();
    ActionDescription d;
    d.text = action_to_string(a);
    d.verb = d.text.substr(0, d.text.find(' '));
    const std::string unit = to_move_ == 0 ? "1R" : "1B";
    switch (a.verb) {
      case kMove:
        d.rule = "F.2";
        d.units = {unit};
        d.from = {hex_id(pos_[to_move_])};
        d.to = {hex_id(a.args[0])};
        d.summary = unit + " moves from " + d.from[0] + " to " + d.to[0];
        break;
      case kPass:
        d.summary = "pass the turn";
        break;
      case kScout:
        d.rule = "F.4";
        d.units = {unit};
        d.summary = unit + " scouts (a die roll)";
        break;
      case kNote:
        d.summary = "write down the secret code";
        break;
      default:
        break;
    }
    return d;
  }
  Result<Preview> preview(const Action& a, int viewer) const override {
    if (Status s = well_formed(a); !s.is_ok()) return s.error();
    Preview p;
    switch (a.verb) {
      case kScout:
        // F.4: one die, each face adds its pips to the scouting total.
        p.kind = "roll";
        p.rule = "F.4";
        p.summary = "one die: +1 to +6 scouting";
        for (int face = 1; face <= 6; ++face)
          p.outcomes.push_back({"+" + std::to_string(face), 1.0 / 6, std::to_string(face) + " pips", "F.4"});
        p.shifts.push_back({1, "scouting from the home hex", "F.4"});
        return p;
      case kNote:
        // F.5: the code a note writes down is the mover's; another side may not learn it.
        if (viewer != to_move_) return rule_error("F.5", "the other side's secret code is hidden");
        p.kind = "note";
        p.rule = "F.5";
        p.summary = "writes down code " + std::to_string(secret_[viewer]);
        return p;
      default:
        p.kind = a.verb == kMove ? "move" : "pass";
        p.rule = a.verb == kMove ? "F.2" : "";
        p.summary = action_to_string(a);
        return p;
    }
  }
  Result<Reach> reach(std::string_view unit, int viewer) const override {
    (void)viewer;
    const int side = unit == "1R" ? 0 : unit == "1B" ? 1 : -1;
    if (side < 0) return rule_error("F.1", "no unit '" + std::string(unit) + "' (1R, 1B)");
    Reach r;
    r.unit = std::string(unit);
    r.from = hex_id(pos_[side]);
    r.allowance = 1;
    for (int d : {-1, 1}) {
      const int to = pos_[side] + d;
      if (to < 1 || to > kHexes || to == pos_[1 - side]) continue;
      r.destinations.push_back({hex_id(to), 1, {hex_id(to)}, ""});
    }
    return r;
  }
  Result<std::string> test_query(const std::vector<std::string>& words) const override {
    if (words.size() == 2 && words[0] == "odds") return std::string("1:1 against ") + words[1];
    return Error{"unknown query", "", ""};
  }

 protected:
  void do_apply(const Action& a) override {
    const int side = to_move_;
    const std::string name = side == 0 ? "Red" : "Blue";
    Event e;
    switch (a.verb) {
      case kMove:
        e.kind = "move";
        e.text = name + " moves " + hex_id(pos_[side]) + " -> " + hex_id(a.args[0]);
        e.rule = "F.2";
        pos_[side] = a.args[0];
        emit(e);
        break;
      case kPass:
        e.kind = "pass";
        e.text = name + " passes";
        emit(e);
        break;
      case kScout: {
        const int r = roll(6, name + " scouts", "F.4");
        scouts_ += r;
        break;
      }
      case kNote:
        e.kind = "note";
        e.text = name + "'s secret code is " + std::to_string(secret_[side]);
        e.visible_to = 1u << side;
        // A private loss (for the timeline's losses): only its own side may count it.
        e.data = Json{{"loss", {{"side", side == 0 ? "red" : "blue"}, {"units", 1}, {"steps", 2}}}};
        emit(e);
        break;
      default:
        break;
    }
    to_move_ = 1 - to_move_;
    if (to_move_ == 0) {
      ++turn_;
      Event t;
      t.kind = "phase";
      t.text = "turn " + std::to_string(turn_);
      emit(t);
    }
  }

 private:
  const DuelGame& game_;
  int last_turn_;
  int turn_ = 1;
  int to_move_ = 0;
  int pos_[2] = {1, kHexes};
  int secret_[2] = {0, 0};
  int scouts_ = 0;
};

class DuelGame final : public Game {
 public:
  std::string id() const override { return "duel"; }
  std::string name() const override { return "Duel (test fixture)"; }
  std::vector<std::string> side_names() const override { return {"Red", "Blue"}; }
  std::vector<ScenarioInfo> scenarios() const override {
    return {{"short", "Short duel", "Four turns on a row of eight hexes.", 1, 4},
            {"long", "Long duel", "Forty turns.", 1, 40},
            {"endless", "Endless duel", "A million turns (for kill tests).", 1, 1000000},
            {"empty", "Empty", "One turn.", 1, 1}};
  }
  Result<std::unique_ptr<State>> new_state(const std::string& scenario, uint64_t seed) const override {
    for (const auto& s : scenarios())
      if (s.id == scenario)
        return std::unique_ptr<State>(std::make_unique<DuelState>(*this, s.last_turn, seed));
    return Error{"unknown scenario '" + scenario + "' (short, long, endless, empty)", "", "scenario"};
  }
  std::string rules_hash() const override { return "duel-1"; }
  Json map_json() const override {
    Json hexes = Json::array();
    for (int c = 1; c <= kHexes; ++c)
      hexes.push_back({{"id", hex_id(c)}, {"terrain", c % 3 == 0 ? "forest" : "clear"}});
    return Json{{"kind", "hex"},
                {"grid",
                 {{"orientation", "pointy"},
                  {"id_format", "RRCC"},
                  {"rows", {{"first", 1}, {"last", 1}, {"increase", "south"}}},
                  {"cols", {{"first", 1}, {"last", kHexes}, {"increase", "east"}}},
                  {"odd_rows_shift", "east"}}},
                {"hexes", hexes}};
  }
  Result<Json> describe_location(const std::string& id) const override { return Json{{"id", id}}; }
};

const Game& DuelState::game() const { return game_; }

}  // namespace

std::shared_ptr<const Game> make_duel_game() { return std::make_shared<DuelGame>(); }

server::GameCatalog duel_catalog() {
  return {server::CatalogEntry{"duel", "Duel (test fixture)", make_duel_game(), {}}};
}

std::string duel_secret(const State& s, int side) {
  return std::to_string(s.full_json()["secret"][static_cast<size_t>(side)].get<int>());
}

}  // namespace steppe::testing
