# bash completion for tuner: commands and their subcommands (`db merge`, `import t4`), each one's
# options, option values and kernel names. What the tool can say is read from it (`tuner --help`,
# `tuner COMMAND [SUB] --help`, `tuner kernels`, `tuner occupancy --list-archs`, `tuner devices
# --json`), so the completion follows the installed version and the templates named on the line
# (--templates DIR) or in $TUNER_TEMPLATES. The values of the options that take one of a few words
# (--strategy, --timing, ...) are listed below; completion_test checks them against each option's --help.
# Installed as share/bash-completion/completions/tuner; by hand: `source tuner-completion.bash`.

# The commands of `tuner --help`, or of `tuner db --help` (TOOL db).
_tuner_commands() {
  "$@" --help 2>/dev/null | awk '/^Commands:/ { listing = 1; next } listing && /^  [a-z]/ { print $1 } listing && /^$/ { exit }'
}

# The options of `tuner COMMAND [SUB] --help`, long and short: "  -o [ --output ] FILE  ..." or "  --json  ...".
_tuner_options() {
  "$@" --help 2>/dev/null | sed -n 's/^  \(-[a-zA-Z0-9-]*\)\( \[ \(--[a-z0-9-]*\) \]\)\{0,1\}.*/\1 \3/p'
}

# The options that take a value: one space, then the value's name ("arg", "DIR", ...), not the
# two or more spaces before the description.
_tuner_valued_options() {
  "$@" --help 2>/dev/null | sed -n 's/^  \(-[a-zA-Z0-9-]*\)\( \[ \(--[a-z0-9-]*\) \]\)\{0,1\} [^ ].*/\1 \3/p'
}

# Template names: `tuner kernels` starts each template's paragraph with its name; TOOL KERNELS_ARGS...
_tuner_kernels() {
  "$1" kernels "${@:2}" 2>/dev/null | awk '/^[^ ]/ { print $1 }'
}

# The GPU indices of this machine, from `tuner devices --json`.
_tuner_gpus() {
  "$1" devices --json 2>/dev/null | sed -n 's/^ *"index": \([0-9]*\),*$/\1/p'
}

# The words an option of a few fixed values takes (COMMAND OPTION); nothing for other options.
_tuner_option_words() {
  case $1:$2 in
    simulate:--strategy) echo "all auto brute_force random annealing genetic bayesian" ;;
    *:--strategy) echo "auto brute_force random annealing genetic bayesian" ;;
    *:--timing) echo "isolated back_to_back graph" ;;
    *:--objective) echo "time energy edp" ;;
    *:--counters) echo "winner explain all off" ;;
    tune:--warm-start) echo "auto off" ;;
    report:--format) echo "html md csv" ;;
    import:--format) echo "t1 kernel-tuner-cache t4" ;;
    export:--format) echo "t4" ;;
  esac
}

# COMPREPLY for the value of option $prev, or return 1 when it takes none we know of.
_tuner_option_value() {
  local words
  case $prev in
    --templates | --output-dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    --db | -o | --output | --file | --kernel-file | --opencl-header | --orders | --from)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    --arch) mapfile -t COMPREPLY < <(compgen -W "$("$tool" occupancy --list-archs 2>/dev/null)" -- "$cur") ;;
    --gpu) mapfile -t COMPREPLY < <(compgen -W "$(_tuner_gpus "$tool")" -- "$cur") ;;
    --gpus) mapfile -t COMPREPLY < <(compgen -W "all $(_tuner_gpus "$tool")" -- "$cur") ;;
    --kernel | --template | --name)
      [[ $command == import && $prev == --name ]] && return 0
      [[ $command == new && $prev == --kernel ]] && return 0  # a kernel of the --from file, not a template
      mapfile -t COMPREPLY < <(compgen -W "$(_tuner_kernels "$tool" "${templates[@]}")" -- "$cur") ;;
    *)
      words=$(_tuner_option_words "$command" "$prev")
      [[ -n $words ]] || return 1
      mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur") ;;
  esac
}

_tuner() {
  local cur prev tool command sub valued positionals i word
  local -a help_of templates=()
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --option=value: bash splits it into --option, =, value.
  if [[ $cur == = ]]; then
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi
  tool=${COMP_WORDS[0]}
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_tuner_commands "$tool") --help --version" -- "$cur")
    return 0
  fi
  command=${COMP_WORDS[1]}
  # The subcommand of db, import and export, once it is on the line: its own --help has its options.
  sub=""
  if [[ $command == db || $command == import || $command == export ]] && ((COMP_CWORD > 2)) &&
    [[ ${COMP_WORDS[2]} != -* ]]; then
    sub=${COMP_WORDS[2]}
  fi
  help_of=("$tool" "$command")
  [[ -n $sub ]] && help_of+=("$sub")
  # The template folders named on the line, for the kernel names.
  for ((i = 2; i < COMP_CWORD; i++)); do
    if [[ ${COMP_WORDS[i]} == --templates && -n ${COMP_WORDS[i + 1]:-} ]]; then
      word=${COMP_WORDS[i + 1]}
      [[ $word == = ]] && word=${COMP_WORDS[i + 2]:-}
      [[ -n $word && $word != -* ]] && templates+=(--templates "${word/#\~/$HOME}")
    fi
  done
  valued=" $(_tuner_valued_options "${help_of[@]}" | tr '\n' ' ') "
  # An option's value: the words it takes where they are known, else nothing (bash offers files).
  if [[ $valued == *" $prev "* ]]; then
    _tuner_option_value
    return 0
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_tuner_options "${help_of[@]}")" -- "$cur")
    return 0
  fi
  # The words after the command that are neither options nor options' values.
  positionals=0
  for ((i = 2; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    [[ $word == -* || $word == = ]] && continue
    [[ ${COMP_WORDS[i - 1]} == = ]] && continue
    [[ $valued == *" ${COMP_WORDS[i - 1]} "* ]] && continue
    ((positionals++))
  done
  case $command:$positionals in
    kernels:0 | tune:0 | query:0 | explore:0 | simulate:0 | report:*)
      mapfile -t COMPREPLY < <(compgen -W "$(_tuner_kernels "$tool" "${templates[@]}")" -- "$cur") ;;
    db:0) mapfile -t COMPREPLY < <(compgen -W "$(_tuner_commands "$tool" db)" -- "$cur") ;;
    import:0) mapfile -t COMPREPLY < <(compgen -W "t1 kernel-tuner-cache t4" -- "$cur") ;;
    export:0) mapfile -t COMPREPLY < <(compgen -W "t4" -- "$cur") ;;
    export:1) mapfile -t COMPREPLY < <(compgen -W "$(_tuner_kernels "$tool" "${templates[@]}")" -- "$cur") ;;
  esac
  return 0
}

complete -o default -F _tuner tuner
