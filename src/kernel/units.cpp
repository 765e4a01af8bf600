#include "kernel/units.h"

#include <algorithm>

namespace steppe {

UnitSet::UnitSet(int node_count, int box_count)
    : node_count_(node_count),
      box_count_(box_count),
      names_(std::make_shared<const std::vector<std::string>>()),
      head_(static_cast<size_t>(node_count + box_count), -1),
      sides_(static_cast<size_t>(node_count), 0) {}

int UnitSet::add(const Unit& u, std::string_view name, UnitLocation loc) {
  const int id = size();
  units_.push_back(u);
  loc_.push_back(UnitLocation::nowhere());
  next_.push_back(-1);
  // Share the name table between copies of the set; copy it only when a name is new.
  int ni = -1;
  for (size_t i = 0; i < names_->size(); ++i)
    if ((*names_)[i] == name) ni = static_cast<int>(i);
  if (ni < 0) {
    auto copy = std::make_shared<std::vector<std::string>>(*names_);
    copy->emplace_back(name);
    ni = static_cast<int>(copy->size()) - 1;
    names_ = std::move(copy);
  }
  name_index_.push_back(ni);
  move(id, loc);
  return id;
}

int UnitSet::find(std::string_view name, int side) const {
  for (int id = 0; id < size(); ++id)
    if ((side < 0 || units_[id].side == side) && (*names_)[name_index_[id]] == name) return id;
  return -1;
}

int UnitSet::slot_of(UnitLocation loc) const {
  if (loc.kind == UnitLocation::Kind::kNode) return loc.index;
  if (loc.kind == UnitLocation::Kind::kBox) return node_count_ + loc.index;
  return -1;
}

void UnitSet::link(int id, int slot) {
  // Insert in id order: stacks are a handful of units, so a short walk beats any index.
  int32_t* p = &head_[slot];
  while (*p >= 0 && *p < id) p = &next_[*p];
  next_[id] = *p;
  *p = id;
}

void UnitSet::unlink(int id, int slot) {
  int32_t* p = &head_[slot];
  while (*p >= 0 && *p != id) p = &next_[*p];
  if (*p == id) *p = next_[id];
  next_[id] = -1;
}

void UnitSet::recompute_sides(int node) {
  uint8_t mask = 0;
  for (int u : at(node)) mask = static_cast<uint8_t>(mask | (1u << (units_[u].side & 7)));
  sides_[node] = mask;
}

void UnitSet::move(int id, UnitLocation to) {
  const UnitLocation from = loc_[id];
  const int old_slot = slot_of(from), new_slot = slot_of(to);
  if (old_slot >= 0) unlink(id, old_slot);
  loc_[id] = to;
  if (new_slot >= 0) link(id, new_slot);
  if (from.kind == UnitLocation::Kind::kNode) recompute_sides(from.index);
  if (to.kind == UnitLocation::Kind::kNode) recompute_sides(to.index);
}

void UnitSet::set_side(int id, int side) {
  units_[id].side = static_cast<int8_t>(side);
  if (loc_[id].kind == UnitLocation::Kind::kNode) recompute_sides(loc_[id].index);
}

int UnitSet::count_at(int node) const {
  int n = 0;
  for (int u : at(node)) {
    (void)u;
    ++n;
  }
  return n;
}

int UnitSet::steps_at(int node) const {
  int n = 0;
  for (int u : at(node)) n += units_[u].steps;
  return n;
}

uint64_t UnitSet::hash(uint64_t h) const {
  const auto mix = [&h](int64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ static_cast<uint8_t>(v >> (8 * i))) * kFnv64Prime;
  };
  mix(size());
  for (int id = 0; id < size(); ++id) {
    const Unit& u = units_[id];
    mix(u.type);
    mix(u.nation);
    mix(u.side);
    mix(u.steps);
    mix(u.max_steps);
    for (int16_t f : u.factors) mix(f);
    mix(u.markers);
    mix(static_cast<int>(loc_[id].kind));
    mix(loc_[id].index);
    mix(name_index_[id]);
  }
  return h;
}

bool UnitSet::consistent() const {
  std::vector<int> seen(size(), 0);
  for (int slot = 0; slot < node_count_ + box_count_; ++slot) {
    int prev = -1;
    for (int u = head_[slot]; u >= 0; u = next_[u]) {
      if (u <= prev || slot_of(loc_[u]) != slot) return false;
      ++seen[u];
      prev = u;
    }
  }
  for (int id = 0; id < size(); ++id)
    if (seen[id] != (slot_of(loc_[id]) >= 0 ? 1 : 0)) return false;
  for (int n = 0; n < node_count_; ++n) {
    uint8_t mask = 0;
    for (int u : at(n)) mask = static_cast<uint8_t>(mask | (1u << (units_[u].side & 7)));
    if (mask != sides_[n]) return false;
  }
  return true;
}

namespace {

FeatureBits names_to_bits(const JsonReader& list, const Vocabulary& vocab, const char* what) {
  FeatureBits bits = 0;
  for (const JsonReader& e : list.elements()) {
    const std::string name = e.as_str();
    if (!e.json().is_string()) continue;
    const int id = vocab.find(name);
    if (id < 0)
      e.fail(std::string("unknown ") + what + " \"" + name + "\" (known: " + vocab.list() + ")");
    else if (id >= 64)
      e.fail_value(std::string("stacking rules can only name the first 64 ") + what + "s");
    else
      bits |= feature_bit(id);
  }
  return bits;
}

}  // namespace

Result<StackingRule> StackingRule::from_json(const JsonReader& r, const Vocabulary& types,
                                             const Vocabulary& nations, const Vocabulary& markers) {
  const size_t before = r.errors().size();
  r.allow_only({"rule", "max_units", "max_steps", "exempt_types", "exempt_markers", "limits", "reconstructed",
                "source", "note"});
  r.check_reconstructed();
  StackingRule s;
  s.rule = r.str_or("rule", "");
  if (auto v = r.opt("max_units")) s.max_units = v->as_int_in(0, 1000);
  if (auto v = r.opt("max_steps")) s.max_steps = v->as_int_in(0, 10000);
  if (auto v = r.opt("exempt_types")) s.exempt_types = names_to_bits(*v, types, "unit type");
  if (auto v = r.opt("exempt_markers"))
    s.exempt_markers = static_cast<uint32_t>(names_to_bits(*v, markers, "marker"));
  if (auto v = r.opt("limits")) {
    for (const JsonReader& l : v->elements()) {
      l.allow_only({"name", "types", "nations", "max", "rule"});
      Limit lim;
      lim.name = l.str("name");
      if (auto t = l.opt("types")) lim.types = names_to_bits(*t, types, "unit type");
      if (auto n = l.opt("nations")) lim.nations = names_to_bits(*n, nations, "nation");
      lim.max = l.int_in("max", 0, 1000);
      lim.rule = l.str_or("rule", s.rule);
      s.limits.push_back(std::move(lim));
    }
    if (s.limits.size() > kMaxLimits)
      v->fail("at most " + std::to_string(kMaxLimits) + " stacking limits are supported");
  }
  if (r.errors().size() != before) return r.errors()[before];
  return s;
}

Status StackingRule::check(const UnitSet& units, int node, int side, std::span<const int> arriving,
                           const std::string& place) const {
  int count = 0, steps = 0;
  std::array<int, kMaxLimits> per_limit{};
  const auto tally = [&](int id) {
    const Unit& u = units.unit(id);
    if (u.side != side) return;
    if (counts(u)) {
      ++count;
      steps += u.steps;
    }
    for (size_t i = 0; i < limits.size() && i < kMaxLimits; ++i) {
      const Limit& l = limits[i];
      if ((l.types == 0 || has_bit(l.types, u.type)) && (l.nations == 0 || has_bit(l.nations, u.nation)))
        ++per_limit[i];
    }
  };
  for (int id : units.at(node)) tally(id);
  for (int id : arriving)
    if (!(units.location(id) == UnitLocation::node(node))) tally(id);

  if (max_units >= 0 && count > max_units)
    return rule_error(rule, "stacking limit exceeded in " + place + ": " + std::to_string(count) +
                                " units, at most " + std::to_string(max_units));
  if (max_steps >= 0 && steps > max_steps)
    return rule_error(rule, "stacking limit exceeded in " + place + ": " + std::to_string(steps) +
                                " steps, at most " + std::to_string(max_steps));
  for (size_t i = 0; i < limits.size() && i < kMaxLimits; ++i)
    if (per_limit[i] > limits[i].max)
      return rule_error(limits[i].rule, "stacking limit exceeded in " + place + ": " +
                                            std::to_string(per_limit[i]) + " " + limits[i].name +
                                            ", at most " + std::to_string(limits[i].max));
  return Status::ok();
}

}  // namespace steppe
