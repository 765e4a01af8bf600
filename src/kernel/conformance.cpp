#include "kernel/conformance.h"

#include <algorithm>
#include <unordered_set>

#include "kernel/notation.h"
#include "kernel/position.h"

namespace steppe {

namespace {

constexpr size_t kMaxFailureTexts = 20;
constexpr int kMutationsPerState = 6;
constexpr int kFullCheckEvery = 8;      // every n-th state: apply all legal actions, check observations
constexpr size_t kMaxFullApplies = 64;  // cap of those applications per sampled state

std::string raw_action(const Action& a) {
  // Appends only: GCC 12 -O2 warns falsely (-Wrestrict) on "literal" + std::string&&.
  std::string s = "{verb ";
  s += std::to_string(a.verb);
  s += " args";
  for (int i = 0; i < a.nargs; ++i) {
    s += ' ';
    s += std::to_string(a.args[static_cast<size_t>(i)]);
  }
  s += '}';
  return s;
}

class CountingSink final : public EventSink {
 public:
  void emit(Event) override { ++count; }
  int count = 0;
};

class Checker {
 public:
  Checker(const Game& g, std::string scenario, ConformanceReport& r)
      : g_(g), scenario_(std::move(scenario)), r_(r) {
    sides_ = static_cast<int>(g.side_names().size());
  }

  void fail(const std::string& where, const std::string& what) {
    ++r_.failure_count;
    if (r_.failures.size() < kMaxFailureTexts) r_.failures.push_back(where + ": " + what);
  }

  Action mutate(const Action& base, Dice& rng) {
    Action m = base;
    switch (rng.below(6)) {
      case 0:
        m.verb = static_cast<uint16_t>(rng.below(3) == 0 ? rng.below(64) : base.verb + 1 + rng.below(3));
        break;
      case 1:
        if (m.nargs > 0)
          m.args[static_cast<size_t>(rng.below(m.nargs))] += rng.below(2) ? 1 : -1;
        else
          m.push(rng.below(10));
        break;
      case 2: {
        static constexpr int32_t kOdd[] = {-1, 0, 1, 7, 999, 65535, -100000, 2147483647};
        const int32_t v = rng.below(2) ? kOdd[rng.below(8)] : rng.below(1000) - 5;
        if (m.nargs > 0)
          m.args[static_cast<size_t>(rng.below(m.nargs))] = v;
        else
          m.push(v);
        break;
      }
      case 3:
        if (m.nargs > 0)
          --m.nargs;
        else
          m.verb = static_cast<uint16_t>(m.verb + 1);
        break;
      case 4:
        if (!m.full()) m.push(rng.below(100));
        break;
      default:
        if (m.nargs >= 2) {
          const auto i = static_cast<size_t>(rng.below(m.nargs)), j = static_cast<size_t>(rng.below(m.nargs));
          std::swap(m.args[i], m.args[j]);
          m.args[i] += 1;
        } else {
          m.verb = 0;
        }
        break;
    }
    return m;
  }

  // A game with a position format (kernel/position.h): the position, written as text and
  // read back, gives the same state (hash and full_json). Returns the loaded state.
  std::unique_ptr<State> position_round_trip(const State& st, const std::string& w) {
    auto doc = position_document(st);
    if (!doc) return nullptr;  // the game has no position format
    ++r_.position_checks;
    auto parsed = Json::parse(doc->dump(), nullptr, false);
    auto back = state_from_position_document(g_, parsed, "position");
    if (!back) {
      fail(w, "its own position does not load: " + back.error().to_string());
      return nullptr;
    }
    if ((*back)->state_hash() != st.state_hash() || (*back)->full_json() != st.full_json()) {
      fail(w, "the state loaded from its position differs (hash or full_json)");
      return nullptr;
    }
    return std::move(back).value();
  }

  void playout(int index, uint64_t pseed, int max_actions) {
    const std::string pw = "playout " + std::to_string(index) + " (seed " + std::to_string(pseed) + ")";
    auto created = g_.new_state(scenario_, pseed);
    if (!created) {
      fail(pw, "new_state refused: " + created.error().to_string());
      return;
    }
    std::unique_ptr<State> st = std::move(created).value();
    Dice rng(splitmix64(pseed ^ 0xC0FFEEULL));
    std::vector<std::string> log;
    std::vector<Action> acts;
    std::unique_ptr<State> twin;   // clone taken at `clone_at`, evolved alongside
    std::unique_ptr<State> ptwin;  // loaded from the position at `clone_at`, evolved alongside
    const int clone_at = max_actions > 0 ? rng.below(std::max(1, max_actions / 2)) : 0;
    CountingSink sink;

    for (int step = 0; step < max_actions; ++step) {
      const std::string w = pw + ", after " + std::to_string(step) + " actions";
      const int cp = st->current_player();
      if (st->is_terminal() != (cp == kTerminalPlayer)) {
        fail(w, "is_terminal() is " + std::string(st->is_terminal() ? "true" : "false") +
                    " but current_player() is " + std::to_string(cp));
        return;
      }
      if (st->is_terminal()) break;
      if (cp < 0 || cp >= sides_) {
        fail(w, "current_player() " + std::to_string(cp) + " is not a side (0.." +
                    std::to_string(sides_ - 1) + ")");
        return;
      }
      if (step == clone_at) {
        twin = st->clone();
        if (twin->state_hash() != st->state_hash() || twin->full_json() != st->full_json()) {
          fail(w, "clone() differs from the original (hash or full_json)");
          twin.reset();
        }
        ptwin = position_round_trip(*st, w);
      }
      st->legal_actions(acts);
      if (acts.empty()) {
        fail(w, "a live state (side " + std::to_string(cp) + " to move) has no legal actions");
        return;
      }
      std::unordered_set<Action> legal(acts.begin(), acts.end());
      if (legal.size() != acts.size()) fail(w, "legal_actions() lists an action twice");
      for (const Action& a : acts) {
        ++r_.legal_checked;
        Status s = st->check(a);
        if (!s.is_ok())
          fail(w, "listed action " + raw_action(a) + " fails check(): " + s.error().to_string());
        const std::string text = st->action_to_string(a);
        auto back = st->parse_action(text);
        if (!back)
          fail(w, "'" + text + "' does not parse back: " + back.error().to_string());
        else if (!(*back == a))
          fail(w, "'" + text + "' parses back to " + raw_action(*back) + ", not " + raw_action(a));
      }
      const bool full = step % kFullCheckEvery == 0;
      if (full) {
        const size_t n = std::min(acts.size(), kMaxFullApplies);
        for (size_t i = 0; i < n; ++i) {
          const Action& a = acts[(i * acts.size()) / n];
          auto c = st->clone();
          Status s = c->apply(a);
          ++r_.legal_applied;
          if (!s.is_ok())
            fail(w, "listed action '" + st->action_to_string(a) + "' is refused: " + s.error().to_string());
        }
        // Every third full check (the games' own position tests check every action).
        if (step != clone_at && (step / kFullCheckEvery) % 3 == 0) position_round_trip(*st, w);
        for (int side = 0; side < sides_; ++side) {
          const Json obs = st->observation(side);
          auto c = st->clone();
          c->resample_hidden(side, rng.below(1 << 30));
          ++r_.observation_checks;
          if (c->observation(side) != obs)
            fail(w, "observation(" + std::to_string(side) +
                        ") changes when what that side cannot see is resampled: it leaks hidden information");
        }
      }
      // Illegal actions: refused, no events, state unchanged.
      const uint64_t before = st->state_hash();
      const Json full_before = full ? st->full_json() : Json();
      for (int k = 0; k < kMutationsPerState; ++k) {
        Action m = mutate(acts[static_cast<size_t>(rng.below(static_cast<int>(acts.size())))], rng);
        if (m.verb == 0 && rng.below(2)) m = Action{};
        if (legal.count(m) != 0 || st->unlisted_form(m)) continue;
        Status c = st->check(m);
        sink.count = 0;
        EventSink* old = st->event_sink();
        st->set_event_sink(&sink);
        Status s = st->apply(m);
        st->set_event_sink(old);
        if (c.is_ok() || s.is_ok()) {
          fail(w, "action " + raw_action(m) + " is not in legal_actions() but is accepted");
          return;  // the state has moved on; this playout cannot continue meaningfully
        }
        ++r_.illegal_tried;
        if (s.error().rule.empty()) ++r_.refusals_without_rule;
        if (s.error().message.empty()) fail(w, "refusal of " + raw_action(m) + " has an empty message");
        if (sink.count != 0) fail(w, "refused action " + raw_action(m) + " emitted events");
        if (st->state_hash() != before) {
          fail(w, "refused action " + raw_action(m) + " changed the state hash");
          return;
        }
      }
      if (full && st->full_json() != full_before) fail(w, "refused actions changed full_json()");

      const Action a = acts[static_cast<size_t>(rng.below(static_cast<int>(acts.size())))];
      log.push_back(st->action_to_string(a));
      Status s = st->apply(a);
      if (!s.is_ok()) {
        fail(w, "listed action '" + log.back() + "' is refused: " + s.error().to_string());
        return;
      }
      ++r_.actions;
      if (twin) {
        Status t = twin->apply(a);
        if (!t.is_ok()) fail(w, "the clone refuses '" + log.back() + "' which the original accepted");
      }
      if (ptwin) {
        Status t = ptwin->apply(a);
        if (!t.is_ok()) {
          fail(w,
               "the state loaded from the position refuses '" + log.back() + "' which the original accepted");
          ptwin.reset();
        }
      }
    }
    const std::string we = pw + ", at the end (" + std::to_string(log.size()) + " actions)";
    if (twin && (twin->state_hash() != st->state_hash() || twin->full_json() != st->full_json()))
      fail(we, "a clone taken after " + std::to_string(clone_at) +
                   " actions evolved differently from the original");
    if (ptwin && (ptwin->state_hash() != st->state_hash() || ptwin->full_json() != st->full_json()))
      fail(we, "the state loaded from the position after " + std::to_string(clone_at) +
                   " actions evolved differently from the original");
    // Replay through the notation.
    auto re = g_.new_state(scenario_, pseed);
    if (!re) {
      fail(we, "new_state refused on replay");
      return;
    }
    for (size_t i = 0; i < log.size(); ++i) {
      auto a = (*re)->parse_action(log[i]);
      Status s = a ? (*re)->apply(*a) : a.status();
      if (!s.is_ok()) {
        fail(we,
             "replay: action " + std::to_string(i + 1) + " '" + log[i] + "' fails: " + s.error().to_string());
        return;
      }
    }
    if ((*re)->state_hash() != st->state_hash())
      fail(we, "replaying the action log does not reproduce the state hash (" +
                   hash_to_hex((*re)->state_hash()) + " vs " + hash_to_hex(st->state_hash()) + ")");
    if (st->is_terminal()) {
      ++r_.finished;
      if (st->returns().size() != static_cast<size_t>(sides_))
        fail(we, "returns() has " + std::to_string(st->returns().size()) + " entries for " +
                     std::to_string(sides_) + " sides");
      if (!st->result().is_object()) fail(we, "result() is not a JSON object");
      std::vector<Action> none;
      st->legal_actions(none);
      if (!none.empty()) fail(we, "a terminal state lists legal actions");
    }
  }

 private:
  const Game& g_;
  std::string scenario_;
  ConformanceReport& r_;
  int sides_ = 0;
};

}  // namespace

std::string ConformanceReport::summary() const {
  std::string s =
      std::to_string(playouts) + " playouts (" + std::to_string(finished) + " finished), " +
      std::to_string(actions) + " actions, " + std::to_string(legal_checked) + " legal checked, " +
      std::to_string(legal_applied) + " legal applied to clones, " + std::to_string(illegal_tried) +
      " illegal refused (" + std::to_string(refusals_without_rule) + " without a rule citation), " +
      std::to_string(observation_checks) + " observation checks, " + std::to_string(position_checks) +
      " positions read back, " + std::to_string(failure_count) + " failures";
  for (const auto& f : failures) s += "\n  " + f;
  return s;
}

ConformanceReport run_conformance(const Game& game, const std::string& scenario, int playouts, uint64_t seed,
                                  int max_actions, const std::function<void(int, int)>& on_playout_done) {
  ConformanceReport r;
  Checker c(game, scenario, r);
  if (game.side_names().empty()) c.fail("game", "side_names() is empty");
  for (int i = 0; i < playouts; ++i) {
    ++r.playouts;
    c.playout(i, splitmix64(seed + static_cast<uint64_t>(i)), max_actions);
    if (on_playout_done) on_playout_done(i + 1, playouts);
  }
  return r;
}

}  // namespace steppe
