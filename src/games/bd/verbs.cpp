// Barbarossa Deluxe: the verb table (issue 19). One row per verb: its notation (name and
// arguments), the rule it carries out, its check (argument count, pending decision, the verb's
// rule in check.cpp) and its apply (apply.cpp). check, apply, parse_action and
// action_to_string go through this table; the argument forms are read and written in
// notation.cpp. Legal actions are still generated phase by phase (generate.cpp): their order,
// which the self-play hashes depend on, interleaves the verbs. Every rule cites its rulebook
// section (seeds/000).
#include "games/bd/bd_internal.h"

namespace bd {

const steppe::VerbTable<BdState>& BdState::verbs() {
  using S = BdState;
  using F = ArgForm;
  using N = ArgCount;
  // id, name, usage, rule, generate, check, apply, print, parse, describe. Both attack verbs
  // share the name "attack": the first row reads "from" and "with" alike (parse_attack).
  static constexpr steppe::VerbRow<S> kVerbRows[] = {
      {kEndPhase, "end-phase", "end-phase", "5.1", nullptr, check_as<N::kNone, &S::verb_check_end_phase>,
       apply_as<&S::verb_apply_end_phase>, print_as<F::kNone>, parse_as<kEndPhase, F::kNone>, nullptr},
      {kMove, "move", "move UNIT HEX HEX...", "10.1", nullptr, check_as<N::kAny, &S::verb_check_move>,
       apply_move_as, print_as<F::kUnitPath>, parse_as<kMove, F::kUnitPath>, nullptr},
      {kAttackFrom, "attack", "attack HEX from HEX... [lw] [drop] | attack HEX with UNIT... [lw] [drop]",
       "11.25", nullptr, check_as<N::kAttack, &S::verb_check_attack>,
       apply_as<&S::verb_apply_attack, kOverstackAfter>, print_as<F::kAttack>,
       parse_as<kAttackFrom, F::kAttack>, nullptr},
      {kAttackWith, "attack", "", "11.25", nullptr, check_as<N::kAttackWith, &S::verb_check_attack>,
       apply_as<&S::verb_apply_attack, kOverstackAfter>, print_as<F::kAttack>, nullptr, nullptr},
      {kMobileAssault, "mobile-assault", "mobile-assault HEX with UNIT... [lw] [drop]", "10.23", nullptr,
       check_as<N::kAttack, &S::verb_check_attack>, apply_as<&S::verb_apply_attack, kOverstackAfter>,
       print_as<F::kAttack>, parse_as<kMobileAssault, F::kAttack>, nullptr},
      {kOrder, "order", "order move-fight|fight-move|fight-fight", "5.4", nullptr,
       check_as<N::kOne, &S::verb_check_order>, apply_as<&S::verb_apply_order>, print_as<F::kOrder>,
       parse_as<kOrder, F::kOrder>, nullptr},
      {kPaulus, "paulus", "paulus take|decline", "5.10", nullptr, check_as<N::kOne, &S::verb_check_paulus>,
       apply_as<&S::verb_apply_paulus>, print_as<F::kPaulus>, parse_as<kPaulus, F::kPaulus>, nullptr},
      {kZone1942, "zone", "zone north|south", "5.6", nullptr, check_as<N::kOne, &S::verb_check_zone1942>,
       apply_as<&S::verb_apply_zone1942>, print_as<F::kZone>, parse_as<kZone1942, F::kZone>, nullptr},
      {kEnter, "enter", "enter UNIT HEX", "8.1", nullptr, check_as<N::kTwo, &S::verb_check_enter>,
       apply_as<&S::verb_apply_enter>, print_as<F::kUnitHex>, parse_as<kEnter, F::kUnitHex>, nullptr},
      {kReplace, "replace", "replace UNIT HEX|rvgk", "8.12", nullptr,
       check_as<N::kTwo, &S::verb_check_replace>, apply_as<&S::verb_apply_replace>, print_as<F::kReplace>,
       parse_as<kReplace, F::kReplace>, nullptr},
      {kRvgkIn, "rvgk-in", "rvgk-in UNIT", "8.8", nullptr, check_as<N::kOne, &S::verb_check_rvgk_in>,
       apply_as<&S::verb_apply_rvgk_in>, print_as<F::kUnit>, parse_as<kRvgkIn, F::kUnit>, nullptr},
      {kRvgkOut, "rvgk-out", "rvgk-out UNIT HEX", "8.8", nullptr, check_as<N::kTwo, &S::verb_check_rvgk_out>,
       apply_as<&S::verb_apply_rvgk_out>, print_as<F::kUnitHex>, parse_as<kRvgkOut, F::kUnitHex>, nullptr},
      {kOffSupply, "osupply", "osupply A|B|C HEX", "7.10", nullptr,
       check_as<N::kTwo, &S::verb_check_off_supply>, apply_as<&S::verb_apply_off_supply>,
       print_as<F::kOffSupply>, parse_as<kOffSupply, F::kOffSupply>, nullptr},
      {kRetreat, "retreat", "retreat HEX", "11.27", nullptr, check_as<N::kOne, &S::verb_check_not_now>,
       apply_as<&S::verb_apply_retreat, kOverstackAfter>, print_as<F::kHex>, parse_as<kRetreat, F::kHex>,
       nullptr},
      {kAdvance, "advance", "advance UNIT", "11.30", nullptr, check_as<N::kOne, &S::verb_check_not_now>,
       apply_as<&S::verb_apply_advance>, print_as<F::kUnit>, parse_as<kAdvance, F::kUnit>, nullptr},
      {kAdvanceDone, "advance-done", "advance-done", "11.30", nullptr,
       check_as<N::kNone, &S::verb_check_not_now>, apply_as<&S::verb_apply_advance_done, kOverstackAfter>,
       print_as<F::kNone>, parse_as<kAdvanceDone, F::kNone>, nullptr},
      {kBbChoice, "convert-bb", "convert-bb dr|bb", "11.26", nullptr,
       check_as<N::kChoice, &S::verb_check_not_now>, apply_as<&S::verb_apply_bb_choice, kOverstackAfter>,
       print_as<F::kDrBb>, parse_as<kBbChoice, F::kDrBb>, nullptr},
      {kLwDefend, "luftwaffe-defend", "luftwaffe-defend yes|no", "11.23", nullptr,
       check_as<N::kChoice, &S::verb_check_not_now>, apply_as<&S::verb_apply_lw_defend, kOverstackAfter>,
       print_as<F::kYesNo>, parse_as<kLwDefend, F::kYesNo>, nullptr},
      {kSetup, "setup", "setup UNIT HEX", "3.3", nullptr, check_as<N::kTwo, &S::verb_check_setup>,
       apply_as<&S::verb_apply_setup>, print_as<F::kUnitHex>, parse_as<kSetup, F::kUnitHex>, nullptr},
      {kWithdraw, "withdraw", "withdraw UNIT", "8.21", nullptr, check_as<N::kOne, &S::verb_check_withdraw>,
       apply_as<&S::verb_apply_withdraw>, print_as<F::kUnit>, parse_as<kWithdraw, F::kUnit>, nullptr},
      {kDeclineWithdraw, "decline-withdrawal", "decline-withdrawal", "8.21", nullptr,
       check_as<N::kNone, &S::verb_check_decline_withdraw>, apply_as<&S::verb_apply_decline_withdraw>,
       print_as<F::kNone>, parse_as<kDeclineWithdraw, F::kNone>, nullptr},
      {kHeroCity, "hero-city", "hero-city HEX", "9.1", nullptr, check_as<N::kOne, &S::verb_check_hero_city>,
       apply_as<&S::verb_apply_hero_city>, print_as<F::kHex>, parse_as<kHeroCity, F::kHex>, nullptr},
      {kAdvance2, "advance-second", "advance-second UNIT HEX", "11.32", nullptr,
       check_as<N::kTwo, &S::verb_check_not_now>, apply_as<&S::verb_apply_advance2>, print_as<F::kUnitHex>,
       parse_as<kAdvance2, F::kUnitHex>, nullptr},
      {kFortressCity, "fortress-city", "fortress-city HEX", "9.2", nullptr,
       check_as<N::kOne, &S::verb_check_fortress_city>, apply_as<&S::verb_apply_fortress_city>,
       print_as<F::kHex>, parse_as<kFortressCity, F::kHex>, nullptr},
      {kFortifiedArea, "fortified-area", "fortified-area HEX", "8.18", nullptr,
       check_as<N::kOne, &S::verb_check_fortified_area>, apply_as<&S::verb_apply_fortified_area>,
       print_as<F::kHex>, parse_as<kFortifiedArea, F::kHex>, nullptr},
      {kAerialSupply, "aerial-supply", "aerial-supply HEX", "7.7", nullptr,
       check_as<N::kOne, &S::verb_check_aerial_supply>, apply_as<&S::verb_apply_aerial_supply>,
       print_as<F::kHex>, parse_as<kAerialSupply, F::kHex>, nullptr},
      {kStrategic, "strategic", "strategic UNIT HEX", "8.6", nullptr,
       check_as<N::kTwo, &S::verb_check_strategic>, apply_as<&S::verb_apply_strategic>, print_as<F::kUnitHex>,
       parse_as<kStrategic, F::kUnitHex>, nullptr},
      {kEmergencyRvgk, "emergency-rvgk", "emergency-rvgk UNIT HEX", "8.11", nullptr,
       check_as<N::kTwo, &S::verb_check_not_now>, apply_as<&S::verb_apply_emergency_rvgk>,
       print_as<F::kUnitHex>, parse_as<kEmergencyRvgk, F::kUnitHex>, nullptr},
      {kNoEmergencyRvgk, "no-emergency-rvgk", "no-emergency-rvgk", "8.11", nullptr,
       check_as<N::kNone, &S::verb_check_not_now>, apply_as<&S::verb_apply_no_emergency_rvgk>,
       print_as<F::kNone>, parse_as<kNoEmergencyRvgk, F::kNone>, nullptr},
      {kSummerOffensive, "summer-offensive", "summer-offensive", "4.4", nullptr,
       check_as<N::kNone, &S::verb_check_summer_offensive>, apply_as<&S::verb_apply_summer_offensive>,
       print_as<F::kNone>, parse_as<kSummerOffensive, F::kNone>, nullptr},
      {kWatch, "watch", "watch rhine|oder", "4.18", nullptr, check_as<N::kOne, &S::verb_check_watch>,
       apply_as<&S::verb_apply_watch>, print_as<F::kWatch>, parse_as<kWatch, F::kWatch>, nullptr},
      {kCrimeaSupply, "crimea-supply", "crimea-supply on [UNIT...] | off", "7.4", nullptr,
       check_as<N::kCrimea, &S::verb_check_crimea_supply>, apply_as<&S::verb_apply_crimea_supply>,
       print_as<F::kCrimea>, parse_as<kCrimeaSupply, F::kCrimea>, nullptr},
      {kSeaMove, "sea-move", "sea-move UNIT HEX", "10.16", nullptr,
       check_as<N::kTwo, &S::verb_check_sea_move>, apply_as<&S::verb_apply_sea_move>, print_as<F::kUnitHex>,
       parse_as<kSeaMove, F::kUnitHex>, nullptr},
      {kConvert, "convert", "convert GUARDS|SHOCK RIFLE-ARMY", "8.20", nullptr,
       check_as<N::kTwo, &S::verb_check_convert>, apply_as<&S::verb_apply_convert>, print_as<F::kUnitUnit>,
       parse_as<kConvert, F::kUnitUnit>, nullptr},
      {kCombOut, "comb-out", "comb-out", "8.16", nullptr, check_as<N::kNone, &S::verb_check_comb_out>,
       apply_as<&S::verb_apply_comb_out>, print_as<F::kNone>, parse_as<kCombOut, F::kNone>, nullptr},
      {kEastWall, "east-wall", "east-wall HEX", "8.5", nullptr, check_as<N::kOne, &S::verb_check_east_wall>,
       apply_as<&S::verb_apply_east_wall>, print_as<F::kHex>, parse_as<kEastWall, F::kHex>, nullptr},
      {kCaucasusLaunch, "caucasus-launch", "caucasus-launch UNIT...", "4.11", nullptr,
       check_as<N::kAny, &S::verb_check_caucasus>, apply_as<&S::verb_apply_caucasus_launch>,
       print_as<F::kUnits>, parse_as<kCaucasusLaunch, F::kUnits>, nullptr},
      {kCaucasusSend, "caucasus-send", "caucasus-send UNIT", "4.12", nullptr,
       check_as<N::kOne, &S::verb_check_caucasus>, apply_as<&S::verb_apply_caucasus_send>,
       print_as<F::kUnits>, parse_as<kCaucasusSend, F::kUnits>, nullptr},
      {kCaucasusRefuse, "caucasus-refuse", "caucasus-refuse", "4.12", nullptr,
       check_as<N::kNone, &S::verb_check_caucasus>, apply_as<&S::verb_apply_caucasus_refuse>,
       print_as<F::kNone>, parse_as<kCaucasusRefuse, F::kNone>, nullptr},
      {kCaucasusRecall, "caucasus-recall", "caucasus-recall UNIT HEX [UNIT HEX...]", "4.13", nullptr,
       check_as<N::kAny, &S::verb_check_caucasus>, apply_as<&S::verb_apply_caucasus_recall>,
       print_as<F::kUnitHexPairs>, parse_as<kCaucasusRecall, F::kUnitHexPairs>, nullptr},
      {kCaucasusLeave, "caucasus-leave", "caucasus-leave UNIT HEX", "4.13", nullptr,
       check_as<N::kTwo, &S::verb_check_caucasus>, apply_as<&S::verb_apply_caucasus_leave>,
       print_as<F::kUnitHex>, parse_as<kCaucasusLeave, F::kUnitHex>, nullptr},
      {kMansteinsGambit, "mansteins-gambit", "mansteins-gambit", "4.16", nullptr,
       check_as<N::kNone, &S::verb_check_summer_offensive>, apply_as<&S::verb_apply_mansteins_gambit>,
       print_as<F::kNone>, parse_as<kMansteinsGambit, F::kNone>, nullptr},
      {kTakeRetreat, "take-retreat", "take-retreat yes|no", "13.9", nullptr,
       check_as<N::kChoice, &S::verb_check_not_now>, apply_as<&S::verb_apply_take_retreat, kOverstackAfter>,
       print_as<F::kYesNo>, parse_as<kTakeRetreat, F::kYesNo>, nullptr},
      {kSupport, "support", "support artillery|air-army ARMY | support interceptor|partisans|airborne",
       "8.36", nullptr, check_as<N::kSupport, &S::verb_check_support>, apply_as<&S::verb_apply_support>,
       print_as<F::kSupport>, parse_as<kSupport, F::kSupport>, nullptr},
      {kSupportDone, "support-done", "support-done", "8.41", nullptr,
       check_as<N::kNone, &S::verb_check_support>, apply_as<&S::verb_apply_support_done>, print_as<F::kNone>,
       parse_as<kSupportDone, F::kNone>, nullptr},
      {kBulgariaExit, "bulgaria-exit", "bulgaria-exit UNIT", "8.26", nullptr,
       check_as<N::kOne, &S::verb_check_bulgaria_exit>, apply_as<&S::verb_apply_bulgaria_exit>,
       print_as<F::kUnit>, parse_as<kBulgariaExit, F::kUnit>, nullptr},
      {kBulgariaReturn, "bulgaria-return", "bulgaria-return HEX", "8.26", nullptr,
       check_as<N::kOne, &S::verb_check_bulgaria_return>, apply_as<&S::verb_apply_bulgaria_return>,
       print_as<F::kHex>, parse_as<kBulgariaReturn, F::kHex>, nullptr},
      {kOverstackRemove, "overstack-remove", "overstack-remove UNIT", "6.2", nullptr,
       check_as<N::kOne, &S::verb_check_not_now>, apply_as<&S::verb_apply_overstack_remove>,
       print_as<F::kUnit>, parse_as<kOverstackRemove, F::kUnit>, nullptr},
      {kBbLoss, "bb-loss", "bb-loss UNIT", "11.26", nullptr, check_as<N::kOne, &S::verb_check_not_now>,
       apply_as<&S::verb_apply_bb_loss>, print_as<F::kUnit>, parse_as<kBbLoss, F::kUnit>, nullptr},
      {kAttach, "attach", "attach TB|CM ARMY", "8.31", nullptr, check_as<N::kTwo, &S::verb_check_attach>,
       apply_as<&S::verb_apply_attach>, print_as<F::kUnitUnit>, parse_as<kAttach, F::kUnitUnit>, nullptr},
      {kLetAttack, "let-attack", "let-attack", "9.7", nullptr, check_as<N::kNone, &S::verb_check_not_now>,
       apply_as<&S::verb_apply_let_attack, kOverstackAfter>, print_as<F::kNone>,
       parse_as<kLetAttack, F::kNone>, nullptr},
  };
  static_assert(std::size(kVerbRows) == kNumVerbs - 1, "one row per verb");
  static_assert(
      [] {
        for (size_t i = 0; i < std::size(kVerbRows); ++i)
          if (kVerbRows[i].id != i + 1) return false;
        return true;
      }(),
      "the rows in verb order");
  // GCC 12 with -fsanitize=address,undefined does not fold a function pointer's comparison
  // with nullptr in a constant expression; every other build checks this.
#ifndef __SANITIZE_ADDRESS__
  static_assert(
      [] {
        for (const auto& row : kVerbRows)
          if (row.check == nullptr || row.apply == nullptr) return false;
        return true;
      }(),
      "every verb is checked and applied through its row");
#endif
  static const steppe::VerbTable<BdState> table(kVerbRows);
  return table;
}

std::string BdState::action_to_string(const Action& a) const {
  return a.verb == kVerbNone ? std::string() : verbs().print(*this, a);
}

steppe::Result<Action> BdState::parse_action(std::string_view text) const {
  std::vector<std::string_view> words;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find_first_of(" \t\n\r", at), text.size());
    if (end > at) words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (words.empty()) return steppe::Error{"empty action", "", ""};
  size_t used = 0;
  const auto* row = verbs().match(words, used);
  if (row == nullptr || row->parse == nullptr)
    return steppe::Error{
        "unknown action in '" + std::string(text) + "' (the forms are: " + verbs().usages() + ")", "", ""};
  auto a = row->parse(*this, std::span<const std::string_view>(words).subspan(used));
  if (!a) return steppe::Error{a.error().message + " in '" + std::string(text) + "'", "", ""};
  return a;
}

}  // namespace bd
