"""Tables saved by the code before the baccarat-bank core (chemin de fer and deux tableaux
each with its own engine) resume: their states, taken mid-coup from that code, load on
today's engines, dump back to the same data, and play on."""

from __future__ import annotations

import json

import pytest

from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.contract import Engine, Move
from bondbot.games.deux_tableaux.engine import DeuxTableaux
from bondbot.rules.shoe import Shoe

# A classic chemin de fer coup waiting on the NPC banker, the last coup a natural.
CHEMIN_DE_FER = (
    '{"seats":["npc","4"],"npc":"npc","stacks":{"npc":null,"1":35,"2":2000,"3":0,"4":null'
    '},"hand":23,"history":[{"kind":"stake","seat":"4","amount":100,"target":null,"auto":'
    'null},{"kind":"deal","seat":null,"amount":null,"target":null,"auto":null}],"settings'
    '":{"drawing":"classic","commission":5,"packs":6,"min_stake":100,"min_bank":100,"npc_'
    'bank":50000,"max_bank":5000},"shoe":{"position":17,"cut":88,"seed":"9d9d9d9d9d9d9d9d'
    '9d9d9d9d9d9d9d9d","packs":2},"banker":"npc","bank":100,"required":null,"refused":[],'
    '"banco_suivi":null,"phase":"banker","calls":{"4":{"kind":"stake","amount":100}},"cou'
    'p":{"bank":100,"covers":[{"seat":"4","stake":100,"covered":100}],"holder":"4","banco'
    '":null,"ponte":["Jd","Tc","Ks"],"banker":["Qs","3c"]},"between_hands":false,"last":{'
    '"kind":"settled","seat":"npc","holder":"4","moves":[{"kind":"stake","seat":"4","amou'
    'nt":100,"target":null,"auto":null},{"kind":"deal","seat":null,"amount":null,"target"'
    ':null,"auto":null}],"ponte":["7d","Ad"],"banker":["Tc","2s"],"ponte_total":8,"banker'
    '_total":2,"natural":true,"winner":"ponte","results":[{"seat":"4","covered":100,"net"'
    ':100}],"commission":0,"bank":4900},"last_shown":true,"rounds_over":26}'
)
# A deux tableaux coup waiting on the NPC banker (the right tableau in play), the last coup
# decided on the left by a natural.
DEUX_TABLEAUX = (
    '{"seats":["npc","1","2","4"],"npc":"npc","stacks":{"npc":27588,"1":0,"2":95,"3":1781'
    '8,"4":16799},"hand":18,"history":[{"kind":"stake","seat":"4","amount":100,"target":"'
    'right","auto":null},{"kind":"deal","seat":null,"amount":null,"target":null,"auto":nu'
    'll}],"settings":{"packs":3,"min_stake":100,"min_bank":200,"npc_bank":3000,"max_bank"'
    ':null},"shoe":{"position":121,"cut":140,"seed":"18001800180018001800180018001800","p'
    'acks":3},"banker":"npc","bank":9234,"auction":null,"phase":"banker","stakes":{"right'
    '":{"4":100},"left":{}},"calls":{"4":"stake"},"banco_right":"open","banco_loser":null'
    ',"hand_at":{"right":"1","left":"2"},"coup":{"bank":9234,"banco":null,"hands":{"right'
    '":{"covers":[{"seat":"4","stake":100,"covered":100}],"holder":"4","cards":["Jh","Qs"'
    ',"Kh"],"winner":null,"done":true}},"banker":["8h","6c"],"waiting":null},"between_han'
    'ds":false,"last":{"kind":"settled","seat":"npc","moves":[{"kind":"pass","seat":"4","'
    'amount":null,"target":null,"auto":null},{"kind":"stake","seat":"3","amount":2934,"ta'
    'rget":"left","auto":null},{"kind":"deal","seat":null,"amount":null,"target":null,"au'
    'to":null}],"banker":["6h","3h"],"banker_total":9,"tables":[{"table":"left","cards":['
    '"Ad","6s"],"total":7,"natural":true,"winner":"banker","results":[{"seat":"3","covere'
    'd":2934,"net":-2934}]}],"bank":9234},"last_holders":{"left":"3"},"rounds_over":24}'
)
SAVED = [(ChemindeFer, CHEMIN_DE_FER), (DeuxTableaux, DEUX_TABLEAUX)]


@pytest.mark.parametrize(("game", "saved"), SAVED)
def test_a_saved_state_loads_and_dumps_the_same_data(game: type[Engine], saved: str) -> None:
    engine = game.model_validate_json(saved)
    assert json.loads(engine.model_dump_json()) == json.loads(saved)


@pytest.mark.parametrize(("game", "saved"), SAVED)
def test_a_new_table_saves_the_same_keys(game: type[Engine], saved: str) -> None:
    """Every key a saved state has, a state saved now has too, and no other."""
    old = json.loads(saved)
    if game is ChemindeFer:
        table = ChemindeFer.new(Shoe.stacked([]), ["npc", "1"], None, npc="npc")
    else:
        table = DeuxTableaux.new(Shoe.stacked([]), ["npc", "1"], npc="npc")
    new = json.loads(table.model_dump_json())
    assert set(new) == set(old)
    assert set(new["settings"]) == set(old["settings"])


@pytest.mark.parametrize(("game", "saved"), SAVED)
def test_a_saved_coup_plays_on_to_its_settlement(game: type[Engine], saved: str) -> None:
    engine = game.model_validate_json(saved)
    assert engine.turn() == ("npc",)
    record = engine.apply(Move(kind="stand", seat="npc"))
    assert record.hand_over and record.transfers
    assert engine.last is not None and engine.last.moves[-1] == Move(kind="stand", seat="npc")
