"""UDP datagrams dropped because the receiving socket's buffer was full (netstat -s; rules-catalogue
NET-03, NET-02).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import propose, tunable_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .tcpip import global_no

UDP_RECVSPACE = 655360  # rules-catalogue NET-03: the value the Oracle guide uses (10 x udp_sendspace)
OVERFLOW_RATIO = threshold(
    "udp_sockbuf_overflow_ratio", 0.0001,
    "UDP socket buffer overflows per received datagram from which they are a warning (0.01 %; below it "
    "info). rules-catalogue NET-03 only says 'increasing'; netstat -s counts since boot: lparscope's margin")
# No source gives a floor (NET-03: 'increasing'; the seeds say nothing of UDP overflows): lparscope's
# own, configurable. Below one overflow per 100,000 datagrams since boot the drops are noise that the
# senders' retries absorb, and a plan change for them is not worth a restart of the receivers.
OVERFLOW_FLOOR = threshold(
    "udp_sockbuf_overflow_floor", 0.00001,
    "UDP socket buffer overflows per received datagram below which nothing is reported (0.001 %; no "
    "source gives a floor: rules-catalogue NET-03 only says 'increasing': lparscope's margin)")


@rule(
    id="NET-UDP-SOCKBUF-OVERFLOW",
    title="UDP datagrams dropped on full socket buffers",
    severity="warning",
    category="network",
    source="rules-catalogue NET-03, NET-02",
    rationale="""netstat -s counts, under udp, the datagrams that arrived for a socket whose receive buffer
    was full ('socket buffer overflows'); they are dropped without a word to the sender (NFS over UDP,
    DNS, SNMP, Oracle RAC interconnect traffic retransmit or time out). The catalogue's remedy is a larger
    udp_recvspace (655360, ten times udp_sendspace as the Oracle guide sets it), with sb_max at least
    twice the largest socket buffer; on NFS clients, more biods. When udp_recvspace is already that large,
    the application reads too slowly or sets its own smaller buffer: no tunable is proposed then.""",
)
def udp_sockbuf_overflow(host: Host, cfg: Config) -> Iterator[Finding]:
    src = host.protocol_stats
    if src is None:
        return
    s = src.record
    overflows = getattr(s, "udp_socket_buffer_overflows", None)
    if not overflows:
        return
    received = getattr(s, "udp_datagrams_received", None)
    ratio = overflows / received if received else None
    if ratio is not None and ratio < cfg.t(OVERFLOW_FLOOR):
        return
    level = None if ratio is None or ratio >= cfg.t(OVERFLOW_RATIO) else "info"
    full_ip = getattr(s, "ip_full_socket_buffer_drops", None)
    cur, cur_ev = global_no(host, "udp_recvspace")
    sb_max, sb_ev = global_no(host, "sb_max")
    evidence = [src.ev("udp_socket_buffer_overflows"), src.ev("udp_datagrams_received")]
    if full_ip:
        evidence.append(src.ev("ip_full_socket_buffer_drops"))
    evidence += [cur_ev, sb_ev]
    check = ["netstat -s -p udp | grep -i overflow   # compare again after a busy period: is it still growing?",
             "netstat -an -f inet | grep udp   # the UDP sockets; a Recv-Q near the buffer size is the one dropping"]
    if cur is not None and cur >= UDP_RECVSPACE:
        fix = Commands(root=check + [f"# udp_recvspace is already {cur}: find the application whose socket overflows "
                                     "(it may set a smaller SO_RCVBUF or read too slowly); on an NFS client add biods"])
        rollback = Commands()
    else:
        changes = [tunable_change(host, "no", "udp_recvspace", cur, UDP_RECVSPACE, basis="heuristic", note="rules-catalogue NET-03")]
        if sb_max is not None and sb_max < 2 * UDP_RECVSPACE:
            changes.append(tunable_change(host, "no", "sb_max", sb_max, 2 * UDP_RECVSPACE,
                                          basis="limit", note="rules-catalogue NET-02: sb_max at least twice the largest socket buffer"))
        notes = ["# -p: now and at every boot; applies to sockets opened from now on: restart the application "
                 "(or NFS mounts) that receives UDP"]
        if sb_max is None:
            notes.append(f"no -o sb_max   # must stay at least {2 * UDP_RECVSPACE} (twice udp_recvspace, NET-02)")
        if cur is None:
            notes.append("no -o udp_recvspace   # note the current value first, for the rollback")
        undo = [] if cur is not None else ["no -p -o udp_recvspace=<the value noted before the change>"]
        fix, rollback = propose(*changes, fix_notes=notes + check, undo_notes=undo)
    share = f" ({ratio:.3%} of {received} datagrams received)" if ratio is not None else ""
    yield finding(udp_sockbuf_overflow, host, "udp",
                  f"{host.name}: {overflows} UDP datagrams dropped on full socket buffers{share}"
                  + (f"; ip counts {full_ip} packets dropped due to the full socket receive buffer" if full_ip else "")
                  + (f"; udp_recvspace={cur}" if cur is not None else "") + ".",
                  evidence=evidence, fix=fix, rollback=rollback, severity=level,
                  values={"current": overflows, "suggested": 0, "datagrams_received": received if received is not None else "unknown",
                          "udp_recvspace": cur if cur is not None else "unknown"})
