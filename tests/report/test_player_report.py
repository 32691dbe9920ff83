"""What a player posts and asks (issue 30): the report's picture has a
caption (position, unit, fate in words, odds), labels drawn over the
counters, a legend entry for every terrain drawn, concealed enemy units as
`?` counters; its "Rules cited" are sentences, not file names; `why-not`
says how a legal rout is made; counts past 2^53 are also strings."""

import json
import re
from pathlib import Path

import jsonschema

import _runs
from asl_kb.engines.why_not import why_not
from asl_kb.model.phase import MAX_SAFE_INTEGER, WholePhase
from asl_kb.position.loader import load_position
from asl_kb.report import html as report
from asl_kb.resources import cases_dir, docs_dir

ODDS = cases_dir() / "rout" / "A10.53-odds.yaml"
CONCEALED = cases_dir() / "rout" / "A10.533-EX1.yaml"


def _page(path, fate=None, every_route=False):
    position = load_position(path)
    r = _runs.outcomes(position)
    return position, r, report.to_html(r, position, fate=fate, every_route=every_route)


def test_caption_names_position_unit_fate_and_odds():
    position, r, text = _page(ODDS, fate=("R1", 1), every_route=True)  # (every route captioned)
    u = r.units[0]
    n = next(k for k, f in enumerate(u.fates, 1) if f.kind == "rout" and f.odds and f.odds.nmcs)
    f = u.fates[n - 1]
    captions = re.findall(
        r'<g class="overlay-labels" data-for="([^"]+)">\n<text class="caption"[^>]*>([^<]*)</text>'
        r'(?:<text class="caption odds"[^>]*>([^<]*)</text>)?',
        text,
    )
    assert len(captions) == sum(len(x.fates) for x in r.units)
    mine = [c for c in captions if c[1].startswith(f"{u.id} ") and f", fate {n}: rout to {f.at}" in c[1]]
    assert len(mine) == 1
    assert f"{f.odds.intact}/{f.odds.of}" in mine[0][2]
    assert f">{position.name}</text>" in text


def test_labels_are_drawn_over_the_counters_and_the_legend_names_every_terrain():
    position, r, text = _page(Path(__file__).resolve().parents[1] / "data" / "player-stack-in-the-open.yaml")
    assert text.index('<g id="units">') < text.index('<g id="labels">')
    legend = text[text.index('<div class="legend">') :]
    legend = legend[: legend.index("</div>")]
    drawn = set(re.findall(r'<polygon class="hex t-([a-z_]+)"', text))
    assert drawn >= {"open", "woods", "building"}
    for t in drawn:
        assert t.replace("_", " ") in legend


def test_concealed_units_show_as_question_marks():
    position, r, text = _page(CONCEALED)
    hidden = [u for u in position.units if "concealed" in u.status]
    assert hidden
    for u in hidden:
        g = re.search(rf'<g class="counter[^"]*" data-unit="{u.id}".*?</g>\n', text, flags=re.S).group(0)
        assert re.search(r'<text class="values"[^>]*>\?</text>', g)
        assert u.counter not in re.sub(r"<title>.*?</title>", "", g)  # its values: only in the tooltip
        assert u.counter in re.search(r"<title>(.*?)</title>", g).group(1)


def test_rules_cited_are_sentences_not_files():
    position, r, text = _page(ODDS)
    rules = text[text.index('<section class="rules"') :]
    rules = rules[: rules.index("</section>")]
    assert ".lp" not in rules and "_" not in re.sub(r'id="[^"]*"', "", rules)
    says = {b.says for u in r.units for f in u.fates for b in f.because if b.rule == "A10.53"}
    assert any(s.split(":")[0] in rules for s in says)


def test_why_not_says_the_manner_and_the_route():
    position = load_position(cases_dir() / "rout" / "A10.531-EX.yaml")
    crawl, step = (
        why_not(position, {"unit": "RJ2", "fate": "rout", "at": "J1"}),
        why_not(position, {"unit": "RJ2", "fate": "rout", "at": "J0"}),
    )
    assert crawl["legal"] and crawl["manner"] == "low_crawl_only" and crawl["route"]["low_crawl"]
    assert step["legal"] and step["manner"] == "no_low_crawl"
    assert step["route"]["fate"] == step["fates"][0] and step["route"]["interdiction"]
    assert step["route"]["odds"]["nmcs"] == len(step["route"]["interdiction"])


def test_counts_past_javascripts_safe_integers_are_also_strings():
    schema = json.loads((docs_dir() / "output.schema.json").read_text())
    big = WholePhase(
        count=3**160, independent=[], voluntary_rout=[], outcomes=[], assumes=[], combinations=MAX_SAFE_INTEGER + 1
    )
    small = WholePhase(
        count=MAX_SAFE_INTEGER, independent=[], voluntary_rout=[], outcomes=[], assumes=[], combinations=5
    )
    j = big.to_json()
    assert j["count_string"] == str(3**160) and j["combinations_string"] == str(MAX_SAFE_INTEGER + 1)
    assert "count_string" not in small.to_json() and "combinations_string" not in small.to_json()
    sub = {"$ref": "#/$defs/phase", "$defs": schema["$defs"]}
    jsonschema.validate(j, sub)
