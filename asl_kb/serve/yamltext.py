"""A position's YAML text and its tree (what the browser edits), both ways.

The tree is the loader's: mappings, lists and strings exactly as written
(loader.read_tree). Writing it back keeps the text the position was opened
from when the tree has not changed (a file opened and saved is
byte-identical); else it is the canonical YAML below, which the loader reads
back into the same tree.
"""

from __future__ import annotations

import yaml
from yaml.nodes import ScalarNode

from asl_kb.errors import PositionError
from asl_kb.position.loader import read_tree

#: nesting of a tree sent by the browser (the schema nests 5 deep)
MAX_DEPTH = 32


class _Dumper(yaml.CSafeDumper):
    """Block style at the top, flow style for lists and mappings of scalars
    (as the bundled positions write units, terrain and LOS pairs)."""


def _str(dumper: _Dumper, text: str):
    # The loader keeps every scalar as a string, so a string is written
    # plain whenever its plain form reads back as the same string: "1",
    # "on" and "4-4-7" stay unquoted (tagged with what a YAML 1.1 reader
    # would take them for, which makes the emitter leave them plain).
    tag = dumper.resolve(ScalarNode, text, (True, False))
    if text == "" or tag == "tag:yaml.org,2002:null":
        tag = "tag:yaml.org,2002:str"  # written quoted: read back as the string
    style = "|" if "\n" in text.rstrip("\n") else None
    return dumper.represent_scalar(tag, text, style=style)


_Dumper.add_representer(str, _str)


def _plain(node):
    """The loader's tree (str, list and dict subclasses with line marks) as
    plain str, list and dict (the loader bounds its depth)."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return None if node is None else str(node)


def check_tree(tree, path: str = "") -> None:
    """A tree from the browser: JSON objects, arrays and strings only (the
    loader's own tree), not nested too deep. ValueError if not."""
    stack = [(tree, 0, path)]
    while stack:
        node, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"{where or 'position'}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, dict):
            for k, v in node.items():
                stack.append((v, depth + 1, f"{where}.{k}" if where else k))
        elif isinstance(node, list):
            stack.extend((v, depth + 1, f"{where}[{i}]") for i, v in enumerate(node))
        elif not isinstance(node, str):
            raise ValueError(
                f"{where or 'position'}: expected a string, a list or a mapping, got {type(node).__name__}"
            )


def to_text(tree, original: str | None = None, filename: str = "position.yaml") -> str:
    """The YAML of `tree`: `original` itself when it reads as the same tree,
    else canonical YAML."""
    if original is not None:
        try:
            if _plain(read_tree(original, filename)) == tree:
                return original
        except PositionError:
            pass
    return yaml.dump(tree, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)


def to_tree(text: str, filename: str = "position.yaml"):
    """The tree of a position's text (an empty mapping for an empty text);
    PositionError if the text is not YAML or not a mapping."""
    tree = _plain(read_tree(text, filename))
    if tree is None or tree == "":
        return {}
    if not isinstance(tree, dict):
        raise PositionError(filename, None, None, "expected a mapping with name, attacker, units, ...")
    return tree
