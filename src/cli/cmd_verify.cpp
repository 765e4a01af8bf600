// `steppe verify SAVE [--side N]`: proves the dice of a network game (docs/api.md,
// "Verifiable dice"). The server published a commitment, SHA-256 of the game's id and its
// dice seed, when it created the game, and reveals the seed when the game is over; the save
// it gives then (GET /api/games/{id}/save) names the seed, the commitment and the actions.
// This command checks that the seed is the one committed to, replays every action from it
// (the kernel's rules, on this machine) and checks the recorded final hash and result: every
// roll of the game came from a seed fixed before the first move. With --side it prints what
// that side saw, to compare with the log the player kept during the game.
#include <iostream>

#include "cli/cli_util.h"
#include "cli/command.h"
#include "kernel/notation.h"
#include "kernel/sha256.h"

namespace steppe::cli {
namespace {

struct VerifyArgs {
  std::string file;
  int side = -1;
  std::string data;
};

CommandRegistrar verify_cmd("verify", [](CLI::App& app) {
  auto a = std::make_shared<VerifyArgs>();
  auto* sub = app.add_subcommand(
      "verify",
      "check a finished network game's dice: the seed matches the commitment published at the "
      "start, and every action replays from it to the recorded end");
  sub->add_option("file", a->file, "save file (the answer of GET /api/games/{id}/save, or its \"save\")")
      ->required();
  sub->add_option("--side", a->side, "also print the events this side (0..n-1) saw, as replayed");
  add_data_option(sub, a->data);
  sub->callback([a] {
    auto doc = read_save_file(a->file);
    if (!doc) fail("verify", doc.error().to_string());
    Json save = std::move(doc).value();
    if (save.is_object() && save.contains("save") && save["save"].is_object()) save = Json(save["save"]);
    auto hdr = read_save_header(save, a->file);
    if (!hdr) fail("verify", hdr.error().to_string());
    const auto dice = save.find("dice");
    if (dice == save.end() || !dice->is_object() || !dice->contains("commitment") ||
        !(*dice)["commitment"].is_string() || !dice->contains("game_id") || !(*dice)["game_id"].is_string())
      fail("verify",
           a->file +
               ": /dice: no dice commitment ({\"game_id\", \"commitment\"}); only a save of a network "
               "game, given by the server when the game is over, can be verified");
    const std::string game_id = (*dice)["game_id"].get<std::string>();
    const std::string committed = (*dice)["commitment"].get<std::string>();
    const std::string computed = dice_commitment(game_id, hdr->seed);
    if (computed != committed)
      fail("verify", "the seed " + std::to_string(hdr->seed) +
                         " is NOT the one committed to at the start: sha256(\"" +
                         dice_commitment_text(game_id, hdr->seed) + "\") = " + computed +
                         ", the commitment is " + committed);
    if (!save.contains("final_hash"))
      fail("verify",
           a->file +
               ": /final_hash: missing (the end the server recorded); nothing to check the replay against");
    auto game = load_game_or_fail("verify", hdr->game, a->data);
    // from_save_json replays every action from the seed and refuses a save whose replay does
    // not reach the recorded final hash.
    auto m = Match::from_save_json(save, *game, a->file);
    if (!m) fail("verify", "the actions do not replay from the committed seed: " + m.error().to_string());
    const Match& match = **m;
    if (save.contains("result") && !save["result"].is_null() && match.state().is_terminal() &&
        match.state().result() != save["result"])
      fail("verify", "the replay ends with " + match.state().result().dump() + ", the server recorded " +
                         save["result"].dump());
    if (a->side >= 0) print_event_log(match, a->side);
    const std::string from = dice->value("seed_from", std::string("unknown"));
    std::cout << "dice verified: game " << game_id << ", seed " << hdr->seed << " matches the commitment "
              << committed << "; " << match.log().size() << " actions replayed to hash "
              << hash_to_hex(match.state().state_hash()) << "\n";
    if (from != "server")
      std::cout << "note: the seed was "
                << (from == "creator" ? "chosen by the game's creator"
                                      : "sent to the game's creator (a game stored before commitments)")
                << ", so the commitment does not prove the dice to the creator's opponent\n";
  });
});

}  // namespace
}  // namespace steppe::cli
