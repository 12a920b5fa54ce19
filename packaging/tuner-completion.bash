# bash completion for tuner: commands, each command's options and the kernel names. Everything is
# read from the tool itself (`tuner --help`, `tuner COMMAND --help`, `tuner kernels`), so the
# completion follows the installed version and the user's own templates ($TUNER_TEMPLATES).
# Installed as share/bash-completion/completions/tuner; by hand: `source tuner-completion.bash`.

# The commands of `tuner --help`, or of `tuner db --help` (TOOL db).
_tuner_commands() {
  "$@" --help 2>/dev/null | awk '/^Commands:/ { listing = 1; next } listing && /^  [a-z]/ { print $1 } listing && /^$/ { exit }'
}

# The options of `tuner COMMAND --help`, long and short: "  -o [ --output ] arg  ..." or "  --db arg ...".
_tuner_options() {
  "$1" "$2" --help 2>/dev/null | sed -n 's/^  \(-[a-zA-Z0-9-]*\)\( \[ \(--[a-z0-9-]*\) \]\)\{0,1\}.*/\1 \3/p'
}

# The options of COMMAND that take a value ("arg" after the option).
_tuner_valued_options() {
  "$1" "$2" --help 2>/dev/null | sed -n 's/^  \(-[a-zA-Z0-9-]*\)\( \[ \(--[a-z0-9-]*\) \]\)\{0,1\} arg.*/\1 \3/p'
}

# Template names: `tuner kernels` starts each template's paragraph with its name.
_tuner_kernels() {
  "$1" kernels 2>/dev/null | awk '/^[^ ]/ { print $1 }'
}

_tuner() {
  local cur prev tool command valued positionals i
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  tool=${COMP_WORDS[0]}
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_tuner_commands "$tool") --help --version" -- "$cur")
    return
  fi
  command=${COMP_WORDS[1]}
  case $prev in
    --templates) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
    --db | -o | --output) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_tuner_options "$tool" "$command") --help" -- "$cur")
    return
  fi
  # The first word after the command that is neither an option nor an option's value.
  valued=" $(_tuner_valued_options "$tool" "$command" | tr '\n' ' ') "
  positionals=0
  for ((i = 2; i < COMP_CWORD; i++)); do
    [[ ${COMP_WORDS[i]} == -* ]] && continue
    [[ $valued == *" ${COMP_WORDS[i - 1]} "* ]] && continue
    ((positionals++))
  done
  ((positionals == 0)) || return
  case $command in
    kernels | tune | query | explore | report | simulate)
      mapfile -t COMPREPLY < <(compgen -W "$(_tuner_kernels "$tool")" -- "$cur") ;;
    db) mapfile -t COMPREPLY < <(compgen -W "$(_tuner_commands "$tool" db)" -- "$cur") ;;
    import) mapfile -t COMPREPLY < <(compgen -W "t1" -- "$cur") ;;
    export) mapfile -t COMPREPLY < <(compgen -W "t4" -- "$cur") ;;
  esac
}

complete -o default -F _tuner tuner
