"""What of the article's Examples 2-6 the case files cannot say (the
examples themselves are cases: facts/rout/article-Ex2.yaml ... Ex4.yaml,
facts/phase/article-Ex6.yaml):

* board geometry the Ex2 reconstruction stands on (Python computes it);
* Ex6's two destination options where the unit begins: `dest_option/3` is an
  internal predicate of the rout program, not part of the result model.
"""

from asl_kb.board import hexgrid
from asl_kb.position.loader import load_position
from conftest import FACTS

EX6 = FACTS / "phase/article-Ex6.yaml"


def test_ex2_geometry():
    """EE8 -> FF7 -> GG7; FF8 is not next to GG7."""
    assert hexgrid.adjacent("EE8", "FF7") and hexgrid.adjacent("FF7", "GG7")
    assert not hexgrid.adjacent("FF8", "GG7")


def test_ex6_bb5_and_cc5_are_both_destination_options_where_it_begins():
    """ "Each Location is 5 MFs away and the 4-6-7 must choose between them":
    both are destination options where it begins (dest_option/3, A10.51)."""
    from asl_kb.asp.facts import position_facts
    from asl_kb.asp.solve import solve

    symbols, _ = solve(position_facts(load_position(EX6)) + "#show dest_option/3.")
    options = {str(x.arguments[2]) for x in symbols if x.name == "dest_option" and x.arguments[0].number == 0}
    assert options == {'c(loc("BB5",0))', 'c(loc("CC5",0))'}
