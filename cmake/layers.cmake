# The layer rules on the link graph (docs/architecture.md, "Layers"):
#   kernel <- games/<id> (rules) <- ai, games/<id>/ai <- server, cli
# steppe_check_layers() runs at the end of configuration and stops it with an error when
# a library links (directly or through another library) one it may not: the kernel links
# no game, AI, server or tool; a rules library (steppe_game_<id>, steppe_games) links no
# AI, server or tool; the AI links no game, server or tool; the server links no game;
# the product CLI links no tool.
# scripts/check-layers.py checks the same rules on the #include lines (ctest layers.includes).

# All our targets reachable from `target` through LINK_LIBRARIES / INTERFACE_LINK_LIBRARIES.
function(_steppe_link_closure target out)
  set(seen "")
  set(todo ${target})
  while(todo)
    list(POP_FRONT todo t)
    if(NOT TARGET ${t} OR t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(libs ${t} LINK_LIBRARIES)
    get_target_property(ilibs ${t} INTERFACE_LINK_LIBRARIES)
    foreach(l IN LISTS libs ilibs)
      if(l AND NOT l MATCHES "NOTFOUND$" AND TARGET ${l})
        list(APPEND todo ${l})
      endif()
    endforeach()
  endwhile()
  list(REMOVE_ITEM seen ${target})
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Fails when `target` reaches a library matching `forbidden_regex`.
function(_steppe_forbid target forbidden_regex why)
  if(NOT TARGET ${target})
    return()
  endif()
  _steppe_link_closure(${target} reached)
  foreach(r IN LISTS reached)
    if(r MATCHES "${forbidden_regex}")
      message(FATAL_ERROR "layer breach: ${target} links ${r} (${why}; docs/architecture.md, Layers)")
    endif()
  endforeach()
endfunction()

function(steppe_check_layers)
  set(ai "^(steppe_ai|steppe_game_agents|steppe_game_.*_ai)$")
  set(games "^(steppe_games|steppe_game_.*)$")
  set(upper "^(steppe_server|steppe_mapgen)$")
  _steppe_forbid(steppe_kernel "${games}|${ai}|${upper}" "the kernel stands on nothing of ours")
  foreach(lib IN LISTS STEPPE_GAME_LIBS ITEMS steppe_games)
    _steppe_forbid(${lib} "${ai}|${upper}" "a rules library knows no agent, server or tool")
  endforeach()
  _steppe_forbid(steppe_ai "${games}|${upper}" "the AI is game-agnostic: a game's knowledge is steppe_game_<id>_ai")
  _steppe_forbid(steppe_server "${games}|^steppe_mapgen$" "the server is handed its games by the CLI")
  _steppe_forbid(steppe "^steppe_mapgen$" "the map generator is the tool steppe-mapgen, not part of the product CLI")
endfunction()
