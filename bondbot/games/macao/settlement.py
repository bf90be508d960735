"""Settling a player's wager against the banker (macao.md, steps 3 and 6; the lost hand).

Each player's coup ends in a `Verdict`: whose hand won and by how many stakes (a natural's
multiple, else 1). Every wager is then paid from it: the own-hand wager wins or loses the
verdict's stakes, the banker's-hand wager exactly the opposite, and the tie wager wins
`tie_pays` stakes on a tie (equal naturals included) and loses one stake otherwise, while a
tie returns the two hand wagers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bondbot.games.macao.counting import HIGHEST_MULTIPLE, NATURAL_MULTIPLE, is_bust


class Target(StrEnum):
    """What a player wagers on."""

    OWN = "own"
    BANKER = "banker"
    TIE = "tie"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One player's coup against the banker: who won, by how many stakes."""

    winner: Winner
    multiple: int = 1


TIE = Verdict(Winner.TIE)


def natural_verdict(player: int | None, banker: int | None) -> Verdict | None:
    """The verdict of the naturals (7, 8, 9 or None); None when neither side has one.

    The higher natural is paid its own multiple; equal naturals are void (a tie).
    """
    if player is None and banker is None:
        return None
    p, b = player or 0, banker or 0
    if p > b:
        return Verdict(Winner.PLAYER, NATURAL_MULTIPLE[p])
    if b > p:
        return Verdict(Winner.BANKER, NATURAL_MULTIPLE[b])
    return TIE


def showdown_verdict(player: int, banker: int) -> Verdict:
    """Nearer to 9 wins. Under `bust` a player who busts loses even to a busted banker (he
    busted first and gave up his stake), and a busted banker pays everyone else."""
    if is_bust(player):
        return Verdict(Winner.BANKER)
    if is_bust(banker) or player > banker:
        return Verdict(Winner.PLAYER)
    if banker > player:
        return Verdict(Winner.BANKER)
    return TIE


def wager_net(target: Target, stake: int, verdict: Verdict, tie_pays: int) -> int:
    """What the player gains (+) or loses (−) on his wager, in cents."""
    if target is Target.TIE:
        return stake * tie_pays if verdict.winner is Winner.TIE else -stake
    if verdict.winner is Winner.TIE:
        return 0
    own = stake * verdict.multiple
    own = own if verdict.winner is Winner.PLAYER else -own
    return own if target is Target.OWN else -own


def max_loss(target: Target, stake: int) -> int:
    """The most a wager can cost the player: a hand wager can lose a natural 9's three."""
    return stake if target is Target.TIE else stake * HIGHEST_MULTIPLE


def max_win(target: Target, stake: int, tie_pays: int) -> int:
    """The most the banker can owe on a wager (what he must cover)."""
    return stake * tie_pays if target is Target.TIE else stake * HIGHEST_MULTIPLE


def won_back(target: Target, stake: int, net: int, natural: int | None, tie_pays: int) -> int:
    """What the NPC banker pays on a Hero Point spend for a lost wager: everything the
    wager lost, plus the win at 1:1, at the tie odds, or at the player's natural's
    multiple when he had one."""
    if net >= 0:
        raise ValueError("only a lost wager can be won back")
    if target is Target.TIE:
        win = stake * tie_pays
    else:
        win = stake * (NATURAL_MULTIPLE[natural] if natural is not None else 1)
    return -net + win
