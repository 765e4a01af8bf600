// Display names the Moscow '41 rule files share (moved from state.cpp's anonymous namespace).
#pragma once

#include "games/moscow41/state.h"

namespace moscow41 {

// Phase names, by Phase (observation "phase", test query "phase").
inline const char* phase_name(Phase p) {
  static const char* const kNames[] = {"logistics", "impulse", "activation", "command", "combat", "over",
                                       "blitz",     "exploit", "replace",    "deploy",  "setup"};
  return kNames[static_cast<int>(p)];
}
inline const char* const kMonths[] = {"July", "August", "September", "October", "November", "December"};
inline const char* const kWeather[] = {"sunny", "rain", "snow"};
inline const char* const kBomberStatus[] = {"ready", "committed", "aborted", "destroyed", "removed"};

inline const OptionInfo kOptions[kOptCount] = {
    {"ignore-army-colour", "14.1", "Ignore army colour"},
    {"zhukov-hoepner", "14.2", "Zhukov and Hoepner"},
    {"moscow-supply", "14.3", "Moscow as a Soviet supply source"},
    {"rail-movement", "14.4", "Rail movement"},
    {"blizzard", "14.5", "Blizzard"},
    {"cavalry-mobility", "14.6", "Cavalry enhanced mobility"},
    {"infantry-divisions", "14.7", "German infantry divisions"},
    {"operation-crusader", "14.8", "Operation Crusader"},
};

}  // namespace moscow41
