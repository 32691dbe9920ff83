"""asl_kb/report/jsontext.py writes the very text of json.dumps(indent=2,
ensure_ascii=False): every kind of value, key and nesting the standard
encoder knows, and a bundled position's answer."""

from __future__ import annotations

import enum
import json

import pytest

from asl_kb.report.jsontext import indented


class _Count(enum.IntEnum):
    TWO = 2


VALUES = [
    {},
    [],
    (),
    "",
    0,
    -7,
    10**30,
    1.5,
    -0.0,
    1e300,
    float("nan"),
    float("inf"),
    -float("inf"),
    True,
    False,
    None,
    _Count.TWO,
    'é ü — \u2028 \x00 \x1f " \\ \n \t / [ ] { } , :',
    {"a": [1, [2, [3, {}]], ()], "b": {"c": {"d": []}}, "": ""},
    {1: "int", 2.5: "float", False: "false", None: "null", "s": [{}, [], [[]]]},
    [{"rule": "A10.5", "odds": {"chance": "1/1", "percent": 100.0}}, ("H7", "G7")],
    [
        [
            [
                [
                    [
                        [
                            [
                                [
                                    [
                                        [
                                            [
                                                [
                                                    [
                                                        [
                                                            [
                                                                [
                                                                    [
                                                                        [
                                                                            [
                                                                                [
                                                                                    [
                                                                                        [
                                                                                            [
                                                                                                [
                                                                                                    [
                                                                                                        [
                                                                                                            [
                                                                                                                [
                                                                                                                    [
                                                                                                                        [
                                                                                                                            [
                                                                                                                                [
                                                                                                                                    [
                                                                                                                                        [
                                                                                                                                            [
                                                                                                                                                [
                                                                                                                                                    [
                                                                                                                                                        [
                                                                                                                                                            [
                                                                                                                                                                [
                                                                                                                                                                    [
                                                                                                                                                                        [
                                                                                                                                                                            [
                                                                                                                                                                                [
                                                                                                                                                                                    [
                                                                                                                                                                                        [
                                                                                                                                                                                            [
                                                                                                                                                                                                [
                                                                                                                                                                                                    [
                                                                                                                                                                                                        [
                                                                                                                                                                                                            [
                                                                                                                                                                                                                [
                                                                                                                                                                                                                    [
                                                                                                                                                                                                                        [
                                                                                                                                                                                                                            [
                                                                                                                                                                                                                                [
                                                                                                                                                                                                                                    [
                                                                                                                                                                                                                                        [
                                                                                                                                                                                                                                            [
                                                                                                                                                                                                                                                [
                                                                                                                                                                                                                                                    [
                                                                                                                                                                                                                                                        [
                                                                                                                                                                                                                                                            [
                                                                                                                                                                                                                                                                [
                                                                                                                                                                                                                                                                    [
                                                                                                                                                                                                                                                                        [
                                                                                                                                                                                                                                                                            [
                                                                                                                                                                                                                                                                                [
                                                                                                                                                                                                                                                                                    [
                                                                                                                                                                                                                                                                                        [
                                                                                                                                                                                                                                                                                            [
                                                                                                                                                                                                                                                                                                "deep"
                                                                                                                                                                                                                                                                                            ]
                                                                                                                                                                                                                                                                                        ]
                                                                                                                                                                                                                                                                                    ]
                                                                                                                                                                                                                                                                                ]
                                                                                                                                                                                                                                                                            ]
                                                                                                                                                                                                                                                                        ]
                                                                                                                                                                                                                                                                    ]
                                                                                                                                                                                                                                                                ]
                                                                                                                                                                                                                                                            ]
                                                                                                                                                                                                                                                        ]
                                                                                                                                                                                                                                                    ]
                                                                                                                                                                                                                                                ]
                                                                                                                                                                                                                                            ]
                                                                                                                                                                                                                                        ]
                                                                                                                                                                                                                                    ]
                                                                                                                                                                                                                                ]
                                                                                                                                                                                                                            ]
                                                                                                                                                                                                                        ]
                                                                                                                                                                                                                    ]
                                                                                                                                                                                                                ]
                                                                                                                                                                                                            ]
                                                                                                                                                                                                        ]
                                                                                                                                                                                                    ]
                                                                                                                                                                                                ]
                                                                                                                                                                                            ]
                                                                                                                                                                                        ]
                                                                                                                                                                                    ]
                                                                                                                                                                                ]
                                                                                                                                                                            ]
                                                                                                                                                                        ]
                                                                                                                                                                    ]
                                                                                                                                                                ]
                                                                                                                                                            ]
                                                                                                                                                        ]
                                                                                                                                                    ]
                                                                                                                                                ]
                                                                                                                                            ]
                                                                                                                                        ]
                                                                                                                                    ]
                                                                                                                                ]
                                                                                                                            ]
                                                                                                                        ]
                                                                                                                    ]
                                                                                                                ]
                                                                                                            ]
                                                                                                        ]
                                                                                                    ]
                                                                                                ]
                                                                                            ]
                                                                                        ]
                                                                                    ]
                                                                                ]
                                                                            ]
                                                                        ]
                                                                    ]
                                                                ]
                                                            ]
                                                        ]
                                                    ]
                                                ]
                                            ]
                                        ]
                                    ]
                                ]
                            ]
                        ]
                    ]
                ]
            ]
        ]
    ],
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_same_text_as_the_standard_encoder(value):
    assert indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_what_the_standard_encoder_refuses_it_refuses():
    with pytest.raises(TypeError):
        indented({"x": {1, 2}})
    with pytest.raises(TypeError):
        indented({(1, 2): "tuple key"})


def test_a_bundled_answer():
    from asl_kb.position.loader import load_position
    from tests._runs import outcomes

    answer = outcomes(load_position("facts/rout/A10.5-EX.yaml")).to_json()
    assert indented(answer) == json.dumps(answer, indent=2, ensure_ascii=False)


def test_a_written_part_is_put_in_at_its_depth():
    from asl_kb.report.jsontext import Written

    part = {"a": [1, {"b": "x\ny"}], "c": [], "d": {}}
    doc = {"top": [{"deep": part}], "at_top": part}
    text = json.dumps(part, indent=2, ensure_ascii=False)
    written = {"top": [{"deep": Written(text)}], "at_top": Written(text)}
    assert indented(written) == json.dumps(doc, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("name", ["A10.53-odds.yaml", "A10.53-odds-adjacent-pin.yaml", "A10.53-re-entry.yaml"])
def test_fates_written_by_orjson_are_the_same_text(monkeypatch, name):
    # a result past MANY_FATES has its fates written by orjson: the same text
    from asl_kb.position.loader import load_position
    from asl_kb.report import render
    from tests._runs import outcomes

    result = outcomes(load_position(f"facts/rout/{name}"))
    assert any(f.odds and f.odds.nmcs for u in result.units for f in u.fates)
    plain = render.to_json(result)
    monkeypatch.setattr(render, "MANY_FATES", 0)
    assert render.to_json(result) == plain == json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_what_orjson_writes_alike_it_writes_alike(value):
    # orjson_alike(v): orjson's indented text is json.dumps's, byte for byte
    import orjson
    from asl_kb.report.jsontext import orjson_alike

    if orjson_alike(value):
        assert orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() == json.dumps(
            value, indent=2, ensure_ascii=False
        )


@pytest.mark.parametrize(
    "value",
    [
        1e-05,
        1e16,
        float("nan"),
        float("inf"),
        10**30,
        -(2**64),
        {1: "int key"},
        _Count.TWO,
        [0.5, {"deep": [1e-7]}],
        ("x", {"y": float("-inf")}),
    ],
)
def test_what_orjson_writes_otherwise_is_not_alike(value):
    from asl_kb.report.jsontext import orjson_alike

    assert not orjson_alike(value)


def test_an_answer_of_many_fates_with_a_float_orjson_writes_otherwise(monkeypatch):
    # past MANY_FATES the whole answer is written by orjson only where the
    # rest of it (here a cut's timeout of 1e-05) is written alike; else the
    # fates alone are: the same text either way
    from asl_kb.record import replace
    from asl_kb.model import Cut
    from asl_kb.position.loader import load_position
    from asl_kb.report import render
    from tests._runs import outcomes

    result = outcomes(load_position("facts/rout/A10.53-odds.yaml"))
    monkeypatch.setattr(render, "MANY_FATES", 0)
    for timeout in (1e-05, 0.5):
        cut = replace(result, cut=Cut(timeout, "reading the fates", [], done=[u.id for u in result.units]))
        assert render.to_json(cut) == json.dumps(cut.to_json(), indent=2, ensure_ascii=False) + "\n"
