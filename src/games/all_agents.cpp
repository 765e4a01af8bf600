#include "games/all_agents.h"

#include "ai/heuristics.h"
#include "games/aa/ai/ai_heuristics.h"
#include "games/bd/ai/ai_heuristics.h"
#include "games/dv/ai/ai_heuristics.h"
#include "games/moscow41/ai/ai_heuristics.h"

namespace steppe {

void register_installed_heuristics() {
  // Game AI modules register here: ai::register_heuristics("<id>", &<id>::make_<id>_heuristics);
  // a game without an entry plays with ai::DefaultHeuristics.
  ai::register_heuristics("bd", &bd::make_bd_heuristics);
  ai::register_heuristics("moscow41", &moscow41::make_moscow41_heuristics);
  ai::register_heuristics("aa", &aa::make_aa_heuristics);
  ai::register_heuristics("dv", &dv::make_dv_heuristics);
}

}  // namespace steppe
