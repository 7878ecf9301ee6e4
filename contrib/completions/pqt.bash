# bash completion for pqt (installed as share/bash-completion/completions/pqt).
# The commands and options are those of 'pqt --help' and 'pqt help COMMAND';
# tests/test_man.sh checks that this file names every one of them.

_pqt()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        COMPREPLY=()
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi

    local commands="schema meta cat head count stats maml copy help"
    local cmd="" i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
        -*) ;;
        *) cmd=${words[i]}; break ;;
        esac
    done

    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "$commands -h --help --version" -- "$cur"))
        return
    fi

    case $prev in
    -f | --format)
        case $cmd in
        schema | meta) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
        cat | head) COMPREPLY=($(compgen -W "table csv tsv jsonl json" -- "$cur")) ;;
        stats) COMPREPLY=($(compgen -W "table json jsonl" -- "$cur")) ;;
        esac
        return ;;
    --explain)
        [[ $cmd == count ]] && COMPREPLY=($(compgen -W "text json" -- "$cur"))
        return ;;
    --codec)
        COMPREPLY=($(compgen -W "zstd snappy gzip lz4_raw brotli none" -- "$cur"))
        return ;;
    --page-version)
        COMPREPLY=($(compgen -W "1 2" -- "$cur"))
        return ;;
    --no-pushdown)
        COMPREPLY=($(compgen -W "stats page-index dictionary bloom adaptive all" -- "$cur"))
        return ;;
    --maml)
        COMPREPLY=($(compgen -f -X '!*.maml' -- "$cur") $(compgen -d -- "$cur"))
        return ;;
    -c | --columns | --rows | -w | --where | --sample | -s | --sort | -n | --limit | --qc | \
        --level | --row-group-rows | --bloom | --threads | --row-index)
        return ;;
    help)
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return ;;
    esac

    local opts=""
    case $cmd in
    schema) opts="--measure --maml -f --format -h --help" ;;
    meta) opts="-f --format -h --help" ;;
    cat | head)
        opts="-c --columns --rows -n --limit --all -f --format -w --where --sample -s --sort
              --dotted-keys --explain --qc --qc-soft --maml --no-crc --binary-as-string
              --union-by-name --no-hive -h --help" ;;
    count)
        opts="-w --where --rows --sample --explain --no-pushdown --no-crc --binary-as-string
              --union-by-name --no-hive -h --help" ;;
    stats) opts="-c --columns -w --where -f --format --no-crc -h --help" ;;
    copy)
        opts="-c --columns --rows --row-index -w --where --sort --codec --level --row-group-rows
              --page-version --no-dictionary --bloom --crc --threads -f --force --no-date
              --skip-unreadable --progress -q --quiet --partition-by --max-partitions
              -h --help" ;;
    maml)
        if [[ $cur != -* && ${words[cword - 1]} == maml ]]; then
            COMPREPLY=($(compgen -W "check" -- "$cur"))
            return
        fi
        opts="-h --help" ;;
    help) return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $cmd == maml && ${words[cword - 1]} == check ]]; then
        COMPREPLY=($(compgen -f -X '!*.maml' -- "$cur") $(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -X '!*.parquet' -- "$cur") $(compgen -d -- "$cur"))
    fi
} &&
    complete -F _pqt -o filenames pqt
