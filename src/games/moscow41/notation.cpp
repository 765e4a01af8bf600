// Moscow '41: Notation: action text, both ways.
// Every rule cites its rulebook section (seeds/002).
#include "kernel/notation.h"

#include <algorithm>
#include <sstream>

#include "games/moscow41/state.h"

namespace moscow41 {

using steppe::Action;
using steppe::Error;
using steppe::Result;

// ----------------------------------------------------------------------------------------
// Notation
std::string Moscow41State::action_to_string(const Action& a) const {
  auto nid = [&](int n) { return n >= 0 && n < node_count() ? g_.map().id(n) : std::string("?"); };
  auto bid = [&](int b) {
    return b >= 0 && b < static_cast<int>(blocks_.size()) ? def(b).id : std::string("?");
  };
  std::string s;
  auto path = [&](int from) {
    for (int i = from; i < a.nargs; ++i) s += " " + nid(a.args[i]);
  };
  switch (a.verb) {
    case kVLogPause:
      return "logistics pause";
    case kVLogActivate:
      return "logistics activate";
    case kVPass:
      return "pass";
    case kVTactical:
      return "ti";
    case kVStrategic:
      return "si";
    case kVReinforce:
      return "si reinforce";
    case kVActivate:
      s = "activate " + bid(a.nargs > 0 ? a.args[0] : -1);
      path(1);
      return s;
    case kVEndActivation:
      return "commands";
    case kVMove:
      s = "move " + bid(a.nargs > 0 ? a.args[0] : -1);
      path(1);
      return s;
    case kVBuildDl:
      return "dl " + bid(a.nargs > 0 ? a.args[0] : -1) + (a.nargs > 1 ? " disband " + nid(a.args[1]) : "");
    case kVArtillery:
      return "artillery " + bid(a.args[0]) + " " + nid(a.args[1]);
    case kVEndCommands:
      return "combat";
    case kVBattle:
      return "battle " + nid(a.nargs > 0 ? a.args[0] : -1);
    case kVEndCombat:
      return "end";
    case kVBlitz:
      return "blitz " + bid(a.args[0]) + " " + nid(a.args[1]);
    case kVExploit:
      return "exploit";
    case kVHit:  // 10.14.1
      return "hit " + bid(a.nargs > 0 ? a.args[0] : -1);
    case kVStep:  // 7.2.2
      return "step " + bid(a.nargs > 0 ? a.args[0] : -1);
    case kVAa: {  // 10.12.3: aa destroy B... abort B...
      s = "aa";
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
      return s;
    }
    case kVStuka:  // 10.16
      return "stuka " + nid(a.nargs > 0 ? a.args[0] : -1) + " " + std::to_string(a.nargs > 1 ? a.args[1] : 0);
    case kVRecall:  // OR 14.2
      return "recall " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVRail:  // OR 14.4
      return "rail " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVPlace:  // 5.0
      return "place " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVSetup:  // Scenario Setup
      return "setup " + bid(a.nargs > 0 ? a.args[0] : -1) + " " + nid(a.nargs > 1 ? a.args[1] : -1);
    case kVSetupDl:
      return "setup dl " + nid(a.nargs > 0 ? a.args[0] : -1);
    case kVSetupAuto:
      return "setup auto";
    case kVAir:  // 10.10: air LWHQ AREA HE111 STUKA
      return "air " + bid(a.args[0]) + " " + nid(a.args[1]) + " " + std::to_string(a.args[2]) + " " +
             std::to_string(a.args[3]);
    default:
      return "?";
  }
}

Result<Action> Moscow41State::parse_action(std::string_view text) const {
  std::istringstream in{std::string(text)};
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  if (w.empty()) return Error{"empty action", "", "notation"};
  auto blk = [&](const std::string& id) -> int { return g_.block_index(id); };
  Action a;
  auto add_block = [&](const std::string& id) -> bool {
    const int b = blk(id);
    if (b < 0) return false;
    a.push(b);
    return true;
  };
  auto add_nodes = [&](size_t from) -> bool {
    for (size_t i = from; i < w.size(); ++i) {
      const int n = g_.node(w[i]);
      if (n < 0 || a.full()) return false;
      a.push(n);
    }
    return true;
  };
  const std::string& v = w[0];
  bool ok = true;
  if (v == "logistics" && w.size() == 2 && (w[1] == "pause" || w[1] == "activate")) {
    a.verb = w[1] == "pause" ? kVLogPause : kVLogActivate;
  } else if (v == "pass" && w.size() == 1) {
    a.verb = kVPass;
  } else if (v == "ti" && w.size() == 1) {
    a.verb = kVTactical;
  } else if (v == "si" && w.size() == 1) {
    a.verb = kVStrategic;
  } else if (v == "si" && w.size() == 2 && w[1] == "reinforce") {
    a.verb = kVReinforce;
  } else if (v == "activate" && w.size() >= 2) {
    a.verb = kVActivate;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "commands" && w.size() == 1) {
    a.verb = kVEndActivation;
  } else if (v == "move" && w.size() >= 3) {
    a.verb = kVMove;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "dl" && (w.size() == 2 || (w.size() == 4 && w[2] == "disband"))) {
    a.verb = kVBuildDl;
    ok = add_block(w[1]) && (w.size() == 2 || add_nodes(3));
  } else if (v == "artillery" && w.size() == 3) {
    a.verb = kVArtillery;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "combat" && w.size() == 1) {
    a.verb = kVEndCommands;
  } else if (v == "battle" && w.size() == 2) {
    a.verb = kVBattle;
    ok = add_nodes(1);
  } else if (v == "end" && w.size() == 1) {
    a.verb = kVEndCombat;
  } else if (v == "blitz" && w.size() == 3) {
    a.verb = kVBlitz;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "exploit" && w.size() == 1) {
    a.verb = kVExploit;
  } else if ((v == "hit" || v == "step") && w.size() == 2) {
    a.verb = v == "hit" ? kVHit : kVStep;
    ok = add_block(w[1]);
  } else if (v == "aa" && w.size() >= 3) {  // 10.12.3: aa destroy B... abort B...
    a.verb = kVAa;
    int mode = -1;
    for (size_t i = 1; i < w.size() && ok; ++i) {
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
  } else if (v == "stuka" && w.size() == 3) {             // 10.16: stuka AREA COUNT
    a.verb = kVStuka;
    const int n = g_.node(w[1]);
    const auto k = steppe::parse_int_in(w[2], 1, 8);
    ok = n >= 0 && k.has_value();
    if (ok) {
      a.push(n);
      a.push(*k);
    }
  } else if ((v == "rail" || v == "recall") && w.size() == 3) {  // OR 14.4, OR 14.2
    a.verb = v == "rail" ? kVRail : kVRecall;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "place" && w.size() == 3) {
    a.verb = kVPlace;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "setup" && w.size() == 2 && w[1] == "auto") {  // Scenario Setup
    a.verb = kVSetupAuto;
  } else if (v == "setup" && w.size() == 3 && w[1] == "dl") {
    a.verb = kVSetupDl;
    ok = add_nodes(2);
  } else if (v == "setup" && w.size() == 3) {
    a.verb = kVSetup;
    ok = add_block(w[1]) && add_nodes(2);
  } else if (v == "air" && w.size() == 5) {
    a.verb = kVAir;
    const int n = g_.node(w[2]);
    ok = add_block(w[1]) && n >= 0 && w[3].find_first_not_of("0123456789") == std::string::npos &&
         w[4].find_first_not_of("0123456789") == std::string::npos && !w[3].empty() && !w[4].empty() &&
         w[3].size() < 3 && w[4].size() < 3;
    if (ok) {
      a.push(n);
      a.push(std::stoi(w[3]));
      a.push(std::stoi(w[4]));
    }
  } else {
    ok = false;
  }
  if (!ok || a.verb == 0)
    return Error{"cannot read action \"" + std::string(text) +
                     "\" (forms: logistics pause|activate; pass (then one move B AREA, dl B or end); ti; si "
                     "[reinforce]; activate HQ "
                     "[AREA...]; commands; move B [AREA...] AREA; dl B [disband AREA]; artillery HQ AREA; "
                     "air LWHQ AREA HE111 "
                     "STUKA; combat; "
                     "battle AREA; hit B; step B; place B AREA; rail B AREA; recall B AREA; aa destroy "
                     "BOMBER... abort BOMBER...; stuka AREA N; end; setup B AREA; setup dl AREA; setup auto)",
                 "", "notation"};
  return a;
}

}  // namespace moscow41
