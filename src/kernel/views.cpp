#include "kernel/views.h"

namespace steppe {

using Json = nlohmann::json;

Json to_json(const ActionDescription& d) {
  Json j{{"text", d.text}, {"verb", d.verb}, {"summary", d.summary}, {"rule", d.rule}, {"units", d.units},
         {"from", d.from}, {"to", d.to}};
  if (!d.detail.is_null()) j["detail"] = d.detail;
  return j;
}

Json to_json(const Preview& p) {
  Json shifts = Json::array();
  int total = 0;
  for (const auto& s : p.shifts) {
    shifts.push_back(Json{{"shift", s.shift}, {"reason", s.reason}, {"rule", s.rule}});
    total += s.shift;
  }
  Json outcomes = Json::array();
  for (const auto& o : p.outcomes)
    outcomes.push_back(
        Json{{"result", o.result}, {"probability", o.probability}, {"meaning", o.meaning}, {"rule", o.rule}});
  Json j{{"kind", p.kind},       {"summary", p.summary},
         {"attack", p.attack},   {"defense", p.defense},
         {"raw", p.raw},         {"final", p.final},
         {"rule", p.rule},       {"shifts", std::move(shifts)},
         {"total_shift", total}, {"outcomes", std::move(outcomes)}};
  if (!p.detail.is_null()) j["detail"] = p.detail;
  return j;
}

Json to_json(const Reach& r) {
  Json dests = Json::array();
  for (const auto& d : r.destinations) {
    Json e{{"location", d.location}, {"cost", d.cost}, {"path", d.path}};
    if (!d.note.empty()) e["note"] = d.note;
    dests.push_back(std::move(e));
  }
  return Json{
      {"unit", r.unit}, {"from", r.from}, {"allowance", r.allowance}, {"destinations", std::move(dests)}};
}

}  // namespace steppe
