// Moscow '41: the verb table. One row per verb: its notation (name and arguments), the rule
// it carries out, its check and its application. Parsing, printing, describe(), check()
// and apply() read this table; legal_actions() lists the candidates phase by phase (their
// order is part of a seeded game's determinism) and keeps those check() accepts.
// Every rule cites its rulebook section (seeds/002).
#include <algorithm>
#include <string>

#include "games/moscow41/state.h"
#include "kernel/notation.h"

namespace moscow41 {

using steppe::Action;
using steppe::Error;
using steppe::Result;

const steppe::VerbTable<Moscow41State>& Moscow41State::verbs() {
  using S = Moscow41State;
  using F = ArgForm;
  // id, name, usage, rule, generate, check, apply, print, parse, describe
  static constexpr steppe::VerbRow<S> kRows[] = {
      {kVLogPause, "logistics pause", "logistics pause", "7.1", nullptr, check_by<&S::verb_check_logistics>,
       apply_by<&S::verb_apply_logistics>, print_as<F::kNone>, parse_as<kVLogPause, F::kNone>, nullptr},
      {kVLogActivate, "logistics activate", "logistics activate", "7.2", nullptr,
       check_by<&S::verb_check_logistics>, apply_by<&S::verb_apply_logistics>, print_as<F::kNone>,
       parse_as<kVLogActivate, F::kNone>, nullptr},
      {kVPass, "pass", "pass (then one move B AREA, dl B or end)", "12.0", nullptr,
       check_by<&S::verb_check_pass>, apply_by<&S::verb_apply_pass>, print_as<F::kNone>,
       parse_as<kVPass, F::kNone>, nullptr},
      {kVTactical, "ti", "ti", "10.0", nullptr, check_by<&S::verb_check_tactical>,
       apply_by<&S::verb_apply_tactical>, print_as<F::kNone>, parse_as<kVTactical, F::kNone>, nullptr},
      {kVStrategic, "si", "si", "11.0", nullptr, check_by<&S::verb_check_strategic>,
       apply_by<&S::verb_apply_strategic>, print_as<F::kNone>, parse_as<kVStrategic, F::kNone>, nullptr},
      {kVReinforce, "si reinforce", "si reinforce", "11.0", nullptr, check_by<&S::verb_check_strategic>,
       apply_by<&S::verb_apply_strategic>, print_as<F::kNone>, parse_as<kVReinforce, F::kNone>, nullptr},
      {kVActivate, "activate", "activate HQ [AREA...]", "10.1", nullptr, check_by<&S::verb_check_activate>,
       apply_by<&S::verb_apply_activate>, print_as<F::kBlockOptRoute>,
       parse_as<kVActivate, F::kBlockOptRoute>, nullptr},
      {kVEndActivation, "commands", "commands", "10.1", nullptr, check_by<&S::verb_check_end_activation>,
       apply_by<&S::verb_apply_end_activation>, print_as<F::kNone>, parse_as<kVEndActivation, F::kNone>,
       nullptr},
      {kVMove, "move", "move B [AREA...] AREA", "10.8", nullptr, check_by<&S::verb_check_move_or_dl>,
       apply_by<&S::verb_apply_move>, print_as<F::kBlockRoute>, parse_as<kVMove, F::kBlockRoute>, nullptr},
      {kVBuildDl, "dl", "dl B [disband AREA]", "4.1", nullptr, check_by<&S::verb_check_move_or_dl>,
       apply_by<&S::verb_apply_build_dl>, print_as<F::kDl>, parse_as<kVBuildDl, F::kDl>, nullptr},
      {kVArtillery, "artillery", "artillery HQ AREA", "10.4", nullptr, check_by<&S::verb_check_artillery>,
       apply_by<&S::verb_apply_artillery>, print_as<F::kBlockArea>, parse_as<kVArtillery, F::kBlockArea>,
       nullptr},
      {kVEndCommands, "combat", "combat", "10.11", nullptr, check_by<&S::verb_check_end_commands>,
       apply_by<&S::verb_apply_end_commands>, print_as<F::kNone>, parse_as<kVEndCommands, F::kNone>, nullptr},
      {kVBattle, "battle", "battle AREA", "10.11", nullptr, check_by<&S::verb_check_battle>,
       apply_by<&S::verb_apply_battle>, print_as<F::kArea>, parse_as<kVBattle, F::kArea>, nullptr},
      {kVEndCombat, "end", "end", "10.17", nullptr, check_by<&S::verb_check_end_combat>,
       apply_by<&S::verb_apply_end_combat>, print_as<F::kNone>, parse_as<kVEndCombat, F::kNone>, nullptr},
      {kVAir, "air", "air LWHQ AREA HE111 STUKA", "10.10", nullptr, check_by<&S::verb_check_air>,
       apply_by<&S::verb_apply_air>, print_as<F::kAir>, parse_as<kVAir, F::kAir>, nullptr},
      {kVBlitz, "blitz", "blitz B AREA", "10.16", nullptr, check_by<&S::verb_check_blitz>,
       apply_by<&S::verb_apply_blitz>, print_as<F::kBlockArea>, parse_as<kVBlitz, F::kBlockArea>, nullptr},
      {kVExploit, "exploit", "exploit", "10.18", nullptr, check_by<&S::verb_check_exploit>,
       apply_by<&S::verb_apply_exploit>, print_as<F::kNone>, parse_as<kVExploit, F::kNone>, nullptr},
      {kVHit, "hit", "hit B", "10.14.1", nullptr, check_by<&S::verb_check_hit>, apply_by<&S::verb_apply_hit>,
       print_as<F::kBlock>, parse_as<kVHit, F::kBlock>, nullptr},
      {kVStep, "step", "step B", "7.2.2", nullptr, check_by<&S::verb_check_step>,
       apply_by<&S::verb_apply_step>, print_as<F::kBlock>, parse_as<kVStep, F::kBlock>, nullptr},
      {kVPlace, "place", "place B AREA", "5.0", nullptr, check_by<&S::verb_check_place>,
       apply_by<&S::verb_apply_place>, print_as<F::kBlockArea>, parse_as<kVPlace, F::kBlockArea>, nullptr},
      {kVRail, "rail", "rail B AREA", "14.4", nullptr, check_by<&S::verb_check_rail>,
       apply_by<&S::verb_apply_rail>, print_as<F::kBlockArea>, parse_as<kVRail, F::kBlockArea>, nullptr},
      {kVRecall, "recall", "recall B AREA", "14.2", nullptr, check_by<&S::verb_check_recall>,
       apply_by<&S::verb_apply_recall>, print_as<F::kBlockArea>, parse_as<kVRecall, F::kBlockArea>, nullptr},
      {kVAa, "aa", "aa destroy BOMBER... abort BOMBER...", "10.12.3", nullptr, check_by<&S::verb_check_aa>,
       apply_by<&S::verb_apply_aa>, print_as<F::kAa>, parse_as<kVAa, F::kAa>, nullptr},
      {kVStuka, "stuka", "stuka AREA N", "10.16", nullptr, check_by<&S::verb_check_stuka>,
       apply_by<&S::verb_apply_stuka>, print_as<F::kStuka>, parse_as<kVStuka, F::kStuka>, nullptr},
      {kVSetup, "setup", "setup B AREA", "Scenario Setup", nullptr, check_by<&S::check_setup>,
       apply_by<&S::verb_apply_setup>, print_as<F::kBlockArea>, parse_as<kVSetup, F::kBlockArea>, nullptr},
      {kVSetupDl, "setup dl", "setup dl AREA", "Scenario Setup", nullptr, check_by<&S::check_setup>,
       apply_by<&S::verb_apply_setup>, print_as<F::kArea>, parse_as<kVSetupDl, F::kArea>, nullptr},
      {kVSetupAuto, "setup auto", "setup auto", "Scenario Setup", nullptr, check_by<&S::check_setup>,
       apply_by<&S::verb_apply_setup_auto>, print_as<F::kNone>, parse_as<kVSetupAuto, F::kNone>, nullptr},
  };
  static const steppe::VerbTable<Moscow41State> table(kRows);
  return table;
}

// ----------------------------------------------------------------------------------------
// Notation
std::string Moscow41State::action_to_string(const Action& a) const { return verbs().print(*this, a); }

Result<Action> Moscow41State::parse_action(std::string_view text) const {
  if (steppe::VerbTable<Moscow41State>::split(text).empty()) return Error{"empty action", "", "notation"};
  auto a = verbs().parse(*this, text);
  if (!a || a->verb == 0)
    return Error{"cannot read action \"" + std::string(text) + "\" (forms: " + verbs().usages() + ")", "",
                 "notation"};
  return a;
}

Result<Action> Moscow41State::read_action(uint16_t verb, ArgForm form,
                                          std::span<const std::string_view> w) const {
  const Error unreadable{"unreadable arguments", "", "notation"};  // parse_action says which forms exist
  Action a;
  a.verb = verb;
  auto add_block = [&](std::string_view id) {
    const int b = g_.block_index(id);
    if (b < 0) return false;
    a.push(b);
    return true;
  };
  auto add_nodes = [&](size_t from) {
    for (size_t i = from; i < w.size(); ++i) {
      const int n = g_.node(w[i]);
      if (n < 0 || a.full()) return false;
      a.push(n);
    }
    return true;
  };
  bool ok = false;
  switch (form) {
    case ArgForm::kNone:
      ok = w.empty();
      break;
    case ArgForm::kBlock:
      ok = w.size() == 1 && add_block(w[0]);
      break;
    case ArgForm::kBlockArea:
      ok = w.size() == 2 && add_block(w[0]) && add_nodes(1);
      break;
    case ArgForm::kBlockRoute:
      ok = w.size() >= 2 && add_block(w[0]) && add_nodes(1);
      break;
    case ArgForm::kBlockOptRoute:
      ok = !w.empty() && add_block(w[0]) && add_nodes(1);
      break;
    case ArgForm::kArea:
      ok = w.size() == 1 && add_nodes(0);
      break;
    case ArgForm::kDl:  // 4.1: "dl B disband AREA" names the DL taken up
      ok = (w.size() == 1 || (w.size() == 3 && w[1] == "disband")) && add_block(w[0]) &&
           (w.size() == 1 || add_nodes(2));
      break;
    case ArgForm::kAa: {  // 10.12.3: aa destroy B... abort B...
      ok = w.size() >= 2;
      int mode = -1;
      for (size_t i = 0; i < w.size() && ok; ++i) {
        if (w[i] == "destroy" || w[i] == "abort") {
          mode = w[i] == "destroy" ? 1 : 0;
          continue;
        }
        const int bo = g_.bomber_index(w[i]);
        ok = mode >= 0 && bo >= 0 && !a.full();
        if (ok) a.push(bo * 2 + mode);
      }
      ok = ok && a.nargs > 0;
      std::sort(a.args.begin(), a.args.begin() + a.nargs);  // the results are a set
      break;
    }
    case ArgForm::kStuka: {  // 10.16: stuka AREA COUNT
      if (w.size() != 2) break;
      const int n = g_.node(w[0]);
      const auto k = steppe::parse_int_in(w[1], 1, 8);
      ok = n >= 0 && k.has_value();
      if (ok) {
        a.push(n);
        a.push(*k);
      }
      break;
    }
    case ArgForm::kAir: {  // 10.10: air LWHQ AREA HE111 STUKA
      if (w.size() != 4) break;
      auto count = [](std::string_view t) {
        return !t.empty() && t.size() < 3 && t.find_first_not_of("0123456789") == std::string_view::npos;
      };
      const int n = g_.node(w[1]);
      ok = add_block(w[0]) && n >= 0 && count(w[2]) && count(w[3]);
      if (ok) {
        a.push(n);
        a.push(std::stoi(std::string(w[2])));
        a.push(std::stoi(std::string(w[3])));
      }
      break;
    }
  }
  if (!ok) return unreadable;
  return a;
}

std::string Moscow41State::write_action(const Action& a, ArgForm form) const {
  const auto* row = verbs().find(a.verb);
  std::string s(row != nullptr ? row->name : "?");
  auto arg = [&](int i) { return i < a.nargs ? a.args[i] : -1; };
  auto nid = [&](int n) { return n >= 0 && n < node_count() ? g_.map().id(n) : std::string("?"); };
  auto bid = [&](int b) {
    return b >= 0 && b < static_cast<int>(blocks_.size()) ? def(b).id : std::string("?");
  };
  switch (form) {
    case ArgForm::kNone:
      break;
    case ArgForm::kBlock:
      s += " " + bid(arg(0));
      break;
    case ArgForm::kBlockArea:
      s += " " + bid(arg(0)) + " " + nid(arg(1));
      break;
    case ArgForm::kBlockRoute:
    case ArgForm::kBlockOptRoute:
      s += " " + bid(arg(0));
      for (int i = 1; i < a.nargs; ++i) s += " " + nid(a.args[i]);
      break;
    case ArgForm::kArea:
      s += " " + nid(arg(0));
      break;
    case ArgForm::kDl:
      s += " " + bid(arg(0)) + (a.nargs > 1 ? " disband " + nid(a.args[1]) : "");
      break;
    case ArgForm::kAa:
      for (int pass = 1; pass >= 0; --pass) {
        bool first = true;
        for (int k = 0; k < a.nargs; ++k) {
          const int i = a.args[k] / 2;
          if (a.args[k] % 2 != pass) continue;
          if (first) s += pass ? " destroy" : " abort";
          first = false;
          s += " " + (i >= 0 && i < g_.bomber_count() ? g_.bomber_id(i) : std::string("?"));
        }
      }
      break;
    case ArgForm::kStuka:
      s += " " + nid(arg(0)) + " " + std::to_string(a.nargs > 1 ? a.args[1] : 0);
      break;
    case ArgForm::kAir:
      s += " " + bid(arg(0)) + " " + nid(arg(1)) + " " + std::to_string(a.args[2]) + " " +
           std::to_string(a.args[3]);
      break;
  }
  return s;
}

}  // namespace moscow41
