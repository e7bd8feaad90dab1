"""The HMC fix script: the plan's partition and profile changes, run over ssh (POSIX sh).

``sh fix-hmc.sh --hmc hscroot@hmc1`` prints; ``--apply ID[,ID]`` makes those changes. A DLPAR
change reads the running value (``lshwres``) and moves it by the difference, so a second run
finds it in place; the profile value is read (``lssyscfg -r prof``) and set with ``chsyscfg``.
Both old values go to the log and to a rollback script. The remote command is built from words
that were checked (names, numbers) and each is single-quoted for the HMC's shell. A change
whose managed system or profile the inputs did not name carries a placeholder: it is printed,
never run.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from .. import __version__
from ..model.change import DLPAR_ATTRS, HMC_NAME, MS, MTMS_NAME, PROFILE, RUNNING_FIELD, fmt_value
from .fixscript_lib import SHELL_COMMON, change_comments, comment, q

HMC_LIB = r'''
# --- lparscope functions ---
set -u
umask 077
PRINT_ONLY=yes
APPLY_IDS=""
HMC=""
LOGDIR=.
ROLLBACK_MODE=no

usage() {
    cat <<'USAGE'
Usage: sh SCRIPT [--hmc USER@HMC]                  print the changes and commands; change nothing
       sh SCRIPT --hmc USER@HMC --apply ID[,ID...]  make only the changes named, over ssh
                 [--logdir DIR]                     where the log and the rollback script go
Profile changes apply when the partition is next activated from its profile: shut it down and
activate it yourself, one VIOS of a pair at a time. This script never restarts a partition.
USAGE
}
die() { printf 'lparscope: %s\n' "$*" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --hmc) [ $# -ge 2 ] || die "--hmc needs USER@HMC"; HMC=$2; shift 2 ;;
        --apply) [ $# -ge 2 ] || die "--apply needs a list of change ids"; APPLY_IDS=$2; PRINT_ONLY=no; shift 2 ;;
        --apply=*) APPLY_IDS=${1#--apply=}; PRINT_ONLY=no; shift ;;
        --logdir) [ $# -ge 2 ] || die "--logdir needs a folder"; LOGDIR=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
case $APPLY_IDS in *[!A-Za-z0-9_.,-]*) die "change ids are letters, digits, '.', '_', '-' separated by commas" ;; esac
case $HMC in -*|*[!A-Za-z0-9_.@-]*) die "--hmc takes USER@HOST (letters, digits, . _ - @)" ;; esac

''' + SHELL_COMMON + r'''hmc() { ssh -o BatchMode=yes -- "$HMC" "$1"; }
# a managed system: its name, or its machine type, model and serial (9009-42A*7812C4X), which -m takes as well
is_frame() {
    is_hmc_name "$1" && return 0
    case $1 in [0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]-[0-9A-Z][0-9A-Z][0-9A-Z]\*?*) ;; *) return 1 ;; esac
    case ${1#*\*} in *[!0-9A-Z]*) return 1 ;; *) return 0 ;; esac
}
shown_frame() { case $1 in *\**) q "$1" ;; *) shown "$1" ;; esac; }

STAMP=$(date +%Y%m%d-%H%M%S)-$$
LOG=""
RB=""
RB_LINES=""
start_log() {
    [ -n "$LOG" ] && return 0
    [ -d "$LOGDIR" ] || die "no folder $LOGDIR"
    if [ "$ROLLBACK_MODE" = yes ]; then
        LOG=$LOGDIR/lparscope-undo-hmc-$STAMP.log; : > "$LOG" || die "cannot write in $LOGDIR"; return 0
    fi
    LOG=$LOGDIR/lparscope-hmc-$STAMP.log
    RB=$LOGDIR/lparscope-rollback-hmc-$STAMP.sh
    RB_LINES=$RB.lines
    : > "$LOG" && : > "$RB_LINES" || die "cannot write in $LOGDIR"
}
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$LOG"; }
write_rollback() {
    [ -n "$RB" ] && [ "$ROLLBACK_MODE" = no ] || return 0
    if [ ! -s "$RB_LINES" ]; then rm -f "$RB_LINES"; RB=""; return 0; fi
    {
        printf '#!/bin/sh\n# lparscope rollback of the HMC changes of %s: puts back the values captured before them\n' "$STAMP"
        printf '# Run it as: sh %s --hmc USER@HMC   (newest first; stops at the first failure)\n' "$(basename "$RB")"
        sed -n '/^# --- lparscope functions ---$/,/^# --- end of lparscope functions ---$/p' "$SELF"
        printf 'ROLLBACK_MODE=yes\nPRINT_ONLY=no\n[ -n "$HMC" ] || die "give --hmc USER@HMC"\nstart_log\n'
        awk '{ line[NR] = $0 } END { for (i = NR; i > 0; i--) print line[i] }' "$RB_LINES"
        printf 'log "rollback done"\n'
    } > "$RB"
    chmod 700 "$RB"
    rm -f "$RB_LINES"
}
fail() {
    log "FAILED: $*"
    write_rollback
    [ -n "$RB" ] && [ "$ROLLBACK_MODE" = no ] && printf 'lparscope: stopped at the first failure; undo what was done with: sh %s --hmc %s\n' "$RB" "$HMC" >&2
    exit 1
}

# an HMC name as the printed plan shows it: in double quotes when it is not a plain word
shown() { case $1 in *[!A-Za-z0-9_.-]*) printf '"%s"' "$1" ;; *) printf '%s' "$1" ;; esac; }
# an HMC name (partition, profile, managed system): may hold spaces and brackets, always passed quoted
is_hmc_name() {
    case $1 in [A-Za-z0-9]*) ;; *) return 1 ;; esac
    case $1 in *' ') return 1 ;; *[!A-Za-z0-9' '_.\(\)#@+-]*) return 1 ;; esac
    return 0
}
running_value() {  # frame lpar resource field
    hmc "lshwres -r $3 -m $(q "$1") --level lpar --filter $(q "lpar_names=$2") -F $4"
}
profile_value() {  # frame lpar profile attribute
    hmc "lssyscfg -r prof -m $(q "$1") --filter $(q "lpar_names=$2,profile_names=$3") -F $4"
}

# set_running ID FRAME LPAR ATTRIBUTE TARGET RESOURCE FLAG FIELD FORMAT
set_running() {
    id=$1 f=$2 l=$3 attr=$4 want=$5 res=$6 flag=$7 field=$8 fmt=$9
    is_frame "$f" && is_hmc_name "$l" && is_name "$attr" && is_value "$want" && is_name "$field" || fail "$id: refused, a name or value is not plain"
    now=$(running_value "$f" "$l" "$res" "$field") || fail "$id: cannot read $field of $l on $f"
    is_value "$now" || fail "$id: $field of $l reads '$now'"
    if same "$now" "$want"; then log "$id: $l $field is already $want"; return 0; fi
    log "$id: $l $field was $now, setting $want (DLPAR)"
    [ "$ROLLBACK_MODE" = no ] && printf 'set_running %s %s %s %s %s %s %s %s %s\n' "$(q "$id")" "$(q "$f")" "$(q "$l")" \
        "$(q "$attr")" "$(q "$now")" "$(q "$res")" "$(q "$flag")" "$(q "$field")" "$(q "$fmt")" >> "$RB_LINES"
    if [ "$flag" = "-a" ]; then
        cmd="chhwres -m $(q "$f") -r $res -o s -p $(q "$l") -a $(q "$attr=$want")"
    else
        op=$(awk -v a="$want" -v b="$now" 'BEGIN { print (a > b) ? "a" : "r" }')
        delta=$(awk -v a="$want" -v b="$now" -v f="$fmt" 'BEGIN { d = a - b; if (d < 0) d = -d; printf f, d }')
        cmd="chhwres -m $(q "$f") -r $res -o $op -p $(q "$l") $flag $delta"
    fi
    hmc "$cmd" || fail "$id: $cmd"
    got=$(running_value "$f" "$l" "$res" "$field")
    same "$got" "$want" || fail "$id: $l $field reads $got after the change, not $want"
    log "$id: running value done"
}

# set_profile ID FRAME LPAR PROFILE ATTRIBUTE TARGET
set_profile() {
    id=$1 f=$2 l=$3 p=$4 attr=$5 want=$6
    is_frame "$f" && is_hmc_name "$l" && is_hmc_name "$p" && is_name "$attr" && is_value "$want" || fail "$id: refused, a name or value is not plain"
    now=$(profile_value "$f" "$l" "$p" "$attr") || fail "$id: cannot read $attr of profile $p of $l"
    is_value "$now" || fail "$id: $attr of profile $p reads '$now'"
    if same "$now" "$want"; then log "$id: profile $p of $l already has $attr=$want"; return 0; fi
    log "$id: profile $p of $l had $attr=$now, setting $want"
    [ "$ROLLBACK_MODE" = no ] && printf 'set_profile %s %s %s %s %s %s\n' "$(q "$id")" "$(q "$f")" "$(q "$l")" "$(q "$p")" \
        "$(q "$attr")" "$(q "$now")" >> "$RB_LINES"
    cmd="chsyscfg -r prof -m $(q "$f") -i $(q "name=$p,lpar_name=$l,$attr=$want")"
    hmc "$cmd" || fail "$id: $cmd"
    got=$(profile_value "$f" "$l" "$p" "$attr")
    same "$got" "$want" || fail "$id: profile $attr reads $got after the change, not $want"
    log "$id: profile done"
}

# set_profile_together IDS FRAME LPAR PROFILE PAIRS (attr=value,...: one chsyscfg, the HMC checks the profile once)
set_profile_together() {
    ids=$1 f=$2 l=$3 p=$4 pairs=$5 old=""
    is_frame "$f" && is_hmc_name "$l" && is_hmc_name "$p" || fail "$ids: refused, a name is not plain"
    for pair in $(printf '%s' "$pairs" | tr ',' ' '); do
        attr=${pair%%=*} want=${pair#*=}
        is_name "$attr" && is_value "$want" || fail "$ids: refused, a name or value is not plain"
        now=$(profile_value "$f" "$l" "$p" "$attr") || fail "$ids: cannot read $attr of profile $p of $l"
        is_value "$now" || fail "$ids: $attr of profile $p reads '$now'"
        old="${old:+$old,}$attr=$now"
    done
    if [ "$old" = "$pairs" ]; then log "$ids: profile $p of $l already has $pairs"; return 0; fi
    log "$ids: profile $p of $l had $old, setting $pairs in one command"
    [ "$ROLLBACK_MODE" = no ] && printf 'set_profile_together %s %s %s %s %s\n' "$(q "$ids")" "$(q "$f")" "$(q "$l")" \
        "$(q "$p")" "$(q "$old")" >> "$RB_LINES"
    cmd="chsyscfg -r prof -m $(q "$f") -i $(q "name=$p,lpar_name=$l,$pairs")"
    hmc "$cmd" || fail "$ids: $cmd"
    for pair in $(printf '%s' "$pairs" | tr ',' ' '); do
        got=$(profile_value "$f" "$l" "$p" "${pair%%=*}")
        same "$got" "${pair#*=}" || fail "$ids: profile ${pair%%=*} reads $got after the change, not ${pair#*=}"
    done
    log "$ids: profile done"
}

# change_together IDS FRAME LPAR PROFILE PAIRS: changes made in one command, applied all or none
change_together() {
    n=0 m=0
    for id in $1; do n=$((n + 1)); if selected "$id"; then m=$((m + 1)); fi; done
    if [ "$m" -eq 0 ]; then
        printf '  %-34s chsyscfg -r prof -m %s -i "name=%s,lpar_name=%s,%s"\n' "$1" "$(shown_frame "$2")" "$4" "$3" "$5"
        return 0
    fi
    [ "$m" -eq "$n" ] || fail "$1: these changes are made in one command: apply them together (--apply $(printf '%s' "$1" | tr ' ' ','))"
    is_frame "$2" || fail "$1: the managed-system name is not in the inputs ($2): give the HMC outputs of the frame"
    is_hmc_name "$4" || fail "$1: the profile name is not in the inputs ($4): give lssyscfg -r lpar output"
    set_profile_together "$1" "$2" "$3" "$4" "$5"
}

# change ID METHOD FRAME LPAR PROFILE ATTRIBUTE TARGET RESOURCE FLAG FIELD FORMAT
change() {
    if ! selected "$1"; then
        if [ "$2" = dlpar ]; then
            printf '  %-34s chhwres -m %s -r %s -p %s (%s to %s), then chsyscfg -r prof %s=%s in %s\n' "$1" "$(shown_frame "$3")" "$8" "$(shown "$4")" "${10}" "$7" "$6" "$7" "$(shown "$5")"
        else
            printf '  %-34s chsyscfg -r prof -m %s -i "name=%s,lpar_name=%s,%s=%s"\n' "$1" "$(shown_frame "$3")" "$5" "$4" "$6" "$7"
        fi
        return 0
    fi
    is_frame "$3" || fail "$1: the managed-system name is not in the inputs ($3): give the HMC outputs of the frame"
    is_hmc_name "$5" || fail "$1: the profile name is not in the inputs ($5): give lssyscfg -r lpar output"
    [ "$2" = dlpar ] && set_running "$1" "$3" "$4" "$6" "$7" "$8" "$9" "${10}" "${11}"
    set_profile "$1" "$3" "$4" "$5" "$6" "$7"
}
# --- end of lparscope functions ---
SELF=$0
if [ "$PRINT_ONLY" = yes ]; then
    printf 'lparscope HMC plan (nothing is changed; run with --hmc USER@HMC --apply ID[,ID] to make changes):\n'
else
    [ -n "$HMC" ] || die "give --hmc USER@HMC"
    for id in $(printf '%s' "$APPLY_IDS" | tr ',' ' '); do
        case " $KNOWN_IDS " in *" $id "*) ;; *) die "unknown change id: $id" ;; esac
    done
    start_log
fi
'''

_FORMAT = {"desired_proc_units": "%.2f"}


def hmc_changes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The planned HMC changes in the order they are made: by step, and in a step as the plan lists
    them (a maximum raised before the value that needs it, VPs cut before the EC they carry ...)."""
    within = {cid: n for st in plan.get("steps", []) for n, cid in enumerate(st.get("changes", []))}
    return sorted((c for c in plan.get("changes", [])
                   if c["status"] == "planned" and c["kind"] in ("partition", "profile")),
                  key=lambda c: (c.get("step") or 0, within.get(c["id"], 0), c.get("partition") or "", c["attribute"]))


def _call(c: dict[str, Any]) -> list[str]:
    attr = c["attribute"]
    res, flag, _fmt = DLPAR_ATTRS.get(attr, ("proc", "-a", ""))
    if not flag.startswith("-"):
        flag = "-a"
    method = "dlpar" if c["method"] == "dlpar" and attr in DLPAR_ATTRS else "profile"
    frame = c.get("frame") if c.get("frame") and (HMC_NAME.match(c["frame"]) or MTMS_NAME.match(c["frame"])) else MS
    profile = c.get("profile") if c.get("profile") and HMC_NAME.match(c["profile"]) else PROFILE
    return [c["id"], method, frame, c.get("partition") or c["object"], profile, attr,
            fmt_value(attr, c["target"]), res, flag, RUNNING_FIELD.get(attr, attr), _FORMAT.get(attr, "%d")]


def render_hmc_script(plan: dict[str, Any], now: datetime | None = None) -> str:
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    cs = hmc_changes(plan)
    steps = {s["number"]: s for s in plan.get("steps", [])}
    out = ["#!/bin/sh", f"# lparscope {__version__} HMC plan script, written {when}.",
           "# Run it where ssh reaches the HMC. Review every change first. See --help.", "#", "# Changes:"]
    for c in cs:
        out += change_comments(c, f"{c.get('partition')} on {c.get('frame') or MS} {c['attribute']} {c['current']} -> "
                                  f"{c['target']} ({c['method']}, disruption: {c['disruption']})")
    if not cs:
        out.append("#   (none)")
    out.append("KNOWN_IDS=" + q(" ".join(c["id"] for c in cs)))
    out.append(HMC_LIB)
    last = None
    for c in cs:
        if c.get("step") != last:
            last = c.get("step")
            s = steps.get(last or 0)
            if s:
                out.append(comment(f"step {s['number']} ({s['frame']}): {s['title']}"
                                    + (f"; after step {', '.join(map(str, s['after']))}" if s["after"] else "")))
                for chk in s.get("checks", []):
                    out.append(comment(f"check first: {chk}"))
        if c.get("together"):
            group = [x for x in cs if x["id"] in c["together"]]
            if c is group[0]:
                call = _call(c)
                pairs = ",".join(f"{x['attribute']}={fmt_value(x['attribute'], x['target'])}" for x in group)
                out.append("change_together " + " ".join(q(w) for w in (" ".join(x["id"] for x in group), call[2],
                                                                         call[3], call[4], pairs)))
            continue
        out.append("change " + " ".join(q(w) for w in _call(c)))
    out.append('if [ "$PRINT_ONLY" = no ]; then write_rollback; if [ -n "$RB" ]; then log "selected changes done; undo with: sh $RB --hmc $HMC"; else log "nothing changed"; fi; fi')
    return "\n".join(out) + "\n"
