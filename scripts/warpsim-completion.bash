# bash completion for warpsim.  `make install` puts it where bash-completion
# finds it; from a checkout: source scripts/warpsim-completion.bash
# Subcommands come from `warpsim --help`, each one's options from
# `warpsim SUBCOMMAND --help`, so the completion follows the program.
_warpsim()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    fi
    local ws=${words[0]}
    if [ "$cword" -eq 1 ]; then
        local subs
        subs=$("$ws" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
        COMPREPLY=($(compgen -W "$subs --help --version" -- "$cur"))
        return
    fi
    local sub=${words[1]}
    case "$prev" in
        --view) COMPREPLY=($(compgen -W "gpu sm memory atomics" -- "$cur")); return ;;
        --schedule) COMPREPLY=($(compgen -W "roundrobin random adversarial" -- "$cur")); return ;;
        --atomic-order) COMPREPLY=($(compgen -W "lane reverse random adversarial" -- "$cur")); return ;;
        --divergence) COMPREPLY=($(compgen -W "its stack" -- "$cur")); return ;;
        --trace-level) COMPREPLY=($(compgen -W "blocks warps instructions memory" -- "$cur")); return ;;
        --backend) COMPREPLY=($(compgen -W "sim gpu" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        local opts
        opts=$("$ws" "$sub" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _warpsim warpsim
