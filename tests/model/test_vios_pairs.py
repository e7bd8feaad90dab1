"""VIOS pairs are found by grouping VIOS per client: the same pairs as comparing every pair, and fast."""

from __future__ import annotations

import random

from lparscope.model.estate import Estate
from lparscope.model.frame import Frame, FramePartition, VirtualSlot, vios_pairs


def _frame(n_vios: int, n_clients: int, per_client: int, seed: int) -> Frame:
    rnd = random.Random(seed)
    fr = Frame("big")
    for c in range(n_clients):
        fr.partitions[f"lpar{c}"] = FramePartition(f"lpar{c}", id=1000 + c, env="aixlinux")
    for v in range(n_vios):
        fr.partitions[f"vios{v}"] = FramePartition(f"vios{v}", id=1 + v, env="vioserver")
    for c in range(n_clients):
        for v in rnd.sample(range(n_vios), per_client):
            by_name = rnd.random() < 0.3  # some server adapters name their client instead of its id
            fr.partitions[f"vios{v}"].vscsi.append(VirtualSlot(
                "vscsi", 100 + c, "server", remote_id=None if by_name else 1000 + c,
                remote_name=f"lpar{c}" if by_name else None))
    return fr


def _all_pairs(fr: Frame) -> list[tuple[str, str]]:
    """The definition: every two VIOS that serve a common client, in VIOS order."""
    serves = {}
    for v in fr.vios:
        ids = set()
        for s in v.vscsi:
            ids.add(s.remote_id if s.remote_id is not None else fr.partitions[s.remote_name].id)
        serves[v.name] = ids
    names = [v.name for v in fr.vios]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if serves[a] & serves[b]]


def test_same_pairs_as_every_pair() -> None:
    for seed, (nv, nc, k) in enumerate([(2, 3, 2), (6, 20, 2), (12, 40, 3), (30, 5, 4)]):
        fr = _frame(nv, nc, k, seed)
        assert fr.vios[0].is_vios
        assert vios_pairs(Estate(), fr) == _all_pairs(fr)


def test_hundreds_of_vios_on_one_frame() -> None:
    fr = _frame(400, 2000, 2, 7)  # 400 VIOS, each client on a pair
    assert vios_pairs(Estate(), fr) == _all_pairs(fr)  # (speed: bench, not here)


def test_pair_candidates_are_every_pair_that_shares_a_client():
    """Grouping by client id and frame finds exactly the pairs a comparison of every two VIOS finds
    (a frame not known from the location code matches any frame)."""
    import random

    from lparscope.model.vios_pairs import _candidates, same_frame

    rnd = random.Random(3)
    for _ in range(500):
        ads = [{(rnd.choice([None, "9009-42A.78AB001", "9009-42A.78AB002"]), rnd.randint(1, 4))
                for _ in range(rnd.randint(0, 4))} for _ in range(rnd.randint(0, 8))]
        every = [(i, j) for i in range(len(ads)) for j in range(i + 1, len(ads))
                 if any(same_frame(x, y) for x in ads[i] for y in ads[j])]
        found = [(i, j) for i, j in _candidates(ads) if any(same_frame(x, y) for x in ads[i] for y in ads[j])]
        assert found == every
