// Barbarossa Deluxe rules: action notation (print and parse).
// Section numbers are the rulebook's (seeds/000); where the text is silent or ambiguous
// the choice is written in docs/rulings.md (BD-n).
#include "games/bd/bd_internal.h"

namespace bd {

// ======================================================================= notation

std::string BdState::action_to_string(const Action& a) const {
  auto U = [&](int i) {
    return a.args[i] >= 0 && a.args[i] < num_units() ? label(a.args[i]) : std::string("?");
  };
  auto H = [&](int i) { return hex_id(a.args[i]); };
  std::string s = a.verb < kNumVerbs ? kVerbNames[a.verb] : "?";
  switch (a.verb) {
    case kMove:
      s += " " + U(0);
      for (int i = 1; i < a.nargs; ++i) s += " " + H(i);
      break;
    case kAttackFrom:
      s += " " + H(0) + " from";
      for (int i = 2; i < a.nargs; ++i) s += " " + H(i);
      if (a.args[1] & 1) s += " lw";
      if (a.args[1] & 2) s += " drop";  // 4.17
      break;
    case kAttackWith:
    case kMobileAssault:
      s += " " + H(0) + " with";
      for (int i = 2; i < a.nargs; ++i) s += " " + U(i);
      if (a.args[1] & 1) s += " lw";
      if (a.args[1] & 2) s += " drop";  // 4.17
      break;
    case kOrder:
      s += std::string(" ") + kOrderNames[std::clamp(a.args[0], 0, 3)];
      break;
    case kPaulus:
      s += a.args[0] == 1 ? " take" : " decline";
      break;
    case kZone1942:
      s += a.args[0] == kZoneNorth ? " north" : " south";
      break;
    case kEnter:
    case kRvgkOut:
    case kSetup:
      s += " " + U(0) + " " + H(1);
      break;
    case kConvert:
    case kAttach:
      s += " " + U(0) + " " + U(1);
      break;
    case kReplace:
      s += " " + U(0) + " " + (a.args[1] < 0 ? std::string("rvgk") : H(1));
      break;
    case kRvgkIn:
    case kAdvance:
    case kWithdraw:
    case kOverstackRemove:
    case kBbLoss:
      s += " " + U(0);
      break;
    case kOffSupply:
      s += std::string(" ") + "ABC"[std::clamp(a.args[0], 0, 2)] + " " + H(1);
      break;
    case kRetreat:
    case kHeroCity:
    case kFortressCity:
    case kFortifiedArea:
    case kAerialSupply:
    case kEastWall:
      s += " " + H(0);
      break;
    case kCrimeaSupply:
      s += a.args[0] == 1 ? " on" : " off";
      for (int i = 1; i < a.nargs; ++i) s += " " + U(i);
      break;
    case kAdvance2:
    case kStrategic:
    case kEmergencyRvgk:
    case kSeaMove:
      s += " " + U(0) + " " + H(1);
      break;
    case kBbChoice:
      s += a.args[0] == 1 ? " dr" : " bb";
      break;
    case kLwDefend:
    case kTakeRetreat:
      s += a.args[0] == 1 ? " yes" : " no";
      break;
    case kWatch:
      s += a.args[0] == 2 ? " oder" : a.args[0] == 1 ? " rhine" : " ?";
      break;
    case kCaucasusLaunch:
    case kCaucasusSend:
      for (int i = 0; i < a.nargs; ++i) s += " " + U(i);
      break;
    case kCaucasusRecall:
      for (int i = 0; i + 1 < a.nargs; i += 2) s += " " + U(i) + " " + H(i + 1);
      break;
    case kCaucasusLeave:
      s += " " + U(0) + " " + H(1);
      break;
    case kSupport:
      s +=
          std::string(" ") + (a.args[0] > 0 && a.args[0] < kNumSupportKinds ? kSupportNames[a.args[0]] : "?");
      if (a.nargs > 1) s += " " + U(1);
      break;
    case kBulgariaExit:
      s += " " + U(0);
      break;
    case kBulgariaReturn:
      s += " " + H(0);
      break;
    default:
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

steppe::Result<Action> BdState::parse_action(std::string_view text) const {
  std::vector<std::string> t;
  {
    std::string cur;
    for (char c : text) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        if (!cur.empty()) t.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) t.push_back(cur);
  }
  if (t.empty()) return steppe::Error{"empty action", "", ""};
  auto bad = [&](const std::string& why) {
    return steppe::Error{why + " in '" + std::string(text) + "'", "", ""};
  };
  auto U = [&](size_t i, int& out) {
    if (i >= t.size()) return false;
    out = find_label(t[i]);
    return out >= 0;
  };
  auto H = [&](size_t i, int& out) {
    if (i >= t.size()) return false;
    out = parse_hex(t[i]);
    return out >= 0;
  };
  Action a;
  const std::string& v = t[0];
  int u = -1, h = -1;
  if (v == "end-phase" && t.size() == 1) {
    a.verb = kEndPhase;
  } else if (v == "move") {
    a.verb = kMove;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
    if (t.size() < 4) return bad("a move lists the unit's hex and the hexes it enters");
    for (size_t i = 2; i < t.size(); ++i) {
      if (!H(i, h)) return bad("'" + t[i] + "' is not a hex");
      if (a.full()) return bad("path too long");
      a.push(h);
    }
  } else if (v == "attack" || v == "mobile-assault") {
    return parse_attack(t, v == "mobile-assault");
  } else if (v == "order" && t.size() == 2) {
    a.verb = kOrder;
    int o = -1;
    for (int i = 1; i <= 3; ++i)
      if (t[1] == kOrderNames[i]) o = i;
    if (o < 0) return bad("order is move-fight, fight-move or fight-fight");
    a.push(o);
  } else if (v == "paulus" && t.size() == 2 && (t[1] == "take" || t[1] == "decline")) {
    a.verb = kPaulus;
    a.push(t[1] == "take" ? 1 : 2);
  } else if (v == "crimea-supply" && t.size() >= 2 && t.size() <= 7 &&
             (t[1] == "on" || (t[1] == "off" && t.size() == 2))) {
    a.verb = kCrimeaSupply;
    a.push(t[1] == "on" ? 1 : 0);
    for (size_t i = 2; i < t.size(); ++i) {  // 7.4 the declared units (ruling BD-22)
      if (!U(i, u)) return bad("unknown unit");
      a.push(u);
    }
  } else if (v == "zone" && t.size() == 2 && (t[1] == "north" || t[1] == "south")) {
    a.verb = kZone1942;
    a.push(t[1] == "north" ? kZoneNorth : kZoneSouth);
  } else if ((v == "enter" || v == "rvgk-out" || v == "setup") && t.size() == 3) {
    a.verb = v == "enter" ? kEnter : v == "setup" ? kSetup : kRvgkOut;
    if (!U(1, u)) return bad("unknown unit");
    if (!H(2, h)) return bad("not a hex");
    a.push(u);
    a.push(h);
  } else if (v == "replace" && t.size() == 3) {
    a.verb = kReplace;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
    if (t[2] == "rvgk") {
      a.push(-1);
    } else {
      if (!H(2, h)) return bad("not a hex");
      a.push(h);
    }
  } else if ((v == "rvgk-in" || v == "advance" || v == "withdraw" || v == "overstack-remove" ||
              v == "bb-loss") &&
             t.size() == 2) {
    a.verb = v == "rvgk-in"            ? kRvgkIn
             : v == "advance"          ? kAdvance
             : v == "withdraw"         ? kWithdraw
             : v == "overstack-remove" ? kOverstackRemove
                                       : kBbLoss;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
  } else if (v == "osupply" && t.size() == 3 && t[1].size() == 1 && t[1][0] >= 'A' && t[1][0] <= 'C') {
    a.verb = kOffSupply;
    a.push(t[1][0] - 'A');
    if (!H(2, h)) return bad("not a hex");
    a.push(h);
  } else if ((v == "convert" || v == "attach") && t.size() == 3) {
    a.verb = v == "convert" ? kConvert : kAttach;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
    if (!U(2, u)) return bad("unknown unit");
    a.push(u);
  } else if (v == "comb-out" && t.size() == 1) {
    a.verb = kCombOut;
  } else if ((v == "retreat" || v == "hero-city" || v == "fortress-city" || v == "fortified-area" ||
              v == "aerial-supply" || v == "east-wall") &&
             t.size() == 2) {
    a.verb = v == "east-wall"       ? kEastWall
             : v == "retreat"       ? kRetreat
             : v == "hero-city"     ? kHeroCity
             : v == "fortress-city" ? kFortressCity
             : v == "aerial-supply" ? kAerialSupply
                                    : kFortifiedArea;
    if (!H(1, h)) return bad("not a hex");
    a.push(h);
  } else if ((v == "advance-second" || v == "strategic" || v == "emergency-rvgk" || v == "sea-move") &&
             t.size() == 3) {
    a.verb = v == "strategic"        ? kStrategic
             : v == "emergency-rvgk" ? kEmergencyRvgk
             : v == "sea-move"       ? kSeaMove
                                     : kAdvance2;
    if (!U(1, u)) return bad("unknown unit");
    if (!H(2, h)) return bad("not a hex");
    a.push(u);
    a.push(h);
  } else if (v == "no-emergency-rvgk" && t.size() == 1) {
    a.verb = kNoEmergencyRvgk;
  } else if (v == "advance-done" && t.size() == 1) {
    a.verb = kAdvanceDone;
  } else if (v == "decline-withdrawal" && t.size() == 1) {
    a.verb = kDeclineWithdraw;
  } else if (v == "summer-offensive" && t.size() == 1) {
    a.verb = kSummerOffensive;
  } else if (v == "mansteins-gambit" && t.size() == 1) {
    a.verb = kMansteinsGambit;
  } else if (v == "watch" && t.size() == 2 && (t[1] == "rhine" || t[1] == "oder")) {
    a.verb = kWatch;
    a.push(t[1] == "oder" ? 2 : 1);
  } else if ((v == "caucasus-launch" || v == "caucasus-send") && t.size() >= 2) {
    a.verb = v == "caucasus-launch" ? kCaucasusLaunch : kCaucasusSend;
    std::vector<int> us;
    for (size_t i = 1; i < t.size(); ++i) {
      if (!U(i, u)) return bad("unknown unit '" + t[i] + "'");
      if (us.size() >= 10) return bad("too many units");
      us.push_back(u);
    }
    std::sort(us.begin(), us.end());  // one notation per expedition
    for (int x : us) a.push(x);
  } else if (v == "caucasus-refuse" && t.size() == 1) {
    a.verb = kCaucasusRefuse;
  } else if (v == "caucasus-recall" && t.size() >= 3 && t.size() % 2 == 1) {
    a.verb = kCaucasusRecall;
    std::vector<std::pair<int, int>> pairs;
    for (size_t i = 1; i + 1 < t.size(); i += 2) {
      if (!U(i, u)) return bad("unknown unit '" + t[i] + "'");
      if (!H(i + 1, h)) return bad("'" + t[i + 1] + "' is not a hex");
      if (pairs.size() >= 10) return bad("too many units");
      pairs.emplace_back(u, h);
    }
    std::sort(pairs.begin(), pairs.end());  // one notation per recall
    for (const auto& [x, y] : pairs) {
      a.push(x);
      a.push(y);
    }
  } else if (v == "caucasus-leave" && t.size() == 3) {
    a.verb = kCaucasusLeave;
    if (!U(1, u)) return bad("unknown unit");
    if (!H(2, h)) return bad("not a hex");
    a.push(u);
    a.push(h);
  } else if (v == "convert-bb" && t.size() == 2 && (t[1] == "dr" || t[1] == "bb")) {
    a.verb = kBbChoice;
    a.push(t[1] == "dr" ? 1 : 0);
  } else if (v == "luftwaffe-defend" && t.size() == 2 && (t[1] == "yes" || t[1] == "no")) {
    a.verb = kLwDefend;
    a.push(t[1] == "yes" ? 1 : 0);
  } else if (v == "take-retreat" && t.size() == 2 && (t[1] == "yes" || t[1] == "no")) {
    a.verb = kTakeRetreat;  // 13.9
    a.push(t[1] == "yes" ? 1 : 0);
  } else if (v == "support" && (t.size() == 2 || t.size() == 3)) {  // 8.36-8.41
    a.verb = kSupport;
    int k = 0;
    for (int i = kSupArtillery; i < kNumSupportKinds; ++i)
      if (t[1] == kSupportNames[i]) k = i;
    if (k == 0) return bad("support is artillery, air-army, interceptor, partisans or airborne");
    a.push(k);
    const bool names_army = k == kSupArtillery || k == kSupAirArmy;
    if (names_army != (t.size() == 3))
      return bad(names_army ? "artillery and air-army support name the army they support"
                            : "interceptor, partisans and airborne support name no unit");
    if (names_army) {
      if (!U(2, u)) return bad("unknown unit");
      a.push(u);
    }
  } else if (v == "support-done" && t.size() == 1) {
    a.verb = kSupportDone;
  } else if (v == "bulgaria-exit" && t.size() == 2) {
    a.verb = kBulgariaExit;
    if (!U(1, u)) return bad("unknown unit");
    a.push(u);
  } else if (v == "bulgaria-return" && t.size() == 2) {
    a.verb = kBulgariaReturn;
    if (!H(1, h)) return bad("not a hex");
    a.push(h);
  } else {
    return bad(
        "unknown action (verbs: end-phase, move, attack, mobile-assault, order, paulus, zone, enter, "
        "replace, "
        "rvgk-in, rvgk-out, osupply, retreat, advance, advance-done, convert-bb, luftwaffe-defend, "
        "take-retreat, "
        "setup, "
        "withdraw, decline-withdrawal, hero-city, fortress-city, fortified-area, aerial-supply, "
        "advance-second, strategic, emergency-rvgk, no-emergency-rvgk, summer-offensive, watch, convert, "
        "comb-out, east-wall, caucasus-launch, caucasus-send, caucasus-refuse, caucasus-recall, "
        "caucasus-leave, mansteins-gambit, crimea-supply, sea-move, support, support-done, bulgaria-exit, "
        "bulgaria-return, overstack-remove, bb-loss, attach)");
  }
  return a;
}

}  // namespace bd
