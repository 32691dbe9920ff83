"""Where a change can be seen: what a search without `--scope` must give
when the vocabulary read near the changed clauses gives too little.

bounds.py reads a vocabulary off the clauses near the changed ones (two
steps). Some changes are seen only through what the rules read further
back: A20.4's escaped victim (`penalised/2` under `escaped_unprotected`) is
penalised only where a Massacre may be made, which needs a fire phase and
an Unarmed victim, read four and five steps back. Where no vocabulary of
the ladder lets the changed clauses reach an outcome (bounds.seen_through:
an over-approximation, so "cannot" is shown, never guessed), each is
widened with what the change needs, worked out one input at a time:

1. the phases: each phase of the position format in which the changed
   clauses may reach an outcome with every other input any value; the
   vocabulary's phases become those (no position of another phase can
   tell the rule sets apart);
2. then, where that is not enough, each unit word the rules read (a
   status, a unit type, a nationality, a class) that alone lets them, in
   those phases; where no word does, each header input (No Quarter,
   Mopping Up, Close Combat, fire effects, a Massacre made, ELR, Guards
   with prisoners) that alone does.

A vocabulary some change is seen in is left as it is; one still not seen
after both steps too (it is passed over, and the search says what the
clauses need).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from asl_kb.committee import bounds as B, reach
from asl_kb.position.loader import PHASES

#: the unit inputs a word of a vocabulary names (defined.lp name -> the word's key)
_WORD = {"status": "status", "unit_type": "type", "nationality": "nationality", "uclass": "class"}


def seen(folder: str, start: list, v: B.Vocabulary, phase: bool = False) -> bool:
    """Whether the changed clauses `start` may reach an outcome in some
    position of a two-unit bound of the vocabulary `v`."""
    given = B.given_by(B.Bound(2, 0, 0, v), folder, phase)
    return B.seen_through(folder, start, given) is not None


def phases_seen(folder: str, start: list, phase: bool = False) -> tuple[str, ...]:
    """The phases of the position format in which the changed clauses may
    reach an outcome, every other input any value."""
    anything = {(n, a): (None,) * a for n, a, _ in reach.inputs(Path(folder))}
    return tuple(
        p for p in PHASES if B.seen_through(folder, start, {**anything, ("phase", 1): (frozenset([p]),)}) is not None
    )


def _words(folder: str, v: B.Vocabulary) -> list[tuple[str, str]]:
    """The unit words the rules read that `v` does not hold, in the order read."""
    out = []
    for (name, arity), constants in reach.read_constants(folder).items():
        if name in _WORD and arity == 2:
            for shown in constants:
                word = (_WORD[name], reach.split_fact(shown)[1][1])
                if word not in v.words and (word[0] != "type" or word[1] in B.COUNTERS):
                    out.append(word)
    return out


def _with_word(given: dict, word: tuple[str, str]) -> dict:
    """`given` with a unit of the word too (more than a kind of it gives,
    never less: the kinds the loader refuses are not left out)."""
    name = next(n for n, key in _WORD.items() if key == word[0])
    was = given.get((name, 2), (None, frozenset()))
    return {**given, (name, 2): (None, was[1] | {word[1]}) if was[1] is not None else was}


def _header(v: B.Vocabulary) -> list[B.Vocabulary]:
    """`v` with one more header input, or Guards with prisoners, each in turn."""
    out = [
        dataclasses.replace(v, header=v.header + (k,)) for k in dict.fromkeys(B.HEADER.values()) if k not in v.header
    ]
    return out + ([dataclasses.replace(v, guard=True)] if not v.guard else [])


def _in_phases(v: B.Vocabulary, phases: tuple[str, ...]) -> B.Vocabulary:
    """`v` in the phases of it the change may be seen in, else in those."""
    return dataclasses.replace(v, phases=tuple(p for p in v.phases if p in phases) or phases)


def needed(folder: str, start: list, v: B.Vocabulary, phase: bool = False) -> B.Vocabulary:
    """What `v` must hold more for the change to be seen (module doc, step
    2): a vocabulary of the words, header inputs and Guards each of which
    alone lets it; empty when none does."""
    given = B.given_by(B.Bound(2, 0, 0, v), folder, phase)
    words = tuple(w for w in _words(folder, v) if B.seen_through(folder, start, _with_word(given, w)) is not None)
    # (a header input, a Guard's prisoner, only where no word alone will do)
    more = [] if words else [c for c in _header(v) if seen(folder, start, c, phase)]
    return B.Vocabulary(
        words=words,
        header=tuple(dict.fromkeys(x for c in more for x in c.header if x not in v.header)),
        guard=any(c.guard and not v.guard for c in more),
        phases=(),
    )


def _with(v: B.Vocabulary, more: B.Vocabulary) -> B.Vocabulary:
    return dataclasses.replace(
        v,
        words=v.words + tuple(x for x in more.words if x not in v.words),
        header=v.header + tuple(x for x in more.header if x not in v.header),
        guard=v.guard or more.guard,
    )


def where_seen(folder: str, start: list, vocab: dict[int, B.Vocabulary]) -> dict[int, B.Vocabulary]:
    """The ladder's vocabularies (by depth), each widened (module doc)
    where none of them lets the changed clauses be seen; else as they are.
    What the narrowest needs is read once and given to each (a deeper
    vocabulary holds the narrower's words)."""
    if not start or any(seen(folder, start, v) for v in vocab.values()):
        return vocab
    phases = phases_seen(folder, start)
    if not phases:
        return vocab
    staged = {d: _in_phases(v, phases) for d, v in vocab.items()}
    narrowest = staged[min(staged)]
    more = B.Vocabulary() if seen(folder, start, narrowest) else needed(folder, start, narrowest)
    if not (more.words or more.header or more.guard) and not seen(folder, start, narrowest):
        return vocab
    return {d: v if seen(folder, start, v) else _with(v, more) for d, v in staged.items()}
