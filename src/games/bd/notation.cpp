// Barbarossa Deluxe rules: action notation (print and parse).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= notation

std::string BdState::write_action(const Action& a, ArgForm form) const {
  auto U = [&](int i) {
    return a.args[i] >= 0 && a.args[i] < num_units() ? label(a.args[i]) : std::string("?");
  };
  auto H = [&](int i) { return hex_id(a.args[i]); };
  const auto* row = verbs().find(a.verb);
  std::string s(row != nullptr ? row->name : "?");
  switch (form) {
    case ArgForm::kNone:
      break;
    case ArgForm::kUnitPath:
      s += " " + U(0);
      for (int i = 1; i < a.nargs; ++i) s += " " + H(i);
      break;
    case ArgForm::kAttack:
      s += " " + H(0) + (a.verb == kAttackFrom ? " from" : " with");
      for (int i = 2; i < a.nargs; ++i) s += " " + (a.verb == kAttackFrom ? H(i) : U(i));
      if (a.args[1] & 1) s += " lw";
      if (a.args[1] & 2) s += " drop";  // 4.17
      break;
    case ArgForm::kOrder:
      s += std::string(" ") + kOrderNames[std::clamp(a.args[0], 0, 3)];
      break;
    case ArgForm::kPaulus:
      s += a.args[0] == 1 ? " take" : " decline";
      break;
    case ArgForm::kZone:
      s += a.args[0] == kZoneNorth ? " north" : " south";
      break;
    case ArgForm::kUnitHex:
      s += " " + U(0) + " " + H(1);
      break;
    case ArgForm::kUnitUnit:
      s += " " + U(0) + " " + U(1);
      break;
    case ArgForm::kReplace:
      s += " " + U(0) + " " + (a.args[1] < 0 ? std::string("rvgk") : H(1));
      break;
    case ArgForm::kUnit:
      s += " " + U(0);
      break;
    case ArgForm::kOffSupply:
      s += std::string(" ") + "ABC"[std::clamp(a.args[0], 0, 2)] + " " + H(1);
      break;
    case ArgForm::kHex:
      s += " " + H(0);
      break;
    case ArgForm::kCrimea:
      s += a.args[0] == 1 ? " on" : " off";
      for (int i = 1; i < a.nargs; ++i) s += " " + U(i);
      break;
    case ArgForm::kDrBb:
      s += a.args[0] == 1 ? " dr" : " bb";
      break;
    case ArgForm::kYesNo:
      s += a.args[0] == 1 ? " yes" : " no";
      break;
    case ArgForm::kWatch:
      s += a.args[0] == 2 ? " oder" : a.args[0] == 1 ? " rhine" : " ?";
      break;
    case ArgForm::kUnits:
      for (int i = 0; i < a.nargs; ++i) s += " " + U(i);
      break;
    case ArgForm::kUnitHexPairs:
      for (int i = 0; i + 1 < a.nargs; i += 2) s += " " + U(i) + " " + H(i + 1);
      break;
    case ArgForm::kSupport:
      s +=
          std::string(" ") + (a.args[0] > 0 && a.args[0] < kNumSupportKinds ? kSupportNames[a.args[0]] : "?");
      if (a.nargs > 1) s += " " + U(1);
      break;
  }
  return s;
}

steppe::Result<Action> BdState::parse_attack(const std::vector<std::string>& t, bool ma) const {
  Action a;
  a.verb = ma ? kMobileAssault : kAttackWith;
  if (t.size() < 4)
    return steppe::Error{"usage: attack <hex> from <hex>... | attack <hex> with <unit>... [lw]", "", ""};
  const int target = parse_hex(t[1]);
  if (target < 0) return steppe::Error{"'" + t[1] + "' is not a hex", "", ""};
  a.push(target);
  a.push(0);
  size_t end = t.size();
  if (end > 4 && t[end - 1] == "drop") {  // 4.17 combat air drop
    a.args[1] |= 2;
    --end;
  }
  if (t[end - 1] == "lw") {
    a.args[1] |= 1;
    --end;
  }
  if (t[2] == "from" && !ma) {
    a.verb = kAttackFrom;
    for (size_t i = 3; i < end; ++i) {
      const int h = parse_hex(t[i]);
      if (h < 0) return steppe::Error{"'" + t[i] + "' is not a hex", "", ""};
      if (a.full()) return steppe::Error{"too many hexes", "", ""};
      a.push(h);
    }
  } else if (t[2] == "with") {
    for (size_t i = 3; i < end; ++i) {
      const int u = find_label(t[i]);
      if (u < 0) return steppe::Error{"unknown unit '" + t[i] + "'", "", ""};
      if (a.full()) return steppe::Error{"too many units", "", ""};
      a.push(u);
    }
  } else {
    return steppe::Error{"expected 'from' or 'with' after the target hex", "", ""};
  }
  if (a.nargs < 3) return steppe::Error{"an attack needs at least one attacker", "", ""};
  return a;
}

steppe::Result<Action> BdState::read_action(uint16_t verb, ArgForm form,
                                            std::span<const std::string_view> w) const {
  const auto* row = verbs().find(verb);
  auto bad = [](const std::string& why) { return steppe::Error{why, "", ""}; };
  const auto shape = bad("usage: " + std::string(row != nullptr ? row->usage : ""));
  auto U = [&](size_t i, int& out) {
    if (i >= w.size()) return false;
    out = find_label(w[i]);
    return out >= 0;
  };
  auto H = [&](size_t i, int& out) {
    if (i >= w.size()) return false;
    out = parse_hex(w[i]);
    return out >= 0;
  };
  Action a;
  a.verb = verb;
  int u = -1, h = -1;
  switch (form) {
    case ArgForm::kNone:
      if (!w.empty()) return shape;
      break;
    case ArgForm::kUnitPath:
      if (!U(0, u)) return bad("unknown unit");
      a.push(u);
      if (w.size() < 3) return bad("a move lists the unit's hex and the hexes it enters");
      for (size_t i = 1; i < w.size(); ++i) {
        if (!H(i, h)) return bad("'" + std::string(w[i]) + "' is not a hex");
        if (a.full()) return bad("path too long");
        a.push(h);
      }
      break;
    case ArgForm::kAttack: {
      std::vector<std::string> t{std::string(row != nullptr ? row->name : "")};
      for (const auto word : w) t.emplace_back(word);
      return parse_attack(t, verb == kMobileAssault);
    }
    case ArgForm::kOrder: {
      if (w.size() != 1) return shape;
      int o = -1;
      for (int i = 1; i <= 3; ++i)
        if (w[0] == kOrderNames[i]) o = i;
      if (o < 0) return bad("order is move-fight, fight-move or fight-fight");
      a.push(o);
      break;
    }
    case ArgForm::kPaulus:
      if (w.size() != 1 || (w[0] != "take" && w[0] != "decline")) return shape;
      a.push(w[0] == "take" ? 1 : 2);
      break;
    case ArgForm::kCrimea:  // 7.4 the declared units (ruling BD-22)
      if (w.empty() || w.size() > 6 || (w[0] != "on" && (w[0] != "off" || w.size() != 1))) return shape;
      a.push(w[0] == "on" ? 1 : 0);
      for (size_t i = 1; i < w.size(); ++i) {
        if (!U(i, u)) return bad("unknown unit");
        a.push(u);
      }
      break;
    case ArgForm::kZone:
      if (w.size() != 1 || (w[0] != "north" && w[0] != "south")) return shape;
      a.push(w[0] == "north" ? kZoneNorth : kZoneSouth);
      break;
    case ArgForm::kUnitHex:
      if (w.size() != 2) return shape;
      if (!U(0, u)) return bad("unknown unit");
      if (!H(1, h)) return bad("not a hex");
      a.push(u);
      a.push(h);
      break;
    case ArgForm::kReplace:
      if (w.size() != 2) return shape;
      if (!U(0, u)) return bad("unknown unit");
      a.push(u);
      if (w[1] == "rvgk") {
        a.push(-1);
      } else {
        if (!H(1, h)) return bad("not a hex");
        a.push(h);
      }
      break;
    case ArgForm::kUnit:
      if (w.size() != 1) return shape;
      if (!U(0, u)) return bad("unknown unit");
      a.push(u);
      break;
    case ArgForm::kOffSupply:
      if (w.size() != 2 || w[0].size() != 1 || w[0][0] < 'A' || w[0][0] > 'C') return shape;
      a.push(w[0][0] - 'A');
      if (!H(1, h)) return bad("not a hex");
      a.push(h);
      break;
    case ArgForm::kUnitUnit:
      if (w.size() != 2) return shape;
      if (!U(0, u)) return bad("unknown unit");
      a.push(u);
      if (!U(1, u)) return bad("unknown unit");
      a.push(u);
      break;
    case ArgForm::kHex:
      if (w.size() != 1) return shape;
      if (!H(0, h)) return bad("not a hex");
      a.push(h);
      break;
    case ArgForm::kWatch:
      if (w.size() != 1 || (w[0] != "rhine" && w[0] != "oder")) return shape;
      a.push(w[0] == "oder" ? 2 : 1);
      break;
    case ArgForm::kUnits: {
      if (w.empty()) return shape;
      std::vector<int> us;
      for (size_t i = 0; i < w.size(); ++i) {
        if (!U(i, u)) return bad("unknown unit '" + std::string(w[i]) + "'");
        if (us.size() >= 10) return bad("too many units");
        us.push_back(u);
      }
      std::sort(us.begin(), us.end());  // one notation per expedition
      for (int x : us) a.push(x);
      break;
    }
    case ArgForm::kUnitHexPairs: {
      if (w.size() < 2 || w.size() % 2 != 0) return shape;
      std::vector<std::pair<int, int>> pairs;
      for (size_t i = 0; i + 1 < w.size(); i += 2) {
        if (!U(i, u)) return bad("unknown unit '" + std::string(w[i]) + "'");
        if (!H(i + 1, h)) return bad("'" + std::string(w[i + 1]) + "' is not a hex");
        if (pairs.size() >= 10) return bad("too many units");
        pairs.emplace_back(u, h);
      }
      std::sort(pairs.begin(), pairs.end());  // one notation per recall
      for (const auto& [x, y] : pairs) {
        a.push(x);
        a.push(y);
      }
      break;
    }
    case ArgForm::kDrBb:
      if (w.size() != 1 || (w[0] != "dr" && w[0] != "bb")) return shape;
      a.push(w[0] == "dr" ? 1 : 0);
      break;
    case ArgForm::kYesNo:  // 11.23, 13.9
      if (w.size() != 1 || (w[0] != "yes" && w[0] != "no")) return shape;
      a.push(w[0] == "yes" ? 1 : 0);
      break;
    case ArgForm::kSupport: {  // 8.36-8.41
      if (w.size() != 1 && w.size() != 2) return shape;
      int k = 0;
      for (int i = kSupArtillery; i < kNumSupportKinds; ++i)
        if (w[0] == kSupportNames[i]) k = i;
      if (k == 0) return bad("support is artillery, air-army, interceptor, partisans or airborne");
      a.push(k);
      const bool names_army = k == kSupArtillery || k == kSupAirArmy;
      if (names_army != (w.size() == 2))
        return bad(names_army ? "artillery and air-army support name the army they support"
                              : "interceptor, partisans and airborne support name no unit");
      if (names_army) {
        if (!U(1, u)) return bad("unknown unit");
        a.push(u);
      }
      break;
    }
  }
  return a;
}

}  // namespace bd
