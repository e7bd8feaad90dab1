"""The shell functions the generated fix scripts call (ksh for a host, POSIX sh for the HMC).

Every change is one call with its parts as separate, single-quoted words: nothing is composed
into a command line and nothing is ``eval``-ed. The functions check each word again (names
against ``^[A-Za-z][A-Za-z0-9_.-]*$``, values against a plain-value pattern), read the current
value first (already in place: skipped), log it, write the undo into a rollback script, make the
change, read it back, and stop the run at the first failure.
"""

SHELL_COMMON = r'''
is_name() { case $1 in [A-Za-z0-9]*) case $1 in *[!A-Za-z0-9_.-]*) return 1 ;; *) return 0 ;; esac ;; *) return 1 ;; esac; }
is_value() { case $1 in '') return 1 ;; *[!A-Za-z0-9_.:+-]*) return 1 ;; *) return 0 ;; esac; }
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
selected() {
    case ",$APPLY_IDS," in *",$1,"*) return 0 ;; *) return 1 ;; esac
}
same() {
    [ "$1" = "$2" ] && return 0
    # numbers compare as numbers (0.50 = 0.5)
    case $1$2 in *[!0-9.]*) return 1 ;; esac
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0) }'
}

'''

HOST_LIB = r'''
# --- lparscope functions ---
set -u
umask 077
PRINT_ONLY=yes
APPLY_IDS=""
FAILOVER_DONE=no
LOGDIR=.
ROLLBACK_MODE=no

usage() {
    cat <<'USAGE'
Usage: ksh SCRIPT                      print the changes and the commands; change nothing
       ksh SCRIPT --apply ID[,ID...]   make only the changes named (ids are listed below)
                 [--failover-done]      the partner VIOS carries the SEA traffic now (needed for
                                        SEA / EtherChannel changes on a VIOS)
                 [--logdir DIR]         where the log and the rollback script go (default: .)
USAGE
}

die() { printf 'lparscope: %s\n' "$*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case $1 in
        --apply) [ $# -ge 2 ] || die "--apply needs a list of change ids"; APPLY_IDS=$2; PRINT_ONLY=no; shift 2 ;;
        --apply=*) APPLY_IDS=${1#--apply=}; PRINT_ONLY=no; shift ;;
        --failover-done) FAILOVER_DONE=yes; shift ;;
        --logdir) [ $# -ge 2 ] || die "--logdir needs a folder"; LOGDIR=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
case $APPLY_IDS in
    *[!A-Za-z0-9_.,-]*) die "change ids are letters, digits, '.', '_', '-' separated by commas" ;;
esac

''' + SHELL_COMMON + r'''STAMP=$(date +%Y%m%d-%H%M%S)-$$
LOG=""
RB=""
RB_LINES=""
start_log() {
    [ -n "$LOG" ] && return 0
    [ -d "$LOGDIR" ] || die "no folder $LOGDIR"
    if [ "$ROLLBACK_MODE" = yes ]; then
        LOG=$LOGDIR/lparscope-undo-$SCRIPT_HOST-$STAMP.log
        : > "$LOG" || die "cannot write in $LOGDIR"
        return 0
    fi
    LOG=$LOGDIR/lparscope-$SCRIPT_HOST-$STAMP.log
    RB=$LOGDIR/lparscope-rollback-$SCRIPT_HOST-$STAMP.ksh
    RB_LINES=$RB.lines
    : > "$LOG" && : > "$RB_LINES" || die "cannot write in $LOGDIR"
    printf 'lparscope fix script for %s, applying: %s\n' "$SCRIPT_HOST" "$APPLY_IDS" >> "$LOG"
}
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$LOG"; }
write_rollback() {
    [ -n "$RB" ] && [ "$ROLLBACK_MODE" = no ] || return 0
    if [ ! -s "$RB_LINES" ]; then rm -f "$RB_LINES"; RB=""; return 0; fi
    {
        printf '#!/usr/bin/ksh\n# lparscope rollback for %s: puts back the values captured before the changes of %s\n' "$SCRIPT_HOST" "$STAMP"
        printf '# Run it as: ksh %s   (it runs the undo steps, newest first, and stops at the first failure)\n' "$(basename "$RB")"
        printf 'SCRIPT_HOST=%s\n' "$(q "$SCRIPT_HOST")"
        sed -n '/^# --- lparscope functions ---$/,/^# --- end of lparscope functions ---$/p' "$SELF"
        printf 'ROLLBACK_MODE=yes\nPRINT_ONLY=no\n'
        printf '[ "$(hostname 2>/dev/null | cut -d. -f1)" = "$SCRIPT_HOST" ] || die "this rollback is for $SCRIPT_HOST"\n'
        printf 'start_log\n'
        awk '{ line[NR] = $0 } END { for (i = NR; i > 0; i--) print line[i] }' "$RB_LINES"
        printf 'log "rollback done"\n'
    } > "$RB"
    chmod 700 "$RB"
    rm -f "$RB_LINES"
}
fail() {
    log "FAILED: $*"
    write_rollback
    [ -n "$RB" ] && [ "$ROLLBACK_MODE" = no ] && printf 'lparscope: stopped at the first failure; undo what was done with: ksh %s\n' "$RB" >&2
    exit 1
}

SESSION_IFS=""
SESSION_CHECKED=no
session_interfaces() {
    [ "$SESSION_CHECKED" = yes ] && return 0
    SESSION_CHECKED=yes
    addr=""
    if [ -n "${SSH_CONNECTION:-}" ]; then
        set -- $SSH_CONNECTION
        [ $# -ge 3 ] && addr=$3
    fi
    out=$(ifconfig -a 2>/dev/null) || { SESSION_IFS="?"; return 0; }
    if [ -n "$addr" ]; then
        SESSION_IFS=$(printf '%s\n' "$out" | awk -v ip="$addr" '
            /^[A-Za-z]/ { ifc = $1; sub(":", "", ifc) }
            ($1 == "inet" || $1 == "inet6") { a = $2; sub("/.*", "", a); sub("^addr:", "", a); if (a == ip) print ifc }')
    fi
    routes=$(netstat -rn 2>/dev/null) || { SESSION_IFS="?"; return 0; }
    dflt=$(printf '%s\n' "$routes" | awk '$1 == "default" || $1 == "0.0.0.0" {
            for (i = 3; i <= NF; i++) if ($i ~ /^[a-z]+[0-9]+$/) { print $i; break } }')
    SESSION_IFS="$SESSION_IFS $dflt"
}
carries_session() {  # $1: interface name
    session_interfaces
    case " $SESSION_IFS " in *" ? "*|*"?"*) return 0 ;; *" $1 "*) return 0 ;; esac
    return 1
}

current() {  # type object attribute
    case $1 in
        dev|cycle|sea|devboot) lsattr -El "$2" -a "$3" -F value 2>/dev/null ;;
        tun) "$2" -o "$3" 2>/dev/null | sed -n 's/^.*= *//p' ;;
        tunboot) "$2" -r -o "$3" 2>/dev/null | sed -n 's/^.*= *//p' ;;
        *) return 1 ;;
    esac
}
set_value() {  # type object attribute value interface
    case $1 in
        dev|sea) chdev -l "$2" -a "$3=$4" ;;
        devboot) chdev -l "$2" -a "$3=$4" -P ;;
        cycle)
            chdev -l "$5" -a state=detach || return 1
            chdev -l "$2" -a "$3=$4" || { chdev -l "$5" -a state=up; return 1; }
            chdev -l "$5" -a state=up ;;
        tun) "$2" -p -o "$3=$4" ;;
        tunboot) "$2" -r -o "$3=$4" ;;
        *) return 1 ;;
    esac
}
show() {  # the command a change runs, for the printout
    case $1 in
        dev|sea) printf 'chdev -l %s -a %s=%s' "$2" "$3" "$4" ;;
        devboot) printf 'chdev -l %s -a %s=%s -P' "$2" "$3" "$4" ;;
        cycle) printf 'chdev -l %s -a state=detach; chdev -l %s -a %s=%s; chdev -l %s -a state=up' "$5" "$2" "$3" "$4" "$5" ;;
        tun) printf '%s -p -o %s=%s' "$2" "$3" "$4" ;;
        tunboot) printf '%s -r -o %s=%s' "$2" "$3" "$4" ;;
    esac
}

# change ID TYPE OBJECT ATTRIBUTE TARGET INTERFACE
change() {
    id=$1 type=$2 obj=$3 attr=$4 want=$5 ifc=${6:-}
    if [ "$ROLLBACK_MODE" = no ] && ! selected "$id"; then
        printf '  %-40s %s\n' "$id" "$(show "$type" "$obj" "$attr" "$want" "$ifc")"
        return 0
    fi
    is_name "$obj" && is_name "$attr" && is_value "$want" || fail "$id: refused, a name or value is not plain"
    [ -z "$ifc" ] || is_name "$ifc" || fail "$id: refused, interface name is not plain"
    case $type in
        cycle)
            carries_session "$ifc" && fail "$id: refused: $ifc carries this session's address or the default route (or that cannot be checked); make this change from the console (HMC vterm)" ;;
        sea)
            [ "$FAILOVER_DONE" = yes ] || fail "$id: refused: an SEA / EtherChannel change on a VIOS needs the traffic failed over to the partner VIOS first; then run again with --failover-done"
            [ -n "$ifc" ] && carries_session "$ifc" && fail "$id: refused: $ifc carries this session's address or the default route" ;;
        dev)
            case $attr in state|mode|mtu|netaddr|alias4)
                carries_session "${ifc:-$obj}" && fail "$id: refused: ${ifc:-$obj} carries this session's address or the default route" ;;
            esac ;;
    esac
    now=$(current "$type" "$obj" "$attr") || fail "$id: cannot read $obj $attr"
    [ -n "$now" ] || fail "$id: cannot read $obj $attr"
    if same "$now" "$want"; then
        log "$id: $obj $attr is already $want: nothing to do"
        return 0
    fi
    log "$id: $obj $attr was $now, setting $want"
    if [ "$ROLLBACK_MODE" = no ]; then
        printf 'change %s %s %s %s %s %s\n' "$(q "$id")" "$(q "$type")" "$(q "$obj")" "$(q "$attr")" "$(q "$now")" "$(q "$ifc")" >> "$RB_LINES"
    fi
    set_value "$type" "$obj" "$attr" "$want" "$ifc" || fail "$id: $(show "$type" "$obj" "$attr" "$want" "$ifc")"
    case $type in tunboot) return 0 ;; esac
    got=$(current "$type" "$obj" "$attr")
    same "$got" "$want" || fail "$id: $obj $attr reads $got after the change, not $want"
    log "$id: done"
}
# --- end of lparscope functions ---
'''

HOST_MAIN_START = r'''
SELF=$0
THIS_HOST=$(hostname 2>/dev/null | cut -d. -f1)
if [ "$PRINT_ONLY" = yes ]; then
    printf 'lparscope plan for %s (nothing is changed; run with --apply ID[,ID] to make changes):\n' "$SCRIPT_HOST"
else
    [ "$THIS_HOST" = "$SCRIPT_HOST" ] || die "this script is for $SCRIPT_HOST, this host is $THIS_HOST"
    for id in $(printf '%s' "$APPLY_IDS" | tr ',' ' '); do
        case " $KNOWN_IDS " in *" $id "*) ;; *) die "unknown change id: $id" ;; esac
    done
    start_log
fi
'''

HOST_MAIN_END = r'''
if [ "$PRINT_ONLY" = no ]; then
    write_rollback
    if [ -n "$RB" ]; then log "all selected changes done; undo with: ksh $RB"; else log "nothing changed"; fi
fi
'''


def q(text: object) -> str:
    """Single-quote a word for ksh / sh (names and values come from untrusted input)."""
    return "'" + str(text).replace("'", "'\\''") + "'"


def comment(text: object) -> str:
    """A one-line shell comment (whitespace, newlines included, folded to single spaces)."""
    return "# " + " ".join(str(text).split())


def change_comments(c: dict, head: str) -> list[str]:
    """The comment block of one change in a script: what, why (every proposal), what first, notes."""
    out = [comment(f"  {c['id']}: {head}")]
    for r in c.get("reasons", []):
        out.append(comment(f"      because {r['rule_id']} on {r['host']} ({r['subject']}) proposed {r['proposed']}"
                           + ("" if r["chosen"] else " [not chosen]")))
    out += [comment(f"      first: {p}") for p in c.get("prerequisites", [])]
    out += [comment(f"      needs: {n}") for n in c.get("needs", [])]
    out += [comment(f"      note: {n}") for n in c.get("notes", [])]
    return out
