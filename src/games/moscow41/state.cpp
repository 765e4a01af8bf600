// Moscow '41: Moscow41State: construction, the optional rules (14.0), the event log and the basic
// queries the rule chapters share (presence, stacking 2.7).
// Every rule cites its rulebook section (seeds/002).
#include "games/moscow41/state.h"

#include "games/moscow41/state_names.h"

namespace moscow41 {

using steppe::Error;
using steppe::Status;

const char* side_name(int s) { return s == kGerman ? "german" : s == kSoviet ? "soviet" : "none"; }

const OptionInfo& option_info(int o) { return kOptions[o]; }

int option_by_name(const std::string& name) {
  for (int o = 0; o < kOptCount; ++o)
    if (name == kOptions[o].name) return o;
  return -1;
}

std::string option_list() {
  std::string s;
  for (int o = 0; o < kOptCount; ++o)
    s += std::string(o ? ", " : "") + kOptions[o].name + " (" + kOptions[o].rule + ")";
  return s;
}

Status Moscow41State::set_option(const std::string& name, bool on) {
  // 14.0: the optional rules are agreed before play.
  const int o = option_by_name(name);
  if (o < 0) return Error{"unknown option '" + name + "' (options: " + option_list() + ")", "14.0", ""};
  options_[o] = on;
  if (o == kOptBlizzard && !on) blizzard_ = false;
  return Status::ok();
}

Moscow41State::Moscow41State(const Moscow41Game& g) : g_(g) {
  blocks_.assign(g.blocks().size(), BlockState{});
  areas_.assign(static_cast<size_t>(g.map().node_count()), AreaState{});
  for (int n = 0; n < g.map().area_count(); ++n)
    if (ad(n).terrain == kStaging) as(n).control = kGerman;
  as(g.box_rastenburg()).control = kGerman;
  bomber_status_.assign(static_cast<size_t>(g.bomber_count()), kBomberReady);
  bomber_area_.assign(static_cast<size_t>(g.bomber_count()), -1);
  bomber_struck_.assign(static_cast<size_t>(g.bomber_count()), -1);
}

void Moscow41State::log(const std::string& kind, const std::string& text, const std::string& rule,
                        bool reveals) {
  if (event_sink() == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = text;
  e.rule = rule;
  e.reveals = reveals;
  emit(std::move(e));
}

void Moscow41State::log_hidden(int owner, const std::string& kind, const std::string& owner_text,
                               const std::string& public_text, const std::string& rule) {
  // 1.5: the owner reads the block's name; the other side only what it can see.
  if (event_sink() == nullptr) return;
  steppe::Event e;
  e.kind = kind;
  e.text = owner_text;
  e.rule = rule;
  e.visible_to = 1u << owner;
  emit(e);
  e.text = public_text;
  e.visible_to = 1u << (1 - owner);
  emit(std::move(e));
}

// ----------------------------------------------------------------------------------------
// Basic queries
int Moscow41State::strength(int b) const {
  const BlockState& s = block(b);
  return def(b).levels[static_cast<size_t>(s.level)];
}

bool Moscow41State::has_units(int side, int node) const {
  if (node < 0) return false;
  if (areas_[static_cast<size_t>(node)].dl == side) return true;
  // 4.2.4: a Leader counts for stacking only. Stalin takes no hits (docs/rulings.md), so
  // were he a unit for 2.5, Moscow could never fall and Scenarios 2-3 could not be won.
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == node && g_.blocks()[b].side == side && g_.blocks()[b].kind != Kind::kLeader)
      return true;
  return false;
}

int Moscow41State::blocks_in(int side, int node) const {
  int n = 0;
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == node && g_.blocks()[b].side == side) ++n;
  return n;
}

std::vector<int> Moscow41State::pieces(int side, int node) const {
  std::vector<int> v;
  for (size_t b = 0; b < blocks_.size(); ++b)
    if (blocks_[b].loc == node && g_.blocks()[b].side == side) v.push_back(static_cast<int>(b));
  return v;
}

bool Moscow41State::contested(int node) const { return has_units(kGerman, node) && has_units(kSoviet, node); }

bool Moscow41State::on_frontline(int side, int node) const {
  for (int y : g_.neighbours(node))
    if (area(y).control != side && ad(y).terrain != kStaging) return true;
  return false;
}

Moscow41State::Presence Moscow41State::presence() const {
  Presence p;
  fill_presence(p);
  return p;
}

void Moscow41State::fill_presence(Presence& p) const {
  const auto nodes = static_cast<size_t>(node_count());
  p.blocks[0].assign(nodes, 0);
  p.blocks[1].assign(nodes, 0);
  p.leaders[0].assign(nodes, 0);
  p.leaders[1].assign(nodes, 0);
  p.dl.assign(nodes, kNoSide);
  for (size_t n = 0; n < nodes && n < areas_.size(); ++n) p.dl[n] = areas_[n].dl;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const int loc = blocks_[b].loc;
    if (loc < 0 || static_cast<size_t>(loc) >= nodes) continue;
    ++p.blocks[g_.blocks()[b].side][static_cast<size_t>(loc)];
    if (g_.blocks()[b].kind == Kind::kLeader) ++p.leaders[g_.blocks()[b].side][static_cast<size_t>(loc)];
  }
}

bool Moscow41State::stack_ok(int side, int node, int extra, const Presence* pr) const {
  // 2.7: per player 4 blocks in Green, 2 in Yellow/Victory; Staging unlimited (Germans).
  if (!is_area(node)) return false;
  const int limit = g_.tables().stack[static_cast<size_t>(ad(node).terrain)];
  const int there = pr != nullptr ? pr->blocks[side][static_cast<size_t>(node)] : blocks_in(side, node);
  return there + extra <= limit;
}

}  // namespace moscow41
