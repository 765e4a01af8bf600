// Sub-commands of `steppe` register themselves: each cmd_<name>.cpp in src/cli defines a
// static CommandRegistrar, so adding a command never means editing main.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace steppe::cli {

// `setup` adds the sub-command to `app` and binds its options; the callback it installs
// (sub->callback / final_callback) runs the command and throws CLI::RuntimeError(code)
// to exit non-zero after printing its message to stderr.
struct CommandDef {
  std::string name;
  std::function<void(CLI::App& app)> setup;
};

std::vector<CommandDef>& command_registry();

struct CommandRegistrar {
  CommandRegistrar(std::string name, std::function<void(CLI::App&)> setup) {
    command_registry().push_back({std::move(name), std::move(setup)});
  }
};

}  // namespace steppe::cli
