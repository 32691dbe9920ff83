"""Two boards side by side: one position's report page under two rule sets
(`asl-kb report POSITION --to B`), with the outcomes that appear or vanish
listed beside them, each with its cause as `asl-kb diff` attributes it.

Each side is the report page of asl_kb/report/html.py (to_html), drawn from
that side's result (the one result model), embedded whole in an iframe's
srcdoc: the page stays one self-contained file, and each board keeps its own
ids and script. The changes come from committee/compare.py (the diff's own
reading of both results); a changed unit's counter and the Locations its
changed outcomes end in are marked on the side where they hold (vanished:
left, appeared: right). Nothing here decides a rules question.
"""

from __future__ import annotations

from asl_kb.report.html import environment, hex_of, to_html


def marks(entries: list[dict], units: set[str]) -> dict:
    """What a board marks of a list of changes (compare.py entries): the
    units they are about, and the hexes their outcomes end in."""
    return {
        "units": sorted({e["unit"] for e in entries} & units),
        "hexes": sorted({hex_of(e["at"]) for e in entries if e.get("at")}),
    }


def side(result, position, label: str, changed: list[dict], all_paths: bool) -> str:
    """One side's report page, headed by its rule set's label, with the
    changes that hold on this side marked."""
    r = dict(result.to_json(), rules=label)
    return to_html(r, position, all_paths=all_paths, marks=marks(changed, {u.id for u in position.units}))


def to_pair_html(position, left: tuple, right: tuple, diff: dict, all_paths: bool = False) -> str:
    """The page: `left`/`right` are (rule set, result): the rule sets a and
    b (committee/rulesets.py) and the results (model.Outcomes) of `position`
    under each (each position as its rule set runs it: a.apply/b.apply),
    `diff` their compare() (appeared: only under b, vanished: only under a)."""
    from asl_kb.committee.corpus import cause_text
    from asl_kb.committee.search import summary

    (a, left), (b, right) = left, right

    def cause(c: dict) -> dict:
        """A cause in words, with what it names: the switch or edited
        clause's rule id, the switch, the edited clause's FILE:LINE."""
        edit = c.get("edit")
        return {
            "text": cause_text(c),
            "rule": edit["rule"] if edit else c.get("rule", ""),
            "switch": c.get("switch", ""),
            "clause": f"{edit['file']}:{edit['line']}" if edit else "",
        }

    def rows(key):
        # (one row per unit, kind, destination and cause, the first route
        # listed and the others counted, as the boards draw each
        # destination's best route: every row is in `asl-kb diff --format json`)
        out: dict[tuple, dict] = {}
        for e in diff[key]:
            causes = [cause(c) for c in e["caused_by"]]
            at = hex_of(e["at"]) if e.get("at") else ""
            group = (e["unit"], e["kind"], at, *(c["text"] for c in causes)) if at else (len(out),)
            if group in out:
                out[group]["more"] += 1
            else:
                out[group] = {"unit": e["unit"], "outcome": e["outcome"], "at": at, "causes": causes, "more": 0}
        return list(out.values())

    complete = left.complete and right.complete and diff["complete"]
    why = sorted(
        set((left.incomplete_because or []) + (right.incomplete_because or []) + diff.get("incomplete_because", []))
    )
    return (
        environment()
        .get_template("pair.html.j2")
        .render(
            position=left.position,
            a=a.label,
            b=b.label,
            complete=complete,
            incomplete_because=why,
            appeared=rows("appeared"),
            vanished=rows("vanished"),
            said={key: summary(diff[key]) for key in ("appeared", "vanished")},
            fired=(diff["fired_only_in_from"], diff["fired_only_in_to"]),
            left=side(left, position, a.label, diff["vanished"], all_paths),
            right=side(right, position, b.label, diff["appeared"], all_paths),
        )
    )
