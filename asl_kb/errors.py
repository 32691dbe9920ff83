"""Exceptions raised by asl-kb.

Input problems are reported as one PositionError that points at the file,
line and key, so the CLI can print it as a single line instead of a traceback.
"""

from __future__ import annotations


class AslKbError(Exception):
    """Base class for every error asl-kb raises on purpose."""


class PositionError(AslKbError):
    """A problem in a position file.

    file    -- the file name as given by the caller
    line    -- 1-based line of the offending YAML node, or None
    key     -- dotted path of the offending key, e.g. "units[2].at", or None
    message -- what is wrong, in words
    """

    def __init__(self, file: str, line: int | None, key: str | None, message: str):
        self.file = file
        self.line = line
        self.key = key
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        parts = [where] + ([self.key] if self.key is not None else []) + [self.message]
        return ": ".join(parts)

    def __reduce__(self):
        # Keep the exception picklable despite the 4-argument constructor.
        return (type(self), (self.file, self.line, self.key, self.message))


class SaveError(PositionError):
    """A VASL saved game (.vsav) that cannot be read: `FILE: message`, exit 2
    like a position file's errors."""

    def __init__(self, file: str, message: str):
        super().__init__(file, None, None, message)

    def __reduce__(self):
        return (type(self), (self.file, self.message))


class RulesError(PositionError):
    """A rules folder that cannot be run (a file that is not UTF-8 text or
    does not parse, an unsafe variable, an #include that cannot be
    resolved, an atom that breaks the contract of docs/contract.md),
    printed FILE:LINE: KEY: message like a position's problems, with the
    file as the folder holds it."""


class NoAnswerSet(AslKbError):
    """A program of the rules in force has no answer set for the position:
    the shipped rules always give one, so a rules folder's clauses (a
    constraint that always fires, an edit that leaves a choice no model)
    rule out every outcome, this one included. Not bad input: the answer
    to the question is that there is none (exit 1)."""

    def __init__(self, rules: str, program: str):
        self.rules = rules
        self.program = program
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.rules}: no answer set under these rules ({self.program} has none for this position)"

    def __reduce__(self):
        return (type(self), (self.rules, self.program))
